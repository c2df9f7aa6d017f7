// The prescan below is golang.org/x/net/html/charset's (v0.62.0,
// charset.go: prescan and fromMetaElement), copied so that Encoding learns
// from the prescan itself whether a <meta> decided, in one pass: x/net keeps
// it unexported. Copyright 2013 The Go Authors; BSD-style licence, in
// prescan.LICENSE. Changes: it returns the name only (the encoding is
// looked up by the caller); it runs on internal/token's tokenizer, kept
// between calls, instead of a new x/net tokenizer each time; the loop body
// for one <meta> is metaDecl, fed the attributes lower-cased in reused
// buffers; fromMetaElement works on bytes.

package base

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/relurl/relurl/internal/spare"
	"github.com/relurl/relurl/internal/token"
)

// determineEncoding is charset.DetermineEncoding's decision (HTML Standard
// §13.2.3.1: byte order mark, Content-Type charset, the <meta> prescan of
// §13.2.3.2, else a guess: UTF-8 when the bytes are UTF-8 with a high bit,
// else windows-1252), returning the name and the layer that decided. The
// name is the same as DetermineEncoding's for every input
// (FuzzDetermineEncoding).
func determineEncoding(content []byte, contentType string) (name, source string) {
	if len(content) > 1024 {
		content = content[:1024]
	}
	switch {
	case bytes.HasPrefix(content, []byte{0xfe, 0xff}):
		return "utf-16be", ByBOM
	case bytes.HasPrefix(content, []byte{0xff, 0xfe}):
		return "utf-16le", ByBOM
	case bytes.HasPrefix(content, []byte{0xef, 0xbb, 0xbf}):
		return "utf-8", ByBOM
	}
	if contentType != "" {
		if _, params, err := mime.ParseMediaType(contentType); err == nil {
			if cs, ok := params["charset"]; ok {
				if name := lookupName(cs); name != "" {
					return name, ByContentType
				}
			}
		}
	}
	if len(content) > 0 {
		if name := prescan(content); name != "" {
			return name, ByMeta
		}
	}
	// The guess: a partial rune at the end is dropped first.
	for i := len(content) - 1; i >= 0 && i > len(content)-4; i-- {
		b := content[i]
		if b < 0x80 {
			break
		}
		if utf8.RuneStart(b) {
			content = content[:i]
			break
		}
	}
	if !isASCIIBytes(content) && utf8.Valid(content) {
		return "utf-8", ByDefault
	}
	return "windows-1252", ByDefault
}

// lookupName is charset.Lookup's name: the Encoding Standard's canonical
// name of label, or "".
func lookupName(label string) string {
	e, err := htmlindex.Get(label)
	if err != nil {
		return ""
	}
	name, _ := htmlindex.Name(e)
	return name
}

// prescan is HTML Standard §13.2.3.2 "prescan a byte stream to determine
// its encoding" as x/net/html/charset implements it (with its tokenizer):
// the name a <meta charset> or <meta http-equiv=content-type content=...>
// declares, or "" when none does. It runs on internal/token, the copy of
// x/net's tokenizer that splits every input into the same tokens with the
// same attributes (its differential tests), kept between calls with its
// buffers (prescanners), so that a page's prescan allocates nothing: the
// prescan runs on every HTML page, and x/net's allocated its tokenizer,
// a 4 KiB buffer and a string per attribute name each time.
func prescan(content []byte) string {
	p, ok := prescanners.Get()
	if !ok {
		p = &prescanner{z: token.NewTokenizerSize(nil, prescanBuffer)}
	}
	p.r.Reset(content)
	p.z.Reset(&p.r)
	name := p.scan()
	p.r.Reset(nil)
	p.z.Reset(nil)
	prescanners.Put(p)
	return name
}

// prescanBuffer is the prescanner's read buffer: more than twice the
// 1024 bytes prescanned, so that the tokenizer never grows it (it does
// when a token is more than half of it).
const prescanBuffer = 4096

// prescanners keeps a prescanner for each document read at once.
var prescanners = spare.New[*prescanner](8)

// A prescanner is what one prescan uses: the tokenizer and its reader,
// and room for an attribute's name and value (lower-cased as x/net's
// TagAttr and prescan make them).
type prescanner struct {
	z        *token.Tokenizer
	r        bytes.Reader
	key, val []byte
}

// scan is x/net's prescan loop on p.z.
func (p *prescanner) scan() string {
	z := p.z
	for {
		switch z.Next() {
		case token.ErrorToken:
			return ""

		case token.StartTagToken, token.SelfClosingTagToken:
			raw := z.Raw()
			if n := z.TagName(); !asciiEqualFold(raw[n[0]:n[1]], "meta") {
				continue
			}
			if name := p.meta(raw); name != "" {
				return name
			}
		}
	}
}

