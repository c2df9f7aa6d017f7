package base

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"mime"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
)

// Input is what is known around a document's bytes, for [Open].
type Input struct {
	// Name is the document's file name, or "" or "-" for a stream: its
	// extension is evidence of the kind (FormatOf).
	Name string
	// Format is the kind the caller was told (--input-format); Other lets
	// Open decide: the name's extension, else ContentType, else the first
	// bytes (FormatOf, SniffFormat).
	Format Format
	// Default is the kind of a document that nothing tells (the name, type
	// and bytes say Other, or the stream is empty or binary); Other makes
	// that an error for a stream and Other for a named file.
	Default Format
	// ContentType is the document's declared media type with its
	// parameters (the charset); "" takes Context.Header's Content-Type.
	ContentType string
	// Context holds the layers below §3.1: spec, message headers, the
	// retrieval URL, the enclosing part. Its Strict also governs the
	// <base> scan.
	Context Context
	// Scripting reads <noscript> as a user agent with scripting does (see
	// the Scripting ScanOption).
	Scripting bool
	// SavedFrom takes the retrieval URL (§3.3) from the mark of the web of
	// a saved page (<!-- saved from url=(NNNN)... --> in its first 4 KiB,
	// see SavedFrom) when there is one, in place of Context.Retrieval.
	SavedFrom bool
	// Environment is a stylesheet's environment encoding (CSS Syntax
	// §3.2 step 3: the encoding of the document that refers to it), a
	// label; "" when none is known. Only CSS reads it.
	Environment string
	// ScanLimit bounds how much of a stream (a reader that cannot seek) is
	// held while the <base> of an HTML document is looked for; 0 is
	// DefaultScanLimit. A negative limit scans to the deciding element or
	// the end and keeps nothing: Opened.Reader is then nil (for a caller
	// that only wants the base, as `relurl base`).
	ScanLimit int64
}

// DefaultScanLimit is Input.ScanLimit's zero value.
const DefaultScanLimit = 1 << 20

// Opened is what Open decided of a document, once, for every reader of
// it: its kind, its encoding, its base with provenance, and the bytes.
type Opened struct {
	Format Format
	// Charset is the name of the encoding an HTML, CSS or XML document
	// is read in (the Encoding Standard's, e.g. "utf-8", "windows-1252",
	// "utf-16le"), CharsetSource the layer that decided it (ByBOM,
	// ByContentType, ByMeta, ByCharsetRule, ByEnvironment, ByDeclaration,
	// ByFirstBytes, ByDefault): see Encoding, SheetEncoding and
	// XMLEncoding. Both are "" for the other kinds: a manifest and a
	// module are UTF-8 by their specs, an MHTML or WARC file has an
	// encoding per part or record.
	Charset, CharsetSource string
	// Encoding is Charset's encoding, nil for UTF-8.
	Encoding encoding.Encoding
	// Element is the <base> element that decides an HTML document's base
	// (Found false when none does).
	Element Element
	// Base is the document's base by the §3 layers, with the layer that
	// decided it; for XML, MHTML and WARC the base their elements, parts
	// and records start from.
	Base Result
	// Warnings are the <base> scan's: elements that were found and did
	// not count, and why (Base.Warnings are the layers').
	Warnings []string
	// Settled is false when a stream's <base> was not decided within
	// ScanLimit bytes: Element is then not found and Base the fallback;
	// a caller that must be exact spools Reader (Spool) and scans again.
	Settled bool
	// Reader yields the whole document from its first byte: what Open
	// looked at, then the rest. nil with a negative ScanLimit.
	Reader io.Reader
}

// Open reads as much of r as it takes to decide what the document is:
// its kind (Input.Kind, else the name, the Content-Type, the first bytes),
// its encoding (HTML: byte order mark > Content-Type charset > <meta>
// prescan, see Encoding; CSS: SheetEncoding; XML: XMLEncoding), for HTML
// its <base> element, and its base by the §3
// layers of Input.Context, with provenance. A reader that can seek is
// seeked back and held nowhere; a stream is held up to Input.ScanLimit
// bytes. The error is that of reading r, of a kind the bytes cannot be
// (CheckFormat), or of a stream that is empty or binary (SniffFormat) with no
// Input.Default.
func Open(r io.Reader, in Input) (*Opened, error) {
	rs, seekable := r.(io.ReadSeeker)
	var start int64
	var head []byte
	var br *bufio.Reader
	if seekable {
		var err error
		if start, err = rs.Seek(0, io.SeekCurrent); err != nil {
			seekable = false
		} else {
			head = make([]byte, 4<<10)
			n, err := io.ReadFull(rs, head)
			head = head[:n]
			if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
				return nil, &Error{Op: "open", Err: err}
			}
			if _, err := rs.Seek(start, io.SeekStart); err != nil {
				return nil, &Error{Op: "open", Err: err}
			}
		}
	}
	if !seekable {
		br = bufio.NewReaderSize(r, 4<<10)
		var err error
		head, err = br.Peek(4 << 10)
		if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) && len(head) == 0 {
			return nil, &Error{Op: "open", Err: err}
		}
		r = br
	}

	d := &Opened{Settled: true, Reader: r}
	k, err := in.kind(head)
	if err != nil {
		return nil, err
	}
	d.Format = k
	c := in.Context
	if in.SavedFrom {
		if u, line, ok := SavedFrom(head); ok {
			c.Retrieval, c.RetrievalDetail = u, fmt.Sprintf("<!-- saved from url=... --> at line %d", line)
		}
	}
	ct := c.ContentType(in.ContentType)
	if k != HTML {
		d.Encoding, d.Charset, d.CharsetSource = TextEncoding(k, head, ct, in.Environment)
		d.Base = c.Decide(Element{})
		return d, nil
	}

	h, err := DecideHTML(r, ct, c, HTMLPolicy{ScanLimit: in.ScanLimit, Scripting: in.Scripting, raw: true})
	if err != nil {
		if e := (*Error)(nil); !errors.As(err, &e) {
			err = &Error{Op: "open", Err: err}
		}
		return nil, err
	}
	d.Encoding, d.Charset, d.CharsetSource = h.Encoding, h.Charset, h.CharsetSource
	d.Element, d.Base, d.Warnings = h.Element, h.Base, h.Warnings
	d.Settled, d.Reader = h.Settled, h.Reader
	return d, nil
}

