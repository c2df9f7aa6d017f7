package base

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/resolve"
)

// TestHTTPHeadersInWHATWGMode: browsers take an HTML document's base from
// its <base href> and the response URL only (HTML Standard, "document
// base URL" and "fallback base URL": the document's URL, which is the
// response URL); they ignore Base, Content-Base and Content-Location. So
// for a fetched page the WHATWG mode ignores Base and Content-Base, and
// Content-Location counts only when asked (ContentLocation). The RFC modes
// keep the draft's §3.2 layer: Base, then Content-Base (RFC 2068 §14.11),
// then Content-Location when asked. The case is a page served
// with "Base: <URL:http://other.example/b/>".
func TestHTTPHeadersInWHATWGMode(t *testing.T) {
	headers := map[string][2]string{
		"/base":             {"Base", "<URL:http://other.example/b/>"},
		"/content-base":     {"Content-Base", "http://other.example/cb/"},
		"/content-location": {"Content-Location", "/cl/page.html"},
	}
	mux := http.NewServeMux()
	for path, h := range headers {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set(h[0], h[1])
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, "<a href=x>x</a>")
		})
	}
	mux.HandleFunc("/with-base", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Base", "http://other.example/b/")
		fmt.Fprint(w, "<base href=/e/><a href=x>x</a>")
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	u := srv.URL
	cases := []struct {
		path            string
		spec            resolve.Spec
		contentLocation bool
		base            string
		source          Source
		warning         string
	}{
		{"/base", resolve.WHATWG, false, u + "/base", Retrieval, "Base of the HTTP response ignored: browsers"},
		{"/content-base", resolve.WHATWG, false, u + "/content-base", Retrieval, "Content-Base of the HTTP response ignored: browsers"},
		{"/content-location", resolve.WHATWG, false, u + "/content-location", Retrieval, "Content-Location of the HTTP response ignored"},
		{"/content-location", resolve.WHATWG, true, u + "/cl/page.html", Header, ""},
		{"/base", resolve.WHATWG, true, u + "/base", Retrieval, "Base of the HTTP response ignored: browsers"},
		{"/base", resolve.RFC3986, false, "http://other.example/b/", Header, ""},
		{"/base", resolve.RFC1808, false, "http://other.example/b/", Header, ""},
		{"/content-base", resolve.RFC2396, false, "http://other.example/cb/", Header, ""},
		{"/content-location", resolve.RFC3986, false, u + "/content-location", Retrieval, "Content-Location of the HTTP response ignored"},
		{"/content-location", resolve.RFC3986, true, u + "/cl/page.html", Header, ""},
		// <base href> outranks every header in every mode.
		{"/with-base", resolve.WHATWG, false, u + "/e/", Embedded, "Base of the HTTP response ignored"},
		// A relative <base href> resolves against the §3.2 layer there.
		{"/with-base", resolve.RFC3986, false, "http://other.example/e/", Embedded, ""},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s %v %v", c.path, c.spec, c.contentLocation), func(t *testing.T) {
			doc, err := Fetch(context.Background(), nil, u+c.path, FetchLimits{})
			require.NoError(t, err)
			ctx := *doc.Context
			ctx.Spec, ctx.ContentLocation = c.spec, c.contentLocation
			e, _, err := ScanHTML(strings.NewReader(string(doc.Body)), false)
			require.NoError(t, err)
			r := ctx.Decide(e)
			assert.Equal(t, c.base, r.URL)
			assert.Equal(t, c.source, r.Source)
			if c.warning != "" {
				assert.Contains(t, strings.Join(r.Warnings, "\n"), c.warning)
			}

			// FromResponse gives an http.Client's response the same layers.
			resp, err := http.Get(u + c.path)
			require.NoError(t, err)
			resp.Body.Close()
			rc := FromResponse(c.spec, resp)
			rc.ContentLocation = c.contentLocation
			assert.Equal(t, c.base, rc.Decide(e).URL)
		})
	}
	// A header given outside HTTP (relurl base --header, a MIME message)
	// keeps the draft's §3.2 layer in every mode.
	c := Context{Spec: resolve.WHATWG, Header: map[string][]string{"Base": {"<URL:http://other.example/b/>"}}}
	assert.Equal(t, "http://other.example/b/", c.Decide(Element{}).URL)
}
