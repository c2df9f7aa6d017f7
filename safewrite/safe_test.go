package safewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// walkFile returns the file rel of the tree at dir as a walk finds it:
// its place in the tree and what it is now (a walk's fstat, here an
// lstat: the same device and inode).
func walkFile(t *testing.T, dir, rel string) File {
	t.Helper()
	info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
	require.NoError(t, err)
	require.True(t, info.Mode().IsRegular(), "%s is no regular file", rel)
	return File{Path: filepath.Join(dir, filepath.FromSlash(rel)), Root: dir, Rel: rel, Info: info}
}

func appendNew(old []byte) ([]byte, error) { return append(old, " new"...), nil }

// updaters are the two ways of replacing a walked file, each given the
// same change of its content: Update (read whole) and UpdateStream (the
// old content read and the new one written in small pieces, interleaved).
var updaters = []struct {
	name   string
	update func(w Writer, f File, fn func([]byte) ([]byte, error)) (bool, error)
}{
	{"whole", func(w Writer, f File, fn func([]byte) ([]byte, error)) (bool, error) {
		return w.Update(f, 1<<20, fn)
	}},
	{"stream", func(w Writer, f File, fn func([]byte) ([]byte, error)) (bool, error) {
		return w.UpdateStream(f, func(dst io.Writer, src io.Reader) error {
			return streamed(dst, src, fn)
		})
	}},
}

