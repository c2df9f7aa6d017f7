package link_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/manifest"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/xmlrewrite"
)

// TestEveryReaderReportsOneType feeds one callback, of one type, to every
// reader of the module, and checks that each link arrives with the base it
// was resolved against (and, for the composites, where it was found): the
// one Link type, with no caller attaching a base afterwards.
func TestEveryReaderReportsOneType(t *testing.T) {
	var got []link.Link
	collect := func(l link.Link) error { got = append(got, l); return nil }
	ctx := func(u string) base.Context { return base.Context{Spec: resolve.WHATWG, Retrieval: u} }
	check := func(name, wantBase string, n int, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(got) != n {
			t.Fatalf("%s: %d links, want %d: %+v", name, len(got), n, got)
		}
		for _, l := range got {
			if l.Base.URL != wantBase || l.URL == "" {
				t.Errorf("%s: link %q: URL %q, base %q (%s), want base %q", name, l.Raw, l.URL, l.Base.URL, l.Base.Source, wantBase)
			}
		}
		got = got[:0]
	}

	_, err := htmlrewrite.Links(strings.NewReader(`<a href=a><base href="/b/">`), htmlrewrite.Options{Document: link.Document{Context: ctx("http://h.example/p")}}, collect)
	check("html", "http://h.example/b/", 1, err)
	_, err = htmlrewrite.CSSLinks(strings.NewReader(`a{b:url(x.png)}`), htmlrewrite.Options{Document: link.Document{Context: ctx("http://h.example/c/s.css")}}, collect)
	check("css", "http://h.example/c/s.css", 1, err)
	_, err = xmlrewrite.Links(strings.NewReader(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xml:base="/x/"><image href="i.png"/></svg>`), xmlrewrite.Options{Document: link.Document{Context: ctx("http://h.example/d.svg")}, XMLBase: xmlrewrite.XMLBaseHonour}, collect)
	check("svg", "http://h.example/x/", 1, err)
	_, err = manifest.Links(strings.NewReader(`{"start_url": "s/"}`), manifest.Options{Document: link.Document{Context: ctx("http://h.example/m.json")}}, collect)
	check("manifest", "http://h.example/m.json", 1, err)
	_, err = jsmodule.Links(strings.NewReader(`import "./a.js";`), jsmodule.Options{Document: link.Document{Context: ctx("http://h.example/j/m.js")}}, collect)
	check("module", "http://h.example/j/m.js", 1, err)
	err = archive.HeaderLinks([]string{`</s.css>; rel=preload`}, resolve.WHATWG, "http://h.example/r", collect)
	check("header", "http://h.example/r", 1, err)

	mhtml := "MIME-Version: 1.0\nContent-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\nContent-Location: http://h.example/m/\n\n<img src=\"i.gif\">\n--b\nContent-Type: image/gif\nContent-Location: http://h.example/m/i.gif\n\nGIF\n--b--\n"
	_, err = extract.Links(strings.NewReader(mhtml), base.MHTML, extract.Options{MIME: archive.Options{Spec: resolve.WHATWG}}, collect)
	if len(got) == 1 && (got[0].Part != "1" || got[0].TargetPart != "2") {
		t.Errorf("mhtml: part %q, target part %q, want 1 and 2", got[0].Part, got[0].TargetPart)
	}
	check("mhtml", "http://h.example/m/", 1, err)

	body := "<a href=a>"
	http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nLink: </l>; rel=next\r\nContent-Length: " + fmt.Sprint(len(body)) + "\r\n\r\n" + body
	warc := "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://h.example/w/\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: " + fmt.Sprint(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
	_, err = extract.Links(strings.NewReader(warc), base.WARC, extract.Options{MIME: archive.Options{Spec: resolve.WHATWG}}, collect)
	for _, l := range got {
		if l.Target != "http://h.example/w/" || l.Record != 0 {
			t.Errorf("warc: record %d, target %q", l.Record, l.Target)
		}
	}
	check("warc", "http://h.example/w/", 2, err)
}

// TestOneCoreEveryReader: one link.Document, filled once, is the options
// of every reader as it is (each reader's Options embeds it: there is no
// second Spec, nor a per-reader name for a shared field), and what it says
// acts in each: its spec and base layers resolve every link, Absolute
// rewrites a reference with a scheme, Map decides what is written, and
// MaxSize bounds what each holds.
func TestOneCoreEveryReader(t *testing.T) {
	core := link.Document{
		Context:  base.Context{Spec: resolve.WHATWG, Retrieval: "http://h.example/d/"},
		Absolute: true,
		Map: func(l link.Link) (string, bool) {
			if strings.HasSuffix(l.URL, "/m") {
				return "mapped", true
			}
			return "", false
		},
	}
	type reader struct {
		name          string
		doc           string
		links         func(string, link.Document) ([]string, error)
		rewrite       func(string, link.Document) (string, error)
		wantLinks     string
		wantRewritten string
	}
	collect := func(urls *[]string) func(link.Link) error {
		return func(l link.Link) error {
			if l.Err != nil {
				return l.Err
			}
			*urls = append(*urls, l.URL)
			return nil
		}
	}
	readers := []reader{
		{"html", `<a href="a"></a><a href="HTTP://X.example/m"></a>`,
			func(doc string, d link.Document) (u []string, err error) {
				_, err = htmlrewrite.Links(strings.NewReader(doc), htmlrewrite.Options{Document: d}, collect(&u))
				return u, err
			},
			func(doc string, d link.Document) (string, error) {
				var b strings.Builder
				_, err := htmlrewrite.Rewrite(&b, strings.NewReader(doc), htmlrewrite.Options{Document: d})
				return b.String(), err
			},
			"http://h.example/d/a http://x.example/m", `<a href="http://h.example/d/a"></a><a href="mapped"></a>`},
		{"svg", `<svg xmlns="http://www.w3.org/2000/svg"><image href="a"/><image href="HTTP://X.example/m"/></svg>`,
			func(doc string, d link.Document) (u []string, err error) {
				_, err = xmlrewrite.Links(strings.NewReader(doc), xmlrewrite.Options{Document: d}, collect(&u))
				return u, err
			},
			func(doc string, d link.Document) (string, error) {
				var b strings.Builder
				_, err := xmlrewrite.Rewrite(&b, strings.NewReader(doc), xmlrewrite.Options{Document: d})
				return b.String(), err
			},
			"http://h.example/d/a http://x.example/m", `<svg xmlns="http://www.w3.org/2000/svg"><image href="http://h.example/d/a"/><image href="mapped"/></svg>`},
		{"manifest", `{"start_url": "a", "scope": "HTTP://X.example/m"}`,
			func(doc string, d link.Document) (u []string, err error) {
				_, err = manifest.Links(strings.NewReader(doc), manifest.Options{Document: d}, collect(&u))
				return u, err
			},
			func(doc string, d link.Document) (string, error) {
				var b strings.Builder
				_, err := manifest.Rewrite(&b, strings.NewReader(doc), manifest.Options{Document: d})
				return b.String(), err
			},
			"http://h.example/d/a http://x.example/m", `{"start_url": "http://h.example/d/a", "scope": "mapped"}`},
		{"module", `import "./a"; import "HTTP://X.example/m";`,
			func(doc string, d link.Document) (u []string, err error) {
				_, err = jsmodule.Links(strings.NewReader(doc), jsmodule.Options{Document: d}, collect(&u))
				return u, err
			},
			func(doc string, d link.Document) (string, error) {
				var b strings.Builder
				_, err := jsmodule.Rewrite(&b, strings.NewReader(doc), jsmodule.Options{Document: d})
				return b.String(), err
			},
			"http://h.example/d/a http://x.example/m", `import "http://h.example/d/a"; import "mapped";`},
	}
	for _, r := range readers {
		urls, err := r.links(r.doc, core)
		if err != nil || strings.Join(urls, " ") != r.wantLinks {
			t.Errorf("%s: links %q, %v; want %q", r.name, urls, err, r.wantLinks)
		}
		out, err := r.rewrite(r.doc, core)
		if err != nil || out != r.wantRewritten {
			t.Errorf("%s: rewritten %q, %v; want %q", r.name, out, err, r.wantRewritten)
		}
		small := core
		small.MaxSize = 8
		if _, err := r.links(r.doc, small); !errors.Is(err, link.ErrIncomplete) {
			t.Errorf("%s: MaxSize 8: %v, want link.ErrIncomplete", r.name, err)
		}
	}
}
