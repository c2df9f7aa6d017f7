// Package htmltree is relurl's one model of the HTML tree-construction
// rules that decide what a link or a <base> element means, fed the tokens
// of a tokenizer instead of building a DOM: foreign content (<svg>,
// <math>) with the start tags that break out of it and the end tags that
// close it (HTML §13.2.6.5), HTML and MathML text integration points,
// <template> contents (§13.2.6.4.18), and where the head ends
// (§13.2.6.4.4–6). Package base's <base> scan and package htmlrewrite's
// rewriter both read documents through it, so that they agree with each
// other, and with html.Parse (the differential tests compare them).
//
// Best effort, bounded by the input: the open HTML elements are tracked
// with the implied end tags of <p>, <li>, <dd>, <dt>, the end tags that
// close open elements and what a second <a> does to the stack, not the
// whole of the insertion modes (tables, foster parenting, the formatting
// elements' reconstruction after misnesting, and the adoption agency's
// moves of nodes, as in <a><div><a>, which can put an element after one
// that follows it in the document); at most MaxOpen elements are
// remembered, deeper foreign ones counted.
package htmltree

import "unsafe"

// MaxOpen bounds the open elements a Tree remembers.
const MaxOpen = 1024

// Namespace is the namespace an element is inserted in.
type Namespace uint8

// The namespaces.
const (
	HTML Namespace = iota
	SVG
	MathML
)

func (n Namespace) String() string {
	switch n {
	case SVG:
		return "svg"
	case MathML:
		return "math"
	}
	return "html"
}

// Head is where a document stands with respect to its head element.
type Head uint8

// Head states, as the tree builder's insertion modes say for the elements
// that go into the head.
const (
	HeadOpen   Head = iota // "before head" or "in head"
	HeadClosed             // "after head": some elements still go into the head
	HeadEnded              // the body has begun
)

// frame is an open element. Its name is held in place (a caller may pass
// a name that does not outlive the call), truncated past maxName bytes:
// an element with a longer name is never closed by name.
type frame struct {
	nm    [maxName]byte
	n     uint8
	ns    Namespace
	kind  uint8 // its Tree.count index
	prop  prop  // its properties, for an HTML element
	point bool  // an HTML integration point or a MathML text integration point
	text  bool  // a MathML text integration point (mi, mo, mn, ms, mtext)
	annot bool  // MathML annotation-xml, where <svg> starts SVG again
}

const maxName = 24

// newFrame returns the frame of an element named name in ns.
func newFrame(name string, ns Namespace, p prop) frame {
	f := frame{ns: ns, kind: countForeign}
	f.n = uint8(copy(f.nm[:], name))
	if ns == HTML {
		f.prop, f.kind = p, p.kind()
	}
	return f
}

// prop is what the model knows of an HTML element name.
type prop uint16

const (
	propVoid    prop = 1 << iota // never open (void, or html/head/body, not tracked)
	propClosesP                  // its start tag closes an open <p> in button scope
	propSpecial                  // the "special" category (HTML §13.2.4.2)
	propScope                    // ends the default scope
	propA
	propP
	propLi
	propDdDt
	propRoot     // svg or math: foreign content starts
	propTemplate // template
	propHeadEnd  // head, body, html, br: their end tags move the head
	propFormat   // a formatting element (HTML §13.2.4.3), a excepted
)

func (p prop) kind() uint8 {
	switch {
	case p&propA != 0:
		return countA
	case p&propP != 0:
		return countP
	case p&propLi != 0:
		return countLi
	case p&propDdDt != 0:
		return countDdDt
	}
	return countOther
}

