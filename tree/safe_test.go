package tree

import (
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/safewrite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tempPrefix, hostID and tempNameOf make the names package safewrite
// gives its temporary files (see its tempname.go), for the walk's tests.
const tempPrefix = ".relurl-"

var hostID = func() string {
	name, _ := os.Hostname()
	h := fnv.New32a()
	h.Write([]byte(name))
	return hex.EncodeToString(h.Sum(nil))
}()

func tempNameOf(host string, pid int, start time.Time) string {
	return fmt.Sprintf("%s%s-%d-%s-0a0b0c0d.tmp", tempPrefix, host, pid, strconv.FormatInt(start.UnixNano(), 16))
}

// TestRemoveStaleTemp: a walk that removes stale temporary files removes
// those of a dead writer of this host that started before the run, and
// never a live writer's, another host's, a newer one's, or an unknown name.
func TestRemoveStaleTemp(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("dead processes are not proven on Windows")
	}
	// A process that has ended: its ID is free (and, for the few
	// moments of this test, almost surely not reused).
	dead := exec.Command(os.Args[0], "-test.run=^$")
	require.NoError(t, dead.Run())
	deadPID := dead.Process.Pid
	// A live process of this host: the test's parent.
	livePID := os.Getppid()
	old := time.Now().Add(-time.Hour)
	name := tempNameOf
	dir := t.TempDir()
	stale := []string{name(hostID, deadPID, old), "sub/" + name(hostID, deadPID, old)}
	kept := []string{
		name(hostID, livePID, old),                       // alive
		name("00000000", deadPID, old),                   // another host
		name(hostID, deadPID, time.Now().Add(time.Hour)), // started after this run
		tempPrefix + "123456.tmp",                        // the old naming: unprovable
	}
	files := map[string]string{"sub/a.html": "<p>"}
	for _, n := range append(append([]string{}, stale...), kept...) {
		files[n] = "partial"
	}
	testkit.WriteTree(t, dir, files)
	for n := range files {
		require.NoError(t, os.Chtimes(filepath.Join(dir, n), old, old))
	}
	var removed []string
	w := Walker{RemoveStale: true, Removed: func(p string, err error) {
		require.NoError(t, err)
		removed = append(removed, filepath.ToSlash(strings.TrimPrefix(p, dir+string(filepath.Separator))))
	}}
	var walked []string
	for f, err := range w.Walk([]string{dir}) {
		require.NoError(t, err)
		walked = append(walked, f.Rel)
	}
	assert.Equal(t, []string{"sub/a.html"}, walked)
	assert.ElementsMatch(t, stale, removed)
	for _, n := range stale {
		assert.NoFileExists(t, filepath.Join(dir, n))
	}
	for _, n := range kept {
		assert.FileExists(t, filepath.Join(dir, n))
	}
	// A file modified since the run started is a live writer's even
	// when its name says otherwise.
	fresh := filepath.Join(dir, name(hostID, deadPID, old))
	require.NoError(t, os.WriteFile(fresh, nil, 0o600))
	for range w.Walk([]string{dir}) {
	}
	assert.FileExists(t, fresh)
	// Walk alone removes nothing.
	require.NoError(t, os.Chtimes(fresh, old, old))
	for range Walk([]string{dir}) {
	}
	assert.FileExists(t, fresh)
}

// TestJSONName: any byte string survives the JSON file field: valid
// UTF-8 as it is, otherwise percent-decoding the field gives it back.
func TestJSONName(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		escaped  bool
	}{
		{"site/a.html", "site/a.html", false},
		{"site/100%.html", "site/100%.html", false},
		{"café/é.html", "café/é.html", false},
		{"a\nb.html", "a\nb.html", false},
		{"bad/\xff%.html", "bad/%FF%25.html", true},
		{"lat\xe9n/caf\xe9 é.html", "lat%E9n/caf%E9 é.html", true},
		{"\xc3", "%C3", true},
	} {
		got, escaped := JSONName(tc.in)
		assert.Equal(t, tc.want, got, "%q", tc.in)
		assert.Equal(t, tc.escaped, escaped, "%q", tc.in)
		if escaped {
			back, err := url.PathUnescape(got)
			require.NoError(t, err)
			assert.Equal(t, tc.in, back, "round trip")
		}
	}
}

func TestDisplayName(t *testing.T) {
	assert.Equal(t, "site/a b.html", DisplayName("site/a b.html"))
	assert.Equal(t, `"a\nb.html"`, DisplayName("a\nb.html"))
	assert.Equal(t, `"\x1b[31m.html"`, DisplayName("\x1b[31m.html"))
	assert.Equal(t, `"\xff.html"`, DisplayName("\xff.html"))
	assert.Equal(t, `"a\u0085.html"`, DisplayName("a\u0085.html"))
}

