package base

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"mime"
	"net/http"
	"path/filepath"
	"strings"
)

// Format says what a document is, and so which reader reads it.
type Format int

// The kinds of document relurl reads.
const (
	Other    Format = iota // not a document relurl reads: copied or skipped
	HTML                   // text/html
	MHTML                  // multipart/related, RFC 2557 (.mht, .mhtml)
	WARC                   // WARC 1.1 (.warc, .warc.gz, .warc.zst) and ARC (.arc, .arc.gz)
	CSS                    // a stylesheet, text/css (.css)
	XML                    // SVG, XHTML, Atom or RSS (.svg, .atom, .rss; else by its root element): package xmlrewrite
	Manifest               // a web app manifest (.webmanifest): package manifest
	Module                 // a JavaScript module (.mjs, RFC 9239): package jsmodule
)

var kindNames = [...]string{Other: "other", HTML: "html", MHTML: "mhtml", WARC: "warc", CSS: "css", XML: "xml", Manifest: "manifest", Module: "module"}

// String returns "other", "html", "mhtml", "warc", "css", "xml",
// "manifest" or "module".
func (k Format) String() string {
	if k > 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "other"
}

// SniffLen is how many leading bytes FormatOf looks at.
const SniffLen = 512

// FormatOf returns the kind of the file called name whose first bytes are
// head (up to SniffLen of them). The extension decides when it names a
// kind; otherwise the content is sniffed with the MIME Sniffing
// Standard's rules for HTML (§7.1, the "<!DOCTYPE HTML", "<html", "<head",
// ... signatures after leading whitespace), as net/http implements them,
// and an XML document is told by its root element (SVG, XHTML, Atom,
// RSS; docs/formats.md §9). A file whose extension says a text kind but whose
// head is binary (a NUL byte, the sniffing standard's binary-data byte
// that no text has, without a UTF-16 byte order mark) is Other: rewriting
// it could only damage it. A .xhtml or .xht file whose root element is
// XHTML's html is XML (application/xhtml+xml), read by xmlrewrite; another
// is HTML.
func FormatOf(name string, head []byte) Format {
	lower := strings.ToLower(filepath.Base(name))
	switch {
	case strings.HasSuffix(lower, ".warc"), strings.HasSuffix(lower, ".warc.gz"), strings.HasSuffix(lower, ".warc.zst"),
		strings.HasSuffix(lower, ".arc"), strings.HasSuffix(lower, ".arc.gz"):
		return WARC
	}
	switch filepath.Ext(lower) {
	case ".mht", ".mhtml":
		return MHTML
	case ".xhtml", ".xht":
		// application/xhtml+xml (RFC 3236): read as XML when its root
		// is XHTML's html (docs/formats.md §3.2, tokenized as XML: no
		// optional end tags, XML entities, CDATA) and it is in UTF-8
		// (readsAsIs); a file whose root is not in the XHTML namespace,
		// or not found in the first bytes, or in another encoding, is
		// read as HTML.
		if xhtmlRoot(head) && readsAsIs(head, "") {
			return text(head, XML)
		}
		return text(head, HTML)
	case ".html", ".htm", ".shtml":
		return page(head)
	case ".css":
		return text(head, CSS)
	case ".svg", ".atom", ".rss":
		return text(head, XML)
	case ".webmanifest":
		return text(head, Manifest)
	case ".mjs":
		// A .js file is a module only when a document says so
		// (type=module, modulepreload, an import): not told by name.
		return text(head, Module)
	}
	if len(head) > SniffLen {
		head = head[:SniffLen]
	}
	switch ct := http.DetectContentType(head); {
	case strings.HasPrefix(ct, "text/html"):
		return HTML
	case strings.HasPrefix(ct, "text/xml"), strings.HasPrefix(ct, "text/plain"):
		// MIME Sniffing leaves XML vocabularies alone (§7); the root
		// element tells SVG, XHTML, Atom and RSS apart.
		if linkBearingXML(head, filepath.Ext(lower) == ".xml") {
			if xhtmlRoot(head) && !readsAsIs(head, "") {
				return HTML // see readsAsIs
			}
			return XML
		}
		if xhtmlRoot(head) {
			// XHTML's root behind what the HTML signatures do not
			// take (an "<!--[if IE]>" comment): a page, read as HTML.
			return HTML
		}
	}
	return Other
}

