// Package xmlrewrite rewrites the links of XML documents to absolute form,
// or extracts them with their positions, leaving every other byte as it
// was: SVG (SVG 2 "Linking"), XHTML, Atom (RFC 4287) and RSS 2.0 feeds.
//
// Each element's base is the draft's §3.1 decision for XML: xml:base
// (XML Base, Second Edition §4.2), resolved against the parent's base,
// recursively, and reported with its provenance (base.Context.XMLBase).
// Feeds honour it, as RFC 4287 §2 says; browsers ignore it in SVG and
// XHTML (Blink since 2015, Gecko since Firefox 66, WebKit never had it),
// so there the document's base applies unless Options.XMLBase says
// otherwise. XHTML's document base is its first <base href>, as in HTML.
//
// What is a link: in SVG, href and xlink:href (matched by namespace, so
// any prefix counts) on the elements that take a URL, and CSS url() in
// style, the presentation attributes and <style>; in XHTML, what the HTML
// Standard says (package htmlrewrite reads each start tag); in Atom,
// link@href, content@src, generator@uri, and the icon, logo and uri
// elements, with text constructs of type="html" read as escaped HTML; in
// RSS, link, docs, comments, image/url, guid (unless isPermaLink="false"),
// enclosure@url and source@url, with description and content:encoded as
// escaped HTML; in any document, <?xml-stylesheet href?>. Not links:
// xmlns declarations, Atom id (an identifier, §4.2.6), category@scheme,
// rel values, fragment-only references (kept local unless
// Options.Fragments), CSS url(#id).
//
// Escaping layers stack: a URL in escaped HTML is XML-unescaped, resolved
// as HTML, and written back HTML- and XML-escaped ("&" becomes "&amp;amp;"),
// in text or in the CDATA section it was in. Values that use entities
// declared in a DTD cannot be spliced: they are reported with an error and
// left as written.
//
// The document is held in memory (up to Options.MaxSize); what is held
// for its structure is bounded by design: at most MaxDepth open elements
// of a few bytes each, and link.MaxAttrs attributes of a tag. An
// element deeper or a tag with more stops the reading with an
// *link.IncompleteError, the rest copied as written. Its encoding is
// decided by base.XMLEncoding (a byte order mark, Options.ContentType's
// charset, the first bytes, the encoding declaration, else UTF-8) and
// must be ASCII-compatible: UTF-16, UTF-32 and EBCDIC documents are
// refused with htmlrewrite.ErrEncoding.
package xmlrewrite

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/linkref"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// XMLBaseMode says whether xml:base sets the base of its element.
type XMLBaseMode int

// The ways to treat xml:base.
const (
	// XMLBaseAuto honours xml:base in feeds and ignores it (with a
	// warning) in SVG and XHTML, as browsers do.
	XMLBaseAuto XMLBaseMode = iota
	// XMLBaseHonour follows XML Base in every document.
	XMLBaseHonour
	// XMLBaseIgnore ignores xml:base everywhere.
	XMLBaseIgnore
)

// Options control a rewrite or an extraction: the link.Document every
// reader takes, and what is XML's own. Of the Document, for XML:
// Context holds the layers below the document (§3.2–§3.4), each
// element's xml:base deciding anew above them; ContentType's charset,
// when it names an encoding, decides the document's encoding after a
// byte order mark (RFC 7303 §3.2, base.XMLEncoding); Fragments never
// changes a CSS url(#id); MaxSize bounds the document held in memory
// (and is at most 2 GiB: offsets are kept in 32 bits): a larger document
// is not read whole, it is copied unchanged, with an
// *link.TooLargeError.
type Options struct {
	link.Document

	XMLBase XMLBaseMode

	// EmptyXMLBase makes Rewrite write every xml:base it honours (see
	// XMLBase) as xml:base="", which is the parent's base (RFC 3986
	// §5.2.2), so that every element's base is the document's own URL:
	// for a Map that writes references relative to the document itself
	// (package materialize), which an xml:base left as written would
	// take to another place.
	EmptyXMLBase bool

	// Charset is the document's encoding as the open step already
	// decided it (base.Open's Opened.Charset, by base.XMLEncoding;
	// package extract sets it): it is not decided again. "" decides it
	// from the bytes and ContentType.
	Charset string

	identity bool // tests: every URL replaced by its own bytes
}

