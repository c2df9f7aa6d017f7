package referral_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/harvest"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/manifest"
	"github.com/relurl/relurl/referral"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/treerewrite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// referSite is a tree whose pages tell the kinds, import maps and
// encodings of its other files (docs/formats.md §9): pages in UTF-8 and in
// legacy encodings linking stylesheets with non-ASCII url()s, module
// scripts, modulepreload and inline modules importing modules (.js
// candidates, .mjs, a cycle, bare specifiers), import maps (the first
// page in walk order wins), manifests, a classic script, an inert
// <template>, a page whose deciding <base> comes after 40 KiB of links
// (its single pass starts again), and stylesheets and modules before and
// after the pages in walk order.
func referSite() map[string]string {
	latin1 := func(s string) string { // ISO-8859-1 bytes of s
		b := make([]byte, 0, len(s))
		for _, r := range s {
			b = append(b, byte(r))
		}
		return string(b)
	}
	imap := `<script type=importmap>{"imports":{"lodash":"/lib/lodash.js","vue":"/lib/vue.js"}}</script>`
	files := map[string]string{
		"a/0first.html": latin1(`<meta charset=iso-8859-1><link rel=stylesheet href=s2.css><a href="café.html">é</a>`),
		"a/s0.css":      latin1(`b{background:url("café0.png")}`),
		"a/s1.css":      latin1(`b{background:url(ü1.gif)}`),
		"a/s2.css":      latin1(`b{background:url(ü2.gif)}`),
		"css/s0.css":    latin1(`b{background:url("café.png")}`),
		"css/s1.css":    latin1(`b{background:url(ü.gif)}`),
		"index.html": `<link rel=manifest href=app.json><link rel=stylesheet href=css/s0.css>` + imap +
			`<script type=module src="js/a.js"></script><script src="js/classic.js"></script>`,
		"legacy.html": latin1(`<meta charset=windows-1252><link rel=stylesheet href=css/s1.css><link rel=stylesheet href="a/s0.css">`) +
			`<script type=module>import "./js/m.mjs"; import "./js/c.js";</script>`,
		"b/late.html": latin1(`<meta charset=windows-1252><link rel=stylesheet href=../a/s1.css><link rel=manifest href=../manifest>`) +
			`<script type=module src="g.js"></script><template><script type=module src="tpl.js"></script></template>` +
			`<p>` + strings.Repeat(`<a href="x.html">x</a>`, 2000) + `</p><base href="/js/">`,
		"b/g.js": `import "./x.js";`, // a module only to a pass that took the fallback base
		"b/second.html": `<script type=importmap>{"imports":{"react":"/lib/react.js"}}</script>` +
			`<link rel=modulepreload href="../js/b.js"><link rel=manifest href="../other.json"><script type=module src=../js/orphan.js></script>`,
		"js/a.js":       `import "./b.js"; import x from "lodash"; import "/js/c.js";`,
		"js/b.js":       `import "./a.js"; import "./d.js"; import y from "vue";`,
		"js/c.js":       `export const c = import("./e.js");`,
		"js/d.js":       `import "lodash";`,
		"js/e.js":       `export {};`,
		"js/m.mjs":      `import "./g.js"; import "lodash";`,
		"js/g.js":       `import "./h";`,
		"js/h":          `export const h = 1;`,
		"js/classic.js": `import "./nothing.js";`,
		"js/orphan.js":  `import "vue"; import "react";`,
		"js/tpl.js":     `export {};`,
		"app.json":      `{"start_url":"./index.html","icons":[{"src":"i/icon.png"}]}`,
		"other.json":    `{"icons":[{"src":"i/icon.png"}]}`,
		"manifest":      `{"start_url":"./"}`,
		"data.json":     `{"src":"i/x.png"}`,
		"z/last.html":   `<link rel=manifest href="../data.json"><link rel=stylesheet href="../z/s.css">`,
		"z/s.css":       `b{background:url(z.png)}`,
		// UTF-16: read decoded, and no stylesheet's environment.
		"u16.html": "\xff\xfe" + utf16le(`<link rel=stylesheet href="u16.css"><script type=module src="js/e.js"></script>`),
		"u16.css":  latin1(`b{background:url(ü.gif)}`),
	}
	return files
}

