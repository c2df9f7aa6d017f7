package materialize_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/relurl/relurl/materialize"
)

// A WARC with a page, its stylesheet (served from a query URL) and a
// redirect, materialized: every URL is a file, and the page's links point
// at the files.
func ExampleRun() {
	dir, _ := os.MkdirTemp("", "materialize-example")
	defer os.RemoveAll(dir)
	var warc strings.Builder
	record := func(uri, http string) {
		fmt.Fprintf(&warc, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:%d>\r\nWARC-Date: 2026-01-02T03:04:05Z\r\n"+
			"WARC-Target-URI: %s\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
			warc.Len(), uri, len(http), http)
	}
	page := `<link rel=stylesheet href="/style?v=2"><a href="/old#top">old</a> <a href="https://elsewhere.test/">away</a>`
	record("http://example.test/", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"+page)
	record("http://example.test/style?v=2", "HTTP/1.1 200 OK\r\nContent-Type: text/css\r\n\r\nbody{}")
	record("http://example.test/old", "HTTP/1.1 301 Moved\r\nLocation: /docs/\r\n\r\n")
	record("http://example.test/docs/", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p id=top>docs")
	in := filepath.Join(dir, "site.warc")
	os.WriteFile(in, []byte(warc.String()), 0o644)

	out := filepath.Join(dir, "tree")
	sum, err := materialize.Run([]string{in}, materialize.Options{Dir: out})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d pages, %d resources, %d redirects, %d uncaptured links\n", sum.Pages, sum.Resources, sum.Redirects, sum.Uncaptured)
	home, _ := os.ReadFile(filepath.Join(out, "example.test", "index.html"))
	fmt.Println(string(home))
	// Output:
	// 2 pages, 1 resources, 1 redirects, 1 uncaptured links
	// <link rel=stylesheet href="style;v=2.css"><a href="docs/index.html#top">old</a> <a href="https://elsewhere.test/">away</a>
}
