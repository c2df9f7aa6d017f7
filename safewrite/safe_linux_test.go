package safewrite

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/safedir"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestUpdateKeepsXattrs: a user extended attribute survives the
// replacement, where the file system has them.
func TestUpdateKeepsXattrs(t *testing.T) {
	for _, u := range updaters {
		dir := t.TempDir()
		p := filepath.Join(dir, "a.html")
		require.NoError(t, os.WriteFile(p, []byte("old"), 0o644))
		if err := unix.Setxattr(p, "user.relurl", []byte("kept"), 0); err != nil {
			t.Skipf("no user extended attributes here: %v", err)
		}
		changed, err := u.update(Writer{}, walkFile(t, dir, "a.html"), appendNew)
		require.NoError(t, err)
		require.True(t, changed)
		buf := make([]byte, 64)
		n, err := unix.Getxattr(p, "user.relurl", buf)
		require.NoError(t, err)
		assert.Equal(t, "kept", string(buf[:n]), u.name)
	}
}

// TestUpdateFIFO: a FIFO swapped in for a walked file does not hang the
// writer (or a reader) waiting for a writer to come.
func TestUpdateFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.html")
	require.NoError(t, os.WriteFile(p, []byte("old"), 0o644))
	f := walkFile(t, dir, "a.html")
	require.NoError(t, os.Remove(p))
	require.NoError(t, unix.Mkfifo(p, 0o644))
	for _, u := range updaters {
		done := make(chan error, 1)
		go func() {
			_, err := u.update(Writer{}, f, appendNew)
			if err == nil {
				var in *os.File
				if in, err = Open(f); err == nil {
					_, err = safedir.ReadOpen(in, 1<<20)
					in.Close()
				}
			}
			done <- err
		}()
		select {
		case err := <-done:
			assert.Error(t, err)
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: Update hangs on a FIFO", u.name)
		}
	}
}