// Rewrite copies the XML document src to dst with its links in absolute
// form and reports what it did; Stats.Base is the document's base.
func Rewrite(dst io.Writer, src io.Reader, opts Options) (link.Stats, error) {
	w := bufio.NewWriterSize(dst, 32<<10)
	s, err := newScanner(src, opts, w, nil)
	if err == nil {
		err = s.run()
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if s == nil {
		return link.Stats{}, err
	}
	s.dec.Stats.Base = s.docBase
	return s.dec.Stats, err
}

// Links calls fn for every link of the XML document src, in document
// order, and returns the document's base. It stops at the first error fn
// returns.
func Links(src io.Reader, opts Options, fn func(link.Link) error) (base.Result, error) {
	s, err := newScanner(src, opts, nil, fn)
	if err != nil {
		return base.Result{}, err
	}
	err = s.run()
	return s.docBase, err
}

// Sniff returns the format of the XML document that starts with head, from
// its root element, and false when head holds no root start tag.
func Sniff(head []byte) (Format, bool) {
	space, local, ok := base.XMLRoot(head)
	if !ok {
		return XML, false
	}
	return formatOf(&element{ns: space, local: local}), true
}

func formatOf(root *element) Format {
	switch {
	case root.ns == nsSVG && root.local == "svg":
		return SVG
	case root.ns == nsXHTML && root.local == "html":
		return XHTML
	case root.ns == nsAtom && (root.local == "feed" || root.local == "entry"):
		return Atom
	case root.ns == "" && root.local == "rss",
		root.local == "RDF" && root.ns == "http://www.w3.org/1999/02/22-rdf-syntax-ns#":
		return RSS
	}
	return XML
}

// rootLookup resolves prefixes from the root element's own declarations.
func rootLookup(e *element) func(string) string {
	return func(p string) string {
		switch p {
		case "xml":
			return nsXML
		case "xmlns":
			return nsXMLNS
		}
		for _, a := range e.attrs {
			if a.v0 < 0 {
				continue
			}
			if p == "" && a.name == "xmlns" || p != "" && a.name == "xmlns:"+p {
				return string(e.src[a.v0:a.v1])
			}
		}
		return ""
	}
}

// splitName returns the namespace and local name of an element's
// qualified name: the default namespace applies to unprefixed elements.
func splitName(q string, lookup func(string) string) (string, string) {
	if i := strings.IndexByte(q, ':'); i >= 0 {
		return lookup(q[:i]), q[i+1:]
	}
	return lookup(""), q
}

// binding is one namespace declaration in scope.
type binding struct{ prefix, uri string }

// MaxDepth bounds the elements open at once: a start tag deeper than this
// stops the reading (an *link.IncompleteError; Rewrite copies the
// rest as written), so that what is held per open element is bounded by
// the design, not by the input.
const MaxDepth = 512

// frame is an open element, kept small (the stack holds up to MaxDepth of
// them): what each element needs of its own, as offsets in the source;
// its base, which only an xml:base changes, is shared through s.bases.
type frame struct {
	name, nameEnd int32 // the qualified name, src[name:nameEnd]
	bindings      int32 // len(scanner.bindings) before this element's declarations
	contentAt     int32 // where the content starts
	base          int32 // the element's base: s.bases[base], or the document's when -1
	content       content
	mixed         bool // the content has child elements
	kind          uint8
}

// scoped is an element's base, shared by its descendants until an
// xml:base changes it.
type scoped struct {
	base   base.Result
	res    *resolve.Resolver
	resErr error
}

// scope is what the link readers need of an element: its name and its
// base.
type scope struct {
	qname string
	*scoped
}

type scanner struct {
	opts     Options
	src      []byte
	w        *bufio.Writer
	splice   linkref.Splicer
	fn       func(link.Link) error
	err      error
	format   Format
	honour   bool
	docBase  base.Result
	docRes   *resolve.Resolver
	docErr   error
	stack    []frame
	bases    []scoped // the bases that xml:base set, shared by the open elements
	doc      scoped   // the document's base
	bindings []binding
	lines    linkref.Lines
	dec      linkref.Decider
	warned   bool // the xml:base warning was given
	nestedW  *bufio.Writer
	tooLarge int // the bound a document over it went past; 0 when read
}

func newScanner(src io.Reader, opts Options, w *bufio.Writer, fn func(link.Link) error) (*scanner, error) {
	max := opts.MaxSize
	if max <= 0 {
		max = link.DefaultMaxToken
	}
	max = min(max, math.MaxInt32) // frames keep offsets as int32
	// Not read whole when larger than max: a file's size says so first.
	data, err := linkref.ReadDocument(src, max)
	var long *linkref.TooLongError
	if err != nil && !errors.As(err, &long) {
		return nil, err
	}
	s := &scanner{opts: opts, src: data, w: w, fn: fn}
	s.splice = linkref.Splicer{W: w, Src: data}
	s.lines = linkref.Lines{Src: data}
	s.dec = linkref.Decider{Absolute: opts.Absolute, Fragments: opts.Fragments, Map: opts.Map}
	if long != nil {
		s.tooLarge = max
		s.docBase = opts.Context.Decide(base.Element{})
		err = nil
		if w != nil {
			w.Write(data)
			err = long.CopyRest(w)
		}
		return s, err
	}
	// The open step's decision (XML 1.0 §4.3.3, Appendix F, RFC 7303):
	// the bytes are read as they are, so an encoding that does not write
	// ASCII as ASCII is refused.
	name := opts.Charset
	if name == "" {
		_, name, _ = base.XMLEncoding(data, opts.ContentType)
	}
	if !asciiCompatible(name) {
		return nil, &htmlrewrite.EncodingError{Name: name}
	}
	s.format, _ = Sniff(data)
	switch opts.XMLBase {
	case XMLBaseAuto:
		s.honour = s.format.feed()
	case XMLBaseHonour:
		s.honour = true
	}
	if s.format == XHTML {
		s.docBase = opts.Context.Decide(s.xhtmlBase())
	} else {
		s.docBase = opts.Context.Decide(base.Element{})
	}
	s.docRes, s.docErr = s.resolver(s.docBase.URL)
	return s, nil
}

// asciiCompatible reports whether a document in the encoding called name
// writes ASCII characters as the ASCII bytes the scanner reads.
func asciiCompatible(name string) bool {
	switch name {
	case "utf-16be", "utf-16le", "utf-32be", "utf-32le", "ebcdic":
		return false
	}
	return true
}

func (s *scanner) resolver(u string) (*resolve.Resolver, error) {
	if u == "" {
		return nil, nil
	}
	return resolve.NewResolver(s.opts.Context.Spec, u, s.opts.Context.Options)
}

// xhtmlBase finds the first <base href> in the XHTML namespace, the
// document base of an XHTML document (HTML Standard "document base URL").
func (s *scanner) xhtmlBase() base.Element {
	l := lexer{src: s.src}
	var stack []binding
	for {
		t, ok := l.next()
		if !ok {
			return base.Element{}
		}
		if t.kind != startToken {
			continue
		}
		e := &element{src: s.src, attrs: t.attrs}
		e.lookup = rootLookup(e)
		ns, local := splitName(t.name, func(p string) string {
			if u := e.lookup(p); u != "" {
				return u
			}
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].prefix == p {
					return stack[i].uri
				}
			}
			return ""
		})
		if u := e.lookup(""); u != "" && len(stack) < MaxDepth {
			stack = append(stack, binding{"", u})
		}
		if ns == nsXHTML && local == "base" {
			if v, ok := e.attrValue("", "href"); ok {
				var d decoded
				_ = d.add(v, 0, len(v), false, '"')
				line, col := s.lines.Position(t.a)
				return base.Element{Found: true, Href: string(d.text), Line: line, Column: col, Offset: int64(t.a)}
			}
		}
	}
}

