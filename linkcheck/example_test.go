package linkcheck_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/tree"
)

// What breaks when the tree served from https://example.org/site/ moves,
// for links of its page guide/intro.html.
func ExampleChecker_Analyze() {
	const doc = "https://example.org/site/guide/intro.html"
	c := &linkcheck.Checker{Spec: resolve.RFC3986, Root: "https://example.org/site/"}
	var links []link.Link
	for i, raw := range []string{"next.html", "https://example.org/site/index.html", "/site/img/a.png", "../../other/", "https://example.com/"} {
		u, _ := resolve.Reference(resolve.RFC3986, doc, raw)
		links = append(links, link.Link{Raw: raw, URL: u, Line: i + 1, Column: 1})
	}
	for _, f := range c.Analyze("guide/intro.html", doc, doc, links) {
		fmt.Printf("line %d: %s %s -> %q\n", f.Line, f.Problem, f.Link, f.Relative)
	}
	// Output:
	// line 2: absolute https://example.org/site/index.html -> "../index.html"
	// line 3: root-relative /site/img/a.png -> "../img/a.png"
	// line 4: climbs-out ../../other/ -> ""
}

// Check finds what pins a page to its place, and Fix rewrites the links
// into the tree to their relative form, wherever they are (here one
// candidate of a srcset); every other byte stays.
func ExampleChecker_Fix() {
	c := &linkcheck.Checker{Spec: resolve.WHATWG, Root: "https://example.org/site/"}
	page := tree.File{Rel: "guide/intro.html"}
	data := []byte(`<a href="/site/index.html">home</a> <img src=a.png srcset="a.png 1x, https://example.org/site/guide/a2.png 2x">`)
	found, err := c.Check(page, data)
	if err != nil {
		log.Fatal(err)
	}
	fixed, n, err := c.Fix(page, data, found)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d links fixed\n%s\n", n, fixed)
	// Output:
	// 2 links fixed
	// <a href="../index.html">home</a> <img src=a.png srcset="a.png 1x, a2.png 2x">
}

// Check a small tree as GitHub Pages serves it: "about" reaches
// about.html, "Guide.html" is guide.html only on a case-insensitive disk,
// and a fragment into another page is checked once every page is read.
func ExampleChecker_Finish() {
	dir, err := os.MkdirTemp("", "site")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	pages := map[string]string{
		"index.html": `<a href="about">About</a> <a href="Guide.html">Guide</a> <a href="guide.html#install">Install</a>`,
		"about.html": `<h1 id=top>About</h1>`,
		"guide.html": `<h2 id=setup>Setup</h2>`,
	}
	for name, text := range pages {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	host, _ := linkcheck.HostProfile("github-pages")
	c := &linkcheck.Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/", Host: host}
	var found []linkcheck.Finding
	for f, err := range tree.Walk([]string{dir}) {
		if err != nil {
			log.Fatal(err)
		}
		data, _ := os.ReadFile(f.Path)
		fs, err := c.Check(f, data)
		if err != nil {
			log.Fatal(err)
		}
		found = append(found, fs...)
	}
	found = append(found, c.Finish()...)
	for _, f := range found {
		fmt.Printf("%s:%d:%d: %s: %s (%s)\n", filepath.Base(f.File), f.Line, f.Column, f.Problem, f.Link, f.Relative)
	}
	// Output:
	// index.html:1:36: case-mismatch: Guide.html (guide.html)
	// index.html:1:67: missing-anchor: guide.html#install ()
}