// referOptions are the readers' options of a walk with refer, as
// cmd/relurl builds them: a stylesheet's environment encoding and a
// module's import map from the walk's Reader.
func referOptions(refer *referral.Reader) (func(string) htmlrewrite.Options, func(string) extract.Options) {
	html := func(u string) htmlrewrite.Options {
		return htmlrewrite.Options{
			Document:         link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: u}},
			SheetEnvironment: refer.SheetEnvironment(u)}
	}
	return html, func(u string) extract.Options {
		h := html(u)
		return extract.Options{HTML: h,
			Module:   jsmodule.Options{Document: link.Document{Context: h.Context}, ImportMap: refer.ImportMap(u)},
			Manifest: manifest.Options{Document: link.Document{Context: h.Context}}}
	}
}

// newReferrals returns the Reader of a tree at https://www.example/.
func newReferrals(t testing.TB, gather bool) (*referral.Reader, func(string) extract.Options) {
	m, err := tree.NewMapper("https://www.example/")
	require.NoError(t, err)
	refer := &referral.Reader{Mapper: m, Gather: gather}
	html, opts := referOptions(refer)
	refer.HTML = html
	refer.Module = func(u string) jsmodule.Options { return opts(u).Module }
	return refer, opts
}

// gatherRun is what one consumer of a walk made of a tree: each file's
// kind in the order the walk yielded it, its rewritten bytes (mirror)
// and its links.
type gatherRun struct {
	order  []string          // "rel kind"
	mirror map[string]string // rel -> bytes in the mirror
	links  map[string]string // rel -> the links harvest reads, one a line
	refer  map[string]string // rel -> its environment encoding and import map keys
}

