package base

import (
	"bytes"
	"errors"
	"io"
	"net/textproto"
	"strings"
	"testing"

	"github.com/relurl/relurl/resolve"
)

// stream hides a reader's Seek: a pipe.
type stream struct{ r io.Reader }

func (s stream) Read(p []byte) (int, error) { return s.r.Read(p) }

func utf16le(s string) string {
	var b strings.Builder
	b.WriteString("\xff\xfe")
	for _, c := range []byte(s) { // ASCII only
		b.WriteByte(c)
		b.WriteByte(0)
	}
	return b.String()
}

// TestOpen checks the one open step: kind, encoding and base decided
// once, with the layer that decided each, and every byte given back.
func TestOpen(t *testing.T) {
	ctx := Context{Spec: resolve.WHATWG, Retrieval: "http://r.example/dir/page"}
	late := "<p>" + strings.Repeat("x", 3000) + `<base href="/late/">`
	for _, c := range []struct {
		name string
		doc  string
		in   Input
		kind Format
		cs   string // charset and its source
		base string // Base.URL and Base.Source
		open bool   // Settled
	}{
		{"html by name", `<a href=x><base href="/b/">`, Input{Name: "p.html"}, HTML, "utf-8 default", "http://r.example/b/ embedded", true},
		{"kind forced", `<base href="/b/">`, Input{Name: "p.css", Format: HTML}, HTML, "utf-8 default", "http://r.example/b/ embedded", true},
		{"css by name", `a{b:url(x)}`, Input{Name: "s.css"}, CSS, "utf-8 default", "http://r.example/dir/page retrieval", true},
		{"css by type", `<base href="/b/">`, Input{ContentType: "text/css"}, CSS, "utf-8 default", "http://r.example/dir/page retrieval", true},
		{"mhtml sniffed", "MIME-Version: 1.0\r\n\r\n<base href=/b/>", Input{Name: "-"}, MHTML, " ", "http://r.example/dir/page retrieval", true},
		{"svg sniffed", `<svg xmlns="http://www.w3.org/2000/svg"/>`, Input{}, XML, "utf-8 default", "http://r.example/dir/page retrieval", true},
		{"css @charset", `@charset "koi8-r"; a{}`, Input{Name: "s.css", Environment: "windows-1251"}, CSS, "koi8-r @charset", "http://r.example/dir/page retrieval", true},
		{"css environment", `a{}`, Input{Name: "s.css", Environment: "windows-1251"}, CSS, "windows-1251 environment", "http://r.example/dir/page retrieval", true},
		{"css type charset", `@charset "koi8-r";`, Input{ContentType: "text/css; charset=iso-8859-2"}, CSS, "iso-8859-2 Content-Type", "http://r.example/dir/page retrieval", true},
		{"xml declaration", `<?xml version="1.0" encoding="iso-8859-5"?><feed xmlns="http://www.w3.org/2005/Atom"/>`, Input{Name: "f.atom"}, XML, "iso-8859-5 encoding declaration", "http://r.example/dir/page retrieval", true},
		{"xml type charset", `<?xml version="1.0" encoding="iso-8859-5"?><svg/>`, Input{ContentType: "image/svg+xml; charset=koi8-r"}, XML, "koi8-r Content-Type", "http://r.example/dir/page retrieval", true},
		{"xml utf-16 bom", utf16le(`<svg xmlns="http://www.w3.org/2000/svg"/>`), Input{Name: "i.svg"}, XML, "utf-16le byte order mark", "http://r.example/dir/page retrieval", true},
		{"manifest has none", `{}`, Input{Name: "m.webmanifest"}, Manifest, " ", "http://r.example/dir/page retrieval", true},
		{"binary default", "\x01\x02<base href=/b/>", Input{Default: HTML}, HTML, "utf-8 default", "http://r.example/b/ embedded", true},
		{"meta charset", `<meta charset="shift_jis"><base href="/b/">`, Input{}, HTML, "shift_jis <meta>", "http://r.example/b/ embedded", true},
		{"type charset", `<meta charset="shift_jis"><base href="/b/">`, Input{ContentType: "text/html; charset=euc-kr"}, HTML, "euc-kr Content-Type", "http://r.example/b/ embedded", true},
		{"header type", `<p>`, Input{Context: Context{Header: textproto.MIMEHeader{"Content-Type": {"text/html; charset=iso-8859-2"}}}}, HTML, "iso-8859-2 Content-Type", "http://r.example/dir/page retrieval", true},
		{"bom", "\xef\xbb\xbf" + `<meta charset="shift_jis">`, Input{ContentType: "text/html; charset=euc-kr"}, HTML, "utf-8 byte order mark", "http://r.example/dir/page retrieval", true},
		{"utf-16", utf16le(`<p><base href="/u/">`), Input{}, HTML, "utf-16le byte order mark", "http://r.example/u/ embedded", true},
		{"late base, room", late, Input{}, HTML, "utf-8 default", "http://r.example/late/ embedded", true},
		{"late base, no room", late, Input{ScanLimit: 100}, HTML, "utf-8 default", "http://r.example/dir/page retrieval", false},
		{"utf-16 late, no room", utf16le(late), Input{ScanLimit: 100}, HTML, "utf-16le byte order mark", "http://r.example/dir/page retrieval", false},
		{"saved from", "<!-- saved from url=(0025)https://s.example/a/b -->\n<p>", Input{SavedFrom: true}, HTML, "utf-8 default", "https://s.example/a/b retrieval", true},
		// Typed content is FormatOfContent's: application/xhtml+xml is XML
		// with XHTML's root, else HTML (its <base> is then read).
		{"xhtml type, root", `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"/>`, Input{ContentType: "application/xhtml+xml"}, XML, "utf-8 default", "http://r.example/dir/page retrieval", true},
		{"xhtml type, HTML page", `<!DOCTYPE html><base href="/b/">`, Input{ContentType: "application/xhtml+xml"}, HTML, "utf-8 default", "http://r.example/b/ embedded", true},
	} {
		for _, seek := range []bool{false, true} {
			in := c.in
			if in.Context.Spec == 0 {
				h := in.Context.Header
				in.Context = ctx
				in.Context.Header = h
			}
			var r io.Reader = stream{strings.NewReader(c.doc)}
			if seek {
				r = strings.NewReader(c.doc)
			}
			d, err := Open(r, in)
			if err != nil {
				t.Errorf("%s (seek %v): %v", c.name, seek, err)
				continue
			}
			open := c.open || seek // a file is scanned whole, then seeked back
			base := c.base
			if seek && !c.open {
				base = "http://r.example/late/ embedded"
			}
			if d.Format != c.kind || d.Charset+" "+d.CharsetSource != c.cs || d.Base.URL+" "+d.Base.Source.String() != base || d.Settled != open {
				t.Errorf("%s (seek %v): kind %v, charset %q %q, base %q %v, settled %v", c.name, seek, d.Format, d.Charset, d.CharsetSource, d.Base.URL, d.Base.Source, d.Settled)
			}
			if got, _ := io.ReadAll(d.Reader); !bytes.Equal(got, []byte(c.doc)) {
				t.Errorf("%s (seek %v): Reader gives %d bytes back, not the %d of the document", c.name, seek, len(got), len(c.doc))
			}
		}
	}
}