// TestOpenWalked: a file swapped for a link (to a secret outside the
// tree) since the walk is not read, nor copied into a mirror.
func TestOpenWalked(t *testing.T) {
	dir, outside, mirror := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"sub/a.html": "tree"})
	testkit.WriteTree(t, outside, map[string]string{"a.html": "secret", "sub/a.html": "secret"})
	f := walkFile(t, dir, "sub/a.html")
	data, err := ReadWalked(f, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, "tree", string(data))
	testkit.SwapFile(t, dir, outside)
	_, err = ReadWalked(f, 1<<20)
	assert.ErrorIs(t, err, safewrite.ErrSymlink)
	assert.ErrorIs(t, CopyWalked(safewrite.Writer{}, mirror, "sub/a.html", f), safewrite.ErrSymlink)
	assert.NoFileExists(t, filepath.Join(mirror, "sub", "a.html"))

	dir = t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"sub/a.html": "tree"})
	f = walkFile(t, dir, "sub/a.html")
	testkit.SwapDir(t, dir, outside)
	readSwapped(t, f, safewrite.ErrSymlink)

	// At the top of the tree (opened in one call, O_NOFOLLOW): a link
	// swapped in for the file is not followed, a dangling one neither;
	// a root named through a link is the user's choice.
	dir = t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"a.html": "tree"})
	f = walkFile(t, dir, "a.html")
	require.NoError(t, os.Remove(filepath.Join(dir, "a.html")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "a.html"), filepath.Join(dir, "a.html")))
	readSwapped(t, f, safewrite.ErrSymlink)
	require.NoError(t, os.Remove(filepath.Join(dir, "a.html")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "none.html"), filepath.Join(dir, "a.html")))
	_, err = ReadWalked(f, 1<<20)
	assert.ErrorIs(t, err, safewrite.ErrSymlink)
	require.NoError(t, os.Remove(filepath.Join(dir, "a.html")))
	_, err = ReadWalked(f, 1<<20)
	assert.ErrorIs(t, err, fs.ErrNotExist)
	linked := filepath.Join(t.TempDir(), "root")
	require.NoError(t, os.Symlink(outside, linked))
	f = walkFile(t, linked, "a.html")
	data, err = ReadWalked(f, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, "secret", string(data))

	// Another regular file in its place: not the one the walk saw.
	dir = t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"a.html": "tree", "b.html": "other"})
	f = walkFile(t, dir, "a.html")
	require.NoError(t, os.Rename(filepath.Join(dir, "b.html"), filepath.Join(dir, "a.html")))
	readSwapped(t, f, safewrite.ErrChanged)
}

// readSwapped reads the walked file f, whose name now leads elsewhere:
// through the descriptor the walk opened it with, when the walk still
// holds it (heldFD), that is the file the walk saw, never what was
// swapped in; opened again (the walk's descriptor taken), it fails with
// want.
func readSwapped(t *testing.T, f File, want error) {
	t.Helper()
	if runtime.GOOS == "linux" {
		require.NotNil(t, f.held, "the walk holds the file's descriptor")
		data, err := ReadWalked(f, 1<<20)
		require.NoError(t, err)
		assert.Equal(t, "tree", string(data))
	}
	_, err := ReadWalked(f, 1<<20)
	assert.ErrorIs(t, err, want)
}

// TestCleanMirror: Clean removes a dead writer's temporary files from a
// directory without reading its files.
func TestCleanMirror(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("dead processes are not proven on Windows")
	}
	dead := exec.Command(os.Args[0], "-test.run=^$")
	require.NoError(t, dead.Run())
	old := time.Now().Add(-time.Hour)
	name := tempNameOf(hostID, dead.Process.Pid, old)
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"d/" + name: "partial", "d/a.html": "<p>"})
	require.NoError(t, os.Chtimes(filepath.Join(dir, "d", name), old, old))
	var removed []string
	Walker{RemoveStale: true, Removed: func(p string, err error) { removed = append(removed, p) }}.Clean(dir)
	assert.Equal(t, []string{filepath.Join(dir, "d", name)}, removed)
	assert.Equal(t, []string{"a.html"}, testkit.Names(t, filepath.Join(dir, "d")))
}
func walkFile(t *testing.T, dir, rel string) File {
	t.Helper()
	for f, err := range Walk([]string{dir}) {
		require.NoError(t, err)
		if f.Rel == rel {
			return f
		}
	}
	t.Fatalf("walk of %s found no %s", dir, rel)
	return File{}
}
