package linkcheck

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/tree"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/safewrite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testLink makes a Link as htmlrewrite reports it: raw resolved against base.
func testLink(t *testing.T, spec resolve.Spec, base, tag, attr, raw string, offset int64) link.Link {
	t.Helper()
	u, err := resolve.Reference(spec, base, raw)
	return link.Link{Raw: raw, URL: u, Err: err, Tag: tag, Attr: attr, Line: 1, Column: int(offset) + 1, Offset: offset}
}

// TestAnalyze covers each problem of the draft's §1 ("trees that can be
// moved as a whole") for the page sub/page.html of a tree served from
// https://example.org/site/.
func TestAnalyze(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"index.html": "", "sub/page.html": "", "sub/img.png": "", "docs/index.html": ""})
	const doc = "https://example.org/site/sub/page.html"
	tests := []struct {
		name     string
		raw      string
		problem  Problem // 0: no finding
		relative string
	}{
		// Relative links inside the tree survive any move (draft §1).
		{"relative", "img.png", 0, ""},
		{"relative up", "../index.html", 0, ""},
		{"relative dir", "../docs/", 0, ""},
		{"fragment", "#top", 0, ""},
		{"query", "?q=1", 0, ""},
		{"relative with query", "../index.html?q#f", 0, ""},
		// Absolute links into the tree pin it to its current place.
		{"absolute into tree", "https://example.org/site/index.html", Absolute, "../index.html"},
		{"absolute same dir", "https://example.org/site/sub/img.png", Absolute, "img.png"},
		{"network-path into tree", "//example.org/site/sub/img.png#x", Absolute, "img.png#x"},
		// Root-relative links depend on the path the tree is served under.
		{"root-relative into tree", "/site/index.html", RootRelative, "../index.html"},
		{"root-relative outside", "/other/page.html", RootRelative, ""},
		// Relative links that leave the tree.
		{"climbs out", "../../other/page.html", ClimbsOut, ""},
		{"climbs out far", "../../../../x.html", ClimbsOut, ""},
		{"climbs out and back in", "../../site/index.html", ClimbsOut, ""},
		// Links elsewhere are not the tree's business.
		{"external", "https://example.com/", 0, ""},
		{"other scheme", "mailto:a@example.org", 0, ""},
		// Links to files the tree lacks.
		{"missing", "gone.html", Missing, ""},
		{"missing dir", "../nodir/", Missing, ""},
	}
	c := &Checker{Spec: resolve.RFC3986, Dir: dir, Root: "https://example.org/site"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := testLink(t, resolve.RFC3986, doc, "a", "href", tt.raw, 9)
			got := c.Analyze("sub/page.html", doc, doc, []link.Link{l})
			if tt.problem == 0 {
				assert.Empty(t, got, "link %q", tt.raw)
				return
			}
			require.Len(t, got, 1, "link %q", tt.raw)
			assert.Equal(t, tt.problem, got[0].Problem, "link %q", tt.raw)
			assert.Equal(t, tt.relative, got[0].Relative, "link %q", tt.raw)
			assert.Equal(t, tt.raw, got[0].Link)
			assert.Equal(t, 10, got[0].Column)
			if got[0].Relative != "" {
				// The relative form resolves to the same target.
				u, err := resolve.Reference(resolve.RFC3986, doc, got[0].Relative)
				require.NoError(t, err)
				assert.Equal(t, l.URL, u)
			}
		})
	}
}

