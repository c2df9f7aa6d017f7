//go:build unix

package safewrite

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestUpdateKeepsOwner: a file replaced by root keeps its owner and group.
func TestUpdateKeepsOwner(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("only root can give a file away")
	}
	for _, u := range updaters {
		p := filepath.Join(t.TempDir(), "a.html")
		require.NoError(t, os.WriteFile(p, []byte("old"), 0o644))
		require.NoError(t, os.Chown(p, 12345, 23456))
		changed, err := u.update(Writer{}, File{Path: p}, func([]byte) ([]byte, error) { return []byte("new"), nil })
		require.NoError(t, err)
		assert.True(t, changed)
		info, err := os.Stat(p)
		require.NoError(t, err)
		st := info.Sys().(*syscall.Stat_t)
		assert.Equal(t, [2]uint32{12345, 23456}, [2]uint32{st.Uid, st.Gid}, u.name)
	}
}