// streamed writes fn(old) to dst while it reads old from src, two bytes
// at a time: each byte of the new content is written as soon as the old
// content read so far decides it (fn's output for the prefix read, up to
// where it stops agreeing with fn's output for the whole).
func streamed(dst io.Writer, src io.Reader, fn func([]byte) ([]byte, error)) error {
	var old []byte
	buf := make([]byte, 2)
	written := 0
	for {
		n, err := src.Read(buf)
		old = append(old, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		// What fn makes of the prefix read so far, as far as it is
		// a prefix of the old content too, is surely settled.
		part, ferr := fn(old)
		if ferr != nil {
			return ferr
		}
		settled := 0
		for settled < len(part) && settled < len(old) && part[settled] == old[settled] {
			settled++
		}
		if settled > written {
			if _, err := dst.Write(part[written:settled]); err != nil {
				return err
			}
			written = settled
		}
	}
	all, err := fn(old)
	if err != nil {
		return err
	}
	if !bytes.HasPrefix(all, old[:written]) {
		return errors.New("streamed: fn rewrote what was already written")
	}
	_, err = dst.Write(all[written:])
	return err
}

// TestUpdateSymlinkRace makes a symlink-swap race deterministic: between
// the walk and the write, the file (or a directory above it) is swapped
// for a symbolic link to a file outside the tree. The write must not reach
// that file, and must say why it skipped.
func TestUpdateSymlinkRace(t *testing.T) {
	for _, tc := range []struct {
		name string
		// swap replaces part of the tree at dir with a link to outside.
		swap func(tb testing.TB, dir, outside string)
		when string // "walk": after the walk; "write": after the read, before the write
		want error
	}{
		{"file before read", testkit.SwapFile, "walk", ErrSymlink},
		{"directory before read", testkit.SwapDir, "walk", ErrSymlink},
		{"file before write", testkit.SwapFile, "write", ErrSymlink},
		{"directory before write", testkit.SwapDir, "write", nil},
	} {
		for _, u := range updaters {
			t.Run(u.name+"/"+tc.name, func(t *testing.T) {
				dir, outside := t.TempDir(), t.TempDir()
				testkit.WriteTree(t, dir, map[string]string{"sub/a.html": "tree"})
				testkit.WriteTree(t, outside, map[string]string{"a.html": "outside", "sub/a.html": "outside"})
				f := walkFile(t, dir, "sub/a.html")
				if tc.when == "walk" {
					tc.swap(t, dir, outside)
				} else {
					testHookBeforeWrite = func(File) { tc.swap(t, dir, outside) }
					t.Cleanup(func() { testHookBeforeWrite = nil })
				}
				_, err := u.update(Writer{}, f, appendNew)
				if tc.want != nil {
					assert.ErrorIs(t, err, tc.want)
				}
				for _, p := range []string{"a.html", "sub/a.html"} {
					data, err := os.ReadFile(filepath.Join(outside, p))
					require.NoError(t, err)
					assert.Equal(t, "outside", string(data), "%s outside the tree is untouched", p)
				}
				assertNoTemp(t, dir)
				assertNoTemp(t, outside)
			})
		}
	}
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), tempPrefix) {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

// TestUpdateReplacedFile: a different regular file in the walked file's
// place (a hard link to a file elsewhere, say) is not written.
func TestUpdateReplacedFile(t *testing.T) {
	for _, u := range updaters {
		t.Run(u.name, func(t *testing.T) {
			dir := t.TempDir()
			testkit.WriteTree(t, dir, map[string]string{"a.html": "tree", "other": "other"})
			f := walkFile(t, dir, "a.html")
			require.NoError(t, os.Rename(filepath.Join(dir, "other"), filepath.Join(dir, "a.html")))
			_, err := u.update(Writer{}, f, appendNew)
			assert.ErrorIs(t, err, ErrChanged)
			data, _ := os.ReadFile(filepath.Join(dir, "a.html"))
			assert.Equal(t, "other", string(data))
			assertNoTemp(t, dir)
		})
	}
}

// TestWriteInSymlink: a mirror's writes do not follow a link planted in
// the mirror, as a directory or as the file.
func TestWriteInSymlink(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, outside, map[string]string{"a.html": "outside"})
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "d")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "a.html"), filepath.Join(dir, "a.html")))
	assert.ErrorIs(t, Writer{}.WriteIn(dir, "d/a.html", []byte("x"), 0o644), ErrSymlink)
	assert.ErrorIs(t, Writer{}.WriteIn(dir, "a.html", []byte("x"), 0o644), ErrSymlink)
	assert.ErrorIs(t, Writer{}.WriteIn(dir, "d/new/b.html", []byte("x"), 0o644), ErrSymlink)
	assert.Error(t, Writer{}.WriteIn(dir, "../x.html", []byte("x"), 0o644))
	data, _ := os.ReadFile(filepath.Join(outside, "a.html"))
	assert.Equal(t, "outside", string(data))
	assert.Equal(t, []string{"a.html"}, testkit.Names(t, outside))
	// New directories are made.
	require.NoError(t, Writer{}.WriteIn(dir, "x/y/z.html", []byte("z"), 0o640))
	data, _ = os.ReadFile(filepath.Join(dir, "x", "y", "z.html"))
	assert.Equal(t, "z", string(data))
}

func TestUpdateHardLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("hard links are detected on Unix only")
	}
	for _, tc := range []struct {
		mode                HardLinks
		wantErr             error
		wantFile, wantOther string
	}{
		{SkipHardLinks, ErrHardLink, "old", "old"},
		{KeepHardLinks, nil, "old new", "old new"},
		{SplitHardLinks, nil, "old new", "old"},
	} {
		for _, u := range updaters {
			t.Run(u.name+"/"+tc.mode.String(), func(t *testing.T) {
				dir := t.TempDir()
				testkit.WriteTree(t, dir, map[string]string{"a.html": "old"})
				require.NoError(t, os.Link(filepath.Join(dir, "a.html"), filepath.Join(dir, "b.html")))
				f := walkFile(t, dir, "a.html")
				before, _ := os.Stat(filepath.Join(dir, "a.html"))
				changed, err := u.update(Writer{HardLinks: tc.mode}, f, appendNew)
				if tc.wantErr != nil {
					assert.ErrorIs(t, err, tc.wantErr)
					assert.Contains(t, err.Error(), "a.html")
				} else {
					require.NoError(t, err)
					assert.True(t, changed)
				}
				a, _ := os.ReadFile(filepath.Join(dir, "a.html"))
				b, _ := os.ReadFile(filepath.Join(dir, "b.html"))
				assert.Equal(t, tc.wantFile, string(a))
				assert.Equal(t, tc.wantOther, string(b))
				after, _ := os.Stat(filepath.Join(dir, "a.html"))
				assert.Equal(t, tc.mode != SplitHardLinks, os.SameFile(before, after), "same inode")
				assertNoTemp(t, dir)
			})
		}
	}
	for _, u := range updaters {
		// Shorter new content through the inode: no old bytes remain.
		dir := t.TempDir()
		testkit.WriteTree(t, dir, map[string]string{"a.html": "a long old content"})
		require.NoError(t, os.Link(filepath.Join(dir, "a.html"), filepath.Join(dir, "b.html")))
		_, err := u.update(Writer{HardLinks: KeepHardLinks}, walkFile(t, dir, "a.html"), func([]byte) ([]byte, error) { return []byte("short"), nil })
		require.NoError(t, err)
		b, _ := os.ReadFile(filepath.Join(dir, "b.html"))
		assert.Equal(t, "short", string(b), u.name)
		assertNoTemp(t, dir)
	}
}

// TestRemoveStaleTemp: RemoveStale removes the temporary files of a dead
// writer of this host that started before the run, and never a live
// writer's, another host's, a newer one's, or an unknown name.
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
	old := runStart.Add(-time.Hour)
	name := func(host string, pid int, start time.Time) string {
		return fmt.Sprintf("%s%s-%d-%s-0a0b0c0d.tmp", tempPrefix, host, pid, strconv.FormatInt(start.UnixNano(), 16))
	}
	dir := t.TempDir()
	stale := []string{name(hostID, deadPID, old), "sub/" + name(hostID, deadPID, old)}
	kept := []string{
		name(hostID, livePID, old),                     // alive
		name("00000000", deadPID, old),                 // another host
		name(hostID, deadPID, runStart.Add(time.Hour)), // started after this run
		tempPrefix + "123456.tmp",                      // the old naming: unprovable
		tempName(),                                     // this run's own
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
	removeStale := func() {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			require.NoError(t, err)
			if d.Type().IsRegular() && IsTemp(d.Name()) {
				info, err := d.Info()
				require.NoError(t, err)
				rel, _ := filepath.Rel(dir, p)
				stale, err := RemoveStale(dir, filepath.ToSlash(rel), info)
				require.NoError(t, err)
				if stale {
					removed = append(removed, filepath.ToSlash(rel))
				}
			}
			return nil
		})
	}
	removeStale()
	assert.ElementsMatch(t, stale, removed)
	for _, n := range stale {
		assert.NoFileExists(t, filepath.Join(dir, n))
	}
	for _, n := range kept {
		assert.FileExists(t, filepath.Join(dir, n))
	}
	assert.FileExists(t, filepath.Join(dir, "sub/a.html"))
	// A file modified since the run started is a live writer's even
	// when its name says otherwise.
	fresh := filepath.Join(dir, name(hostID, deadPID, old))
	require.NoError(t, os.WriteFile(fresh, nil, 0o600))
	removeStale()
	assert.FileExists(t, fresh)
}

func TestTempNameIdentity(t *testing.T) {
	w, ok := parseTempName(tempName())
	require.True(t, ok)
	assert.Equal(t, tempWriter{host: hostID, pid: os.Getpid(), start: time.Unix(0, runStart.UnixNano())}, w)
	for _, bad := range []string{".relurl-x.tmp", ".relurl-a-b-c-d.tmp", "a-1-2-3.tmp", ".relurl-a-0-1-d.tmp"} {
		_, ok := parseTempName(bad)
		assert.False(t, ok, bad)
	}
}