// TestAnalyzeTo: with the destination known, only the links whose target
// changes in that move are reported.
func TestAnalyzeTo(t *testing.T) {
	const doc = "https://example.org/site/page.html"
	tests := []struct {
		to      string
		raw     string
		problem Problem
	}{
		// Same path on another host: root-relative links into the tree
		// keep working, absolute ones do not.
		{"https://mirror.example/site/", "/site/a.html", 0},
		{"https://mirror.example/site/", "https://example.org/site/a.html", Absolute},
		{"https://mirror.example/site/", "../outside.html", ClimbsOut},
		// Another path on the same host: links out of the tree keep
		// their targets.
		{"https://example.org/archive/2026/", "/site/a.html", RootRelative},
		{"https://example.org/archive/2026/", "/other.html", 0},
		{"https://example.org/archive/2026/", "../outside.html", ClimbsOut},
		{"https://example.org/v2/", "../outside.html", 0},
		{"https://example.org/v2/", "a.html", 0},
	}
	for _, tt := range tests {
		c := &Checker{Spec: resolve.RFC3986, Root: "https://example.org/site/", To: tt.to}
		got := c.Analyze("page.html", doc, doc, []link.Link{testLink(t, resolve.RFC3986, doc, "a", "href", tt.raw, 9)})
		if tt.problem == 0 {
			assert.Empty(t, got, "to %q, link %q", tt.to, tt.raw)
			continue
		}
		if assert.Len(t, got, 1, "to %q, link %q", tt.to, tt.raw) {
			assert.Equal(t, tt.problem, got[0].Problem, "to %q, link %q", tt.to, tt.raw)
		}
	}
}

// TestAnalyzeClimbAboveHostRoot: a tree at the root of its host keeps
// working in place when "../" goes above it (RFC 3986 §5.2.4 stops at
// "/"), and breaks once it is moved under a path.
func TestAnalyzeClimbAboveHostRoot(t *testing.T) {
	const doc = "https://example.org/about/index.html"
	c := &Checker{Spec: resolve.RFC3986, Root: "https://example.org/"}
	got := c.Analyze("about/index.html", doc, doc, []link.Link{testLink(t, resolve.RFC3986, doc, "a", "href", "../../elsewhere/", 9)})
	require.Len(t, got, 1)
	assert.Equal(t, ClimbsOut, got[0].Problem)
}

// TestAnalyzeBaseAndGrammar: a <base> element pins the document (HTML
// "document base URL"); --grammar rejections are findings of their own.
func TestAnalyzeBaseAndGrammar(t *testing.T) {
	const doc = "https://example.org/site/page.html"
	c := &Checker{Spec: resolve.RFC3986, Root: "https://example.org/site/", Grammar: func(raw string) error {
		if raw == "a b.html" {
			return errors.New(`invalid character " "`)
		}
		return nil
	}}
	links := []link.Link{
		testLink(t, resolve.RFC3986, doc, "base", "href", "https://example.org/site/", 6),
		testLink(t, resolve.RFC3986, doc, "a", "href", "a b.html", 40),
	}
	got := c.Analyze("page.html", doc, "https://example.org/site/", links)
	require.Len(t, got, 2)
	assert.Equal(t, BasePin, got[0].Problem)
	assert.Contains(t, got[0].Reason, "https://example.org/site/")
	assert.Equal(t, Invalid, got[1].Problem)
	assert.Equal(t, `invalid character " "`, got[1].Reason)
}

func TestAnalyzeBadRoot(t *testing.T) {
	c := &Checker{Spec: resolve.RFC3986, Root: "https://example.org/?q"}
	got := c.Analyze("a.html", "", "", nil)
	require.Len(t, got, 1)
	assert.Equal(t, Invalid, got[0].Problem)
}

func TestProblemString(t *testing.T) {
	for p, want := range map[Problem]string{Absolute: "absolute", RootRelative: "root-relative", ClimbsOut: "climbs-out", Missing: "missing", BasePin: "base", Invalid: "invalid", 0: "Problem(0)"} {
		assert.Equal(t, want, p.String())
	}
	b, err := Absolute.MarshalText()
	require.NoError(t, err)
	assert.Equal(t, "absolute", string(b))
}

func TestFormOf(t *testing.T) {
	tests := []struct {
		raw  string
		want refForm
	}{
		{"g", relativeForm},
		{"../g", relativeForm},
		{"", relativeForm},
		{"#f", relativeForm},
		{"./g:h", relativeForm},
		{"1http:x", relativeForm}, // RFC 3986 §3.1: a scheme starts with a letter
		{"/g", pathForm},
		{`\g`, pathForm}, // WHATWG: "\" is "/" in special URLs
		{"//h/g", networkForm},
		{" //h/g", networkForm}, // leading space is stripped (WHATWG)
		{"http://h/g", absoluteForm},
		{"HTTP:g", absoluteForm},
		{"a+b-c.d:x", absoluteForm},
		{"mailto:x", absoluteForm},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, formOf(tt.raw), "formOf(%q)", tt.raw)
	}
}