// text returns k for a head that is text, else Other (a NUL byte: binary,
// e.g. a gzipped .svgz saved as .svg).
func text(head []byte, k Format) Format {
	if bytes.IndexByte(head, 0) >= 0 && !utf16BOM(head) {
		return Other
	}
	return k
}

// page returns HTML for the head of a file named as a page, unless its
// bytes are of a binary format (gzip, an image, ...): browsers render a
// page with a NUL byte in it (HTML §13.2.5 reads NUL as a parse error, not
// an end), so a NUL alone does not make it binary.
func page(head []byte) Format {
	if len(head) > SniffLen {
		head = head[:SniffLen]
	}
	switch ct := http.DetectContentType(head); {
	case strings.HasPrefix(ct, "text/"), ct == "application/octet-stream":
		return HTML
	}
	return Other
}

// utf16BOM reports whether head starts with a UTF-16 byte order mark: such
// HTML has NUL bytes and is still text.
func utf16BOM(head []byte) bool {
	return bytes.HasPrefix(head, []byte{0xFE, 0xFF}) || bytes.HasPrefix(head, []byte{0xFF, 0xFE})
}

// The namespaces of the XML roots relurl reads (docs/formats.md §9).
const (
	nsSVG   = "http://www.w3.org/2000/svg"
	nsXHTML = "http://www.w3.org/1999/xhtml"
	nsAtom  = "http://www.w3.org/2005/Atom"
	nsRDF   = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
)

// linkBearingXML reports whether head starts an XML document whose root
// element is one relurl reads links from: <svg> in the SVG namespace,
// Atom's <feed> or <entry>, RSS's <rss> (no namespace) or RSS 1.0's
// <rdf:RDF>, and <html> in XHTML's namespace only when xhtml is set (the
// name says .xml). Without a name or Content-Type that says XML, a page
// with XHTML's root is HTML: such pages are served as text/html and
// parsed as HTML by browsers (XHTML 1.0 Appendix C), and reading one as
// XML would escape the "&" of its values and read its scripts' strings
// as markup.
func linkBearingXML(head []byte, xhtml bool) bool {
	space, local, ok := XMLRoot(head)
	switch {
	case !ok:
		return false
	case space == nsSVG && local == "svg", xhtml && space == nsXHTML && local == "html",
		space == nsAtom && (local == "feed" || local == "entry"),
		space == "" && local == "rss", space == nsRDF && local == "RDF":
		return true
	}
	return false
}

// readsAsIs reports whether an XHTML document is in UTF-8 (XMLEncoding),
// the one encoding package xmlrewrite reads as it is: it does not decode
// a legacy encoding (its non-ASCII characters would reach the resolver as
// U+FFFD) and refuses UTF-16. Another encoding's XHTML is read as HTML,
// whose reader decodes it: the links stay as they were before XHTML was
// read as XML.
func readsAsIs(head []byte, contentType string) bool {
	_, name, _ := XMLEncoding(head, contentType)
	return name == "utf-8"
}

// xhtmlRoot reports whether head starts an XML document whose root is
// XHTML's <html>.
func xhtmlRoot(head []byte) bool {
	space, local, ok := XMLRoot(head)
	return ok && space == nsXHTML && local == "html"
}

// XMLRoot returns the namespace and local name of the root element of the
// XML document that starts with head, its prefix resolved by the root's
// own declarations, and false when head does not start an XML document
// whose root it holds whole: only declarations, processing instructions,
// comments and white space may come before the root. The decision of
// every reader (FormatOf, SniffFormat, xmlrewrite.Sniff) is this one.
func XMLRoot(head []byte) (space, local string, ok bool) {
	d := xml.NewDecoder(bytes.NewReader(head))
	// Only the names matter, which are ASCII in every encoding XML allows
	// here: the bytes are read as they are.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	d.Strict = false // unquoted values and names alone are read on
	for {
		t, err := d.RawToken()
		if err != nil {
			return "", "", false
		}
		switch t := t.(type) {
		case xml.StartElement:
			// RawToken leaves prefixes unresolved: the root's own
			// declarations are all there is to resolve them with.
			ns := map[string]string{}
			for _, a := range t.Attr {
				switch {
				case a.Name.Space == "" && a.Name.Local == "xmlns":
					ns[""] = a.Value
				case a.Name.Space == "xmlns":
					ns[a.Name.Local] = a.Value
				}
			}
			return ns[t.Name.Space], t.Name.Local, true
		case xml.CharData:
			if len(bytes.TrimLeft(t, " \t\r\n\ufeff")) > 0 {
				return "", "", false
			}
		}
	}
}