func (s *scanner) lookup(p string) string {
	switch p {
	case "xml":
		return nsXML
	case "xmlns":
		return nsXMLNS
	}
	for i := len(s.bindings) - 1; i >= 0; i-- {
		if s.bindings[i].prefix == p {
			return s.bindings[i].uri
		}
	}
	return ""
}

// scopeOf returns the scope of f, or the document's for nil.
func (s *scanner) scopeOf(f *frame) scope {
	if f == nil {
		s.doc = scoped{base: s.docBase, res: s.docRes, resErr: s.docErr}
		return scope{scoped: &s.doc}
	}
	sc := scope{qname: string(s.src[f.name:f.nameEnd])}
	if f.base < 0 {
		s.doc = scoped{base: s.docBase, res: s.docRes, resErr: s.docErr}
		sc.scoped = &s.doc
	} else {
		sc.scoped = &s.bases[f.base]
	}
	return sc
}

// top returns the innermost open element, nil when there is none.
func (s *scanner) top() *frame {
	if len(s.stack) == 0 {
		return nil
	}
	return &s.stack[len(s.stack)-1]
}

func (s *scanner) run() error {
	if s.tooLarge > 0 {
		return &link.TooLargeError{What: "an XML document", Size: -1, Limit: int64(s.tooLarge)}
	}
	l := lexer{src: s.src}
	for s.err == nil {
		t, ok := l.next()
		if !ok {
			break
		}
		switch t.kind {
		case startToken:
			s.start(t)
		case endToken:
			s.end(t)
		case piToken:
			if t.name == "xml-stylesheet" {
				s.stylesheetPI(t)
			}
		}
	}
	if s.w != nil {
		s.splice.Finish()
	}
	return s.err
}