// TestFix: a link is fixed wherever Check finds it, with the relative
// form escaped for that place, and no other byte changes. The tree is
// served from https://example.org/site/ and the page is its index.html.
func TestFix(t *testing.T) {
	tests := []struct {
		name, page, want string
	}{
		{"double quotes", `<a href="https://example.org/site/a.html">x</a>`, `<a href="a.html">x</a>`},
		{"single quotes, reference kept", `<img src='https://example.org/site/i.png?a=1&amp;b=2'>`, `<img src='i.png?a=1&amp;b=2'>`},
		{"unquoted", `<a href=/site/b.html>y</a>`, `<a href=b.html>y</a>`},
		{"network-path", `<a href="//example.org/site/b.html#top">y</a>`, `<a href="b.html#top">y</a>`},
		// HTML "parse a srcset attribute": each candidate on its own, a
		// "=" in a candidate needing no quotes inside the value.
		{"srcset", `<img srcset="https://example.org/site/a.png 1x, https://example.org/site/b.png?w=2 2x">`, `<img srcset="a.png 1x, b.png?w=2 2x">`},
		// A value with a character reference: every candidate reports
		// the value's offset, and each is still fixed.
		{"srcset with a reference", `<img srcset="https://example.org/site/a.png?x=1&amp;y=2 1x, /site/b.png 2x">`, `<img srcset="a.png?x=1&amp;y=2 1x, b.png 2x">`},
		// CSS url() in a style attribute and in <style>.
		{"style url()", `<div style="background: url(https://example.org/site/a.png)"></div>`, `<div style="background: url(a.png)"></div>`},
		{"style element", `<style>p { background: url("/site/b.png") }</style>`, `<style>p { background: url("b.png") }</style>`},
		// The shared declarative refresh steps.
		{"refresh", `<meta http-equiv=refresh content="0; url=https://example.org/site/a.html">`, `<meta http-equiv=refresh content="0; url=a.html">`},
		// link.Link.Raw keeps the spaces around a value; the
		// reference checked and fixed is the value without them.
		{"spaces around", `<a href="  /site/a.html ">x</a>`, `<a href="  a.html ">x</a>`},
		// Not the tree's: left as written, and so is everything else.
		{"external", `<a href="https://example.com/a.html">x</a> <a href=b.html>b</a>`, `<a href="https://example.com/a.html">x</a> <a href=b.html>b</a>`},
		// An import map's addresses, a prefix (a directory) included:
		// HTML "resolve a URL-like module specifier" needs "./" before
		// a relative address that does not start with "/", "./" or "../".
		{"import map", `<script type="importmap">{"imports": {"lib/": "/site/js/", "a": "https://example.org/site/a.png"}}</script>`, `<script type="importmap">{"imports": {"lib/": "./js/", "a": "./a.png"}}</script>`},
	}
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"index.html": "", "a.html": "", "b.html": "", "a.png": "", "b.png": "", "i.png": "", "js/m.mjs": ""})
	nginx, _ := HostProfile("nginx")
	c := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/site/", ToServed: true, Host: nginx}
	f := tree.File{Path: filepath.Join(dir, "index.html"), Rel: "index.html"}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			found, err := c.Check(f, []byte(tt.page))
			require.NoError(t, err)
			got, n, err := c.Fix(f, []byte(tt.page), found)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
			assert.Equal(t, len(found), n, "every finding is fixed")
			after, err := c.Check(f, got)
			require.NoError(t, err)
			assert.Empty(t, after, "nothing left to report")
		})
	}
}

// TestFixSrcsetComma: HTML "parse a srcset attribute" skips the commas
// a candidate begins with, so the relative form of a URL whose path
// segment begins with one gets "./" in front.
func TestFixSrcsetComma(t *testing.T) {
	c := &Checker{Spec: resolve.WHATWG, Root: "https://h/t/"}
	f := tree.File{Rel: "d/p.html"}
	for page, want := range map[string]string{
		`<img srcset="https://h/t/d/,a.png 1x, https://h/t/b.png 2x">`: `<img srcset="./,a.png 1x, ../b.png 2x">`,
		`<link rel=preload as=image imagesrcset="/t/d/,,b 1x">`:        `<link rel=preload as=image imagesrcset="./,,b 1x">`,
		`<a href="https://h/t/d/,a.png">`:                              `<a href=",a.png">`,
	} {
		found, err := c.Check(f, []byte(page))
		require.NoError(t, err)
		got, n, err := c.Fix(f, []byte(page), found)
		require.NoError(t, err)
		assert.Equal(t, want, string(got))
		assert.Equal(t, len(found), n, "every finding is fixed")
	}
}