// The first bytes of the inputs SniffFormat tells apart.
var (
	gzipHead = []byte{0x1f, 0x8b}
	zstdHead = []byte{0x28, 0xb5, 0x2f, 0xfd}
	dictHead = []byte{0x5d, 0x2a, 0x4d, 0x18} // WARC-zstd dictionary frame
)

// ErrEmpty is the error of a stream with no bytes: no document of any kind.
var ErrEmpty = errors.New("empty input")

// errBinary is SniffFormat's error for binary data.
var errBinary = errors.New("binary data, not HTML, MHTML or WARC (see --input-format)")

// SniffFormat tells the kind of a stream, which has no name, by its first
// bytes (what has come of its first 1024): WARC (plain, gzip or zstd, or
// ARC), MHTML, an SVG or feed by its root element, or HTML when it is
// text. An empty head (ErrEmpty) and binary data (a byte the MIME Sniffing
// Standard calls a binary data byte, §3, and no UTF-16 byte order mark)
// are errors: no document of any kind.
func SniffFormat(head []byte) (Format, error) {
	switch {
	case len(head) == 0:
		return Other, ErrEmpty
	case warcHead(head):
		return WARC, nil
	case bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte("MIME-Version:")):
		return MHTML, nil
	case utf16BOM(head):
		return HTML, nil
	}
	if FormatOf("-", head) == XML {
		return XML, nil // an SVG or a feed, by its root element
	}
	for _, c := range head {
		if c <= 0x08 || c == 0x0b || 0x0e <= c && c <= 0x1a || 0x1c <= c && c <= 0x1f {
			return Other, errBinary
		}
	}
	return HTML, nil
}

// SniffLenStream is the longest signature SniffFormat tells apart: a reader
// of a stream waits for that many bytes (or the end), no more.
const SniffLenStream = len("filedesc://")

func warcHead(head []byte) bool {
	return bytes.HasPrefix(head, []byte("WARC/")) || bytes.HasPrefix(head, []byte("filedesc://")) || bytes.HasPrefix(head, gzipHead) ||
		bytes.HasPrefix(head, zstdHead) || bytes.HasPrefix(head, dictHead)
}

// CheckFormat returns an error when a stream whose first bytes are head
// cannot be of kind k, which the caller was told (--input-format): an
// empty stream, or for WARC a start that is neither "WARC/" nor gzip nor
// zstd (nor ARC's "filedesc://").
func CheckFormat(head []byte, k Format) error {
	if len(head) == 0 {
		return ErrEmpty
	}
	if k == WARC && !warcHead(head) {
		return errors.New("not a WARC file: it starts with neither \"WARC/\" nor gzip nor zstd (nor ARC's \"filedesc://\")")
	}
	return nil
}

// ContentSniffLen is how many leading bytes of a payload FormatOfContent
// looks at: an XML root after a longer prologue is not found, and the
// payload is read as its type says.
const ContentSniffLen = 4096

// The media types whose document is XML of a vocabulary the type does not
// name (RFC 7303 §4.1, §4.2; RSS 1.0 is served as RDF, RFC 3870): the
// root element tells whether relurl reads it.
func genericXML(mt string) bool {
	return mt == "application/xml" || mt == "text/xml" || mt == "application/rdf+xml"
}

