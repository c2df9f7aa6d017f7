package referral

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl/tree"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// TestReferrals: docs/formats.md §9, "recognise without a type: context". A
// .js file is a module when a page loads it as one or a module imports
// it (transitively); a JSON file is a manifest when a page names it in
// <link rel=manifest>; a classic script, a link in an inert <template>,
// and a file outside the tree change nothing; without Refer, nothing is
// classified by reference.
func TestReferrals(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"index.html": `<link rel="manifest" href="app.json"><script type=module src=js/a.js></script>` +
			`<script src=js/classic.js></script><link rel=modulepreload href="/js/pre.js">` +
			`<template><script type=module src=js/inert.js></script></template>` +
			`<script type=importmap>{"imports":{"x":"./js/mapped.js"}}</script>`,
		"js/a.js":       `import "./b.js"`,
		"js/b.js":       `import("./c.js")`,
		"js/c.js":       `export {}`,
		"js/pre.js":     ``,
		"js/mapped.js":  ``,
		"js/classic.js": `import "./d.js"`,
		"js/d.js":       ``,
		"js/inert.js":   ``,
		"app.json":      `{"start_url":"."}`,
		"data.json":     `{}`,
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, err := tree.NewMapper("https://www.example/")
	if err != nil {
		t.Fatal(err)
	}
	refer := whatwgReader(m)
	want := map[string]base.Format{
		"index.html": base.HTML, "js/a.js": base.Module, "js/b.js": base.Module, "js/c.js": base.Module, "js/pre.js": base.Module,
		"js/mapped.js": base.Module, "js/classic.js": base.Other, "js/d.js": base.Other, "js/inert.js": base.Other,
		"app.json": base.Manifest, "data.json": base.Other,
	}
	for _, w := range []tree.Walker{{Refer: refer}, {}} {
		n := 0
		for f, err := range w.Walk([]string{dir}) {
			if err != nil {
				t.Fatal(err)
			}
			n++
			k := want[f.Rel]
			if w.Refer == nil && k != base.HTML {
				k = base.Other
			}
			if f.Kind != k {
				t.Errorf("refer %v: %s is %v, want %v", w.Refer != nil, f.Rel, f.Kind, k)
			}
		}
		if n != len(want) {
			t.Errorf("%d files walked", n)
		}
	}
}