// TestFixStale: a finding whose link is no longer at its offset, or that
// has no relative form, is left alone.
func TestFixStale(t *testing.T) {
	const page = `<a href="https://example.org/site/c.html">stale</a>`
	c := &Checker{Spec: resolve.WHATWG, Root: "https://example.org/site/"}
	findings := []Finding{
		{Problem: Absolute, Link: "https://example.org/site/other.html", Relative: "other.html", Offset: 9},
		{Problem: ClimbsOut, Link: "https://example.org/site/c.html", Relative: "c.html", Offset: 9},
		{Problem: Absolute, Link: "https://example.org/site/c.html", Offset: 9},
		{Problem: Absolute, Link: "x", Relative: "y", Offset: 1 << 40},
	}
	got, n, err := c.Fix(tree.File{Rel: "index.html"}, []byte(page), findings)
	require.NoError(t, err)
	assert.Equal(t, 0, n)
	assert.Equal(t, page, string(got))
}

// TestRelative: the relative form check reports and --fix writes is a
// relative-path reference that resolves back to the target.
func TestRelative(t *testing.T) {
	tests := []struct {
		base, target, want string
	}{
		{"https://h/a/b/c.html", "https://h/a/b/d.html", "d.html"},
		{"https://h/a/b/c.html", "https://h/search", "../../search"},
		{"https://h/a/b/c.html", "https://h/a/b/", "."},
		{"https://h/a/b/", "https://h/a/x/y.html?q#f", "../x/y.html?q#f"},
		// RFC 3986 §4.2: a first segment with ":" would read as a scheme.
		{"https://h/a/", "https://h/a/g:h", "./g:h"},
		{"file:///srv/site/index.html", "file:///srv/site/img/a.png", "img/a.png"},
		// RFC 3986 §5.2.3: a base with an authority and no path merges as "/".
		{"https://h", "https://h/a", "a"},
		// A page's own URL has a relative form (--fix used to
		// skip self-links, RelativePath giving the empty reference).
		{"https://h/a/b/c.html", "https://h/a/b/c.html", "c.html"},
		{"https://h/a/b/", "https://h/a/b/", "./"},
		{"https://h/a/g:h", "https://h/a/g:h", "./g:h"},
		{"https://h/a/b/c.html", "https://h/a/b/c.html#f", "#f"},
		{"https://h/a/b/c.html", "https://h/a/b/c.html?q", "?q"},
	}
	for _, tt := range tests {
		r, err := resolve.NewResolver(resolve.RFC3986, tt.base, resolve.Options{})
		require.NoError(t, err)
		got := relative(r, tt.target)
		assert.Equal(t, tt.want, got, "relative(%q, %q)", tt.base, tt.target)
		u, err := r.Reference(got)
		require.NoError(t, err)
		assert.Equal(t, tt.target, u, "RFC 3986 §5.2 resolves it back")
	}
	for _, bad := range [][2]string{{"https://h/a", "https://other/a"}, {"mailto:a", "mailto:b"}} {
		r, err := resolve.NewResolver(resolve.RFC3986, bad[0], resolve.Options{})
		require.NoError(t, err)
		assert.Empty(t, relative(r, bad[1]), "relative(%q, %q)", bad[0], bad[1])
	}
	assert.Empty(t, relative(nil, "https://h/a"))
}

