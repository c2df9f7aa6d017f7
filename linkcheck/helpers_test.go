package linkcheck

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// writeTree makes the files of m (slash paths to contents) under dir.
func writeTree(t *testing.T, dir string, m map[string]string) {
	t.Helper()
	for name, data := range m {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(data), 0o644))
	}
}
