package tree

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// openFDs counts this process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	return len(ents)
}

// TestWalkHoldsFewDescriptors: a walk whose files nobody opens (relurl
// links, a caller keeping every File) holds at most handoffLen
// descriptors of them, and the directory it is in; one whose files are
// opened (Open takes the walk's) holds no more than one or two.
func TestWalkHoldsFewDescriptors(t *testing.T) {
	dir := t.TempDir()
	for i := range 120 {
		p := filepath.Join(dir, fmt.Sprintf("d%d", i%4), fmt.Sprintf("p%03d.html", i))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("<p>"), 0o644))
	}
	before := openFDs(t)
	most, n := 0, 0
	var kept []File
	for f, err := range Walk([]string{dir}) {
		require.NoError(t, err)
		require.NotNil(t, f.held)
		kept = append(kept, f)
		most = max(most, openFDs(t)-before)
		n++
	}
	assert.Equal(t, 120, n)
	assert.LessOrEqual(t, most, handoffLen+2, "descriptors held by a walk whose files are not opened")
	// The last ones wait for whoever takes them, or for the collector.
	data, err := ReadWalked(kept[len(kept)-1], 1<<10)
	require.NoError(t, err)
	assert.Equal(t, "<p>", string(data))

	before = openFDs(t)
	most = 0
	for f, err := range Walk([]string{dir}) {
		require.NoError(t, err)
		in, err := Open(f)
		require.NoError(t, err)
		most = max(most, openFDs(t)-before)
		in.Close()
	}
	assert.LessOrEqual(t, most, 3, "descriptors held by a walk whose files are opened")
}

// TestMirrorHoldsFewDirectories: a mirror of many directories holds at
// most openDirsMax of them open, and a document's directory is opened
// once for all its files (the count of openat is TestSyscallsPerFile's).
func TestMirrorHoldsFewDirectories(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	for i := range 60 {
		p := filepath.Join(in, fmt.Sprintf("d%02d", i%20), fmt.Sprintf("p%03d.html", i))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(`<a href="x.html">x</a>`), 0o644))
	}
	m, err := NewMapper("https://example.org/")
	require.NoError(t, err)
	r := &Rewriter{
		Mapper:  m,
		Options: whatwgOptions,
		Mirror:  filepath.Join(dir, "out"),
		Writer:  Writer{NoSync: true, KeepSame: true},
	}
	before := openFDs(t)
	most := 0
	for res := range r.All(Walk([]string{in}), 1) {
		require.NoError(t, res.Err)
		most = max(most, openFDs(t)-before)
	}
	assert.LessOrEqual(t, most, openDirsMax+handoffLen+2)
	r.dirs.mu.Lock()
	assert.LessOrEqual(t, len(r.dirs.held), openDirsMax)
	r.dirs.mu.Unlock()
	for i := range 60 {
		b, err := os.ReadFile(filepath.Join(dir, "out", fmt.Sprintf("d%02d", i%20), fmt.Sprintf("p%03d.html", i)))
		require.NoError(t, err)
		assert.Contains(t, string(b), fmt.Sprintf(`https://example.org/d%02d/x.html`, i%20))
	}
}

// TestMirrorDirSwapped: a mirror directory swapped for a link to outside
// the mirror while the run writes into it (its descriptor held, see
// openDirs) does not lead the next file's write there: removed, the
// write fails (no file is made in a removed directory); moved, the file
// goes where the directory went.
func TestMirrorDirSwapped(t *testing.T) {
	for _, move := range []bool{false, true} {
		dir, outside := t.TempDir(), t.TempDir()
		in := filepath.Join(dir, "in")
		writeTree(t, in, map[string]string{"d/a.html": `<a href="x">`, "d/b.html": `<a href="y">`})
		m, err := NewMapper("https://example.org/")
		require.NoError(t, err)
		out := filepath.Join(dir, "out")
		r := &Rewriter{Mapper: m, Options: whatwgOptions, Mirror: out, Writer: Writer{NoSync: true, KeepSame: true}, OnePerPlace: true}
		var files []File
		for f, err := range Walk([]string{in}) {
			require.NoError(t, err)
			files = append(files, f)
		}
		require.Len(t, files, 2)
		require.NoError(t, r.Rewrite(nil, files[0]).Err)
		require.FileExists(t, filepath.Join(out, "d", "a.html"))
		if move {
			require.NoError(t, os.Rename(filepath.Join(out, "d"), filepath.Join(out, "moved")))
		} else {
			require.NoError(t, os.RemoveAll(filepath.Join(out, "d")))
		}
		require.NoError(t, os.Symlink(outside, filepath.Join(out, "d")))
		res := r.Rewrite(nil, files[1])
		if move {
			require.NoError(t, res.Err)
			assert.FileExists(t, filepath.Join(out, "moved", "b.html"))
		} else {
			assert.Error(t, res.Err)
		}
		assert.Empty(t, names(t, outside), "move %v: nothing written through the link", move)
	}
}

func whatwgOptions(docURL string) extract.Options {
	return extract.Options{HTML: htmlrewrite.Options{
		Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: docURL}},
	}}
}

// TestFDReader: the walk's descriptor read as a document's reader does
// (Read to the end, Seek back, ReadAt, Seek from the end) gives what an
// *os.File gives, and leaves the descriptor's own offset at 0 (an MHTML
// archive's *os.File starts there).
func TestFDReader(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.html")
	data := make([]byte, 100_000)
	for i := range data {
		data[i] = byte('a' + i%26)
	}
	require.NoError(t, os.WriteFile(p, data, 0o644))
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	require.NoError(t, err)
	r := &fdReader{fd: fd, path: p, eof: -1}
	defer r.Close()
	got, err := io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, data, got)
	n, err := r.Read(make([]byte, 10))
	assert.Equal(t, 0, n)
	assert.Equal(t, io.EOF, err)
	off, err := r.Seek(-10, io.SeekEnd)
	require.NoError(t, err)
	assert.Equal(t, int64(len(data)-10), off)
	got, err = io.ReadAll(r)
	require.NoError(t, err)
	assert.Equal(t, data[len(data)-10:], got)
	_, err = r.Seek(5, io.SeekStart)
	require.NoError(t, err)
	buf := make([]byte, 7)
	_, err = io.ReadFull(r, buf)
	require.NoError(t, err)
	assert.Equal(t, data[5:12], buf)
	n, err = r.ReadAt(buf, int64(len(data)-3))
	assert.Equal(t, 3, n)
	assert.Equal(t, io.EOF, err)
	_, err = r.Seek(-1, io.SeekStart)
	assert.Error(t, err)
	cur, err := unix.Seek(fd, 0, io.SeekCurrent)
	require.NoError(t, err)
	assert.Equal(t, int64(0), cur)
}