// start handles a start tag: its namespace declarations, its xml:base,
// its URL attributes, and what its content is.
func (s *scanner) start(t token) {
	parent := s.top()
	if parent != nil {
		parent.mixed = true
	}
	if t.tooMany {
		line, _ := s.lines.Position(t.a)
		s.err = &link.IncompleteError{What: "<" + t.name + ">", Line: line, Offset: int64(t.a), Limit: link.MaxAttrs, Unit: "attributes"}
		return
	}
	if !t.selfClose && len(s.stack) >= MaxDepth {
		line, _ := s.lines.Position(t.a)
		s.err = &link.IncompleteError{What: "<" + t.name + ">", Line: line, Offset: int64(t.a), Limit: MaxDepth, Unit: "levels"}
		return
	}
	f := frame{name: int32(t.a + 1), nameEnd: int32(t.a + 1 + len(t.name)), bindings: int32(len(s.bindings)), base: -1}
	if parent != nil {
		f.base = parent.base
	}
	for _, a := range t.attrs {
		if a.v0 < 0 {
			continue
		}
		switch {
		case a.name == "xmlns":
			s.bindings = append(s.bindings, binding{"", s.attrText(a)})
		case strings.HasPrefix(a.name, "xmlns:"):
			s.bindings = append(s.bindings, binding{a.name[6:], s.attrText(a)})
		}
	}
	ns, local := splitName(t.name, s.lookup)
	ps := s.scopeOf(parent)
	e := &element{ns: ns, local: local, parent: localOf(ps.qname), attrs: t.attrs, src: s.src, lookup: s.lookup}
	line, _ := s.lines.Position(t.a)
	sc := scope{qname: t.name, scoped: ps.scoped}
	if v, ok := e.attrValue(nsXML, "base"); ok {
		if b, changed := s.xmlBase(t.name, ps.scoped, v, line); changed {
			s.bases = append(s.bases, b)
			f.base = int32(len(s.bases) - 1)
			sc.scoped = &s.bases[f.base]
		}
	}
	if ns == nsXHTML {
		s.xhtmlTag(t, sc)
	}
	for _, a := range t.attrs {
		if a.v0 < 0 {
			continue
		}
		ans, alocal := e.attrName(a.name)
		if ans == nsXML && alocal == "base" {
			if s.opts.EmptyXMLBase && s.honour && s.w != nil && a.v1 > a.v0 {
				s.splice.Replace(a.v0, a.v1, "")
			}
			continue
		}
		kind, isURL, isCSS := attrKind(s.format, e, ans, alocal)
		switch {
		case isURL:
			s.attrLink(t, a, sc, kind)
		case isCSS:
			var d decoded
			if err := d.add(s.src, a.v0, a.v1, false, quoteOf(a)); err != nil {
				s.warnf("line %d: %s: %v", line, a.name, err)
				continue
			}
			s.nested(&d, true, sc, local, alocal)
		}
	}
	if t.selfClose {
		s.bindings = s.bindings[:f.bindings]
		s.bases = s.bases[:f.base+1]
		return
	}
	f.content, f.contentAt = contentOf(s.format, e), int32(t.b)
	switch f.content {
	case urlContent:
		f.kind = uint8(link.Feed)
	case cssContent:
		f.kind = uint8(link.CSS)
	}
	s.stack = append(s.stack, f)
}