// TestCheckAndFixTree runs Check and Fix over a tree, as "relurl check
// --fix" does: afterwards no fixable finding is left, and every link of
// every file resolves to the same target as before.
func TestCheckAndFixTree(t *testing.T) {
	for _, spec := range []resolve.Spec{resolve.RFC3986, resolve.WHATWG} {
		t.Run(spec.String(), func(t *testing.T) {
			dir := t.TempDir()
			testkit.WriteTree(t, dir, map[string]string{
				"index.html": `<!doctype html><link rel=stylesheet href="https://example.org/site/css/a.css">` +
					`<a href="/site/docs/">docs</a> <a href=https://example.org/site/docs/p.html?x=1&amp;y=2#s>p</a>` +
					`<img src='//example.org/site/img/a.png'> <a href="https://example.com/">out</a>`,
				"docs/index.html": `<a href="https://example.org/site/">home</a><a href="/site/docs/p.html">p</a><a href="p.html">p</a>`,
				"docs/p.html":     `<a href="https://example.org/site/docs/index.html#top">up</a>`,
				"css/a.css":       ``,
				"img/a.png":       ``,
			})
			c := &Checker{Spec: spec, Dir: dir, Root: "https://example.org/site/"}
			urls := func() map[string][]string {
				m := map[string][]string{}
				for f, err := range tree.Walk([]string{dir}) {
					require.NoError(t, err)
					if f.Kind != base.HTML {
						continue
					}
					data, err := os.ReadFile(f.Path)
					require.NoError(t, err)
					var links []string
					_, err = htmlrewrite.Links(bytes.NewReader(data), htmlrewrite.Options{Document: link.Document{Context: base.Context{Spec: spec, Retrieval: "https://example.org/site/" + f.Rel}}}, func(l link.Link) error {
						links = append(links, l.URL)
						return nil
					})
					require.NoError(t, err)
					m[f.Rel] = links
				}
				return m
			}
			before := urls()
			total := 0
			for f, err := range tree.Walk([]string{dir}) {
				require.NoError(t, err)
				if f.Kind != base.HTML {
					continue
				}
				_, err := safewrite.Update(f.Path, 1<<20, func(old []byte) ([]byte, error) {
					found, err := c.Check(f, old)
					require.NoError(t, err)
					out, n, err := c.Fix(f, old, found)
					total += n
					return out, err
				})
				require.NoError(t, err)
			}
			assert.Equal(t, 7, total, "links fixed")
			for f, err := range tree.Walk([]string{dir}) {
				require.NoError(t, err)
				if f.Kind != base.HTML {
					continue
				}
				data, err := os.ReadFile(f.Path)
				require.NoError(t, err)
				found, err := c.Check(f, data)
				require.NoError(t, err)
				assert.Empty(t, found, "%s after the fix:\n%s", f.Rel, data)
			}
			assert.Equal(t, before, urls(), "every link resolves to the same target")
			data, err := os.ReadFile(filepath.Join(dir, "index.html"))
			require.NoError(t, err)
			assert.Equal(t, `<!doctype html><link rel=stylesheet href="css/a.css">`+
				`<a href="docs/">docs</a> <a href="docs/p.html?x=1&amp;y=2#s">p</a>`+
				`<img src='img/a.png'> <a href="https://example.com/">out</a>`, string(data))
		})
	}
}

// TestCheckerConcurrent: a Checker is prepared once, whichever goroutine
// comes first (run with -race).
func TestCheckerConcurrent(t *testing.T) {
	const doc = "https://example.org/site/page.html"
	c := &Checker{Spec: resolve.RFC3986, Root: "https://example.org/site/"}
	l := testLink(t, resolve.RFC3986, doc, "a", "href", "/site/a.html", 9)
	done := make(chan int)
	for range 4 {
		go func() { done <- len(c.Analyze("page.html", doc, doc, []link.Link{l})) }()
	}
	for range 4 {
		assert.Equal(t, 1, <-done)
	}
}

// TestCheckTrimsReference: a finding names the reference without the
// spaces around the value (link.Link.Raw keeps them, as written),
// so that its form and its grammar are those of the URL.
func TestCheckTrimsReference(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"index.html": "", "a.html": ""})
	c := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/site/",
		Grammar: func(raw string) error {
			if raw != "/site/a.html" {
				return errors.New("not the reference: " + raw)
			}
			return nil
		}}
	f := tree.File{Path: filepath.Join(dir, "index.html"), Rel: "index.html"}
	found, err := c.Check(f, []byte(`<a href="  /site/a.html ">x</a>`))
	require.NoError(t, err)
	require.Len(t, found, 1)
	assert.Equal(t, RootRelative, found[0].Problem)
	assert.Equal(t, "/site/a.html", found[0].Link)
}

