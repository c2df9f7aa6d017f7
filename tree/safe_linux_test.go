package tree

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestUpdateKeepsXattrs: a user extended attribute survives the
// replacement, where the file system has them.
func TestUpdateKeepsXattrs(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a.html")
	require.NoError(t, os.WriteFile(p, []byte("old"), 0o644))
	if err := unix.Setxattr(p, "user.relurl", []byte("kept"), 0); err != nil {
		t.Skipf("no user extended attributes here: %v", err)
	}
	_, err := Writer{}.Update(walkFile(t, dir, "a.html"), 1<<20, appendNew)
	require.NoError(t, err)
	buf := make([]byte, 64)
	n, err := unix.Getxattr(p, "user.relurl", buf)
	require.NoError(t, err)
	assert.Equal(t, "kept", string(buf[:n]))
}