func quoteOf(a attr) byte {
	if a.quote == 0 {
		return ' '
	}
	return a.quote
}

// attrText is an attribute's value, decoded as far as it can be.
func (s *scanner) attrText(a attr) string {
	var d decoded
	if err := d.add(s.src, a.v0, a.v1, false, quoteOf(a)); err != nil {
		return string(s.src[a.v0:a.v1])
	}
	return string(d.text)
}

// xmlBase returns the base that the xml:base value v of the element
// qname sets, and whether it differs from the parent's, when xml:base
// counts.
func (s *scanner) xmlBase(qname string, parent *scoped, v []byte, line int) (scoped, bool) {
	if !s.honour {
		if !s.warned {
			s.warned = true
			s.docBase.Warnings = append(s.docBase.Warnings, fmt.Sprintf("xml:base at line %d ignored: browsers ignore xml:base in %s (ask for XML Base to honour it)", line, s.format))
		}
		return scoped{}, false
	}
	var d decoded
	if err := d.add(v, 0, len(v), false, '"'); err != nil {
		s.warnf("xml:base at line %d: %v", line, err)
		return scoped{}, false
	}
	a, b := d.trim()
	f := scoped{base: s.opts.Context.XMLBase(parent.base, string(d.text[a:b]), fmt.Sprintf("<%s> at line %d", qname, line)),
		res: parent.res, resErr: parent.resErr}
	if f.base.URL != parent.base.URL {
		f.res, f.resErr = s.resolver(f.base.URL)
	}
	return f, true
}

// end handles an end tag: the content of an element whose content is
// read is complete.
func (s *scanner) end(t token) {
	// Close up to the matching element (a mismatched end tag closes the
	// elements left open inside it; one that matches nothing is ignored).
	i := len(s.stack) - 1
	for i >= 0 && string(s.src[s.stack[i].name:s.stack[i].nameEnd]) != t.name {
		i--
	}
	if i < 0 {
		return
	}
	if i == len(s.stack)-1 {
		f := &s.stack[i]
		if !f.mixed && f.content != plainContent {
			s.content(f, int(f.contentAt), t.a)
		}
	}
	s.bindings = s.bindings[:s.stack[i].bindings]
	s.stack = s.stack[:i]
	if f := s.top(); f != nil {
		s.bases = s.bases[:f.base+1]
	} else {
		s.bases = s.bases[:0]
	}
}

// content reads the content src[a:b] of the element f.
func (s *scanner) content(f *frame, a, b int) {
	sc := s.scopeOf(f)
	local, kind := localOf(sc.qname), link.Kind(f.kind)
	var d decoded
	l := lexer{src: s.src[:b], pos: a}
	for {
		t, ok := l.next()
		if !ok {
			break
		}
		var err error
		switch t.kind {
		case textToken:
			err = d.add(s.src, t.a, t.b, false, 0)
		case cdataToken:
			err = d.add(s.src, t.a+9, t.b-3, true, 0)
		case commentToken, piToken:
			if f.content == urlContent {
				return // a URL with a comment in it: not one value
			}
			continue
		default:
			return
		}
		if err != nil {
			line, _ := s.lines.Position(t.a)
			s.warnf("line %d: <%s>: %v", line, sc.qname, err)
			return
		}
	}
	switch f.content {
	case urlContent:
		x, y := d.trim()
		if x == y {
			return
		}
		s.link(&d, x, y, sc, local, "", kind)
	case htmlContent:
		s.nested(&d, false, sc, local, "")
	case cssContent:
		s.nested(&d, true, sc, local, "")
	}
}

