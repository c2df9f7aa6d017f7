package treerewrite

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openFDs counts this process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	return len(ents)
}

func whatwgOptions(docURL string) extract.Options {
	return extract.Options{HTML: htmlrewrite.Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: docURL}}}}
}

// TestMirrorHoldsFewDirectories: a mirror of many directories holds at
// most a few of them open (a Writer's safewrite.Dirs holds at most 8), and a document's directory is opened
// once for all its files (the count of openat is TestSyscallsPerFile's).
func TestMirrorHoldsFewDirectories(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	for i := range 60 {
		p := filepath.Join(in, fmt.Sprintf("d%02d", i%20), fmt.Sprintf("p%03d.html", i))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(`<a href="x.html">x</a>`), 0o644))
	}
	m, err := tree.NewMapper("https://example.org/")
	require.NoError(t, err)
	r := &Rewriter{
		Mapper:  m,
		Options: whatwgOptions,
		Mirror:  filepath.Join(dir, "out"),
		Writer:  safewrite.Writer{NoSync: true, KeepSame: true},
	}
	before := openFDs(t)
	most := 0
	for res := range r.All(tree.Walk([]string{in}), 1) {
		require.NoError(t, res.Err)
		most = max(most, openFDs(t)-before)
	}
	assert.LessOrEqual(t, most, 8+16+2)
	for i := range 60 {
		b, err := os.ReadFile(filepath.Join(dir, "out", fmt.Sprintf("d%02d", i%20), fmt.Sprintf("p%03d.html", i)))
		require.NoError(t, err)
		assert.Contains(t, string(b), fmt.Sprintf(`https://example.org/d%02d/x.html`, i%20))
	}
}

// TestMirrorDirSwapped: a mirror directory swapped for a link to outside
// the mirror while the run writes into it (its descriptor held, see
// safewrite.Dirs) does not lead the next file's write there: removed, the
// write fails (no file is made in a removed directory); moved, the file
// goes where the directory went.
func TestMirrorDirSwapped(t *testing.T) {
	for _, move := range []bool{false, true} {
		dir, outside := t.TempDir(), t.TempDir()
		in := filepath.Join(dir, "in")
		testkit.WriteTree(t, in, map[string]string{"d/a.html": `<a href="x">`, "d/b.html": `<a href="y">`})
		m, err := tree.NewMapper("https://example.org/")
		require.NoError(t, err)
		out := filepath.Join(dir, "out")
		r := &Rewriter{Mapper: m, Options: whatwgOptions, Mirror: out, Writer: safewrite.Writer{NoSync: true, KeepSame: true}, OnePerPlace: true}
		var files []tree.File
		for f, err := range tree.Walk([]string{in}) {
			require.NoError(t, err)
			files = append(files, f)
		}
		require.Len(t, files, 2)
		require.NoError(t, r.Rewrite(nil, files[0]).Err)
		require.FileExists(t, filepath.Join(out, "d", "a.html"))
		if move {
			require.NoError(t, os.Rename(filepath.Join(out, "d"), filepath.Join(out, "moved")))
		} else {
			require.NoError(t, os.RemoveAll(filepath.Join(out, "d")))
		}
		require.NoError(t, os.Symlink(outside, filepath.Join(out, "d")))
		res := r.Rewrite(nil, files[1])
		if move {
			require.NoError(t, res.Err)
			assert.FileExists(t, filepath.Join(out, "moved", "b.html"))
		} else {
			assert.Error(t, res.Err)
		}
		assert.Empty(t, testkit.Names(t, outside), "move %v: nothing written through the link", move)
	}
}
