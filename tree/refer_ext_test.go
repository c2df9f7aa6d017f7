package tree_test

import (
	"maps"
	"os"
	"path/filepath"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/referral"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/tree"
)

// TestReferralsOneWalk: a walk with Refer opens each file of a tree once
// when no file of it is one the tree's documents could tell something of
// (no candidate, module or stylesheet: a tree of pages and dotfiles needs
// no second walk to open and sniff every file again); a tree with one is
// read for referrals when the walk meets it, which still classifies files
// that come after the pages that name them, and before.
func TestReferralsOneWalk(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		kinds map[string]base.Format
		once  bool
	}{
		{"pages and dotfiles", map[string]string{
			"a.html": `<script type=module src=m.js></script>`, "b/c.html": `<link rel=manifest href=x.json>`,
			".source": "x", "README.md": "y", "logo.png": "\x89PNG\r\n\x1a\n\x00",
		}, map[string]base.Format{"a.html": base.HTML, "b/c.html": base.HTML, ".source": base.Other, "README.md": base.Other, "logo.png": base.Other}, true},
		{"a module after the page", map[string]string{
			"a.html": `<script type=module src=z.js></script>`, "z.js": `import "./zz.js"`, "zz.js": ``,
		}, map[string]base.Format{"a.html": base.HTML, "z.js": base.Module, "zz.js": base.Module}, false},
		{"a manifest before the page", map[string]string{
			"a.json": `{}`, "b.html": `<link rel=manifest href=a.json>`,
		}, map[string]base.Format{"a.json": base.Manifest, "b.html": base.HTML}, false},
	} {
		dir := t.TempDir()
		for name, data := range c.files {
			p := filepath.Join(dir, filepath.FromSlash(name))
			os.MkdirAll(filepath.Dir(p), 0o755)
			if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		opened := map[string]int{}
		tree.SetDescribeHook(func(p string) { rel, _ := filepath.Rel(dir, p); opened[filepath.ToSlash(rel)]++ })
		m, _ := tree.NewMapper("https://www.example/")
		ctx := func(u string) base.Context { return base.Context{Spec: resolve.WHATWG, Retrieval: u} }
		refer := &referral.Reader{
			Mapper: m,
			HTML: func(u string) htmlrewrite.Options {
				return htmlrewrite.Options{Document: link.Document{Context: ctx(u)}}
			},
			Module: func(u string) jsmodule.Options { return jsmodule.Options{Document: link.Document{Context: ctx(u)}} },
		}
		got := map[string]base.Format{}
		for f, err := range (tree.Walker{Refer: refer}).Walk([]string{dir}) {
			if err != nil {
				t.Fatal(err)
			}
			got[f.Rel] = f.Kind
		}
		tree.SetDescribeHook(nil)
		if !maps.Equal(got, c.kinds) {
			t.Errorf("%s: kinds %v, want %v", c.name, got, c.kinds)
		}
		for name := range c.files {
			if n := opened[name]; c.once && n != 1 || !c.once && n != 2 {
				t.Errorf("%s: %s opened %d times", c.name, name, n)
			}
		}
	}
}
