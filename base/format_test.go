package base

import (
	"errors"
	"strings"
	"testing"
)

// ieXHTML is the head of an XHTML 1.0 page behind a conditional comment.
const ieXHTML = "<!--[if IE]><![endif]-->\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"x\">\n" +
	`<html xmlns="http://www.w3.org/1999/xhtml"><body><a href="/v?a=1&b=2">v</a>`

func TestKindOf(t *testing.T) {
	svg := `<svg xmlns="http://www.w3.org/2000/svg">`
	for _, c := range []struct {
		name, head string
		want       Format
	}{
		{"a.warc.gz", "", WARC}, {"a.ARC", "", WARC}, {"x.warc.zst", "", WARC},
		{"p.mht", "", MHTML}, {"p.html", "<p>", HTML}, {"p.htm", "\x00", HTML},
		{"p.html", "<!doctype html><p>a\x00b", HTML}, {"p.html", "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03", Other},
		{"p.html", "\x89PNG\r\n\x1a\n\x00\x00", Other},
		{"p.html", "\xff\xfe<\x00p\x00", HTML}, {"s.css", "a{}", CSS}, {"s.svg", svg, XML},
		{"m.webmanifest", "{}", Manifest}, {"m.mjs", "import 'a'", Module}, {"m.js", "import 'a'", Other},
		{"noext", "<!DOCTYPE html><p>", HTML}, {"noext", "plain", Other},
		{"p.xhtml", `<html xmlns="http://www.w3.org/1999/xhtml">`, XML},
		{"latin1.xhtml", `<?xml version="1.0" encoding="iso-8859-1"?><html xmlns="http://www.w3.org/1999/xhtml">`, HTML},
		{"latin1.xml", `<?xml version="1.0" encoding="windows-1252"?><html xmlns="http://www.w3.org/1999/xhtml">`, HTML}, {"p.XHT", `<html>`, HTML}, {"p.xhtml", "<p>", HTML},
		// XML by its root element (docs/formats.md §9).
		{"d.xml", `<?xml version="1.0" encoding="ISO-8859-1"?>` + "\n" + svg, XML},
		{"d.xml", "\ufeff<?xml version='1.0'?><!-- c --><!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x.dtd\">\n<svg xmlns='http://www.w3.org/2000/svg'/>", XML},
		{"d.xml", `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY e "v">]><feed xmlns="http://www.w3.org/2005/Atom">`, XML},
		{"d.xml", `<?xml version="1.0"?><s:svg xmlns:s="http://www.w3.org/2000/svg">`, XML},
		{"d.xml", `<?xml version="1.0"?><svg>`, Other},
		{"d.xml", `<?xml version="1.0"?><rss version="2.0">`, XML},
		{"d.xml", `<?xml version="1.0"?><rss xmlns="urn:x">`, Other},
		{"d.xml", `<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">`, XML},
		{"d.xml", `<?xml version="1.0"?><entry xmlns="http://www.w3.org/2005/Atom">`, XML},
		{"d.xml", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">`, XML},
		{"d.xml", `<?xml version="1.0"?>text<svg xmlns="http://www.w3.org/2000/svg">`, Other},
		{"d.xml", `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"`, Other},
		{"d.xml", `<?xml version="1.0"?><svg` + "\n\t" + `xmlns="http://www.w3.org/2000/svg" width=10>`, XML},
		{"d.xml", `<?xml version="1.0"?><note>`, Other},
		// Without a name that says XML, XHTML's root does not make a
		// page XML: it is served and parsed as HTML (XHTML 1.0 Appendix
		// C). The "<!--[" comment hides the page from net/http's HTML
		// signatures (found on corpus A; read as XML, its "&" became
		// "&amp;" and a script's string was rewritten).
		{"noext", ieXHTML, HTML},
		{"noext", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">`, HTML},
	} {
		if got := FormatOf(c.name, []byte(c.head)); got != c.want {
			t.Errorf("FormatOf(%q, %q) = %v, want %v", c.name, c.head, got, c.want)
		}
	}
}

func TestSniffKind(t *testing.T) {
	for _, c := range []struct {
		head string
		want Format
		err  bool
	}{
		{"", Other, true}, {"WARC/1.1\r\n", WARC, false}, {"filedesc://x", WARC, false}, {"\x1f\x8b\x08", WARC, false},
		{"\x28\xb5\x2f\xfd", WARC, false}, {"\r\nMIME-Version: 1.0", MHTML, false}, {"\xfe\xff\x00<", HTML, false},
		{`<svg xmlns="http://www.w3.org/2000/svg">`, XML, false}, {"<p>hi", HTML, false}, {"\x01\x02", Other, true},
		{ieXHTML, HTML, false}, // piped XHTML 1.0 page: HTML, as a browser reads it (Appendix C)
	} {
		got, err := SniffFormat([]byte(c.head))
		if got != c.want || (err != nil) != c.err {
			t.Errorf("SniffFormat(%q) = %v, %v", c.head, got, err)
		}
	}
	if _, err := SniffFormat(nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("SniffFormat(nil) error %v, want ErrEmpty", err)
	}
	if err := CheckFormat([]byte("<p>"), WARC); err == nil {
		t.Error("CheckFormat(<p>, WARC) = nil")
	}
	if err := CheckFormat([]byte("WARC/1.0"), WARC); err != nil {
		t.Error(err)
	}
	if err := CheckFormat(nil, HTML); !errors.Is(err, ErrEmpty) {
		t.Errorf("CheckFormat(nil) = %v", err)
	}
	for k := Other; k <= Module+1; k++ {
		if k.String() == "" {
			t.Errorf("Kind(%d) has no name", k)
		}
	}
}

// TestFormatOfContent is the one media type + first bytes rule of MHTML
// parts, WARC payloads, materialize's captures and fetch's responses.
func TestFormatOfContent(t *testing.T) {
	const (
		xhtml       = `<?xml version="1.0"?>` + "\n" + `<html xmlns="http://www.w3.org/1999/xhtml"><body><a href="a">a</a></body></html>`
		svg         = `<svg xmlns="http://www.w3.org/2000/svg"><a href="x"/></svg>`
		atom        = `<feed xmlns="http://www.w3.org/2005/Atom"><link href="x"/></feed>`
		rss         = `<rss version="2.0"><channel><link>x</link></channel></rss>`
		rdf         = `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"/>`
		sitemap     = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"/>`
		pageXHTM    = `<!DOCTYPE html><html><body><a href=a>a</a>` // "XHTML" served as such, but HTML
		latin1XHTML = `<?xml version="1.0" encoding="iso-8859-1"?>` + "\n" + `<html xmlns="http://www.w3.org/1999/xhtml"><a href="\xe9.html">e</a></html>`
	)
	prologue := "<?xml version=\"1.0\"?>\n<!--" + strings.Repeat("x", ContentSniffLen) + "-->\n"
	gz := "\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03" + "binary"
	tests := []struct {
		name, ct, head string
		want           Format
		err            string
	}{
		// The type names the kind (docs/formats.md §9's table).
		{"text/html", "text/html; charset=utf-8", "<p>", HTML, ""},
		{"HTML upper case", "Text/HTML", "<p>", HTML, ""},
		{"not a media type", "image/svg+xml charset=utf-8", "<svg", Other, ""},
		{"HTML with NUL bytes is still HTML", "text/html", "<p>\x00", HTML, ""},
		{"text/css", "text/css", "a{}", CSS, ""},
		{"manifest", "application/manifest+json", "{}", Manifest, ""},
		{"MHTML", "multipart/related; boundary=x", "", MHTML, ""},
		{"image", "image/png", "\x89PNG", Other, ""},
		{"no type is not guessed at", "", "<!DOCTYPE html>", Other, ""},
		// A script served alone is read as a module (FormatOfType): an
		// archive's text/javascript record gives its imports.
		{"script is a module by type", "text/javascript", "import 'x'", Module, ""},
		{"legacy script type", "application/x-javascript; charset=utf-8", "import('x')", Module, ""},
		// RFC 3236 application/xhtml+xml: XML when its root is XHTML's
		// html (docs/formats.md §3.2), else HTML.
		{"XHTML root", "application/xhtml+xml", xhtml, XML, ""},
		{"XHTML type, HTML page", "application/xhtml+xml; charset=utf-8", pageXHTM, HTML, ""},
		{"XHTML type, root too late", "application/xhtml+xml", prologue + xhtml, HTML, ""},
		{"XHTML type, SVG root", "application/xhtml+xml", svg, HTML, ""},
		// XHTML not in UTF-8 is read as HTML, whose reader decodes it
		// (xmlrewrite reads UTF-8 only).
		{"XHTML root, Latin-1 declared", "application/xhtml+xml", latin1XHTML, HTML, ""},
		{"XHTML root, Latin-1 by type", "application/xhtml+xml; charset=iso-8859-1", xhtml, HTML, ""},
		{"XHTML root, UTF-8 declared", "application/xhtml+xml", strings.Replace(latin1XHTML, "iso-8859-1", "UTF-8", 1), XML, ""},
		{"generic XML, Latin-1 XHTML", "application/xml", latin1XHTML, HTML, ""},
		// Types that name a vocabulary are read as declared (not sniffed).
		{"SVG", "image/svg+xml", svg, XML, ""},
		{"SVG after a long prologue", "image/svg+xml", prologue + svg, XML, ""},
		{"Atom after a long prologue", "application/atom+xml", prologue + atom, XML, ""},
		{"RSS after a long prologue", "application/rss+xml", prologue + rss, XML, ""},
		{"SVG, UTF-16LE without BOM", "image/svg+xml", "<\x00s\x00v\x00g\x00", XML, ""},
		{"SVG, UTF-16BE with BOM", "image/svg+xml", "\xfe\xff\x00<\x00s", XML, ""},
		// RFC 7303 §4.1-4.2 generic types: the root decides (docs/formats.md §9).
		{"application/xml SVG", "application/xml", svg, XML, ""},
		{"text/xml XHTML", "text/xml", xhtml, XML, ""},
		{"text/xml Atom", "text/xml", atom, XML, ""},
		{"application/xml RSS", "application/xml", rss, XML, ""},
		{"RDF RSS 1.0", "application/rdf+xml", rdf, XML, ""},
		{"sitemap is another vocabulary", "application/xml", sitemap, Other, ""},
		{"generic, root too late", "text/xml", prologue + svg, Other, ""},
		// A payload that cannot be what it claims: an error, never read.
		{"svgz declared SVG", "image/svg+xml", gz, Other, "declared image/svg+xml but its bytes are gzip data, not XML: not read"},
		{"zstd declared Atom", "application/atom+xml", "\x28\xb5\x2f\xfd\x00", Other, "declared application/atom+xml but its bytes are zstd data, not XML: not read"},
		{"NUL declared RSS", "application/rss+xml", "ab\x00cd", Other, "declared application/rss+xml but its bytes are binary data, not XML: not read"},
		{"gzip declared XHTML", "application/xhtml+xml", gz, Other, "declared application/xhtml+xml but its bytes are gzip data, not XML: not read"},
		{"gzip declared generic XML: another vocabulary", "application/xml", gz, Other, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := FormatOfContent(tt.ct, []byte(tt.head))
			if k != tt.want {
				t.Errorf("FormatOfContent(%q, %.40q) = %v, want %v", tt.ct, tt.head, k, tt.want)
			}
			switch {
			case tt.err == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tt.err != "" && (err == nil || err.Error() != tt.err):
				t.Errorf("error %v, want %q", err, tt.err)
			}
			if err != nil {
				var ke *FormatError
				if !errors.As(err, &ke) {
					t.Errorf("error %T, want *FormatError", err)
				}
			}
		})
	}
}

// TestFormatOfContentAgreesWithKindOf: a typed XHTML payload and a .xhtml
// file are decided alike (one XHTML rule).
func TestFormatOfContentAgreesWithKindOf(t *testing.T) {
	for _, head := range []string{
		`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"/>`,
		`<!DOCTYPE html><html><p>`,
		`<html xmlns="http://www.w3.org/2000/svg"/>`,
	} {
		k, err := FormatOfContent("application/xhtml+xml", []byte(head))
		if err != nil || k != FormatOf("page.xhtml", []byte(head)) {
			t.Errorf("%q: FormatOfContent %v, %v; FormatOf(.xhtml) %v", head, k, err, FormatOf("page.xhtml", []byte(head)))
		}
	}
}

// FuzzFormatOfContent: on any type and bytes the decision ends without a
// panic; an error comes only with Other and only for a type that names
// XML; the answer depends on the first ContentSniffLen bytes alone; a
// type FormatOfContent reads is one ReadsType admits.
func FuzzFormatOfContent(f *testing.F) {
	for _, s := range [][2]string{
		{"application/xhtml+xml", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"/>`},
		{"application/xml", `<svg xmlns="http://www.w3.org/2000/svg"/>`},
		{"image/svg+xml", "\x1f\x8b\x08\x00"},
		{"text/html; charset=utf-8", "<p>"},
		{"application/rss+xml", "<rss>\x00"},
		{"text/xml", "<\x00r\x00s\x00s\x00>\x00"},
	} {
		f.Add(s[0], []byte(s[1]))
	}
	f.Fuzz(func(t *testing.T, ct string, head []byte) {
		k, err := FormatOfContent(ct, head)
		if err != nil && k != Other {
			t.Fatalf("FormatOfContent(%q, %q) = %v with error %v", ct, head, k, err)
		}
		if k != Other && !ReadsType(ct) {
			t.Fatalf("FormatOfContent(%q) = %v but ReadsType is false", ct, k)
		}
		if len(head) > ContentSniffLen {
			k2, err2 := FormatOfContent(ct, head[:ContentSniffLen])
			if k2 != k || (err2 == nil) != (err == nil) {
				t.Fatalf("FormatOfContent(%q) depends on bytes past ContentSniffLen", ct)
			}
		}
	})
}
