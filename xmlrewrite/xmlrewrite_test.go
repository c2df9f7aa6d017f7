package xmlrewrite

import (
	"bytes"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

func opts(docURL string) Options {
	return Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: docURL}}}
}

func rewrite(t *testing.T, doc string, o Options) (string, link.Stats) {
	t.Helper()
	var b bytes.Buffer
	st, err := Rewrite(&b, strings.NewReader(doc), o)
	if err != nil {
		t.Fatalf("Rewrite(%q): %v", doc, err)
	}
	return b.String(), st
}

func links(t *testing.T, doc string, o Options) []link.Link {
	t.Helper()
	var ls []link.Link
	if _, err := Links(strings.NewReader(doc), o, func(l link.Link) error { ls = append(ls, l); return nil }); err != nil {
		t.Fatalf("Links(%q): %v", doc, err)
	}
	return ls
}

func urls(ls []link.Link) []string {
	var us []string
	for _, l := range ls {
		if l.Err != nil {
			us = append(us, "error: "+l.Raw)
			continue
		}
		us = append(us, l.URL)
	}
	return us
}

const (
	svgNS  = `xmlns="http://www.w3.org/2000/svg"`
	atomNS = `xmlns="http://www.w3.org/2005/Atom"`
)

// TestLinks follows the cases of docs/formats.md §10 (checklist #6–#11) and the
// sections they cite.
func TestLinks(t *testing.T) {
	honour := opts("https://www.example/icons/set.svg")
	honour.XMLBase = XMLBaseHonour
	tests := []struct {
		name string
		doc  string
		o    Options
		want []string
	}{
		// SVG 2 "Linking": the XLink prefix is arbitrary; #id is same-document.
		{"svg xlink prefix", `<svg ` + svgNS + `><use l:href="a.svg#x" xmlns:l="http://www.w3.org/1999/xlink"/><use href="#s"/></svg>`,
			opts("https://www.example/icons/set.svg"), []string{"https://www.example/icons/a.svg#x", "https://www.example/icons/set.svg#s"}},
		// "When the 'href' attribute is present in both the XLink namespace and without a namespace, the value of the attribute without a namespace shall be used".
		{"svg href wins", `<svg ` + svgNS + ` xmlns:xlink="http://www.w3.org/1999/xlink"><image href="new.png" xlink:href="old.png"/></svg>`,
			opts("https://www.example/icons/set.svg"), []string{"https://www.example/icons/new.png"}},
		// docs/formats.md §2.3: browsers ignore xml:base in SVG.
		{"svg xml:base ignored", `<svg ` + svgNS + ` xml:base="https://other.example/x/"><image href="p.png"/></svg>`,
			opts("https://www.example/icons/set.svg"), []string{"https://www.example/icons/p.png"}},
		{"svg xml:base honoured", `<svg ` + svgNS + ` xml:base="https://other.example/x/"><image href="p.png"/></svg>`,
			honour, []string{"https://other.example/x/p.png"}},
		// Elements not taking URLs: no link; requiredExtensions is an identifier.
		{"svg not links", `<svg ` + svgNS + `><rect href="x.png" requiredExtensions="http://e.example/ext"/></svg>`,
			opts("https://www.example/icons/set.svg"), nil},
		// CSS in style attribute, presentation attribute and <style> (CSS Values 4 §4.5.1.1: url(#g) local).
		{"svg css", `<svg ` + svgNS + `><style><![CDATA[ rect { fill: url(p.svg#pat) } ]]></style><rect style="background: url(&quot;bg.png&quot;)" fill="url(#g)" stroke="url(s.svg#s)"/></svg>`,
			opts("https://www.example/icons/set.svg"), []string{"https://www.example/icons/p.svg#pat", "https://www.example/icons/bg.png", "https://www.example/icons/s.svg#s"}},
		// XML Base §4.2 with RFC 4287 §2: nested relative xml:base chains (checklist #8).
		{"atom nested xml:base", `<feed ` + atomNS + ` xml:base="https://blog.example/a/"><entry xml:base="2024/"><link href="p1"/></entry></feed>`,
			opts("https://feeds.example/f/atom.xml"), []string{"https://blog.example/a/2024/p1"}},
		// RFC 4287 §4.2.6: id is not a link (checklist #9); an element's own xml:base applies to its attributes.
		{"atom id", `<feed ` + atomNS + `><entry xml:base="https://blog.example/a/b.html"><link href="c.png"/><id>tag:x,2024:1</id><category term="t" scheme="s/"/><link rel="http://e.example/rel" href="d"/></entry></feed>`,
			opts("https://feeds.example/f/atom.xml"), []string{"https://blog.example/a/c.png", "https://blog.example/a/d"}},
		// docs/formats.md §3.1 examples: xml:base on the link itself; xml:base="" keeps the parent's base without its fragment.
		{"atom xml:base on link", `<feed ` + atomNS + `><link xml:base="/x/" href="y"/></feed>`,
			opts("https://feeds.example/f/atom.xml"), []string{"https://feeds.example/x/y"}},
		{"atom empty href", `<feed ` + atomNS + `><entry xml:base="https://blog.example/p#frag"><link href=""/><link href=" "/><link href="q"/></entry></feed>`,
			opts("https://feeds.example/f/atom.xml"), []string{"https://blog.example/p", "https://blog.example/p", "https://blog.example/q"}},
		{"atom xml:base empty", `<feed ` + atomNS + ` xml:base="https://blog.example/a/#f"><entry xml:base=""><link href="q"/><link href="#x"/></entry></feed>`,
			opts("https://feeds.example/f/atom.xml"), []string{"https://blog.example/a/q", "https://blog.example/a/#x"}},
		// An opaque base carries no relative references (docs/formats.md §3.1).
		{"atom opaque base", `<feed ` + atomNS + ` xml:base="urn:x:y"><link href="q"/></feed>`,
			opts("https://feeds.example/f/atom.xml"), []string{"error: q"}},
		// A bare "base" attribute is not xml:base (XML Base §3: the xml namespace).
		{"bare base", `<feed ` + atomNS + ` base="https://other.example/"><link href="q"/></feed>`,
			opts("https://feeds.example/f/atom.xml"), []string{"https://feeds.example/f/q"}},
		// RFC 4287 §4.2.5, §4.2.10, §3.2.3: icon, logo, person uri are element content.
		{"atom icon logo uri", `<feed ` + atomNS + ` xml:base="https://blog.example/"><icon> i.ico </icon><logo><![CDATA[l.png]]></logo><author><name>n</name><uri>/me</uri></author><generator uri="gen/">g</generator></feed>`,
			opts("https://feeds.example/f/atom.xml"), []string{"https://blog.example/i.ico", "https://blog.example/l.png", "https://blog.example/me", "https://blog.example/gen/"}},
		// §3.1.1.2: escaped HTML against the xml:base in scope (checklist #10); type="text" is not HTML.
		{"atom html content", `<feed ` + atomNS + `><content type="html" xml:base="https://blog.example/posts/7/">&lt;img src=&quot;i.png?a=1&amp;amp;b=2&quot;&gt;</content><summary type="text">&lt;a href="no"&gt;</summary></feed>`,
			opts("https://feeds.example/f/atom.xml"), []string{"https://blog.example/posts/7/i.png?a=1&b=2"}},
		// §3.1.1.3: xhtml content is markup, xml:base applies on the div.
		{"atom xhtml content", `<feed ` + atomNS + `><content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml" xml:base="https://blog.example/x/"><a href="y.html">y</a></div></content></feed>`,
			opts("https://feeds.example/f/atom.xml"), []string{"https://blog.example/x/y.html"}},
		// RSS 2.0: link, enclosure@url (checklist #11), guid, description HTML; not cloud, category@domain.
		{"rss", `<rss version="2.0"><channel><link>/story/1</link><docs>d.html</docs><cloud domain="c.example" path="/rpc"/><image><url>logo.png</url><link>/</link></image><item><link>/story/2</link><enclosure url="media/1.mp3"/><category domain="x/">c</category><guid isPermaLink="false">g/1</guid><guid>g/2</guid><comments>c/2</comments><source url="s.xml">s</source><description>&lt;a href="x.html"&gt;x&lt;/a&gt;</description></item></channel></rss>`,
			opts("https://news.example/rss/all.xml"), []string{"https://news.example/story/1", "https://news.example/rss/d.html", "https://news.example/rss/logo.png", "https://news.example/", "https://news.example/story/2", "https://news.example/rss/media/1.mp3", "https://news.example/rss/g/2", "https://news.example/rss/c/2", "https://news.example/rss/s.xml", "https://news.example/rss/x.html"}},
		{"rss content:encoded and xml:base", `<rss xmlns:content="http://purl.org/rss/1.0/modules/content/" xml:base="https://base.example/b/"><channel><item><content:encoded><![CDATA[<img src="i.png">]]></content:encoded></item></channel></rss>`,
			opts("https://news.example/rss/all.xml"), []string{"https://base.example/b/i.png"}},
		// A processing instruction's base is its parent's (XML Base §4.3).
		{"xml-stylesheet", `<?xml-stylesheet type="text/css" href="s.css"?><svg ` + svgNS + `/>`,
			opts("https://www.example/icons/set.svg"), []string{"https://www.example/icons/s.css"}},
		// XHTML: HTML's attributes and document base; xml:base ignored (docs/formats.md §3.2).
		{"xhtml", `<html xmlns="http://www.w3.org/1999/xhtml" xml:base="https://x.example/"><head><base href="/b/"/><link rel="stylesheet" href="s.css"/><style>p{background:url(bg.png)}</style></head><body><img srcset="a.png 1x, b.png 2x" src="c.png"/><a href="#top">t</a></body></html>`,
			opts("https://www.example/a/page.xhtml"), []string{"https://www.example/b/s.css", "https://www.example/b/bg.png", "https://www.example/b/a.png", "https://www.example/b/b.png", "https://www.example/b/c.png", "https://www.example/b/#top"}},
		// XML 1.0 §4.6: a DTD entity cannot be spliced; §3.3.3 normalizes white space.
		{"dtd entity", `<svg ` + svgNS + `><image href="&base;x.png"/><image href="a&#x2F;b.png"/></svg>`,
			opts("https://www.example/icons/set.svg"), []string{"error: &base;x.png", "https://www.example/icons/a/b.png"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := urls(links(t, tt.doc, tt.o))
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("links:\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

// TestRewrite checks what is written: escaping layers (docs/formats.md §0.5),
// CDATA kept, fragment-only references left, ids untouched.
func TestRewrite(t *testing.T) {
	tests := []struct {
		name, doc, url, want string
	}{
		{"atom escaped html", `<feed ` + atomNS + `><content type="html" xml:base="https://blog.example/posts/7/">&lt;img src=&quot;i.png?a=1&amp;amp;b=2&quot;&gt;</content><id>tag:x</id></feed>`,
			"https://feeds.example/f/atom.xml",
			`<feed ` + atomNS + `><content type="html" xml:base="https://blog.example/posts/7/">&lt;img src=&quot;https://blog.example/posts/7/i.png?a=1&amp;amp;b=2&quot;&gt;</content><id>tag:x</id></feed>`},
		{"rss cdata", `<rss><channel><link> /s?a=1&amp;b=2 </link><description><![CDATA[<a href='x?y=1&amp;z'>x</a>]]></description></channel></rss>`,
			"https://news.example/rss/all.xml",
			`<rss><channel><link> https://news.example/s?a=1&amp;b=2 </link><description><![CDATA[<a href='https://news.example/rss/x?y=1&amp;z'>x</a>]]></description></channel></rss>`},
		{"svg", `<svg ` + svgNS + `><use href="#s"/><image href="a b.png" style='fill:url("p.svg#x")'/><rect fill="url(#g)"/></svg>`,
			"https://www.example/icons/set.svg",
			`<svg ` + svgNS + `><use href="#s"/><image href="https://www.example/icons/a%20b.png" style='fill:url("https://www.example/icons/p.svg#x")'/><rect fill="url(#g)"/></svg>`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _ := rewrite(t, tt.doc, opts(tt.url))
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
			again, st := rewrite(t, got, opts(tt.url))
			if again != got || st.Rewritten != 0 {
				t.Errorf("not idempotent: %s (%d rewritten)", again, st.Rewritten)
			}
		})
	}
}

func TestSniff(t *testing.T) {
	for doc, want := range map[string]Format{
		`<?xml version="1.0"?><!-- c --><svg ` + svgNS + `/>`:               SVG,
		"\ufeff<s:svg xmlns:s=\"http://www.w3.org/2000/svg\"/>":             SVG,
		`<html xmlns="http://www.w3.org/1999/xhtml">`:                       XHTML,
		`<feed ` + atomNS + `>`:                                             Atom,
		`<entry ` + atomNS + `>`:                                            Atom,
		`<!DOCTYPE rss [<!ENTITY a "b">]><rss version="2.0">`:               RSS,
		`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">`: RSS,
		`<svg>`: XML,
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`: XML,
	} {
		if got, _ := Sniff([]byte(doc)); got != want {
			t.Errorf("Sniff(%q) = %v, want %v", doc, got, want)
		}
	}
}

// TestEmptyXMLBase: with EmptyXMLBase, every xml:base honoured is written
// empty (RFC 3986 §5.2.2: "" is the parent's base), in the order of the
// other attributes, after the links were resolved with it; in SVG, where
// it is not honoured, it stays.
func TestEmptyXMLBase(t *testing.T) {
	o := opts("https://blog.example/feed.atom")
	o.EmptyXMLBase = true
	o.Map = func(l link.Link) (string, bool) { return "[" + l.URL + "]", true }
	feed := `<feed ` + atomNS + ` xml:base="https://blog.example/2026/"><link href="a"/>` +
		`<entry><link href="b" xml:base="posts/"/><content type="html" xml:base="../x/">&lt;a href="c"&gt;</content></entry></feed>`
	got, _ := rewrite(t, feed, o)
	want := `<feed ` + atomNS + ` xml:base=""><link href="[https://blog.example/2026/a]"/>` +
		`<entry><link href="[https://blog.example/2026/posts/b]" xml:base=""/><content type="html" xml:base="">&lt;a href="[https://blog.example/x/c]"&gt;</content></entry></feed>`
	if got != want {
		t.Errorf("feed:\n got %s\nwant %s", got, want)
	}
	svg := `<svg ` + svgNS + ` xml:base="https://elsewhere.example/"><image href="i.png"/></svg>`
	if got, _ := rewrite(t, svg, o); got != `<svg `+svgNS+` xml:base="https://elsewhere.example/"><image href="[https://blog.example/i.png]"/></svg>` {
		t.Errorf("svg: %s", got)
	}
	o.EmptyXMLBase = false
	if got, _ := rewrite(t, feed, o); !strings.Contains(got, `xml:base="https://blog.example/2026/"`) || !strings.Contains(got, `xml:base="posts/"`) {
		t.Errorf("without EmptyXMLBase: %s", got)
	}
}
