package base_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/resolve"
)

// The draft's §10 appendix page: its BASE decides, whatever the context.
func ExampleContext_Decide() {
	const page = `<!doctype html public "-//IETF//DTD HTML//EN">
<HTML><HEAD>
<TITLE>An example HTML document</TITLE>
<BASE href="http://www.ics.uci.edu/Test/a/b/c">
</HEAD><BODY>
... <A href="../x">a hypertext anchor</A> ...
</BODY></HTML>`
	e, _, err := base.ScanHTML(strings.NewReader(page), true)
	if err != nil {
		panic(err)
	}
	c := base.Context{Spec: resolve.RFC1808, Retrieval: "http://mirror.example/copy.html"}
	r := c.Decide(e)
	x, _ := resolve.Reference(c.Spec, r.URL, "../x")
	fmt.Println(r.Provenance())
	fmt.Println(r.URL)
	fmt.Println(x)
	// Output:
	// embedded: <base href> at line 4
	// http://www.ics.uci.edu/Test/a/b/c
	// http://www.ics.uci.edu/Test/a/x
}

// The draft's §3.2 Base header, folded over two lines.
func ExampleContext_Fallback() {
	c := base.Context{
		Spec:      resolve.RFC1808,
		Header:    textproto.MIMEHeader{"Base": {"<URL:http://www.ics.uci.edu/ Test/a/b/c>"}},
		Retrieval: "http://mirror.example/copy.html",
	}
	r := c.Fallback()
	fmt.Println(r.Provenance())
	fmt.Println(r.URL)
	// Output:
	// header: Base header
	// http://www.ics.uci.edu/Test/a/b/c
}

// A part of a composite entity takes the base of the entity that encloses
// it as its retrieval context (§3.3).
func ExampleContext_Part() {
	// RFC 2557 §9.3: the multipart/related heading's Content-Location.
	message := &base.Context{
		Spec:            resolve.RFC3986,
		Header:          textproto.MIMEHeader{"Content-Location": {"http://www.ietf.cnri.reston.va.us/"}},
		ContentLocation: true, // a MIME message, not an HTTP response
	}
	part, err := message.Part(message.Fallback(), "multipart/related", textproto.MIMEHeader{
		"Content-Type": {"text/html"},
	}, "part 1")
	if err != nil {
		panic(err)
	}
	r := part.Fallback()
	fmt.Println(r.Provenance())
	fmt.Println(r.URL)
	// Output:
	// composite: base of enclosing multipart/related
	// http://www.ietf.cnri.reston.va.us/
}

// Each Location is resolved against the URL that answered it.
func ExampleRedirected() {
	c, err := base.Redirected(resolve.RFC3986, "http://www.example.org/~tim#frag", "/People.html", "../new/People.html")
	if err != nil {
		panic(err)
	}
	r := c.Fallback()
	fmt.Println(r.Provenance())
	fmt.Println(r.URL)
	// Output:
	// retrieval: last of 2 redirects
	// http://www.example.org/new/People.html#frag
}

// Fetch follows the redirects itself: each relative Location is resolved
// against the URL that sent it, the request's fragment is inherited (RFC
// 9110 §10.2.2), and the last URL is the retrieval URL against which the
// page's relative <base href> is resolved.
func ExampleFetch() {
	mux := http.NewServeMux()
	mux.HandleFunc("/old", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Location", "new/page.html")
		w.WriteHeader(http.StatusMovedPermanently)
	})
	mux.HandleFunc("/new/page.html", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<head><base href="../static/"></head><body><img src="a.png"></body>`)
	})
	srv := httptest.NewServer(mux) // loopback only
	defer srv.Close()

	doc, err := base.Fetch(context.Background(), srv.Client(), srv.URL+"/old#top", base.FetchLimits{})
	if err != nil {
		panic(err)
	}
	e, _, err := base.ScanHTML(bytes.NewReader(doc.Body), false)
	if err != nil {
		panic(err)
	}
	r := doc.Context.Decide(e)
	fmt.Println(strings.TrimPrefix(doc.URL, srv.URL), doc.Context.Fallback().Provenance())
	fmt.Println(strings.TrimPrefix(r.URL, srv.URL), r.Provenance())
	// Output:
	// /new/page.html#top retrieval: last of 1 redirect
	// /static/ embedded: <base href> at line 1
}

// The draft's §3.2 form, and the forms later headers took.
func ExampleHeaderValue() {
	for _, v := range []string{
		"<URL:http://www.ics.uci.edu/Test/a/b/c>",
		"<url: http://www.ics.uci.edu/\r\n Test/a/b/c>",
		"<http://www.ics.uci.edu/Test/a/b/c>",
		"images/",
	} {
		u, err := base.HeaderValue(v)
		fmt.Println(u, err)
	}
	// Output:
	// http://www.ics.uci.edu/Test/a/b/c <nil>
	// http://www.ics.uci.edu/Test/a/b/c <nil>
	// http://www.ics.uci.edu/Test/a/b/c <nil>
	// images/ <nil>
}
