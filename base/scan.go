package base

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
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

// maxOpen bounds the open elements a scan tracks inside <svg>/<math>;
// deeper ones are counted, not remembered, and treated as foreign content.
const maxOpen = 1024

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
func ScanHTML(r io.Reader, strict bool) (Element, []string, error) {
	s := scanner{z: html.NewTokenizer(r), strict: strict, line: 1, col: 1}
	s.z.SetMaxBuf(maxToken)
	e, err := s.run()
	return e, s.warnings, err
}

// namespace is the namespace of an open element.
type namespace uint8

const (
	nsHTML namespace = iota
	nsSVG
	nsMath
)

func (n namespace) String() string {
	switch n {
	case nsSVG:
		return "svg"
	case nsMath:
		return "math"
	}
	return "html"
}

// frame is an open element inside foreign content, or an HTML element
// inside an integration point there.
type frame struct {
	name  string
	ns    namespace
	point bool // an HTML integration point or a MathML text integration point
	text  bool // a MathML text integration point (mi, mo, mn, ms, mtext)
	annot bool // MathML annotation-xml, where <svg> starts SVG again
}

type scanner struct {
	z      *html.Tokenizer
	strict bool

	line, col int   // where the current token starts
	offset    int64 // where the current token starts
	rawText   bool  // the previous token opened a raw text element

	// stack holds the open elements from the outermost <svg> or <math>
	// inward; it is empty in plain HTML. deep counts elements beyond maxOpen.
	stack []frame
	deep  int
	// templates holds, for each open HTML <template>, the length of stack
	// when it opened; templateDeep counts those beyond maxOpen.
	templates    []int
	templateDeep int
	head         headState // strict: where the head stands

	warnings []string
	name     [32]byte // scratch for tagName
}