// rewriteRun rewrites the tree dir into a mirror with jobs workers
// (treerewrite.Rewriter.All), then reads every file's links (harvest).
func rewriteRun(t *testing.T, dir string, gather bool, jobs int) gatherRun {
	refer, opts := newReferrals(t, gather)
	out := t.TempDir()
	r := &treerewrite.Rewriter{Mapper: refer.Mapper, Options: opts, Mirror: out, Writer: safewrite.Writer{NoSync: true}}
	run := gatherRun{mirror: map[string]string{}, links: map[string]string{}, refer: map[string]string{}}
	for res := range r.All((tree.Walker{Refer: refer}).Walk([]string{dir}), jobs) {
		run.order = append(run.order, res.File.Rel+" "+res.File.Kind.String())
		if res.Err != nil {
			run.links[res.File.Rel+" rewrite error"] = res.Err.Error()
		}
		u := "https://www.example/" + res.File.Rel
		run.refer[res.File.Rel] = fmt.Sprintf("%q %q", refer.SheetEnvironment(u), refer.ImportMap(u))
	}
	filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(out, p)
			data, _ := os.ReadFile(p)
			run.mirror[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	// A second walk, read for links.
	refer, opts = newReferrals(t, gather)
	hv := &harvest.Reader{Mapper: refer.Mapper, Options: opts, Spec: resolve.WHATWG}
	for f, err := range (tree.Walker{Refer: refer}).Walk([]string{dir}) {
		require.NoError(t, err)
		var b strings.Builder
		res := hv.File(f, func(k base.Format, l link.Link) error {
			fmt.Fprintf(&b, "%v %s %s %v\n", k, l.URL, l.Kind, l.Err)
			return nil
		}, nil)
		if res.Err != nil {
			fmt.Fprintf(&b, "error: %v\n", res.Err)
		}
		run.links[f.Rel] = b.String()
	}
	return run
}

// TestGatherAgrees: a walk that takes the referrals from the run's own
// passes (Reader.Gather) classifies every file as the walk that reads
// the pages first does, gives the stylesheets the same environment
// encodings and the modules the same import maps: the mirror and the
// links are byte for byte the same, with one worker and with four. The
// files the pages tell of come after the tree's other files, in walk
// order among themselves; the others keep theirs.
func TestGatherAgrees(t *testing.T) {
	dir := testkit.NewTree(t, referSite())
	want := rewriteRun(t, dir, false, 1)
	// The tree is one the referrals matter in.
	require.Contains(t, want.order, "js/h module")
	require.Contains(t, want.order, "other.json manifest")
	require.Contains(t, want.order, "js/classic.js other")
	require.Contains(t, want.order, "b/g.js other")
	require.NotEqual(t, referSite()["a/s0.css"], want.mirror["a/s0.css"], "a stylesheet in a legacy page's encoding")
	for name, err := range want.links {
		require.NotContains(t, name+err, "error", name)
	}
	for _, jobs := range []int{1, 4} {
		got := rewriteRun(t, dir, true, jobs)
		assert.Equal(t, want.mirror, got.mirror, "jobs %d", jobs)
		assert.Equal(t, want.links, got.links, "jobs %d", jobs)
		assert.Equal(t, want.refer, got.refer, "jobs %d", jobs)
		// The same files, the held-back ones last.
		assert.ElementsMatch(t, want.order, got.order, "jobs %d", jobs)
		held := func(s string) bool {
			k := s[strings.LastIndexByte(s, ' ')+1:]
			return k != "html"
		}
		var before, after []string
		for _, s := range want.order {
			if held(s) {
				after = append(after, s)
			} else {
				before = append(before, s)
			}
		}
		assert.Equal(t, slices.Concat(before, after), got.order, "jobs %d: walk order, pages first", jobs)
	}
}

// TestGatherReleaseUnread: a page the consumer releases without reading
// it (a mirror place already claimed, another kind forced) is read by the
// walk itself; a consumer that reads no page at all gets the same kinds.
func TestGatherReleaseUnread(t *testing.T) {
	dir := testkit.NewTree(t, referSite())
	kinds := func(gather, read bool) []string {
		refer, _ := newReferrals(t, gather)
		var got []string
		for f, err := range (tree.Walker{Refer: refer}).Walk([]string{dir}) {
			require.NoError(t, err)
			if !read {
				f.Release()
			}
			got = append(got, f.Rel+" "+f.Kind.String())
		}
		slices.Sort(got)
		return got
	}
	want := kinds(false, false)
	assert.Equal(t, want, kinds(true, false))
	for _, rel := range []string{"js/a.js", "js/d.js", "js/orphan.js"} {
		refer, _ := newReferrals(t, true)
		for f, err := range (tree.Walker{Refer: refer}).Walk([]string{dir}) {
			require.NoError(t, err)
			f.Release()
		}
		old, _ := newReferrals(t, false)
		for range (tree.Walker{Refer: old}).Walk([]string{dir}) {
		}
		u := "https://www.example/" + rel
		assert.Equal(t, old.ImportMap(u), refer.ImportMap(u), rel)
		assert.NotEmpty(t, refer.ImportMap(u), rel)
	}
}

// TestGatherClaimed: with two trees mirrored into one place, the second
// tree's pages lose their places (Rewriter.Claim) and are never rewritten;
// the walk reads them itself and goes on (it waited for them forever if
// Claim did not release them).
func TestGatherClaimed(t *testing.T) {
	site := referSite()
	a, b := testkit.NewTree(t, site), testkit.NewTree(t, site)
	refer, opts := newReferrals(t, true)
	r := &treerewrite.Rewriter{Mapper: refer.Mapper, Options: opts, Mirror: t.TempDir(), Writer: safewrite.Writer{NoSync: true}}
	done := make(chan int)
	go func() {
		claimed := 0
		for res := range r.All((tree.Walker{Refer: refer}).Walk([]string{a, b}), 1) {
			if res.Err != nil && strings.Contains(res.Err.Error(), "already the mirror of") && res.File.Kind == base.HTML {
				claimed++
			}
		}
		done <- claimed
	}()
	select {
	case n := <-done:
		pages := 0
		for name := range site {
			if strings.HasSuffix(name, ".html") {
				pages++
			}
		}
		assert.Equal(t, pages, n, "every page of the second tree")
	case <-time.After(20 * time.Second):
		t.Fatal("the walk waits for pages never rewritten")
	}
}

// utf16le returns the UTF-16LE bytes of the ASCII text s.
func utf16le(s string) string {
	b := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		b = append(b, s[i], 0)
	}
	return string(b)
}