// TextEncoding decides the encoding of a document of kind k other than
// HTML (whose decision is DecideHTML's, with its <base>) from its first
// bytes head (1024 are looked at) and its Content-Type: a stylesheet's by
// SheetEncoding (environment is the encoding of the document that refers
// to it, or ""), an XML document's by XMLEncoding; "" for the other kinds
// (a manifest and a module are UTF-8 by their specs, an archive has an
// encoding per part or record). It is the open step's decision for these
// kinds, Open's and every reader's.
func TextEncoding(k Format, head []byte, contentType, environment string) (enc encoding.Encoding, name, source string) {
	switch k {
	case CSS:
		return SheetEncoding(head, contentType, environment)
	case XML:
		return XMLEncoding(head, contentType)
	}
	return nil, "", ""
}

// kind decides the document's kind from what the caller said, its name,
// its Content-Type and its first bytes, in that order.
func (in *Input) kind(head []byte) (Format, error) {
	if in.Format != Other {
		return in.Format, CheckFormat(head, in.Format)
	}
	var k Format
	var err error
	if in.Name != "" && in.Name != "-" {
		k = FormatOf(in.Name, head)
	}
	if k == Other {
		// Typed content: the one rule of MHTML parts and WARC payloads
		// (XHTML by its root, a payload that is not its XML type named).
		if k, err = FormatOfContent(in.Context.ContentType(in.ContentType), head); err != nil {
			return Other, err
		}
	}
	if k == Other && (in.Name == "" || in.Name == "-") {
		k, err = SniffFormat(head)
	}
	if k == Other && in.Default != Other {
		return in.Default, nil
	}
	return k, err
}

// FormatOfType returns the kind a media type (a Content-Type value) names,
// Other for the types relurl does not read. A JavaScript MIME type (MIME
// Sniffing §4.6) names a module: a script served on its own (an archive's
// record or part, a response) is read by the module reader whether a page
// loads it as one or not, since what that reader finds in a classic
// script, import("x"), resolves against the script's own URL there too
// (HTML §8.1.3.1), and the rest (import and export declarations,
// import.meta) cannot be in a classic script that runs. A file's name
// tells no module from a classic script (FormatOf: .mjs only).
func FormatOfType(contentType string) Format {
	mt, _, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.Split(contentType, ";")[0]))
	}
	switch mt {
	case "text/html":
		return HTML
	case "text/css":
		return CSS
	case "image/svg+xml", "application/xhtml+xml", "application/atom+xml", "application/rss+xml":
		return XML
	case "application/manifest+json":
		return Manifest
	case "multipart/related", "message/rfc822", "application/x-mimearchive":
		return MHTML
	case "application/warc":
		return WARC
	case "text/javascript", "application/javascript", "application/x-javascript",
		"text/ecmascript", "application/ecmascript", "application/x-ecmascript", "text/x-ecmascript",
		"text/jscript", "text/livescript", "text/x-javascript",
		"text/javascript1.0", "text/javascript1.1", "text/javascript1.2", "text/javascript1.3",
		"text/javascript1.4", "text/javascript1.5":
		return Module
	}
	return Other
}

// Encoding decides an HTML document's character encoding from its first
// 1024 bytes (prefix) and its Content-Type, and says which layer decided
// (HTML Standard §13.2.3.1, "determining the character encoding"): a
// "byte order mark", the "Content-Type" charset, the "<meta>" prescan,
// else the "default" (the <meta> layer only when the prescan found a
// declaration). It decides as charset.DetermineEncoding does,
// except that a document declaring nothing whose first bytes are ASCII
// is read as UTF-8 instead of the locale guess windows-1252: a guess must
// not turn UTF-8 links into mojibake. The encoding is the Encoding
// Standard's own (nil for UTF-8), without charset.Lookup's fallback that
// writes what it lacks as character references.
func Encoding(prefix []byte, contentType string) (enc encoding.Encoding, name, source string) {
	name, source = determineEncoding(prefix, contentType)
	if source == ByDefault && name == "windows-1252" && isASCIIBytes(prefix) {
		name = "utf-8"
	}
	if name == "utf-8" {
		return nil, name, source
	}
	if e, err := htmlindex.Get(name); err == nil {
		enc = e
	}
	return enc, name, source
}

// isASCIIBytes reports whether b holds no byte above 0x7F. It reads eight
// bytes at a time, four words a round: it runs over the first 1024 bytes
// of every page whose prescan found no declaration, twice (x/net's guess,
// then Encoding's ASCII rule), where a loop over the bytes cost 0.13 % of
// the instructions of a whole tree's rewrite (corpus A).
func isASCIIBytes(b []byte) bool {
	const high = 0x8080808080808080
	for len(b) >= 32 {
		w := binary.LittleEndian.Uint64(b) | binary.LittleEndian.Uint64(b[8:]) |
			binary.LittleEndian.Uint64(b[16:]) | binary.LittleEndian.Uint64(b[24:])
		if w&high != 0 {
			return false
		}
		b = b[32:]
	}
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&high != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
