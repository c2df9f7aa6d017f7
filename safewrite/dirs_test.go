package safewrite

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDirsHoldFew: a Writer with Dirs writing into many directories holds
// at most openDirsMax of them open, and every file lands where it is named.
func TestDirsHoldFew(t *testing.T) {
	root := t.TempDir()
	var dirs Dirs
	w := Writer{NoSync: true, Dirs: &dirs}
	for i := range 60 {
		rel := fmt.Sprintf("d%02d/p%03d.html", i%20, i)
		_, err := w.WriteInStream(root, rel, 0o644, func(dst io.Writer) error {
			_, err := io.WriteString(dst, rel)
			return err
		})
		require.NoError(t, err)
		dirs.mu.Lock()
		assert.LessOrEqual(t, len(dirs.held), openDirsMax)
		dirs.mu.Unlock()
	}
	for i := range 60 {
		rel := fmt.Sprintf("d%02d/p%03d.html", i%20, i)
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		require.NoError(t, err)
		assert.Equal(t, rel, string(b))
	}
}