// TestGatherAgreesGenerated: TestGatherAgrees on generated trees: pages
// in UTF-8 and windows-1252 (some after the files they name) linking
// stylesheets, loading modules and candidates, with and without import
// maps, naming manifests; modules importing each other (cycles too).
func TestGatherAgreesGenerated(t *testing.T) {
	told := map[string]int{} // what the pages told, over the seeds
	for seed := range int64(6) {
		rnd := rand.New(rand.NewPCG(uint64(seed), 11))
		dirs := []string{"", "a/", "b/", "z/"}
		pick := func(s []string) string { return s[rnd.IntN(len(s))] }
		files := map[string]string{}
		var targets []string
		for i := range 12 {
			name := pick(dirs) + fmt.Sprintf("f%d", i) + pick([]string{".js", ".js", ".mjs", ".css", ".json", ""})
			targets = append(targets, name)
		}
		rel := func(from, to string) string { return strings.Repeat("../", strings.Count(from, "/")) + to }
		for _, name := range targets {
			switch {
			case strings.HasSuffix(name, ".css"):
				files[name] = "b{background:url(\xe9" + name + ".png)}"
			case strings.HasSuffix(name, ".json"):
				files[name] = `{"start_url":"./x.html","icons":[{"src":"i.png"}]}`
			default:
				var b strings.Builder
				for range rnd.IntN(3) {
					fmt.Fprintf(&b, "import %q;\n", "./"+rel(name, pick(targets)))
				}
				fmt.Fprintf(&b, "import %q; import %q;\n", pick([]string{"lodash", "vue", "react"}), "lodash/x")
				files[name] = b.String()
			}
		}
		for i := range 10 {
			name := pick(dirs) + fmt.Sprintf("p%d.html", i)
			var b strings.Builder
			legacy := rnd.IntN(2) == 0
			if legacy {
				b.WriteString("<meta charset=windows-1252>")
			}
			if rnd.IntN(3) == 0 {
				fmt.Fprintf(&b, `<script type=importmap>{"imports":{%q:"/lib.js","lodash/":"/l/"}}</script>`, pick([]string{"lodash", "vue", "react"}))
			}
			for range 1 + rnd.IntN(4) {
				to := rel(name, pick(targets))
				switch rnd.IntN(5) {
				case 0:
					fmt.Fprintf(&b, `<link rel=stylesheet href=%q>`, to)
				case 1:
					fmt.Fprintf(&b, `<script type=module src=%q></script>`, to)
				case 2:
					fmt.Fprintf(&b, `<link rel=modulepreload href=%q>`, to)
				case 3:
					fmt.Fprintf(&b, `<link rel=manifest href=%q>`, to)
				case 4:
					fmt.Fprintf(&b, `<script type=module>import %q;</script>`, "./"+to)
				}
			}
			files[name] = b.String() + "<a href=\"caf\xe9.html\">x</a>"
		}
		dir := testkit.NewTree(t, files)
		want := rewriteRun(t, dir, false, 1)
		got := rewriteRun(t, dir, true, 3)
		assert.Equal(t, want.mirror, got.mirror, "seed %d", seed)
		assert.Equal(t, want.links, got.links, "seed %d", seed)
		assert.Equal(t, want.refer, got.refer, "seed %d", seed)
		assert.ElementsMatch(t, want.order, got.order, "seed %d", seed)
		for _, o := range want.order {
			if strings.HasSuffix(o, ".js module") || strings.HasSuffix(o, "json manifest") {
				told[o[strings.LastIndexByte(o, ' ')+1:]]++
			}
		}
		for _, r := range want.refer {
			if strings.Contains(r, "windows-1252") {
				told["env"]++
			}
			if strings.Contains(r, "[\"") {
				told["keys"]++
			}
		}
	}
	for _, k := range []string{"module", "manifest", "env", "keys"} {
		assert.NotZero(t, told[k], "the generated trees never tell a %s", k)
	}
}
