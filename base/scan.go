package base

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/relurl/relurl/internal/htmltree"
)

// Element is the <base> element a scan found.
type Element struct {
	Found  bool
	Href   string // the attribute value, with character references decoded
	Line   int    // 1-based
	Column int    // 1-based, in bytes
	Offset int64  // byte offset of the "<" of the tag
}

// MaxToken bounds the bytes of one token (a tag, a comment, a run of text
// such as an inline script) that ScanHTML holds. A longer token ends the
// scan with an error wrapping html.ErrBufferExceeded.
const MaxToken = 64 << 20

// maxToken is MaxToken, smaller in tests.
var maxToken = MaxToken

// maxWarnings bounds the warnings of one scan; the last one says how many
// more there were.
const maxWarnings = 20

// ScanHTML finds the <base href> that decides an HTML document's base
// (browser semantics, or the draft's appendix when strict) without
// building a DOM. It reads r to the end at most, holding no more than a
// token at a time, and stops at the deciding element; the warnings name
// the lines of <base> elements it skipped.
//
// Browser semantics (HTML Living Standard, "the document base URL"): the
// first base element with an href attribute in tree order, in the head or
// the body, counts. A <base> inside <svg> or <math> is a foreign element
// (except inside an HTML integration point such as <foreignObject>), and
// one inside <template> belongs to the inert template contents, so neither
// counts. Foreign content is tracked as the tree builder does (HTML §13.2.6.5:
// breakout tags, integration points, end tags), and so are the HTML elements
// inside an integration point (end tags, and the start tags that close a
// <p>), but the HTML elements around an <svg> or <math> are not: one left
// open is taken to end only at a breakout tag or at its own end tag, where a
// browser would also close it at the end tag of an enclosing HTML element.
// Such a case shows as a warning.
//
// Strict semantics (the draft's §10 appendix): only a BASE "in the HEAD
// portion of a document" with an absolute HREF counts, the first such one.
// The head is the tree builder's head element (HTML §13.2.6.4.4–6): it
// takes a <base> until the body begins, at <body>, at a start tag that does
// not belong in the head, or at text that is not white space; a <base>
// between </head> and the body still goes into it. Every other <base href>
// is ignored with a warning naming its line.
//
// <noscript> is read as by a user agent without scripting, as relurl is
// (HTML §13.2.6.4.5 "in head noscript", §13.2.6.4.7 "in body" with the
// scripting flag disabled): its content is markup, so a <base href> in it
// counts (in the head the tree builder moves it out of the noscript into
// the head). [Scripting] reads it as a browser running scripts does: raw
// text, so a <base> in it is not an element.
func ScanHTML(r io.Reader, strict bool, opts ...ScanOption) (Element, []string, error) {
	s := scanner{z: html.NewTokenizer(r), strict: strict, line: 1, col: 1}
	for _, o := range opts {
		o(&s)
	}
	s.z.SetMaxBuf(maxToken)
	e, err := s.run()
	return e, s.warnings, err
}

// A ScanOption changes how ScanHTML reads a document.
type ScanOption func(*scanner)

// Scripting reads the document as a browser with scripting enabled does
// when on is true (HTML §13.2.2, "the scripting flag"): the content of
// <noscript> is raw text, and a <base> inside it is no element. The
// default, like on false, is the reading of a user agent without
// scripting, where it is markup.
func Scripting(on bool) ScanOption {
	return func(s *scanner) { s.tree.Scripting = on }
}

type scanner struct {
	z      *html.Tokenizer
	strict bool

	line, col int   // where the current token starts
	offset    int64 // where the current token starts
	rawText   bool  // the previous token opened a raw text element

	tree htmltree.Tree // the open elements, as the tree builder has them

	warnings []string
	name     [32]byte // scratch for tagName
}

