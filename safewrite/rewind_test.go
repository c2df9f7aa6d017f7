package safewrite

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rewinder is what UpdateStream and WriteInStream give fn as dst
// (htmlrewrite.Rewinder).
type rewinder interface {
	io.Writer
	Rewind() error
}

// TestStreamRewind: a streamed write can be taken back (htmlrewrite's
// single pass rewinds when a late <base> changes the links already
// written): what is written after Rewind is all the file gets; a
// temporary file made before it is removed; output that ends up equal to
// the old content leaves the file untouched, as if never rewound; and a
// mirror that already holds it is kept.
func TestStreamRewind(t *testing.T) {
	for _, behind := range []bool{false, true} {
		t.Run(map[bool]string{false: "direct", true: "behind"}[behind], func(t *testing.T) { testStreamRewind(t, behind) })
	}
}

func testStreamRewind(t *testing.T, behind bool) {
	old := oldContent(200 << 10)
	for _, c := range []struct {
		name    string
		before  []byte // written before Rewind
		after   []byte // after it
		changed bool
		links   HardLinks
	}{
		{"different, then the same", bytes.Repeat([]byte("x"), 100<<10), old, false, SkipHardLinks},
		{"same prefix, then different", old[:10<<10], doubled(old), true, SkipHardLinks},
		{"different, then different", []byte("garbage"), []byte("new"), true, SkipHardLinks},
		{"hard links kept", bytes.Repeat([]byte("y"), 100<<10), doubled(old[:1000]), true, KeepHardLinks},
	} {
		dir := t.TempDir()
		p := filepath.Join(dir, "page.html")
		require.NoError(t, os.WriteFile(p, old, 0o644))
		if c.links == KeepHardLinks {
			require.NoError(t, os.Link(p, filepath.Join(dir, "other.html")))
		}
		past := time.Now().Add(-time.Hour)
		require.NoError(t, os.Chtimes(p, past, past))
		before, _ := os.Stat(p)
		f := walkFile(t, dir, "page.html")
		changed, err := Writer{HardLinks: c.links, Behind: behind}.UpdateStream(f, func(dst io.Writer, src io.Reader) error {
			rw, ok := dst.(rewinder)
			require.True(t, ok, "dst is no Rewinder")
			if _, err := rw.Write(c.before); err != nil {
				return err
			}
			if err := rw.Rewind(); err != nil {
				return err
			}
			_, err := rw.Write(c.after)
			return err
		})
		require.NoError(t, err, c.name)
		assert.Equal(t, c.changed, changed, c.name)
		got, _ := os.ReadFile(p)
		assert.True(t, bytes.Equal(got, c.after), "%s: content %.40q", c.name, got)
		now, _ := os.Stat(p)
		if !c.changed {
			assert.True(t, os.SameFile(before, now) && now.ModTime().Equal(before.ModTime()), "%s: the file was replaced", c.name)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			assert.False(t, strings.HasPrefix(e.Name(), tempPrefix), "%s: %s left", c.name, e.Name())
		}
	}

	// A mirror holding what is written after Rewind is kept.
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "m.html"), old, 0o644))
	kept, err := Writer{KeepSame: true, Behind: behind}.WriteInStream(dir, "m.html", 0o644, func(dst io.Writer) error {
		rw := dst.(rewinder)
		rw.Write(bytes.Repeat([]byte("z"), 100<<10))
		rw.Rewind()
		_, err := rw.Write(old)
		return err
	})
	require.NoError(t, err)
	assert.True(t, kept)
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 1)
}