// TestSheetEnvironment: CSS Syntax §3.2 "determine the fallback
// encoding", step 3: a stylesheet without BOM, charset or @charset takes
// the encoding of the page that links it (HTML §4.6.7.x "link type
// stylesheet": the document's encoding); a sheet no legacy page links
// has none (UTF-8).
func TestSheetEnvironment(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"ru.html":       `<meta charset="windows-1251"><link rel=stylesheet href="css/ru.css"><a href="css/other.css">`,
		"utf8.html":     `<meta charset="utf-8"><link rel=stylesheet href="css/u.css">`,
		"css/ru.css":    "a{b:url(\xe9.png)}",
		"css/u.css":     "a{b:url(\xe9.png)}",
		"css/other.css": "a{}",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, _ := tree.NewMapper("https://www.example/")
	refer := whatwgReader(m)
	got := map[string]string{}
	for f, err := range (tree.Walker{Refer: refer}).Walk([]string{dir}) {
		if err != nil || f.Kind != base.CSS {
			continue
		}
		u, _ := m.URL(f)
		env := refer.SheetEnvironment(u)
		data, _ := os.ReadFile(f.Path)
		htmlrewrite.CSSLinks(bytes.NewReader(data), htmlrewrite.Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: u}}, SheetEnvironment: env},
			func(l link.Link) error { got[f.Rel] = env + " " + l.URL; return nil })
	}
	want := map[string]string{
		"css/ru.css": "windows-1251 https://www.example/css/%D0%B9.png", // 0xE9 is й in windows-1251
		"css/u.css":  " https://www.example/css/%EF%BF%BD.png",
	}
	if len(got) != 2 || got["css/ru.css"] != want["css/ru.css"] || got["css/u.css"] != want["css/u.css"] {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestReferralsCost: reading pages for referrals costs nothing in a tree
// without a file they could classify (a README, robots.txt, dotfiles are
// none: the benchmark corpora's ".source" made every rewrite, links and
// check read each page twice, +35–75 % CPU), and with candidates only the
// pages that mention a module, an import map or a manifest are tokenized.
func TestReferralsCost(t *testing.T) {
	for _, c := range []struct {
		name    string
		files   map[string]string
		scanned []string
	}{
		{"no candidate", map[string]string{
			"a.html": `<script type=module src=m.js></script>`, "b.html": `<p>`,
			".source": "x", "README.md": "y", "robots.txt": "z", ".htaccess": "w",
		}, nil},
		{"candidates, pages without module or manifest", map[string]string{
			"a.html": `<script src=c.js></script>`, "b.html": `<link rel=stylesheet href=s.css>`,
			"c.js": "", "data.json": "{}", "LICENSE": "",
		}, nil},
		{"a page that names a module", map[string]string{
			"a.html": `<SCRIPT TYPE=MODULE SRC=m.js></SCRIPT>`, "b.html": `<p>`, "m.js": "",
		}, []string{"a.html"}},
	} {
		dir := t.TempDir()
		for name, data := range c.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var scanned []string
		scanHook = func(p string) { rel, _ := filepath.Rel(dir, p); scanned = append(scanned, rel) }
		m, _ := tree.NewMapper("https://www.example/")
		refer := whatwgReader(m)
		for _, err := range (tree.Walker{Refer: refer}).Walk([]string{dir}) {
			if err != nil {
				t.Fatal(err)
			}
		}
		scanHook = nil
		if !slices.Equal(scanned, c.scanned) {
			t.Errorf("%s: pages read for referrals %q, want %q", c.name, scanned, c.scanned)
		}
	}
}

func TestMentions(t *testing.T) {
	long := strings.Repeat("x", 64<<10-3)
	for s, want := range map[string]bool{
		"": false, "<p>": false, "type=Module": true, "rel=MANIFEST": true, "<script type=importmap>": true,
		long + "module": true, long + "mod": false, "modul": false, "mmodule": true,
	} {
		if got := mentions(strings.NewReader(s), referWords); got != want {
			t.Errorf("mentions(%.20q… %d bytes) = %v", s, len(s), got)
		}
	}
}

// TestReferralsImportMap: HTML §8.1.5.3, a module's bare specifiers
// resolve through the import map of the document that loads it. Each
// module of the tree gets the bare keys of its page's import maps, carried
// to the modules it imports (a .js file or a .mjs file); the first page
// wins; a page without a map, or a nil Reader, gives none.
func TestReferralsImportMap(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string]string{
		"a.html":      `<script type=importmap>{"imports":{"lib":"./vendor/lib.js"},"scopes":{"/x/":{"s/":"./s/"}}}</script><script type=module src=js/app.js></script>`,
		"b.html":      `<script type=importmap>{"imports":{"other":"./o.js"}}</script><script type=module src=js/app.js></script><script type=module src=js/b.mjs></script>`,
		"c.html":      `<script type=module src=js/plain.js></script>`,
		"js/app.js":   `import "lib"; import "./dep.js"; import "./dep2.mjs";`,
		"js/dep.js":   `import "lib";`,
		"js/dep2.mjs": `export {};`,
		"js/b.mjs":    `export {};`,
		"js/plain.js": `import "lib";`,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	m, _ := tree.NewMapper("https://www.example/")
	refer := whatwgReader(m)
	for _, err := range (tree.Walker{Refer: refer}).Walk([]string{dir}) {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		rel  string
		want []string
	}{
		{"js/app.js", []string{"lib", "s/"}}, // a.html before b.html
		{"js/dep.js", []string{"lib", "s/"}},
		{"js/dep2.mjs", []string{"lib", "s/"}},
		{"js/b.mjs", []string{"other"}},
		{"js/plain.js", nil},
		{"a.html", nil},
	} {
		if got := refer.ImportMap("https://www.example/" + c.rel); !slices.Equal(got, c.want) {
			t.Errorf("ImportMap(%s) = %q, want %q", c.rel, got, c.want)
		}
	}
	if got := (*Reader)(nil).ImportMap("https://www.example/js/app.js"); got != nil {
		t.Errorf("nil Reader: %q", got)
	}
}

// whatwgReader is a Reader of the tree m maps, reading its pages and
// modules under the WHATWG URL Standard at their own URLs.
func whatwgReader(m *tree.Mapper) *Reader {
	doc := func(u string) link.Document {
		return link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: u}}
	}
	return &Reader{
		Mapper: m,
		HTML:   func(u string) htmlrewrite.Options { return htmlrewrite.Options{Document: doc(u)} },
		Module: func(u string) jsmodule.Options { return jsmodule.Options{Document: doc(u)} },
	}
}
