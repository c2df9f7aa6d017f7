package tree

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestWalkFIFO: a walk does not hang on a FIFO in a tree, nor yield it.
func TestWalkFIFO(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, unix.Mkfifo(filepath.Join(dir, "a.html"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "b.html"), []byte("b"), 0o644))
	var walked []string
	for g, err := range Walk([]string{dir}) {
		require.NoError(t, err)
		walked = append(walked, g.Rel)
	}
	require.Equal(t, []string{"b.html"}, walked)
}