// FormatOfContent returns the kind of a document that came with the media
// type contentType (a Content-Type value: an MHTML part's, a WARC
// payload's, an HTTP response's) and whose first bytes are head (at most
// ContentSniffLen of them are looked at; pass the whole body or more
// than that). It is the one rule every reader of typed content follows:
//
//   - The type names the kind (FormatOfType): text/html is HTML, text/css
//     CSS, image/svg+xml, Atom and RSS XML, and so on; a type relurl does
//     not read, or no type, is Other (an archive's untyped payload is not
//     guessed at; fetch sniffs an untyped response with FormatOf).
//   - application/xhtml+xml (RFC 3236) is XML when its root is XHTML's
//     html, the rule FormatOf applies to a .xhtml file: browsers parse it
//     with the XML parser (HTML Standard §13.2 is for text/html only;
//     docs/formats.md §3.2: tokenized as XML, HTML's link table), and xmlrewrite
//     reads it so (no optional end tags, XML entities, CDATA). Without
//     that root in head (not XML, or another root) it is HTML, best effort
//     for a page served with the wrong type.
//   - A generic XML type (application/xml, text/xml, application/rdf+xml:
//     RFC 7303 §4.1–4.2, where the vocabulary is in the document, not the
//     type) is XML only when its root in head is one relurl reads (SVG,
//     XHTML, Atom, RSS; docs/formats.md §9), else Other: another vocabulary.
//     Only these are sniffed: a type that names a vocabulary
//     (image/svg+xml, application/atom+xml, ...) is read as declared
//     however long its prologue.
//   - A payload whose type says XML but whose bytes are binary (gzip or
//     zstd data, as an .svgz served as image/svg+xml without its
//     Content-Encoding, or a NUL byte that no text in an ASCII-compatible
//     or UTF-16/32 encoding starts like) cannot be what it claims: Other,
//     with an error naming the type and what the bytes are, for the
//     caller's warning. It is never read as XML.
func FormatOfContent(contentType string, head []byte) (Format, error) {
	if len(head) > ContentSniffLen {
		head = head[:ContentSniffLen]
	}
	mt := mediaType(contentType)
	var k Format
	switch {
	case mt == "application/xhtml+xml":
		k = HTML
		if xhtmlRoot(head) && readsAsIs(head, contentType) {
			k = XML
		}
	case genericXML(mt):
		if !linkBearingXML(head, true) {
			return Other, nil
		}
		k = XML
		if xhtmlRoot(head) && !readsAsIs(head, contentType) {
			k = HTML
		}
	default:
		k = FormatOfType(mt)
	}
	if k == XML || mt == "application/xhtml+xml" {
		if what := binaryXML(head); what != "" {
			return Other, &FormatError{Type: mt, Found: what}
		}
	}
	return k, nil
}

// FormatError is FormatOfContent's error for a payload that cannot be of the
// type it came with.
type FormatError struct {
	Type  string // the media type declared
	Found string // what the bytes are: "gzip data", "zstd data", "binary data"
}

func (e *FormatError) Error() string {
	return "declared " + e.Type + " but its bytes are " + e.Found + ", not XML: not read"
}

// mediaType returns contentType's media type, lower case, without
// parameters; a value mime.ParseMediaType refuses is cut at its first
// ";", as FormatOfType reads it. (Package archive reads archived headers more
// leniently and passes the media type it read.)
func mediaType(contentType string) string {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt, _, _ = strings.Cut(contentType, ";")
		mt = strings.ToLower(strings.TrimSpace(mt))
	}
	return mt
}

// binaryXML says what head is when it cannot start an XML document: "gzip
// data", "zstd data" or "binary data" (a NUL byte, where XML in an
// encoding with NUL bytes, UTF-16 or UTF-32, starts with a byte order
// mark or with "<" beside NUL bytes: XML 1.0 Appendix F); "" for text.
func binaryXML(head []byte) string {
	switch {
	case bytes.HasPrefix(head, gzipHead):
		return "gzip data"
	case bytes.HasPrefix(head, zstdHead):
		return "zstd data"
	case bytes.IndexByte(head, 0) < 0, utf16BOM(head),
		bytes.HasPrefix(head, []byte{0, 0, 0xFE, 0xFF}),
		bytes.HasPrefix(head, []byte{0, '<'}), bytes.HasPrefix(head, []byte{'<', 0}),
		bytes.HasPrefix(head, []byte{0, 0, 0, '<'}):
		return ""
	}
	return "binary data"
}

// ReadsType reports whether a document of media type contentType may be
// one relurl reads: FormatOfContent returns a kind other than Other for
// some first bytes. A reader of typed content skips the others without
// looking at their bytes.
func ReadsType(contentType string) bool {
	mt := mediaType(contentType)
	return FormatOfType(mt) != Other || genericXML(mt)
}
