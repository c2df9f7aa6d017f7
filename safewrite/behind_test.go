package safewrite

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriterBehind: with Behind, streamed writes give the same files as
// without: every size around the buffer's, written in pieces; a mirror
// already holding the content is kept; a write that fails leaves no file
// and no temporary file; an original updated in place is replaced only
// when changed.
func TestWriterBehind(t *testing.T) {
	for _, size := range []int{0, 1, 1000, streamBuffer - 1, streamBuffer, streamBuffer + 1, 3*streamBuffer + 17, 1 << 20} {
		data := oldContent(size)
		dir := t.TempDir()
		for _, w := range []Writer{{NoSync: true, Behind: true}, {NoSync: true, KeepSame: true, Behind: true}} {
			kept, err := w.WriteInStream(dir, "d/a.html", 0o644, inPieces(data))
			require.NoError(t, err, size)
			got, _ := os.ReadFile(filepath.Join(dir, "d", "a.html"))
			assert.True(t, bytes.Equal(got, data), "size %d: content differs", size)
			assert.Equal(t, w.KeepSame, kept, "size %d", size)
		}
		// In place: the same content is no change, another one is.
		f := walkFile(t, dir, "d/a.html")
		changed, err := Writer{Behind: true}.UpdateStream(f, func(dst io.Writer, src io.Reader) error {
			_, err := io.Copy(dst, src)
			return err
		})
		require.NoError(t, err)
		assert.False(t, changed, "size %d: copied unchanged", size)
		changed, err = Writer{Behind: true}.UpdateStream(walkFile(t, dir, "d/a.html"), func(dst io.Writer, src io.Reader) error {
			return inPieces(doubled(data))(dst)
		})
		require.NoError(t, err)
		assert.Equal(t, size > 0, changed, "size %d: doubled", size)
		got, _ := os.ReadFile(filepath.Join(dir, "d", "a.html"))
		assert.True(t, bytes.Equal(got, doubled(data)), "size %d: doubled content differs", size)
	}

	// A write that fails after 300 KB were handed over leaves nothing.
	dir := t.TempDir()
	boom := errors.New("boom")
	_, err := Writer{NoSync: true, Behind: true}.WriteInStream(dir, "b.html", 0o644, func(dst io.Writer) error {
		if err := inPieces(oldContent(300 << 10))(dst); err != nil {
			return err
		}
		return boom
	})
	assert.ErrorIs(t, err, boom)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		assert.False(t, e.Name() == "b.html" || strings.HasPrefix(e.Name(), tempPrefix), "%s left", e.Name())
	}
}