// <table> closes a <p> only outside quirks mode and <form> only when no
// form is open, which the model does not track; neither has propClosesP.
// props returns the properties of the HTML element name (a switch: the
// compiler's binary search beats hashing the name).
func props(name string) prop {
	switch name {
	case "area":
		return propVoid | propSpecial
	case "head", "body":
		return propVoid | propSpecial | propHeadEnd
	case "svg", "math":
		return propRoot
	case "br":
		return propVoid | propHeadEnd
	case "base", "basefont", "bgsound", "col", "embed", "frame", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr":
		return propVoid
	case "hr":
		return propVoid | propClosesP
	case "html":
		return propVoid | propSpecial | propScope | propHeadEnd
	case "address", "article", "aside", "blockquote", "center", "details", "dir", "div", "dl", "fieldset", "figcaption", "figure", "footer", "header", "hgroup", "main", "menu", "nav", "ol", "section", "ul", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "listing", "plaintext", "xmp":
		return propClosesP | propSpecial
	case "dialog":
		return propClosesP
	case "search", "summary":
		return propClosesP | propSpecial
	case "colgroup", "frameset", "iframe", "noembed", "noframes", "noscript", "script", "style", "title":
		return propSpecial
	case "p":
		return propClosesP | propSpecial | propP
	case "li":
		return propClosesP | propSpecial | propLi
	case "dd", "dt":
		return propClosesP | propSpecial | propDdDt
	case "template":
		return propSpecial | propScope | propTemplate
	case "applet", "caption", "marquee", "object", "table", "td", "th":
		return propSpecial | propScope
	case "button", "form", "select", "tbody", "textarea", "tfoot", "thead", "tr":
		return propSpecial
	case "a":
		return propA
	case "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u":
		return propFormat
	}
	return 0
}

// tag returns f's name, valid while f is.
func (f *frame) tag() string {
	return unsafe.String(&f.nm[0], int(f.n))
}

// named reports whether f's name is name, as f.tag() == name, in line:
// the common end tag compares a few bytes, where == calls memequal.
func (f *frame) named(name string) bool {
	if int(f.n) != len(name) {
		return false
	}
	for i := range len(name) {
		if f.nm[i] != name[i] {
			return false
		}
	}
	return true
}

// Tree is the state of a document's open elements. The zero Tree is a
// document's start.
type Tree struct {
	// stack holds the open elements, HTML ones included; deep counts the
	// foreign elements beyond MaxOpen.
	stack []frame
	deep  int
	// templates holds, for each open HTML <template>, the length of stack
	// when it opened; templateDeep counts those beyond MaxOpen.
	templates    []int
	templateDeep int
	head         Head
	// count says how many a, p, li, dd/dt and foreign elements are open,
	// so that the tags that close them look down the stack only then.
	count [6]int

	// Scripting is the parser's scripting flag (HTML §13.2.2): set, the
	// content of <noscript> is raw text, as in a browser running scripts;
	// unset (the zero Tree), it is markup, as in a user agent that runs
	// none, which relurl is (HTML §13.2.6.4.5 "in head noscript",
	// §13.2.6.4.7 "in body").
	Scripting bool
}

// Reset makes t a document's start again, keeping Scripting and the
// memory of its stacks, so that a Tree can serve document after document
// without allocating.
func (t *Tree) Reset() {
	*t = Tree{stack: t.stack[:0], templates: t.templates[:0], Scripting: t.Scripting}
}

// RawText reports whether the content of the HTML element name (lower
// case), just started, is text rather than markup: raw text or RCDATA
// (HTML §13.2.6.2), and <noscript> only with Scripting. The tokenizer
// reads every one of them, <noscript> included, as text by itself: for a
// <noscript> that holds markup the caller calls NextIsNotRawText.
func (t *Tree) RawText(name string) bool {
	switch name {
	case "iframe", "noembed", "noframes", "script", "style", "xmp", "textarea", "title", "plaintext":
		return true
	case "noscript":
		return t.Scripting
	}
	return false
}

// Kinds of open elements counted.
const (
	countOther = iota
	countA
	countP
	countLi
	countDdDt
	countForeign
)

// counted returns the kind of f for Tree.count.
func (f *frame) counted() uint8 { return f.kind }

// truncate pops the elements from i up.
func (t *Tree) truncate(i int) {
	for j := i; j < len(t.stack); j++ {
		t.count[t.stack[j].counted()]--
	}
	t.stack = t.stack[:i]
}

// Attrs gives a start tag's attributes: the value of the one named by a
// lower-case key, and whether there is one. It is asked only about <font>
// and <annotation-xml> in foreign content.
type Attrs interface {
	Attr(key string) (string, bool)
}

// Foreign reports whether the current node is a foreign element: there
// "<![CDATA[" opens a CDATA section (HTML §13.2.5.42) and no element
// holds raw text.
func (t *Tree) Foreign() bool {
	if t.count[countForeign] == 0 {
		// No foreign element remembered: asked after every tag, the
		// common answer without a look at the stack.
		return t.deep > 0
	}
	return t.deep > 0 || len(t.stack) > 0 && t.stack[len(t.stack)-1].ns != HTML
}

// InTemplate reports whether the current node is inside <template>
// contents, which are inert: a <base> there does not count.
func (t *Tree) InTemplate() bool { return len(t.templates) > 0 || t.templateDeep > 0 }

