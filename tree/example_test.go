package tree_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"os"
	"path/filepath"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/tree"
)

// A mirrored site maps each file to the site's root URL plus its path.
func ExampleMapper_URL() {
	m, err := tree.NewMapper("https://example.org/docs")
	if err != nil {
		log.Fatal(err)
	}
	for _, rel := range []string{"index.html", "guide/a b.html"} {
		u, err := m.URL(tree.File{Rel: rel})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(u)
	}
	// Output:
	// https://example.org/docs/index.html
	// https://example.org/docs/guide/a%20b.html
}

// What breaks when the tree served from https://example.org/site/ moves,
// for links of its page guide/intro.html.
func ExampleChecker_Analyze() {
	const doc = "https://example.org/site/guide/intro.html"
	c := &tree.Checker{Spec: resolve.RFC3986, Root: "https://example.org/site/"}
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
	c := &tree.Checker{Spec: resolve.WHATWG, Root: "https://example.org/site/"}
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

// A crawler in the style of colly's OnHTML callbacks: fetch a page (the
// base is the URL after redirects), get each link in absolute form from a
// callback, and follow the ones into the site.
func Example_crawl() {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/docs/", http.StatusFound) })
	mux.HandleFunc("/docs/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<a href="intro.html">intro</a> <a href="https://example.com/">elsewhere</a>`)
	})
	mux.HandleFunc("/docs/intro.html", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<a href="./">back</a> <img src="../img/logo.png">`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	seen := map[string]bool{}
	queue := []string{srv.URL + "/"}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		doc, err := base.Fetch(context.Background(), srv.Client(), u, base.FetchLimits{})
		if err != nil {
			log.Fatal(err)
		}
		seen[doc.URL] = true // the base: the URL after redirects
		fmt.Println("visit", strings.TrimPrefix(doc.URL, srv.URL))
		opts := htmlrewrite.Options{Document: link.Document{Context: *doc.Context}}
		_, err = htmlrewrite.Links(bytes.NewReader(doc.Body), opts, func(l link.Link) error {
			if l.Kind == link.Navigation && strings.HasPrefix(l.URL, srv.URL+"/") && !seen[l.URL] {
				seen[l.URL] = true
				queue = append(queue, l.URL)
			}
			return nil
		})
		if err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// visit /docs/
	// visit /docs/intro.html
}

// With net/http: the base of a response is the URL after redirects
// (resp.Request.URL, the draft's §3.3), below its own <base href> and, if
// asked, its headers.
func Example_netHTTP() {
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/new/page.html", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/new/page.html", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<a href="next.html">next</a> <img src="/logo.png">`)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	resp, err := srv.Client().Get(srv.URL + "/old")
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	var out strings.Builder
	_, err = htmlrewrite.Rewrite(&out, resp.Body, htmlrewrite.Options{
		Document: link.Document{Context: base.Context{
			Spec:      resolve.WHATWG,
			Header:    textproto.MIMEHeader(resp.Header),
			Retrieval: resp.Request.URL.String(),
		}, ContentType: resp.Header.Get("Content-Type")},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.ReplaceAll(out.String(), srv.URL, "http://server"))
	// Output:
	// <a href="http://server/new/next.html">next</a> <img src="http://server/logo.png">
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
	host, _ := tree.HostProfile("github-pages")
	c := &tree.Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/", Host: host}
	var found []tree.Finding
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
