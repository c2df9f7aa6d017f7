package tree_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"net/textproto"
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