// meta is x/net's prescan of one <meta> tag whose raw bytes are raw (the
// current token of p.z): the name it declares, or "". The tokenizer gives
// only the first of attributes with equal names (ASCII case-insensitively),
// as x/net's does, so x/net's check for a name seen before has nothing left
// to find here.
//
// A value with a character reference must be unescaped as x/net's TagAttr
// does, which xnetMeta does with x/net's tokenizer on the tag's raw bytes
// (it allocates). That is needed only where the value can decide: always
// for http-equiv and charset, but for content only when the tag's
// http-equiv is content-type. Without that pragma no content value can
// change the answer: a content that finds a label asks for the pragma (no
// answer), one that finds none leaves no label, and a charset after it
// overwrites all it set; a charset before it that found a label makes it
// skipped. So a page's <meta property=og:url content="...&..."> (corpus A
// has some) costs no allocation.
func (p *prescanner) meta(raw []byte) string {
	var m metaDecl
	escaped := false // a content value holds a character reference
	for i := range p.z.AttrCount() {
		ks, ke := p.z.AttrKey(i)
		vs, ve := p.z.AttrVal(i)
		p.key = lowerASCII(p.key[:0], raw[ks:ke])
		p.val = convertNewlines(lowerASCII(p.val[:0], raw[vs:ve]))
		if bytes.IndexByte(p.val, '&') >= 0 {
			switch string(p.key) {
			case "http-equiv", "charset":
				return xnetMeta(raw)
			case "content":
				escaped = true
			}
		}
		m.attr(p.key, p.val)
	}
	if escaped && m.gotPragma {
		return xnetMeta(raw)
	}
	return m.name()
}

// xnetMeta is meta by x/net's tokenizer and TagAttr, on the raw bytes of a
// start tag.
func xnetMeta(raw []byte) string {
	z := html.NewTokenizer(bytes.NewReader(raw))
	z.Next()
	var m metaDecl
	for more := true; more; {
		var key, val []byte
		key, val, more = z.TagAttr()
		m.attr(key, lowerASCII(val[:0], val))
	}
	return m.name()
}

// metaDecl is what x/net's prescan learns from a <meta> tag's attributes,
// given one at a time (its loop body).
type metaDecl struct {
	gotPragma  bool
	needPragma int
	decl       string
	found      bool
}

const (
	dontKnow = iota
	doNeedPragma
	doNotNeedPragma
)

// attr takes an attribute: its name lower-cased as x/net's TagAttr gives
// it, its value unescaped and lower-cased.
func (m *metaDecl) attr(key, val []byte) {
	switch string(key) {
	case "http-equiv":
		if string(val) == "content-type" {
			m.gotPragma = true
		}

	case "content":
		if !m.found {
			m.decl = ""
			if cs := fromMetaElement(val); len(cs) > 0 {
				m.decl = lookupName(string(cs))
				if m.decl != "" {
					m.found = true
					m.needPragma = doNeedPragma
				}
			}
		}

	case "charset":
		m.decl = lookupName(string(val))
		m.found = m.decl != ""
		m.needPragma = doNotNeedPragma
	}
}

// name is the encoding the tag declares, or "".
func (m *metaDecl) name() string {
	if m.needPragma == dontKnow || m.needPragma == doNeedPragma && !m.gotPragma {
		return ""
	}
	if strings.HasPrefix(m.decl, "utf-16") {
		return "utf-8"
	}
	if m.found {
		return m.decl
	}
	return ""
}

// lowerASCII appends b to dst with the ASCII upper-case letters lower-cased
// (dst may be b[:0]).
func lowerASCII(dst, b []byte) []byte {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

// convertNewlines is x/net's: "\r\n" and "\r" become "\n", in place.
func convertNewlines(s []byte) []byte {
	i := bytes.IndexByte(s, '\r')
	if i < 0 {
		return s
	}
	src, dst := i, i
	for src < len(s) {
		c := s[src]
		if c == '\r' {
			if src+1 < len(s) && s[src+1] == '\n' {
				src++
			}
			c = '\n'
		}
		s[dst] = c
		src++
		dst++
	}
	return s[:dst]
}

// asciiEqualFold reports whether b is s, ASCII case-insensitively (s is
// lower-case).
func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

// fromMetaElement is the HTML Standard's "algorithm for extracting a
// character encoding from a meta element" on a content value: the label,
// a part of s, or nil.
func fromMetaElement(s []byte) []byte {
	for len(s) > 0 {
		csLoc := bytes.Index(s, []byte("charset"))
		if csLoc == -1 {
			return nil
		}
		s = s[csLoc+len("charset"):]
		s = bytes.TrimLeft(s, " \t\n\f\r")
		if !bytes.HasPrefix(s, []byte("=")) {
			continue
		}
		s = s[1:]
		s = bytes.TrimLeft(s, " \t\n\f\r")
		if len(s) == 0 {
			return nil
		}
		if q := s[0]; q == '"' || q == '\'' {
			s = s[1:]
			closeQuote := bytes.IndexByte(s, q)
			if closeQuote == -1 {
				return nil
			}
			return s[:closeQuote]
		}

		end := bytes.IndexAny(s, "; \t\n\f\r")
		if end == -1 {
			end = len(s)
		}
		return s[:end]
	}
	return nil
}