func TestOpenNoReplay(t *testing.T) {
	d, err := Open(stream{strings.NewReader(strings.Repeat("x", 5<<20) + `<base href="http://b.example/">`)}, Input{ScanLimit: -1, Context: Context{Spec: resolve.WHATWG}})
	if err != nil {
		t.Fatal(err)
	}
	if d.Reader != nil || !d.Element.Found || d.Base.URL != "http://b.example/" || !d.Settled {
		t.Errorf("got %+v", d)
	}
}

func TestOpenErrors(t *testing.T) {
	if _, err := Open(strings.NewReader(""), Input{Name: "-"}); err == nil {
		t.Error("empty stream: no error")
	}
	if _, err := Open(strings.NewReader("<p>"), Input{Format: WARC}); err == nil {
		t.Error("HTML forced to WARC: no error")
	}
	// A payload that cannot be of its type is an error, not read as it.
	if _, err := Open(strings.NewReader("\x1f\x8b\x08\x00\x00\x00"), Input{ContentType: "image/svg+xml"}); !errors.As(err, new(*FormatError)) {
		t.Errorf("gzip declared image/svg+xml: %v, want a *FormatError", err)
	}
	if d, err := Open(strings.NewReader(""), Input{Name: "-", Default: HTML}); err != nil || d.Format != HTML {
		t.Errorf("empty with default: %v %v", d, err)
	}
}

// TestOpenUTF16Text: a UTF-16 document's <base> is looked for in its
// text decoded losslessly, the byte order mark kept as U+FEFF (3 bytes),
// so Element.Offset counts it (x/text's decoder dropped it: 0), as in the
// text htmlrewrite tokenizes; a lone surrogate in <base href> reads as
// U+FFFD, as the Encoding Standard's decoder reads it.
func TestOpenUTF16Text(t *testing.T) {
	noBOM := func(s string) string { return utf16le(s)[2:] }
	for _, seek := range []bool{false, true} {
		for _, c := range []struct {
			doc, ct string
			offset  int64
			href    string
		}{
			{utf16le("<base href=/u16/>"), "", 3, "/u16/"},
			{noBOM("<base href=/u16/>"), "text/html; charset=utf-16le", 0, "/u16/"},
			{utf16le("<base href=/a") + "\x00\xd8" + noBOM("b/>"), "", 3, "/a\ufffdb/"},
		} {
			var r io.Reader = stream{strings.NewReader(c.doc)}
			if seek {
				r = strings.NewReader(c.doc)
			}
			d, err := Open(r, Input{Format: HTML, ContentType: c.ct, Context: Context{Spec: resolve.RFC3986, Retrieval: "http://r.example/"}})
			if err != nil {
				t.Fatal(err)
			}
			if d.Charset != "utf-16le" || !d.Element.Found || d.Element.Offset != c.offset || d.Element.Href != c.href {
				t.Errorf("seek %v %q: %s %+v", seek, c.doc, d.Charset, d.Element)
			}
			if got, _ := io.ReadAll(d.Reader); string(got) != c.doc {
				t.Errorf("seek %v: Reader gave %q, want the document's bytes", seek, got)
			}
		}
	}
}