// run scans tokens until the deciding <base> or the end of input.
func (s *scanner) run() (Element, error) {
	for {
		// "<![CDATA[" opens a CDATA section only when the current node is
		// foreign; in an HTML element it opens a bogus comment (HTML
		// §13.2.5.42), even inside an integration point.
		s.z.AllowCDATA(s.tree.Foreign())
		tt := s.z.Next()
		raw := s.z.Raw()
		line, col, off := s.line, s.col, s.offset
		s.advance(raw)
		rawText := s.rawText
		s.rawText = false
		switch tt {
		case html.ErrorToken:
			if err := s.z.Err(); !errors.Is(err, io.EOF) {
				return Element{}, &Error{Op: fmt.Sprintf("scan html at byte %d", off), Err: err}
			}
			return Element{}, nil
		case html.TextToken:
			if off == 0 {
				raw = bytes.TrimPrefix(raw, utf8BOM) // decoding removes it (Encoding §6)
			}
			if !rawText && len(bytes.Trim(raw, "\t\n\f\r ")) > 0 {
				s.tree.Text()
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			if e, ok := s.startTag(s.tagName(raw), tt == html.SelfClosingTagToken, line, col, off); ok {
				return e, nil
			}
		case html.EndTagToken:
			s.endTag(s.tagName(raw))
		}
	}
}

// advance moves the position past raw.
func (s *scanner) advance(raw []byte) {
	s.offset += int64(len(raw))
	n := lineEnds(raw)
	if n == 0 {
		s.col += len(raw)
		return
	}
	s.line += n
	s.col = len(raw) - max(bytes.LastIndexByte(raw, '\n'), bytes.LastIndexByte(raw, '\r'))
}

// lineEnds counts the line ends in raw: LF, CRLF or a lone CR, as HTML's
// input stream preprocessing normalizes them (HTML §13.2.3.5). No token
// but text ends in CR, and text runs on past an LF, so no CRLF is split.
func lineEnds(raw []byte) int {
	n := bytes.Count(raw, []byte{'\n'})
	if bytes.IndexByte(raw, '\r') >= 0 {
		n += bytes.Count(raw, []byte{'\r'}) - bytes.Count(raw, []byte("\r\n"))
	}
	return n
}

// tagName returns the lower-cased name of the tag whose raw bytes are raw,
// as the tokenizer reads it (HTML §13.2.5.8, tag name state). It reads raw
// rather than calling TagName, which copies every name: a known name costs
// no allocation.
func (s *scanner) tagName(raw []byte) string {
	raw = bytes.TrimPrefix(raw[1:], []byte{'/'})
	n := 0
	for n < len(raw) {
		switch raw[n] {
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			goto done
		}
		n++
	}
done:
	if n > len(s.name) {
		return string(bytes.ToLower(raw[:n]))
	}
	lower := s.name[:n]
	for i, c := range raw[:n] {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	if a := atom.Lookup(lower); a != 0 {
		return a.String()
	}
	return string(lower)
}

// attrs returns the attributes the scan looks at: href (base), encoding
// (annotation-xml) and color, face, size (font breaks out of foreign
// content). x/net keeps the first of duplicated attributes, as HTML does.
// It is called only for those elements, since every attribute read is
// copied.
func (s *scanner) attrs() map[string]string {
	var m map[string]string
	for more := true; more; {
		var k, v []byte
		k, v, more = s.z.TagAttr()
		switch string(k) {
		case "href", "encoding", "color", "face", "size":
			if m == nil {
				m = make(map[string]string)
			}
			if _, dup := m[string(k)]; !dup {
				m[string(k)] = string(v)
			}
		}
	}
	return m
}

// startTag processes a start tag and returns the element when it decides.
func (s *scanner) startTag(name string, selfClosing bool, line, col int, off int64) (Element, bool) {
	var attrs map[string]string
	switch name {
	case "font", "annotation-xml", "base":
		attrs = s.attrs()
	}
	if ns := s.tree.Start(name, mapAttrs(attrs), selfClosing); ns != htmltree.HTML {
		// The tokenizer would treat <title>, <style>, <script> and the
		// like as raw text; in foreign content they are ordinary elements.
		s.z.NextIsNotRawText()
		if _, ok := attrs["href"]; ok && name == "base" {
			s.warn(fmt.Sprintf("line %d: <base href> inside <%s> ignored: it is not an HTML element there", line, ns))
		}
		return Element{}, false
	}
	if name == "base" {
		return s.base(attrs, line, col, off)
	}
	switch {
	case s.tree.RawText(name):
		s.rawText = true
	case name == "noscript":
		// Scripting disabled: <noscript> holds markup.
		s.z.NextIsNotRawText()
	}
	return Element{}, false
}

// mapAttrs gives htmltree the attributes s.attrs read.
type mapAttrs map[string]string

func (m mapAttrs) Attr(k string) (string, bool) {
	v, ok := m[k]
	return v, ok
}

// endTag processes an end tag.
func (s *scanner) endTag(name string) { s.tree.End(name) }

// base processes an HTML <base> start tag.
func (s *scanner) base(attrs map[string]string, line, col int, off int64) (Element, bool) {
	href, ok := attrs["href"]
	if !ok {
		return Element{}, false
	}
	if s.tree.InTemplate() {
		s.warn(fmt.Sprintf("line %d: <base href> inside <template> ignored", line))
		return Element{}, false
	}
	if s.strict {
		if s.tree.Head() == htmltree.HeadEnded {
			s.warn(fmt.Sprintf("line %d: <base href> outside the head ignored (strict: the draft's §10 appendix)", line))
			return Element{}, false
		}
		if v := trimASCIISpace(href); !absolute(v) {
			s.warn(fmt.Sprintf("line %d: <base href=%q> ignored: not an absolute URL (strict: the draft's §10 appendix)", line, v))
			return Element{}, false
		}
	}
	return Element{Found: true, Href: href, Line: line, Column: col, Offset: off}, true
}

// warn records a warning, up to maxWarnings.
func (s *scanner) warn(w string) {
	switch {
	case len(s.warnings) < maxWarnings:
		s.warnings = append(s.warnings, w)
	case len(s.warnings) == maxWarnings:
		s.warnings = append(s.warnings, "more warnings left out")
	}
}

var utf8BOM = []byte("\xef\xbb\xbf")

// ErrPrescanLimit reports that Prescan read its limit without finding the
// deciding <base>; it is returned in a warning, not as an error.
var ErrPrescanLimit = errors.New("prescan limit reached")

// Prescan is ScanHTML for a caller that goes on to read the document in
// one pass, such as a rewriter: it returns, besides the element, a reader
// that yields the whole of r from where it stood, so that the document's
// base can be applied to the links that come before its <base> element,
// as browsers do (the base is the document's, not the one in force where
// a link stands).
//
// When r is an io.ReadSeeker, Prescan seeks back after the scan and holds
// nothing. Otherwise it holds what the scan read: up to the <base> element
// (and the tokenizer's read-ahead), or the whole document when there is
// none, but at most limit bytes. Past limit the scan stops, the element is
// reported not found, and a warning says so. When the scan fails (a token
// over MaxToken, a read error), the error comes with the reader all the
// same, so that the document can still be passed on unchanged.
func Prescan(r io.Reader, strict bool, limit int64, opts ...ScanOption) (Element, []string, io.Reader, error) {
	e, warnings, rest, settled, err := Lookahead(r, strict, limit, opts...)
	if !settled {
		warnings = append(warnings, fmt.Sprintf("no <base href> in the first %d bytes: a later one is not looked for (%v)", limit, ErrPrescanLimit))
	}
	return e, warnings, rest, err
}

// Lookahead is Prescan that says whether the base is settled: false when
// the scan of a stream reached limit bytes before the deciding <base> or
// the end of the stream, and the element reported is then not found (a
// caller that must have the right base spools rest with [Spool] and scans
// the spool). It reads r only as far as it must: up to the deciding
// element, so that a caller reading a pipe can go on before the writer has
// finished.
func Lookahead(r io.Reader, strict bool, limit int64, opts ...ScanOption) (e Element, warnings []string, rest io.Reader, settled bool, err error) {
	if rs, ok := r.(io.ReadSeeker); ok {
		start, err := rs.Seek(0, io.SeekCurrent)
		if err == nil {
			e, warnings, err := ScanHTML(rs, strict, opts...)
			if _, serr := rs.Seek(start, io.SeekStart); serr != nil {
				return Element{}, warnings, nil, true, &Error{Op: "prescan", Err: serr}
			}
			return e, warnings, rs, true, err
		}
	}
	t := &teeLimit{r: r, limit: limit}
	e, warnings, err = ScanHTML(t, strict, opts...)
	rest = io.MultiReader(bytes.NewReader(t.buf), r)
	if errors.Is(err, ErrPrescanLimit) {
		return Element{}, warnings, rest, false, nil
	}
	return e, warnings, rest, true, err
}

// Spool copies r to a new temporary file in dir (the system's default
// when ""), removed from its directory at once, and returns the file
// positioned at its start: a stream whose base is not settled within the
// look-ahead is read from there, in bounded memory, once its <base> has
// been found. Closing the file frees its space.
func Spool(r io.Reader, dir string) (*os.File, error) {
	f, err := os.CreateTemp(dir, "relurl-spool-*")
	if err != nil {
		return nil, &Error{Op: "spool", Err: err}
	}
	// Unlinked while open: nothing is left behind, however the process ends.
	os.Remove(f.Name())
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return nil, &Error{Op: "spool", Err: err}
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		f.Close()
		return nil, &Error{Op: "spool", Err: err}
	}
	return f, nil
}

// teeLimit reads from r, keeping what it read, and fails with
// ErrPrescanLimit once it has read limit bytes.
type teeLimit struct {
	r     io.Reader
	buf   []byte
	limit int64
}

func (t *teeLimit) Read(p []byte) (int, error) {
	left := t.limit - int64(len(t.buf))
	if left <= 0 {
		return 0, ErrPrescanLimit
	}
	if int64(len(p)) > left {
		p = p[:left]
	}
	n, err := t.r.Read(p)
	t.buf = append(t.buf, p[:n]...)
	return n, err
}
