package xmlrewrite

import (
	"bytes"

	"github.com/relurl/relurl/link"
)

// tokenKind is the kind of an XML token (XML 1.0 §2.4–§2.8, §3.1).
type tokenKind uint8

const (
	textToken    tokenKind = iota // character data between markup
	startToken                    // <name attr="v"> or <name/>
	endToken                      // </name>
	commentToken                  // <!-- ... -->
	cdataToken                    // <![CDATA[ ... ]]>
	piToken                       // <?target ... ?>
	declToken                     // <!DOCTYPE ...> and other <!...>
)

// attr is one attribute of a start tag: its qualified name and the span
// of its value in the source, quotes excluded (v0 < 0 for an attribute
// without a value, which is not XML but is read on).
type attr struct {
	name   string
	n0     int
	v0, v1 int
	quote  byte
}

// token is one token: its span in the source and, for tags, the name and
// attributes; for a processing instruction, name is its target.
type token struct {
	kind      tokenKind
	a, b      int
	name      string
	attrs     []attr
	selfClose bool
	tooMany   bool // a start tag with more than link.MaxAttrs attributes: attrs holds the first ones
}

// lexer splits an XML document into tokens without decoding anything, so
// that every byte can be copied as it is. Malformed markup is read as
// text: a '<' that does not start markup, or markup that is never closed,
// never stops the document.
type lexer struct {
	src   []byte
	pos   int
	attrs []attr // reused
}

