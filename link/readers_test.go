package link_test

import (
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

	_, err := htmlrewrite.Links(strings.NewReader(`<a href=a><base href="/b/">`), htmlrewrite.Options{Spec: resolve.WHATWG, Context: ctx("http://h.example/p")}, collect)
	check("html", "http://h.example/b/", 1, err)
	_, err = htmlrewrite.CSSLinks(strings.NewReader(`a{b:url(x.png)}`), htmlrewrite.Options{Spec: resolve.WHATWG, Context: ctx("http://h.example/c/s.css")}, collect)
	check("css", "http://h.example/c/s.css", 1, err)
	_, err = xmlrewrite.Links(strings.NewReader(`<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xml:base="/x/"><image href="i.png"/></svg>`), xmlrewrite.Options{Spec: resolve.WHATWG, Context: ctx("http://h.example/d.svg"), XMLBase: xmlrewrite.XMLBaseHonour}, collect)
	check("svg", "http://h.example/x/", 1, err)
	_, err = manifest.Links(strings.NewReader(`{"start_url": "s/"}`), manifest.Options{Spec: resolve.WHATWG, Context: ctx("http://h.example/m.json")}, collect)
	check("manifest", "http://h.example/m.json", 1, err)
	_, err = jsmodule.Links(strings.NewReader(`import "./a.js";`), jsmodule.Options{Spec: resolve.WHATWG, Context: ctx("http://h.example/j/m.js")}, collect)
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
