package archive

import (
	"strconv"
	"strings"
	"testing"

	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// TestHeaderLinks follows RFC 8288 §3.1 (targets against the retrieval
// URL, not a body <base>, not the anchor) and docs/formats.md §7 / checklist #15.
func TestHeaderLinks(t *testing.T) {
	tests := []struct {
		values []string
		want   []string // url rel...
	}{
		{[]string{`<x.js>; rel=modulepreload, <https://www.example/a,b.css>; rel=preload`},
			[]string{"https://www.example/a/b/x.js modulepreload", "https://www.example/a,b.css preload"}},
		{[]string{`<style.css>; rel=preload`}, []string{"https://www.example/a/b/style.css preload"}},
		// §3.2: the anchor is the context, never the target's base.
		{[]string{`</c.css>; rel=preload; anchor="https://other.example/x"`}, []string{"https://www.example/c.css preload"}},
		{[]string{`<>; rel=canonical`}, []string{"https://www.example/a/b/page canonical"}},
		// §3.3: several types; extension types kept as written; quoted ";" and "," belong to the value.
		{[]string{`<n>; rel="Next http://e.example/Rel"; title="a, b; c", <p>;rel=prev`, `<q>`},
			[]string{"https://www.example/a/b/n next http://e.example/Rel", "https://www.example/a/b/p prev", "https://www.example/a/b/q"}},
		// Appendix B.2: junk before a link-value is skipped; the first rel counts.
		{[]string{`junk, <r>; rel=a; rel=b`}, []string{"https://www.example/a/b/r a"}},
	}
	for _, tt := range tests {
		var got []string
		err := HeaderLinks(tt.values, resolve.WHATWG, "https://www.example/a/b/page", func(l link.Link) error {
			if l.Kind != link.Header || l.Err != nil {
				t.Errorf("%q: kind %v err %v", tt.values, l.Kind, l.Err)
			}
			got = append(got, strings.TrimSpace(l.URL+" "+strings.Join(l.Rel, " ")))
			return nil
		})
		if err != nil || strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("HeaderLinks(%q) = %q, %v; want %q", tt.values, got, err, tt.want)
		}
	}
}

func TestParseLinkHeaderOffsets(t *testing.T) {
	v := `<a>; rel=x,  <b/c>`
	for _, lv := range ParseLinkHeader(v) {
		if v[lv.Offset:lv.Offset+len(lv.Target)] != lv.Target {
			t.Errorf("offset %d does not point at %q", lv.Offset, lv.Target)
		}
	}
	lv := ParseLinkHeader(`<a>; anchor="#x"; anchor="y"`)
	if len(lv) != 1 || lv[0].Anchor == nil || *lv[0].Anchor != "#x" {
		t.Errorf("anchor: %+v", lv)
	}
}

func FuzzParseLinkHeader(f *testing.F) {
	f.Add(`<x.js>; rel=modulepreload, <https://www.example/a,b.css>; rel="preload next"; title*=UTF-8''a%20b`)
	f.Add(`<a`)
	f.Add(`;;,<>"`)
	f.Fuzz(func(t *testing.T, v string) {
		for _, lv := range ParseLinkHeader(v) {
			if lv.Offset < 1 || lv.Offset+len(lv.Target) > len(v) || v[lv.Offset:lv.Offset+len(lv.Target)] != lv.Target {
				t.Fatalf("bad offset %d for %q in %q", lv.Offset, lv.Target, v)
			}
		}
	})
}

// TestWARCLinkHeader: a response record's Link headers are links of kind
// header, resolved against WARC-Target-URI even when the body has a
// <base> (RFC 8288 §3.1; checklist #15).
func TestWARCLinkHeader(t *testing.T) {
	http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nLink: <x.js>; rel=modulepreload, <https://www.example/a,b.css>; rel=preload\r\n\r\n<base href=\"https://cdn.example/\"><a href=\"p\">p</a>"
	warc := "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://www.example/a/b/page\r\n" +
		"Content-Type: application/http; msgtype=response\r\nContent-Length: " + strconv.Itoa(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
	var got []string
	if err := WARCLinks(strings.NewReader(warc), Options{Spec: resolve.WHATWG}, func(l WARCLink) error {
		got = append(got, l.Kind.String()+" "+l.URL+" "+strings.Join(l.Rel, ","))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{"header https://www.example/a/b/x.js modulepreload", "header https://www.example/a,b.css preload", "navigation https://cdn.example/p "}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestWARCOtherKinds: stylesheet, SVG, Atom (sniffed from application/xml)
// and manifest responses have their links read, each against the record's
// WARC-Target-URI (the feed's against its xml:base); other XML is not read.
func TestWARCOtherKinds(t *testing.T) {
	rec := func(uri, ct, body string) string {
		http := "HTTP/1.1 200 OK\r\nContent-Type: " + ct + "\r\n\r\n" + body
		return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri + "\r\n" +
			"Content-Type: application/http; msgtype=response\r\nContent-Length: " + strconv.Itoa(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
	}
	warc := rec("https://cdn.example/css/site.css", "text/css", `@import "reset.css"; a{b:url(../img/bg.png)}`) +
		rec("https://www.example/icons/set.svg", "image/svg+xml", `<svg xmlns="http://www.w3.org/2000/svg"><use href="a.svg#x"/></svg>`) +
		rec("https://feeds.example/f/atom", "application/xml", `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/a/"><link href="p1"/></feed>`) +
		rec("https://www.example/sitemap.xml", "application/xml", `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/x</loc></url></urlset>`) +
		rec("https://app.example/pwa/manifest.webmanifest", "application/manifest+json", `{"start_url":"./","icons":[{"src":"i.png"}]}`)
	var got []string
	if err := WARCLinks(strings.NewReader(warc), Options{Spec: resolve.WHATWG}, func(l WARCLink) error {
		got = append(got, l.Kind.String()+" "+l.URL+" "+l.Base.Source.String())
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"css https://cdn.example/css/reset.css retrieval", "css https://cdn.example/img/bg.png retrieval",
		"resource https://www.example/icons/a.svg#x retrieval",
		"feed https://blog.example/a/p1 embedded",
		"manifest https://app.example/pwa/ retrieval", "manifest https://app.example/pwa/i.png retrieval",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}
