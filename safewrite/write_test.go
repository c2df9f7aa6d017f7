package safewrite

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteFileKeepsMode(t *testing.T) {
	for _, u := range updaters {
		dir := t.TempDir()
		p := filepath.Join(dir, "a.html")
		require.NoError(t, os.WriteFile(p, []byte("old"), 0o600))
		require.NoError(t, os.Chmod(p, 0o751))
		changed, err := u.update(Writer{}, File{Path: p}, appendNew)
		require.NoError(t, err)
		assert.True(t, changed)
		info, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, fs.FileMode(0o751), info.Mode().Perm(), u.name)
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, "old new", string(data), u.name)
		assert.Equal(t, []string{"a.html"}, testkit.Names(t, dir), "no temporary file is left")
	}
}

func TestUpdateUnchangedIsNotWritten(t *testing.T) {
	for _, u := range updaters {
		dir := t.TempDir()
		p := filepath.Join(dir, "a.html")
		require.NoError(t, os.WriteFile(p, []byte("same"), 0o644))
		old := time.Now().Add(-time.Hour).Truncate(time.Second)
		require.NoError(t, os.Chtimes(p, old, old))
		before, err := os.Stat(p)
		require.NoError(t, err)
		changed, err := u.update(Writer{}, File{Path: p}, func(old []byte) ([]byte, error) { return []byte("same"), nil })
		require.NoError(t, err)
		assert.False(t, changed, u.name)
		after, err := os.Stat(p)
		require.NoError(t, err)
		assert.True(t, os.SameFile(before, after), "%s: the file was not replaced", u.name)
		assert.Equal(t, before.ModTime(), after.ModTime(), u.name)
		assert.Equal(t, []string{"a.html"}, testkit.Names(t, dir), "no temporary file is left")
	}
}

// TestUpdateSymlink: a symbolic link named for an in-place rewrite stays a
// link, and the file it points to gets the new content.
func TestUpdateSymlink(t *testing.T) {
	for _, u := range updaters {
		t.Run(u.name, func(t *testing.T) { testUpdateSymlink(t, u.update) })
	}
}

func testUpdateSymlink(t *testing.T, update func(Writer, File, func([]byte) ([]byte, error)) (bool, error)) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"real/a.html": "old"})
	link := filepath.Join(dir, "link.html")
	require.NoError(t, os.Symlink(filepath.Join("real", "a.html"), link))
	changed, err := update(Writer{}, File{Path: link}, appendNew)
	require.NoError(t, err)
	assert.True(t, changed)
	info, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, fs.ModeSymlink, info.Mode().Type(), "still a link")
	data, err := os.ReadFile(filepath.Join(dir, "real", "a.html"))
	require.NoError(t, err)
	assert.Equal(t, "old new", string(data))
	assert.Equal(t, []string{"a.html"}, testkit.Names(t, filepath.Join(dir, "real")), "no temporary file is left")
}

func TestUpdateFailureLeavesOriginal(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.html")
	require.NoError(t, os.WriteFile(p, []byte("original"), 0o644))
	boom := errors.New("boom")

	// The transformation fails: nothing is written.
	for _, u := range updaters {
		_, err := u.update(Writer{}, File{Path: p}, func([]byte) ([]byte, error) { return nil, boom })
		assert.ErrorIs(t, err, boom, u.name)
	}
	// A stream fails after writing part of the new content.
	_, err := Writer{}.UpdateStream(File{Path: p}, func(dst io.Writer, src io.Reader) error {
		io.WriteString(dst, "half")
		return boom
	})
	assert.ErrorIs(t, err, boom)

	// Writing fails half-way: the temporary file goes, the original stays.
	err = Writer{}.write(p, 0o644, func(w *os.File) error {
		io.WriteString(w, "half")
		return boom
	})
	assert.ErrorIs(t, err, boom)

	// The file is too large to read.
	_, err = Update(p, 3, func(old []byte) ([]byte, error) { return []byte("x"), nil })
	assert.ErrorIs(t, err, ErrTooLarge)

	data, err := os.ReadFile(p)
	require.NoError(t, err)
	assert.Equal(t, "original", string(data))
	assert.Equal(t, []string{"a.html"}, testkit.Names(t, dir))
}

func TestUpdateReadOnlyDir(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("running as root: directory permissions do not stop root")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "a.html")
	require.NoError(t, os.WriteFile(p, []byte("original"), 0o644))
	require.NoError(t, os.Chmod(dir, 0o555))
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	for _, u := range updaters {
		_, err := u.update(Writer{}, File{Path: p}, func([]byte) ([]byte, error) { return []byte("new"), nil })
		assert.ErrorIs(t, err, fs.ErrPermission, u.name)
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, "original", string(data))
	}
}

func TestWriteFileIntoMissingDir(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"file": "x"})
	// A file where the mirror wants a directory: a clear error, as root too.
	err := WriteFile(filepath.Join(dir, "file", "a.html"), []byte("x"), 0o644)
	assert.Error(t, err)
}

func TestCopyFile(t *testing.T) {
	dir := t.TempDir()
	src, dst := filepath.Join(dir, "src.png"), filepath.Join(dir, "dst.png")
	require.NoError(t, os.WriteFile(src, []byte("\x89PNG\r\n\x1a\n\x00"), 0o640))
	require.NoError(t, CopyFile(dst, src))
	data, err := os.ReadFile(dst)
	require.NoError(t, err)
	assert.Equal(t, "\x89PNG\r\n\x1a\n\x00", string(data))
	info, err := os.Stat(dst)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o640), info.Mode().Perm())
	assert.Error(t, CopyFile(dst, filepath.Join(dir, "missing")))

	fast := Writer{NoSync: true}
	require.NoError(t, fast.CopyFile(dst+"2", src))
	require.NoError(t, fast.WriteFile(dst+"3", []byte("x"), 0o600))
	assert.Equal(t, []string{"dst.png", "dst.png2", "dst.png3", "src.png"}, testkit.Names(t, dir))
}

// TestWriterKeepSame: a file that already holds the data with the same
// bits is not replaced; any difference of content or mode replaces it.
func TestWriterKeepSame(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.html")
	w := Writer{NoSync: true, KeepSame: true}
	require.NoError(t, w.WriteFile(p, []byte("same"), 0o644))
	before, err := os.Stat(p)
	require.NoError(t, err)
	require.NoError(t, w.WriteFile(p, []byte("same"), 0o644))
	after, err := os.Stat(p)
	require.NoError(t, err)
	assert.True(t, os.SameFile(before, after), "the same content is not written again")

	big := []byte(strings.Repeat("0123456789", 10000)) // more than one read
	for _, step := range []struct {
		data    []byte
		perm    fs.FileMode
		replace bool
	}{
		{[]byte("diff"), 0o644, true}, // same size, other bytes
		{[]byte("diff"), 0o600, true}, // other mode
		{[]byte("longer"), 0o600, true},
		{big, 0o600, true},
		{big, 0o600, false},
		{append(big[:len(big)-1:len(big)-1], 'x'), 0o600, true}, // the last byte differs
	} {
		before, err := os.Stat(p)
		require.NoError(t, err)
		require.NoError(t, w.WriteFile(p, step.data, step.perm))
		after, err := os.Stat(p)
		require.NoError(t, err)
		assert.Equal(t, !step.replace, os.SameFile(before, after), "%d bytes, mode %v", len(step.data), step.perm)
		data, err := os.ReadFile(p)
		require.NoError(t, err)
		assert.Equal(t, step.data, data)
		assert.Equal(t, step.perm, after.Mode().Perm())
	}
}