// run scans tokens until the deciding <base> or the end of input.
func (s *scanner) run() (Element, error) {
	for {
		// "<![CDATA[" opens a CDATA section only when the current node is
		// foreign; in an HTML element it opens a bogus comment (HTML
		// §13.2.5.42), even inside an integration point.
		s.z.AllowCDATA(s.inForeign())
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
			if !rawText && len(s.templates) == 0 && len(bytes.Trim(raw, "\t\n\f\r ")) > 0 {
				s.head = headEnded // HTML §13.2.6.4.4, §13.2.6.4.6: "anything else"
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

// inForeign reports whether the current node is a foreign element.
func (s *scanner) inForeign() bool {
	return s.deep > 0 || len(s.stack) > 0 && s.stack[len(s.stack)-1].ns != nsHTML
}

// foreign reports whether a start tag named name is processed by the rules
// for foreign content (HTML §13.2.6, "tree construction dispatcher").
func (s *scanner) foreign(name string) bool {
	if s.deep > 0 {
		return true
	}
	if len(s.stack) == 0 {
		return false
	}
	top := s.stack[len(s.stack)-1]
	switch {
	case top.ns == nsHTML:
		return false
	case top.text && name != "mglyph" && name != "malignmark":
		return false
	case top.annot && name == "svg":
		return false
	case top.point && !top.text:
		return false
	}
	return true
}

// breakout reports whether a start tag leaves foreign content (HTML
// §13.2.6.5).
func breakout(name string, attrs map[string]string) bool {
	if name == "font" {
		for _, k := range [...]string{"color", "face", "size"} {
			if _, ok := attrs[k]; ok {
				return true
			}
		}
		return false
	}
	return breakoutTags[name]
}

var breakoutTags = map[string]bool{
	"b": true, "big": true, "blockquote": true, "body": true, "br": true,
	"center": true, "code": true, "dd": true, "div": true, "dl": true,
	"dt": true, "em": true, "embed": true, "h1": true, "h2": true,
	"h3": true, "h4": true, "h5": true, "h6": true, "head": true,
	"hr": true, "i": true, "img": true, "li": true, "listing": true,
	"menu": true, "meta": true, "nobr": true, "ol": true, "p": true,
	"pre": true, "ruby": true, "s": true, "small": true, "span": true,
	"strong": true, "strike": true, "sub": true, "sup": true, "table": true,
	"tt": true, "u": true, "ul": true, "var": true,
}

// headState is where a scan stands with respect to the head element, as
// the tree builder's insertion modes say for the elements that go into it.
type headState uint8

const (
	headOpen   headState = iota // "before head" or "in head"
	headClosed                  // "after head": some elements still go into the head
	headEnded                   // the body has begun
)

// afterHeadTags are the start tags that the "after head" insertion mode
// still puts into the head (HTML §13.2.6.4.6), with html and head, which
// it ignores.
var afterHeadTags = map[string]bool{
	"base": true, "basefont": true, "bgsound": true, "link": true, "meta": true,
	"noframes": true, "script": true, "style": true, "template": true,
	"title": true, "html": true, "head": true,
}

// inHeadTags may appear in the head without ending it (HTML §13.2.6.4.4,
// "in head" insertion mode, plus html and head themselves).
var inHeadTags = map[string]bool{
	"base": true, "basefont": true, "bgsound": true, "link": true, "meta": true,
	"title": true, "noscript": true, "noframes": true, "style": true,
	"script": true, "template": true, "head": true, "html": true,
}

// rawTextTags switch the tokenizer to raw text or RCDATA in HTML content,
// so the text token that follows is not markup.
var rawTextTags = map[string]bool{
	"iframe": true, "noembed": true, "noframes": true, "noscript": true,
	"script": true, "style": true, "xmp": true, "textarea": true, "title": true,
	"plaintext": true,
}

// voidTags never have contents, so they are never open.
var voidTags = map[string]bool{
	"area": true, "base": true, "basefont": true, "bgsound": true, "br": true,
	"col": true, "embed": true, "frame": true, "hr": true, "img": true,
	"input": true, "keygen": true, "link": true, "meta": true, "param": true,
	"source": true, "track": true, "wbr": true,
}

// closesP are the start tags that close an open <p> element in button
// scope before they open (HTML §13.2.6.4.7, "in body"). <table> does so
// only outside quirks mode and <form> only when no form is open, which a
// scan does not track; neither is here.
var closesP = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true,
	"center": true, "details": true, "dialog": true, "dir": true, "div": true,
	"dl": true, "fieldset": true, "figcaption": true, "figure": true,
	"footer": true, "header": true, "hgroup": true, "main": true, "menu": true,
	"nav": true, "ol": true, "p": true, "search": true, "section": true,
	"summary": true, "ul": true, "h1": true, "h2": true, "h3": true, "h4": true,
	"h5": true, "h6": true, "pre": true, "listing": true, "li": true, "dd": true,
	"dt": true, "plaintext": true, "hr": true, "xmp": true,
}

// closeP closes the nearest open HTML <p> when it is in button scope
// (HTML §13.2.4.2), as a start tag in closesP does. Only the HTML elements
// inside an integration point are on the stack, and every integration
// point ends button scope, so the search stops at the first foreign frame.
// Outside foreign content the stack is empty and a <p> does not matter.
func (s *scanner) closeP() {
	for i := len(s.stack) - 1; i >= 0 && s.stack[i].ns == nsHTML; i-- {
		switch s.stack[i].name {
		case "p":
			s.stack = s.stack[:i]
			return
		case "applet", "button", "caption", "html", "marquee", "object", "select", "table", "td", "template", "th":
			return
		}
	}
}

// startTag processes a start tag and returns the element when it decides.
func (s *scanner) startTag(name string, selfClosing bool, line, col int, off int64) (Element, bool) {
	if s.foreign(name) {
		var attrs map[string]string
		switch name {
		case "font", "annotation-xml", "base":
			attrs = s.attrs()
		}
		if !breakout(name, attrs) {
			s.foreignStart(name, attrs, selfClosing, line)
			return Element{}, false
		}
		s.popToHTML()
	}
	// Template contents do not move the head (HTML §13.2.6.4.18).
	if len(s.templates) == 0 {
		switch {
		case s.head == headOpen && !inHeadTags[name], s.head == headClosed && !afterHeadTags[name]:
			s.head = headEnded
		}
	}
	switch name {
	case "svg", "math":
		ns := nsSVG
		if name == "math" {
			ns = nsMath
		}
		if !selfClosing {
			s.push(frame{name: name, ns: ns})
		}
		return Element{}, false
	case "template":
		if len(s.templates) >= maxOpen {
			s.templateDeep++ // counted, not remembered
			return Element{}, false
		}
		s.templates = append(s.templates, len(s.stack))
	case "base":
		return s.base(s.attrs(), line, col, off)
	}
	if rawTextTags[name] {
		s.rawText = true
	}
	if closesP[name] {
		s.closeP()
	}
	if len(s.stack) > 0 && !voidTags[name] {
		s.push(frame{name: name, ns: nsHTML})
	}
	return Element{}, false
}

// foreignStart opens a foreign element (HTML §13.2.6.5, "any other start
// tag"): in the namespace of the current node, never raw text.
func (s *scanner) foreignStart(name string, attrs map[string]string, selfClosing bool, line int) {
	ns := nsSVG
	if s.deep == 0 {
		ns = s.stack[len(s.stack)-1].ns
	}
	if name == "base" {
		if _, ok := attrs["href"]; ok {
			s.warn(fmt.Sprintf("line %d: <base href> inside <%s> ignored: it is not an HTML element there", line, ns))
		}
	}
	// The tokenizer would treat <title>, <style>, <script> and the like as
	// raw text; in foreign content they are ordinary elements.
	s.z.NextIsNotRawText()
	if selfClosing {
		return
	}
	f := frame{name: name, ns: ns}
	switch {
	case ns == nsSVG && (name == "foreignobject" || name == "desc" || name == "title"):
		f.point = true
	case ns == nsMath && (name == "mi" || name == "mo" || name == "mn" || name == "ms" || name == "mtext"):
		f.point, f.text = true, true
	case ns == nsMath && name == "annotation-xml":
		f.annot = true
		if enc, ok := attrs["encoding"]; ok && (asciiEqualFold(enc, "text/html") || asciiEqualFold(enc, "application/xhtml+xml")) {
			f.point = true
		}
	}
	s.push(f)
}

// push opens f, or counts it when the stack is full.
func (s *scanner) push(f frame) {
	if s.deep > 0 || len(s.stack) >= maxOpen {
		s.deep++
		return
	}
	s.stack = append(s.stack, f)
}

// popToHTML pops foreign elements until the current node is an HTML
// element or an integration point (HTML §13.2.6.5, breakout).
func (s *scanner) popToHTML() {
	s.deep = 0
	for len(s.stack) > 0 {
		top := s.stack[len(s.stack)-1]
		if top.ns == nsHTML || top.point {
			break
		}
		s.stack = s.stack[:len(s.stack)-1]
	}
}

// endTag processes an end tag.
func (s *scanner) endTag(name string) {
	if s.deep > 0 {
		s.deep--
		return
	}
	if n := len(s.stack); n > 0 && s.stack[n-1].ns != nsHTML {
		// HTML §13.2.6.5: </br> and </p> break out; any other end tag
		// closes the nearest foreign element of its name, looking no
		// further than the first HTML element.
		if name == "br" || name == "p" {
			s.popToHTML()
		} else {
			for i := n - 1; i >= 0; i-- {
				if asciiEqualFold(s.stack[i].name, name) {
					s.stack = s.stack[:i]
					return
				}
				if i > 0 && s.stack[i-1].ns == nsHTML {
					break
				}
			}
		}
	}
	switch name {
	case "template":
		if s.templateDeep > 0 {
			s.templateDeep--
			return
		}
		if n := len(s.templates); n > 0 {
			s.stack = s.stack[:s.templates[n-1]]
			s.templates = s.templates[:n-1]
		}
		return
	case "head", "body", "html", "br":
		// "in head" and "after head" (HTML §13.2.6.4.4, §13.2.6.4.6):
		// </head> closes the head; the others start the body. In template
		// contents they are ignored.
		if len(s.templates) == 0 {
			if name != "head" {
				s.head = headEnded
			} else if s.head == headOpen {
				s.head = headClosed
			}
		}
	}
	// An HTML end tag closes the nearest open HTML element of its name,
	// and the foreign elements opened inside it, looking no further than
	// the integration point it is in: those end every scope (HTML
	// §13.2.4.2, §13.2.6.4.7).
	for i := len(s.stack) - 1; i >= 0 && !s.stack[i].point && !s.stack[i].annot; i-- {
		if s.stack[i].ns == nsHTML && s.stack[i].name == name {
			s.stack = s.stack[:i]
			return
		}
	}
}

// base processes an HTML <base> start tag.
func (s *scanner) base(attrs map[string]string, line, col int, off int64) (Element, bool) {
	href, ok := attrs["href"]
	if !ok {
		return Element{}, false
	}
	if len(s.templates) > 0 {
		s.warn(fmt.Sprintf("line %d: <base href> inside <template> ignored", line))
		return Element{}, false
	}
	if s.strict {
		if s.head == headEnded {
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

// asciiEqualFold compares s and t, ignoring ASCII case only, as HTML does.
func asciiEqualFold(s, t string) bool {
	if len(s) != len(t) {
		return false
	}
	for i := 0; i < len(s); i++ {
		a, b := s[i], t[i]
		if 'A' <= a && a <= 'Z' {
			a += 'a' - 'A'
		}
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if a != b {
			return false
		}
	}
	return true
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
func Prescan(r io.Reader, strict bool, limit int64) (Element, []string, io.Reader, error) {
	e, warnings, rest, settled, err := Lookahead(r, strict, limit)
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
func Lookahead(r io.Reader, strict bool, limit int64) (e Element, warnings []string, rest io.Reader, settled bool, err error) {
	if rs, ok := r.(io.ReadSeeker); ok {
		start, err := rs.Seek(0, io.SeekCurrent)
		if err == nil {
			e, warnings, err := ScanHTML(rs, strict)
			if _, serr := rs.Seek(start, io.SeekStart); serr != nil {
				return Element{}, warnings, nil, true, &Error{Op: "prescan", Err: serr}
			}
			return e, warnings, rs, true, err
		}
	}
	t := &teeLimit{r: r, limit: limit}
	e, warnings, err = ScanHTML(t, strict)
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