func isSpaceXML(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isNameStartXML(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c == ':' || c >= 0x80
}

func isNameXML(c byte) bool {
	return isNameStartXML(c) || '0' <= c && c <= '9' || c == '-' || c == '.'
}

// next returns the next token, or false at the end of the source.
func (l *lexer) next() (token, bool) {
	src, p := l.src, l.pos
	if p >= len(src) {
		return token{}, false
	}
	if src[p] != '<' {
		return l.text(p), true
	}
	rest := src[p:]
	switch {
	case bytes.HasPrefix(rest, []byte("<!--")):
		return l.until(p, commentToken, 4, "-->"), true
	case bytes.HasPrefix(rest, []byte("<![CDATA[")):
		return l.until(p, cdataToken, 9, "]]>"), true
	case bytes.HasPrefix(rest, []byte("<!")):
		return l.decl(p), true
	case bytes.HasPrefix(rest, []byte("<?")):
		t := l.until(p, piToken, 2, "?>")
		if t.kind == piToken {
			e := p + 2
			for e < t.b-2 && isNameXML(src[e]) {
				e++
			}
			t.name = string(src[p+2 : e])
		}
		return t, true
	case len(rest) > 2 && rest[1] == '/' && isNameStartXML(rest[2]):
		e := p + 2
		for e < len(src) && isNameXML(src[e]) {
			e++
		}
		name := string(src[p+2 : e])
		i := bytes.IndexByte(src[e:], '>')
		if i < 0 {
			return l.rest(p), true
		}
		l.pos = e + i + 1
		return token{kind: endToken, a: p, b: l.pos, name: name}, true
	case len(rest) > 1 && isNameStartXML(rest[1]):
		return l.start(p), true
	}
	// A '<' that starts nothing: text, up to the next '<'.
	i := bytes.IndexByte(src[p+1:], '<')
	if i < 0 {
		return l.rest(p), true
	}
	l.pos = p + 1 + i
	return token{kind: textToken, a: p, b: l.pos}, true
}

func (l *lexer) text(p int) token {
	i := bytes.IndexByte(l.src[p:], '<')
	if i < 0 {
		return l.rest(p)
	}
	l.pos = p + i
	return token{kind: textToken, a: p, b: l.pos}
}

// rest makes the remainder of the source one text token.
func (l *lexer) rest(p int) token {
	l.pos = len(l.src)
	return token{kind: textToken, a: p, b: l.pos}
}

// until reads markup that ends with end; unterminated, it is text.
func (l *lexer) until(p int, k tokenKind, skip int, end string) token {
	i := bytes.Index(l.src[p+skip:], []byte(end))
	if i < 0 {
		return l.rest(p)
	}
	l.pos = p + skip + i + len(end)
	return token{kind: k, a: p, b: l.pos}
}

// decl reads <!DOCTYPE ...> with its internal subset, whose brackets,
// quoted literals and comments may hold '>' (XML 1.0 §2.8).
func (l *lexer) decl(p int) token {
	src := l.src
	depth := 0
	for i := p + 2; i < len(src); i++ {
		switch c := src[i]; c {
		case '"', '\'':
			j := bytes.IndexByte(src[i+1:], c)
			if j < 0 {
				return l.rest(p)
			}
			i += j + 1
		case '[':
			depth++
		case ']':
			if depth > 0 {
				depth--
			}
		case '<':
			if bytes.HasPrefix(src[i:], []byte("<!--")) {
				j := bytes.Index(src[i+4:], []byte("-->"))
				if j < 0 {
					return l.rest(p)
				}
				i += 4 + j + 2
			}
		case '>':
			if depth == 0 {
				l.pos = i + 1
				return token{kind: declToken, a: p, b: l.pos}
			}
		}
	}
	return l.rest(p)
}

// start reads a start tag and its attributes (XML 1.0 §3.1).
func (l *lexer) start(p int) token {
	src := l.src
	e := p + 1
	for e < len(src) && isNameXML(src[e]) {
		e++
	}
	t := token{kind: startToken, a: p, name: string(src[p+1 : e])}
	l.attrs = l.attrs[:0]
	i := e
	for {
		for i < len(src) && isSpaceXML(src[i]) {
			i++
		}
		if i >= len(src) {
			return l.rest(p)
		}
		switch c := src[i]; {
		case c == '>':
			l.pos = i + 1
			t.b, t.attrs = l.pos, l.attrs
			return t
		case c == '/' && i+1 < len(src) && src[i+1] == '>':
			l.pos = i + 2
			t.b, t.attrs, t.selfClose = l.pos, l.attrs, true
			return t
		case c == '<':
			// Never closed: the tag so far is text, and so is the rest up to here.
			l.pos = i
			return token{kind: textToken, a: p, b: i}
		case !isNameXML(c):
			i++
			continue
		}
		n0 := i
		for i < len(src) && isNameXML(src[i]) {
			i++
		}
		a := attr{name: string(src[n0:i]), n0: n0, v0: -1, v1: -1}
		j := i
		for j < len(src) && isSpaceXML(src[j]) {
			j++
		}
		if j < len(src) && src[j] == '=' {
			j++
			for j < len(src) && isSpaceXML(src[j]) {
				j++
			}
			if j < len(src) && (src[j] == '"' || src[j] == '\'') {
				q := src[j]
				k := bytes.IndexByte(src[j+1:], q)
				if k < 0 {
					return l.rest(p)
				}
				a.v0, a.v1, a.quote = j+1, j+1+k, q
				i = j + 1 + k + 1
			} else {
				// Unquoted (not XML): up to white space or the tag's end.
				k := j
				for k < len(src) && !isSpaceXML(src[k]) && src[k] != '>' && src[k] != '<' {
					k++
				}
				a.v0, a.v1 = j, k
				i = k
			}
		}
		if len(l.attrs) < link.MaxAttrs {
			l.attrs = append(l.attrs, a)
		} else {
			t.tooMany = true
		}
	}
}

// pseudoAttrs reads the pseudo-attributes of a processing instruction's
// data (xml-stylesheet: "Associating Style Sheets with XML documents" §2).
func pseudoAttrs(src []byte, a, b int) []attr {
	l := lexer{src: src[:b]}
	// Read the data as if it were the attributes of a tag named by the target.
	t := l.start(a + 1)
	if t.kind != startToken && len(l.attrs) == 0 {
		return nil
	}
	return append([]attr(nil), l.attrs...)
}
