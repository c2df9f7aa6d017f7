package base

import (
	"errors"
	"testing"
)

// ieXHTML is the head of an XHTML 1.0 page behind a conditional comment.
const ieXHTML = "<!--[if IE]><![endif]-->\n<!DOCTYPE html PUBLIC \"-//W3C//DTD XHTML 1.0 Transitional//EN\" \"x\">\n" +
	`<html xmlns="http://www.w3.org/1999/xhtml"><body><a href="/v?a=1&b=2">v</a>`

func TestKindOf(t *testing.T) {
	svg := `<svg xmlns="http://www.w3.org/2000/svg">`
	for _, c := range []struct {
		name, head string
		want       Kind
	}{
		{"a.warc.gz", "", WARC}, {"a.ARC", "", WARC}, {"x.warc.zst", "", WARC},
		{"p.mht", "", MHTML}, {"p.html", "<p>", HTML}, {"p.htm", "\x00", Other},
		{"p.html", "\xff\xfe<\x00p\x00", HTML}, {"s.css", "a{}", CSS}, {"s.svg", svg, XML},
		{"m.webmanifest", "{}", Manifest}, {"m.mjs", "import 'a'", Module}, {"m.js", "import 'a'", Other},
		{"noext", "<!DOCTYPE html><p>", HTML}, {"noext", "plain", Other},
		{"p.xhtml", `<html xmlns="http://www.w3.org/1999/xhtml">`, XML}, {"p.XHT", `<html>`, HTML}, {"p.xhtml", "<p>", HTML},
		// XML by its root element (formats.md §9).
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
		if got := KindOf(c.name, []byte(c.head)); got != c.want {
			t.Errorf("KindOf(%q, %q) = %v, want %v", c.name, c.head, got, c.want)
		}
	}
}

func TestSniffKind(t *testing.T) {
	for _, c := range []struct {
		head string
		want Kind
		err  bool
	}{
		{"", Other, true}, {"WARC/1.1\r\n", WARC, false}, {"filedesc://x", WARC, false}, {"\x1f\x8b\x08", WARC, false},
		{"\x28\xb5\x2f\xfd", WARC, false}, {"\r\nMIME-Version: 1.0", MHTML, false}, {"\xfe\xff\x00<", HTML, false},
		{`<svg xmlns="http://www.w3.org/2000/svg">`, XML, false}, {"<p>hi", HTML, false}, {"\x01\x02", Other, true},
		{ieXHTML, HTML, false}, // piped XHTML 1.0 page: HTML, as a browser reads it (Appendix C)
	} {
		got, err := SniffKind([]byte(c.head))
		if got != c.want || (err != nil) != c.err {
			t.Errorf("SniffKind(%q) = %v, %v", c.head, got, err)
		}
	}
	if _, err := SniffKind(nil); !errors.Is(err, ErrEmpty) {
		t.Errorf("SniffKind(nil) error %v, want ErrEmpty", err)
	}
	if err := CheckKind([]byte("<p>"), WARC); err == nil {
		t.Error("CheckKind(<p>, WARC) = nil")
	}
	if err := CheckKind([]byte("WARC/1.0"), WARC); err != nil {
		t.Error(err)
	}
	if err := CheckKind(nil, HTML); !errors.Is(err, ErrEmpty) {
		t.Errorf("CheckKind(nil) = %v", err)
	}
	for k := Other; k <= Module+1; k++ {
		if k.String() == "" {
			t.Errorf("Kind(%d) has no name", k)
		}
	}
}