// TestFixMissing: a link whose target the tree lacks is left as written
// (its relative form would point nowhere after a move, while "/search"
// may still reach a route of the server), unless FixMissing.
func TestFixMissing(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"a/b/index.html": "", "a/b/here.html": ""})
	const page = `<a href="/search">s</a> <a href="/a/b/here.html">h</a> <a href="https://example.org/gone.html">g</a>`
	f := tree.File{Path: filepath.Join(dir, "a/b/index.html"), Rel: "a/b/index.html"}
	for _, fixMissing := range []bool{false, true} {
		c := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/", FixMissing: fixMissing}
		found, err := c.Check(f, []byte(page))
		require.NoError(t, err)
		got, _, err := c.Fix(f, []byte(page), found)
		require.NoError(t, err)
		if fixMissing {
			assert.Equal(t, `<a href="../../search">s</a> <a href="here.html">h</a> <a href="https://example.org/gone.html">g</a>`, string(got))
		} else {
			assert.Equal(t, `<a href="/search">s</a> <a href="here.html">h</a> <a href="https://example.org/gone.html">g</a>`, string(got))
		}
	}
}

// TestFixMissingToSite: with MissingToSite (rewrite --relative), a link
// to a file the tree lacks is written as its URL on the site, as wget -k
// converts it, so that it still reaches the site; an absolute one is kept;
// a tree whose URL is a file: URL has no site to reach.
func TestFixMissingToSite(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"a/index.html": "", "a/here.html": ""})
	const page = `<a href="gone.html#x">g</a> <a href="/search?q=1">s</a> <a href="https://example.org/gone2.html">g2</a> <a href="here.html">h</a>`
	f := tree.File{Path: filepath.Join(dir, "a/index.html"), Rel: "a/index.html"}
	tests := []struct{ root, want string }{
		{"https://example.org/", `<a href="https://example.org/a/gone.html#x">g</a> <a href="https://example.org/search?q=1">s</a> <a href="https://example.org/gone2.html">g2</a> <a href="here.html">h</a>`},
		{"file:///srv/site/", page},
	}
	for _, tt := range tests {
		c := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: tt.root, MissingToSite: true, ToServed: true}
		found, err := c.Check(f, []byte(page))
		require.NoError(t, err)
		got, _, err := c.Fix(f, []byte(page), found)
		require.NoError(t, err)
		assert.Equal(t, tt.want, string(got), tt.root)
	}
}

// TestAnalyzeToBefore: with a move named, links broken already are marked
// Before; an absolute link to a file the tree lacks is no finding of a
// move at all (it reaches the old place as before).
func TestAnalyzeToBefore(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"index.html": ""})
	const doc = "https://example.org/index.html"
	c := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/", To: "https://example.org/v2/"}
	links := []link.Link{
		testLink(t, resolve.WHATWG, doc, "a", "href", "gone.html", 0),
		testLink(t, resolve.WHATWG, doc, "a", "href", "https://example.org/ftp/x.zip", 20),
	}
	got := c.Analyze("index.html", doc, doc, links)
	require.Len(t, got, 2)
	for _, f := range got {
		assert.Equal(t, Missing, f.Problem)
		assert.True(t, f.Before)
	}
}

// TestCheckBaseFromOpen: the <base href> Check reports is the one the
// open step decided (htmlrewrite.Open), not a second scan of the raw
// bytes: a UTF-16 page's <base> pins the tree too (the raw-byte scan
// found none), and a plain one is still found.
func TestCheckBaseFromOpen(t *testing.T) {
	c := &Checker{Spec: resolve.WHATWG, Root: "https://example.org/"}
	got, err := c.Check(tree.File{Rel: "a.html"}, []byte(`<p><BaSe href="https://example.org/x/">`))
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, BasePin, got[0].Problem)

	page := `<p>hi</p><base href="https://example.org/x/"><a href="a.html">`
	u16 := []byte{0xff, 0xfe}
	for _, c := range []byte(page) {
		u16 = append(u16, c, 0)
	}
	got, err = c.Check(tree.File{Rel: "b.html"}, u16)
	require.NoError(t, err)
	var problems []Problem
	for _, f := range got {
		problems = append(problems, f.Problem)
	}
	assert.Contains(t, problems, BasePin, "%+v", got)
}