// attrLink handles an attribute whose value is a URL.
func (s *scanner) attrLink(t token, a attr, f scope, kind link.Kind) {
	var d decoded
	if err := d.add(s.src, a.v0, a.v1, false, quoteOf(a)); err != nil {
		s.failed(a.v0, string(s.src[a.v0:a.v1]), f, localOf(t.name), localOf(a.name), kind, err)
		return
	}
	x, y := d.trim()
	if x == y {
		// An empty reference is the base itself (RFC 3986 §5.2.2): it
		// means something only where a link may name its own document.
		if kind == link.Feed && localOf(t.name) == "link" {
			s.linkAt("", a.v0, a.v1, segment{attr: quoteOf(a)}, f, "link", "href", kind)
		}
		return
	}
	s.link(&d, x, y, f, localOf(t.name), localOf(a.name), kind)
}

func localOf(q string) string {
	if i := strings.IndexByte(q, ':'); i >= 0 {
		return q[i+1:]
	}
	return q
}

// stylesheetPI handles <?xml-stylesheet href?>, whose base is the
// parent's (XML Base §4.3: processing instructions).
func (s *scanner) stylesheetPI(t token) {
	for _, a := range pseudoAttrs(s.src, t.a, t.b) {
		if a.name != "href" || a.v0 < 0 {
			continue
		}
		s.attrLink(token{name: "xml-stylesheet"}, a, s.scopeOf(s.top()), link.Resource)
	}
}

// link reports or rewrites the reference d.text[x:y].
func (s *scanner) link(d *decoded, x, y int, f scope, tag, attrName string, kind link.Kind) {
	r0, r1, seg, ok := d.span(x, y)
	if !ok {
		return
	}
	s.linkAt(string(d.text[x:y]), r0, r1, seg, f, tag, attrName, kind)
}

// linkAt reports or rewrites the reference raw, written at src[r0:r1] in seg.
func (s *scanner) linkAt(raw string, r0, r1 int, seg segment, f scope, tag, attrName string, kind link.Kind) {
	mk := func(u string, err error) link.Link {
		line, col := s.lines.Position(r0)
		return link.Link{Raw: raw, URL: u, Err: err, Tag: tag, Attr: attrName, Kind: kind,
			Line: line, Column: col, Offset: int64(r0), Base: f.base}
	}
	if s.fn != nil {
		u, err := linkref.Resolve(f.res, f.resErr, link.Clean(raw))
		s.emit(mk(u, err))
		return
	}
	if s.opts.identity {
		s.splice.Replace(r0, r1, string(s.src[r0:r1]))
		return
	}
	u, change := s.dec.Write(f.res, f.resErr, raw, func(u string) link.Link { return mk(u, nil) })
	if !change {
		return
	}
	s.replace(r0, r1, seg, u)
}

// replace writes u over src[r0:r1], escaped as seg needs; a u that seg
// cannot hold leaves the bytes as written and counts as failed, not
// rewritten.
func (s *scanner) replace(r0, r1 int, seg segment, u string) {
	repl, ok := seg.escape(u)
	if !ok {
		s.unrewritten()
		return
	}
	s.splice.Replace(r0, r1, repl)
}

// unrewritten moves a value the decision counted as rewritten to the
// failed ones: its new form could not be written where it stands.
func (s *scanner) unrewritten() {
	s.dec.Stats.Rewritten--
	s.dec.Stats.Failed++
}

// failed reports a value that could not be read.
func (s *scanner) failed(off int, raw string, f scope, tag, attrName string, kind link.Kind, err error) {
	if s.fn == nil {
		s.dec.Stats.Links++
		s.dec.Stats.Failed++
		return
	}
	line, col := s.lines.Position(off)
	s.emit(link.Link{Raw: raw, Err: err, Tag: tag, Attr: attrName, Kind: kind,
		Line: line, Column: col, Offset: int64(off), Base: f.base})
}

func (s *scanner) emit(l link.Link) {
	if s.err == nil {
		s.err = s.fn(l)
	}
}

func (s *scanner) warnf(format string, a ...any) {
	const maxWarnings = 100
	if len(s.docBase.Warnings) < maxWarnings {
		s.docBase.Warnings = append(s.docBase.Warnings, fmt.Sprintf(format, a...))
	}
}
