package tree

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

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