// TestCheckOpensOnce: Check and Fix read a document through the open
// step (extract.Open), once each, whatever its kind (a kind Check has no
// reader for is opened as HTML), and the links are read with what that
// step decided: here a stylesheet's encoding from its @charset (CSS
// Syntax §3.2), koi8-r, in which 0xE9 is "И" (UTF-8 D0 98), and a page's
// <base href>.
func TestCheckOpensOnce(t *testing.T) {
	type open struct {
		kind    base.Format
		charset string
		base    string
	}
	var opens []open
	defer func(o func(io.Reader, base.Format, extract.Options) (*extract.Document, error)) { openDocument = o }(openDocument)
	openDocument = func(r io.Reader, k base.Format, o extract.Options) (*extract.Document, error) {
		d, err := extract.Open(r, k, o)
		if err == nil {
			opens = append(opens, open{k, d.Charset(), d.Element().Href})
		}
		return d, err
	}
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"css/s.css": "", "p.html": "", "\u0418.png": "", "x/\u0418.png": ""})
	c := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/"}
	for _, tc := range []struct {
		f        tree.File
		data     string
		want     open
		url, fix string
	}{
		{tree.File{Rel: "css/s.css", Kind: base.CSS}, "@charset \"koi8-r\"; a{b:url(/\xe9.png)}", open{base.CSS, "koi8-r", ""},
			"https://example.org/%D0%98.png", "@charset \"koi8-r\"; a{b:url(../%D0%98.png)}"},
		{tree.File{Rel: "p.html", Kind: base.HTML}, `<base href="/x/"><img src="/x/a.png">`, open{base.HTML, "utf-8", "/x/"}, "https://example.org/x/a.png", ""},
		{tree.File{Rel: "p.html", Kind: base.Other}, `<meta charset=koi8-r><img src="/` + "\xe9" + `.png">`, open{base.HTML, "koi8-r", ""},
			"https://example.org/%D0%98.png", `<meta charset=koi8-r><img src="%D0%98.png">`},
	} {
		opens = nil
		found, err := c.Check(tc.f, []byte(tc.data))
		require.NoError(t, err)
		require.Equal(t, []open{tc.want}, opens, "%s: one open, its decisions", tc.f.Rel)
		var urls []string
		for _, fd := range found {
			urls = append(urls, fd.URL)
		}
		assert.Contains(t, urls, tc.url, tc.f.Rel)
		if tc.fix == "" {
			continue
		}
		out, n, err := c.Fix(tc.f, []byte(tc.data), found)
		require.NoError(t, err)
		assert.Equal(t, 1, n, tc.f.Rel)
		assert.Equal(t, tc.fix, string(out), tc.f.Rel)
		assert.Len(t, opens, 2, "%s: Fix opens the document once more", tc.f.Rel)
	}
}

// TestAnchorsOpened: the anchors of a file that a fragment link names,
// read by Finish, are read through the open step too, as HTML whatever
// the file's kind (an SVG's ids).
func TestAnchorsOpened(t *testing.T) {
	var kinds []base.Format
	defer func(o func(io.Reader, base.Format, extract.Options) (*extract.Document, error)) { openDocument = o }(openDocument)
	openDocument = func(r io.Reader, k base.Format, o extract.Options) (*extract.Document, error) {
		kinds = append(kinds, k)
		return extract.Open(r, k, o)
	}
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"i.svg": `<svg xmlns="http://www.w3.org/2000/svg"><g id="x"/></svg>`, "a.html": ""})
	c := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/"}
	found, err := c.Check(tree.File{Rel: "a.html", Kind: base.HTML}, []byte(`<img src="i.svg#x"><img src="i.svg#y">`))
	require.NoError(t, err)
	found = append(found, c.Finish()...)
	require.Len(t, found, 1)
	assert.Equal(t, MissingAnchor, found[0].Problem)
	assert.Equal(t, []base.Format{base.HTML, base.HTML}, kinds, "a.html by Check, i.svg's anchors by Finish")
}