// Templates returns how many <template> elements are open.
func (t *Tree) Templates() int { return len(t.templates) + t.templateDeep }

// Head returns where the document stands with respect to its head.
func (t *Tree) Head() Head { return t.head }

// foreign reports whether a start tag named name is processed by the rules
// for foreign content (HTML §13.2.6, "tree construction dispatcher").
func (t *Tree) foreign(name string) bool {
	if t.deep > 0 {
		return true
	}
	if len(t.stack) == 0 {
		return false
	}
	top := &t.stack[len(t.stack)-1]
	switch {
	case top.ns == HTML:
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

// Breakout reports whether a start tag named name leaves foreign content
// (HTML §13.2.6.5): a <font> only with a color, face or size attribute.
func Breakout(name string, attr Attrs) bool {
	if name == "font" {
		for _, k := range [...]string{"color", "face", "size"} {
			if _, ok := attr.Attr(k); ok {
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

// inHead reports whether a start tag named name stays in the head: in
// the "in head" insertion mode (HTML §13.2.6.4.4, plus html and head
// themselves), or, after, the start tags that the "after head" mode still
// puts into the head (§13.2.6.4.6, with html and head, which it ignores).
// A switch: a map lookup per start tag of the head cost more.
func inHead(name string, after bool) bool {
	switch name {
	case "base", "basefont", "bgsound", "link", "meta", "noframes", "script",
		"style", "template", "title", "html", "head":
		return true
	case "noscript":
		return !after
	}
	return false
}

// scopeEnd reports whether an element ends the default scope (and so
// button and list item scope, HTML §13.2.4.2).
func scopeEnd(f *frame) bool {
	if f.ns != HTML {
		return f.point || f.annot
	}
	return f.prop&propScope != 0
}

// closeP closes the nearest open HTML <p> when it is in button scope, as a
// start tag for which closesP holds does.
func (t *Tree) closeP() {
	if t.count[countP] == 0 {
		return
	}
	for i := len(t.stack) - 1; i >= 0 && !scopeEnd(&t.stack[i]); i-- {
		switch {
		case t.stack[i].ns == HTML && t.stack[i].tag() == "p":
			t.truncate(i)
			return
		case t.stack[i].ns == HTML && (t.stack[i].tag() == "button" || t.stack[i].tag() == "select"):
			return
		}
	}
}

// closeItem closes an open <li> (for li) or <dd>/<dt> (for dd, dt) in
// list item scope, as those start tags do (HTML §13.2.6.4.7), so that
// lists do not leave their items open in the model.
func (t *Tree) closeItem(name string) {
	if name == "li" && t.count[countLi] == 0 || name != "li" && t.count[countDdDt] == 0 {
		return
	}
	for i := len(t.stack) - 1; i >= 0 && !scopeEnd(&t.stack[i]); i-- {
		f := &t.stack[i]
		if f.ns != HTML {
			return
		}
		switch {
		case name == "li" && f.tag() == "li", name != "li" && (f.tag() == "dd" || f.tag() == "dt"):
			t.truncate(i)
			return
		case f.tag() == "ul" || f.tag() == "ol" || f.tag() == "dl" ||
			f.tag() != "address" && f.tag() != "div" && f.tag() != "p" && f.prop&propSpecial != 0:
			return
		}
	}
}

// closeA closes an open <a> before another opens (HTML §13.2.6.4.7, an
// "a" start tag), as the adoption agency algorithm does, which the model
// sums up: an <a> in scope is taken off the stack with the elements open
// inside it, but for the special elements among those, which the
// algorithm keeps, and the formatting elements, which it keeps or the new
// <a> reconstructs (§13.2.4.3): <a><font><a> leaves <font><a> open. An <a>
// out of scope (<a><svg><foreignObject><a>) is only taken off the stack;
// one behind a marker (<a><template><a>, §13.2.4.3) is left open.
func (t *Tree) closeA() {
	if t.count[countA] == 0 {
		return
	}
	inScope := true
	for i := len(t.stack) - 1; i >= 0; i-- {
		f := &t.stack[i]
		if f.ns == HTML && f.named("a") {
			if !inScope {
				t.count[f.counted()]--
				t.stack = append(t.stack[:i], t.stack[i+1:]...)
				return
			}
			t.adopt(i, true)
			return
		}
		if marker(f) {
			return
		}
		inScope = inScope && !scopeEnd(f)
	}
}

// adopt takes the formatting element at i off the stack as the adoption
// agency algorithm does (HTML §13.2.6.4.7), summed up by what it leaves
// open: the special elements opened inside it, each a furthest block in
// turn, and the formatting elements between them, which it recreates.
// Those after the last special element are popped, and the next start tag
// reconstructs them (§13.2.4.3): reconstruct says that it comes now, as
// for the <a> start tag that closed an <a>.
func (t *Tree) adopt(i int, reconstruct bool) {
	t.count[t.stack[i].counted()]--
	kept, special := i, i
	for j := i + 1; j < len(t.stack); j++ {
		g := t.stack[j]
		if g.ns == HTML && g.prop&(propSpecial|propFormat) != 0 {
			t.stack[kept] = g
			kept++
			if g.prop&propSpecial != 0 {
				special = kept
			}
		} else {
			t.count[g.counted()]--
		}
	}
	if !reconstruct {
		for _, g := range t.stack[special:kept] {
			t.count[g.counted()]--
		}
		kept = special
	}
	t.stack = t.stack[:kept]
}

// endFormatting processes the end tag of a formatting element (HTML
// §13.2.6.4.7, "an end tag whose tag name is one of: a, b, ..."): unlike
// any other end tag, it reaches past special elements to the nearest
// element of its name in scope.
func (t *Tree) endFormatting(name string) {
	for i := len(t.stack) - 1; i >= 0; i-- {
		f := &t.stack[i]
		if f.ns == HTML && f.named(name) {
			t.adopt(i, false)
			return
		}
		if scopeEnd(f) {
			return
		}
	}
}

// marker reports whether f puts a marker on the list of active formatting
// elements when it opens (HTML §13.2.4.3): the formatting elements opened
// before it are not reconstructed inside it, nor closed by a new <a>.
func marker(f *frame) bool {
	if f.ns != HTML || f.prop&propScope == 0 {
		return false
	}
	switch f.tag() {
	case "applet", "caption", "marquee", "object", "td", "th", "template":
		return true
	}
	return false
}

// Start processes a start tag: name is lower-case, attr gives its
// attributes. It returns the namespace the element goes into: HTML, or
// SVG/MathML for <svg>, <math> and the elements of foreign content (where
// no element holds raw text, so the tokenizer must be told).
func (t *Tree) Start(name string, attr Attrs, selfClosing bool) Namespace {
	if t.foreign(name) {
		if !Breakout(name, attr) {
			return t.foreignStart(name, attr, selfClosing)
		}
		t.popToHTML()
	}
	// Template contents do not move the head (HTML §13.2.6.4.18).
	if t.head != HeadEnded && !t.InTemplate() {
		switch {
		case t.head == HeadOpen && !inHead(name, false), t.head == HeadClosed && !inHead(name, true):
			t.head = HeadEnded
		}
	}
	p := props(name)
	if p&(propRoot|propTemplate|propLi|propDdDt|propA) != 0 {
		switch name {
		case "svg", "math":
			ns := SVG
			if name == "math" {
				ns = MathML
			}
			if !selfClosing {
				t.push(newFrame(name, ns, 0))
			}
			return ns
		case "template":
			if len(t.templates) >= MaxOpen {
				t.templateDeep++ // counted, not remembered
				return HTML
			}
			t.templates = append(t.templates, len(t.stack))
		case "li", "dd", "dt":
			t.closeItem(name)
		case "a":
			t.closeA()
		}
	}
	if p&propClosesP != 0 {
		t.closeP()
	}
	if p&propVoid == 0 {
		t.push(newFrame(name, HTML, p))
	}
	return HTML
}

// foreignStart opens a foreign element (HTML §13.2.6.5, "any other start
// tag") in the namespace of the current node, and returns it.
func (t *Tree) foreignStart(name string, attr Attrs, selfClosing bool) Namespace {
	ns := SVG
	if t.deep == 0 {
		ns = t.stack[len(t.stack)-1].ns
		if ns == HTML {
			// The current node is an HTML element inside an
			// integration point's scope only via a deeper frame;
			// a foreign start tag here belongs to the point's namespace.
			for i := len(t.stack) - 1; i >= 0; i-- {
				if t.stack[i].ns != HTML {
					ns = t.stack[i].ns
					break
				}
			}
		}
	}
	if selfClosing {
		return ns
	}
	f := newFrame(name, ns, 0)
	switch {
	case ns == SVG && (name == "foreignobject" || name == "desc" || name == "title"):
		f.point = true
	case ns == MathML && (name == "mi" || name == "mo" || name == "mn" || name == "ms" || name == "mtext"):
		f.point, f.text = true, true
	case ns == MathML && name == "annotation-xml":
		f.annot = true
		if enc, ok := attr.Attr("encoding"); ok && (asciiEqualFold(enc, "text/html") || asciiEqualFold(enc, "application/xhtml+xml")) {
			f.point = true
		}
	}
	t.push(f)
	return ns
}

// push opens f: a foreign element beyond MaxOpen is counted, an HTML one
// outside foreign content is not remembered.
func (t *Tree) push(f frame) {
	switch {
	case t.deep > 0:
		t.deep++
	case len(t.stack) < MaxOpen:
		t.stack = append(t.stack, f)
		t.count[f.counted()]++
	case f.ns != HTML || t.inForeignScope():
		t.deep++
	}
}

// inForeignScope reports whether some open element is foreign.
func (t *Tree) inForeignScope() bool { return t.count[countForeign] > 0 }

// popToHTML pops foreign elements until the current node is an HTML
// element or an integration point (HTML §13.2.6.5, breakout).
func (t *Tree) popToHTML() {
	t.deep = 0
	for len(t.stack) > 0 {
		top := t.stack[len(t.stack)-1]
		if top.ns == HTML || top.point {
			break
		}
		t.truncate(len(t.stack) - 1)
	}
}

// End processes an end tag named name (lower-case).
func (t *Tree) End(name string) {
	if t.deep > 0 {
		t.deep--
		return
	}
	// The common case: the end tag of the current HTML element.
	if n := len(t.stack); n > 0 && t.stack[n-1].ns == HTML && t.stack[n-1].named(name) && name != "template" {
		t.truncate(n - 1)
		return
	}
	if n := len(t.stack); n > 0 && t.stack[n-1].ns != HTML {
		// HTML §13.2.6.5: </br> and </p> break out; any other end tag
		// closes the nearest foreign element of its name, looking no
		// further than the first HTML element, where the token is
		// processed as in HTML content.
		if name == "br" || name == "p" {
			t.popToHTML()
		} else {
			for i := n - 1; i >= 0 && t.stack[i].ns != HTML; i-- {
				if asciiEqualFold(t.stack[i].tag(), name) {
					t.truncate(i)
					return
				}
			}
		}
	}
	p := props(name)
	if p&(propTemplate|propHeadEnd) != 0 {
		switch name {
		case "template":
			if t.templateDeep > 0 {
				t.templateDeep--
				return
			}
			if n := len(t.templates); n > 0 {
				t.truncate(t.templates[n-1])
				t.templates = t.templates[:n-1]
			}
			return
		case "head", "body", "html", "br":
			// "in head" and "after head" (HTML §13.2.6.4.4, §13.2.6.4.6):
			// </head> closes the head; the others start the body. In template
			// contents they are ignored.
			if !t.InTemplate() {
				if name != "head" {
					t.head = HeadEnded
				} else if t.head == HeadOpen {
					t.head = HeadClosed
				}
			}
			return
		}
	}
	if p&(propFormat|propA) != 0 {
		t.endFormatting(name)
		return
	}
	// An HTML end tag closes the nearest open HTML element of its name in
	// scope, and the elements opened inside it, foreign ones included
	// (HTML §13.2.6.4.7 "any other end tag", §13.2.4.2): <div><svg></div>
	// leaves the svg.
	endSpecial := p&propSpecial != 0
	for i := len(t.stack) - 1; i >= 0; i-- {
		f := &t.stack[i]
		if f.ns == HTML && f.tag() == name {
			t.truncate(i)
			t.deep = 0
			return
		}
		// The end tag of a special element (</div>, </ul>, </td>...)
		// looks through the scope; any other one stops at the first
		// special element.
		if scopeEnd(f) || !endSpecial && f.ns == HTML && f.prop&propSpecial != 0 {
			return
		}
	}
}

// Text processes a text token that is not white space only, outside raw
// text: it starts the body (HTML §13.2.6.4.4, §13.2.6.4.6 "anything else").
func (t *Tree) Text() {
	if !t.InTemplate() {
		t.head = HeadEnded
	}
}

// asciiEqualFold compares s and u, ignoring ASCII case only, as HTML does.
func asciiEqualFold(s, u string) bool {
	if len(s) != len(u) {
		return false
	}
	for i := 0; i < len(s); i++ {
		a, b := s[i], u[i]
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
