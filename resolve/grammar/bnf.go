package grammar

import (
	"fmt"
	"strconv"
	"strings"
)

// notation is the metalanguage a grammar file is written in.
type notation int

const (
	// bnf is the RFC 822 §2 notation RFC 1738, RFC 1808 and RFC 2396 use:
	// "|" separates alternatives, [ ] is optional, n*m repeats.
	bnf notation = iota
	// abnf is RFC 5234: "/" separates alternatives, %x30-39 is a range,
	// and nElement repeats exactly n times.
	abnf
)

// kind is what a grammar node matches.
type kind int

const (
	kLit   kind = iota // a quoted string, case-insensitive (RFC 822 §3.4.7, RFC 5234 §2.3)
	kClass             // one byte of a set: %x30-39
	kRef               // another rule
	kSeq               // each kid in turn
	kAlt               // any one kid
	kRep               // kid repeated min..max times; max < 0 is unbounded
)

// A node is one element of a rule's right-hand side.
type node struct {
	kind     kind
	lit      string
	set      byteSet
	name     string // kRef: the rule's name as written
	kids     []*node
	min, max int
	text     string // the element as written, for messages
}

// A rule is one production: name = body.
type rule struct {
	name string
	body *node
	text string // the production as written, comments dropped, spaces collapsed
}

// A ruleSet is a parsed grammar file.
type ruleSet struct {
	rules []*rule
	index map[string]int // lower-cased name: rule names are case-insensitive in both notations
}

func (rs *ruleSet) lookup(name string) (*rule, bool) {
	i, ok := rs.index[strings.ToLower(name)]
	if !ok {
		return nil, false
	}
	return rs.rules[i], true
}

// maxRepeat bounds the counts a grammar may write (6( h16 ":" ) is the
// largest in the seeds), since counted repetitions are expanded.
const maxRepeat = 16

// token kinds of the metalanguage.
type tokKind int

const (
	tName tokKind = iota
	tEquals
	tLit
	tProse
	tNum // %x30-39
	tRepeat
	tAlt
	tOpen
	tClose
	tOptOpen
	tOptClose
	tEOF
)

type token struct {
	kind     tokKind
	text     string
	pos      int // byte offset in the grammar text
	min, max int // tRepeat
}

// lex splits a grammar text into tokens. Comments run from ";" to the end
// of the line in both notations (RFC 1738 uses them too).
func lex(src string, nt notation) ([]token, error) {
	var toks []token
	i := 0
	for i < len(src) {
		c := src[i]
		start := i
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			i++
			continue
		case c == ';':
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case c == '=':
			toks = append(toks, token{kind: tEquals, text: "=", pos: i})
			i++
		case c == '"':
			j := strings.IndexByte(src[i+1:], '"')
			if j < 0 {
				return nil, fmt.Errorf("offset %d: unterminated string", i)
			}
			toks = append(toks, token{kind: tLit, text: src[i+1 : i+1+j], pos: i})
			i += j + 2
		case c == '<':
			j := strings.IndexByte(src[i+1:], '>')
			if j < 0 {
				return nil, fmt.Errorf("offset %d: unterminated <prose>", i)
			}
			toks = append(toks, token{kind: tProse, text: src[i+1 : i+1+j], pos: i})
			i += j + 2
		case c == '%' && nt == abnf:
			i++
			for i < len(src) && (isAlnum(src[i]) || src[i] == '-' || src[i] == '.') {
				i++
			}
			toks = append(toks, token{kind: tNum, text: src[start:i], pos: start})
		case c == '*' || isDigit(c):
			t, n, ok := lexRepeat(src[i:])
			if !ok {
				return nil, fmt.Errorf("offset %d: bad repetition %q", i, src[i:min(i+8, len(src))])
			}
			t.pos = i
			toks = append(toks, t)
			i += n
		case c == '|' && nt == bnf, c == '/' && nt == abnf:
			toks = append(toks, token{kind: tAlt, text: string(c), pos: i})
			i++
		case c == '(':
			toks = append(toks, token{kind: tOpen, text: "(", pos: i})
			i++
		case c == ')':
			toks = append(toks, token{kind: tClose, text: ")", pos: i})
			i++
		case c == '[':
			toks = append(toks, token{kind: tOptOpen, text: "[", pos: i})
			i++
		case c == ']':
			toks = append(toks, token{kind: tOptClose, text: "]", pos: i})
			i++
		case isAlpha(c):
			for i < len(src) && isNameByte(src[i]) {
				i++
			}
			toks = append(toks, token{kind: tName, text: src[start:i], pos: start})
		default:
			return nil, fmt.Errorf("offset %d: unexpected %q", i, c)
		}
	}
	return append(toks, token{kind: tEOF, pos: len(src)}), nil
}

// lexRepeat reads "n", "*", "n*", "*m" or "n*m" before an element.
func lexRepeat(s string) (t token, n int, ok bool) {
	t = token{kind: tRepeat, min: 0, max: -1}
	// number reads digits at n: present if there are any, ok if they
	// make a count no larger than maxRepeat.
	number := func() (v int, present, ok bool) {
		j := n
		for n < len(s) && isDigit(s[n]) {
			n++
		}
		if j == n {
			return 0, false, true
		}
		v, err := strconv.Atoi(s[j:n])
		return v, true, err == nil && v <= maxRepeat
	}
	lo, hasLo, ok := number()
	if !ok {
		return t, n, false
	}
	switch {
	case n < len(s) && s[n] == '*':
		n++
		t.min = lo
		hi, hasHi, ok := number()
		if !ok || hasHi && hi < lo {
			return t, n, false
		}
		if hasHi {
			t.max = hi
		}
	case hasLo:
		t.min, t.max = lo, lo // RFC 5234 §3.7: nRule is exactly n
	default:
		return t, n, false
	}
	if n == len(s) || s[n] == ' ' {
		return t, n, false // a repetition needs an element right after it
	}
	t.text = s[:n]
	return t, n, true
}

// parser reads rules from tokens: name "=" elements, up to the next
// name "=" pair.
type parser struct {
	src  string
	nt   notation
	toks []token
	i    int
}

// parseRules parses a grammar text written in notation nt.
func parseRules(src string, nt notation) (*ruleSet, error) {
	toks, err := lex(src, nt)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, nt: nt, toks: toks}
	rs := &ruleSet{index: map[string]int{}}
	for p.peek().kind != tEOF {
		name := p.next()
		if name.kind != tName || p.next().kind != tEquals {
			return nil, fmt.Errorf("offset %d: want a rule, name = elements", name.pos)
		}
		body, err := p.alternation()
		if err != nil {
			return nil, fmt.Errorf("rule %s: %w", name.text, err)
		}
		if !p.atRuleEnd() {
			return nil, fmt.Errorf("rule %s: offset %d: unexpected %q", name.text, p.peek().pos, p.peek().text)
		}
		key := strings.ToLower(name.text)
		if _, dup := rs.index[key]; dup {
			return nil, fmt.Errorf("rule %s defined twice", name.text)
		}
		rs.index[key] = len(rs.rules)
		rs.rules = append(rs.rules, &rule{name: name.text, body: body, text: p.span(name.pos, p.toks[p.i-1])})
	}
	return rs, nil
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

// atRuleEnd reports whether the next tokens start another rule or end the text.
func (p *parser) atRuleEnd() bool {
	t := p.peek()
	return t.kind == tEOF || t.kind == tName && p.toks[p.i+1].kind == tEquals
}

// span returns the source from offset start to the end of token last,
// without comments and with runs of white space made one space.
func (p *parser) span(start int, last token) string {
	end := last.pos + len(last.text)
	switch last.kind {
	case tLit, tProse:
		end += 2
	}
	var b strings.Builder
	for line := range strings.SplitSeq(p.src[start:end], "\n") {
		line = stripComment(line)
		if f := strings.Fields(line); len(f) > 0 {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(strings.Join(f, " "))
		}
	}
	return b.String()
}

// stripComment cuts a line at a ";" outside quotes.
func stripComment(line string) string {
	quoted := false
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '"':
			quoted = !quoted
		case ';':
			if !quoted {
				return line[:i]
			}
		}
	}
	return line
}

// alternation = concatenation *( alt concatenation )
func (p *parser) alternation() (*node, error) {
	start := p.peek().pos
	var kids []*node
	for {
		n, err := p.concatenation()
		if err != nil {
			return nil, err
		}
		kids = append(kids, n)
		if p.peek().kind != tAlt {
			break
		}
		p.next()
	}
	if len(kids) == 1 {
		return kids[0], nil
	}
	return &node{kind: kAlt, kids: kids, text: p.span(start, p.toks[p.i-1])}, nil
}

// concatenation = 1*repetition
func (p *parser) concatenation() (*node, error) {
	start := p.peek().pos
	var kids []*node
	for {
		switch t := p.peek(); {
		case t.kind == tAlt, t.kind == tClose, t.kind == tOptClose, t.kind == tEOF, p.atRuleEnd():
			if len(kids) == 0 {
				return nil, fmt.Errorf("offset %d: empty alternative", t.pos)
			}
			if len(kids) == 1 {
				return kids[0], nil
			}
			return &node{kind: kSeq, kids: kids, text: p.span(start, p.toks[p.i-1])}, nil
		}
		n, err := p.repetition()
		if err != nil {
			return nil, err
		}
		kids = append(kids, n)
	}
}

// repetition = [ repeat ] element
func (p *parser) repetition() (*node, error) {
	start := p.peek().pos
	if p.peek().kind != tRepeat {
		return p.element()
	}
	r := p.next()
	if p.nt == bnf && p.peek().kind == tOptOpen {
		// RFC 1738's 1*[ x ] is a repetition group, read as 1*( x ).
		p.next()
		inner, err := p.group(tOptClose)
		if err != nil {
			return nil, err
		}
		return &node{kind: kRep, kids: []*node{inner}, min: r.min, max: r.max, text: p.span(start, p.toks[p.i-1])}, nil
	}
	n, err := p.element()
	if err != nil {
		return nil, err
	}
	return &node{kind: kRep, kids: []*node{n}, min: r.min, max: r.max, text: p.span(start, p.toks[p.i-1])}, nil
}

// element = name / group / option / literal / num-val / prose
func (p *parser) element() (*node, error) {
	t := p.next()
	switch t.kind {
	case tName:
		return &node{kind: kRef, name: t.text, text: t.text}, nil
	case tLit:
		if t.text == "" {
			return nil, fmt.Errorf("offset %d: empty string", t.pos)
		}
		return &node{kind: kLit, lit: t.text, text: strconv.Quote(t.text)}, nil
	case tProse:
		// <"> is RFC 822's way to write a quote mark; RFC 3986's
		// path-empty = 0<pchar> names a rule in prose.
		if t.text == `"` {
			return &node{kind: kLit, lit: `"`, text: `<">`}, nil
		}
		if isName(t.text) {
			return &node{kind: kRef, name: t.text, text: "<" + t.text + ">"}, nil
		}
		return nil, fmt.Errorf("offset %d: prose <%s> is not a rule name", t.pos, t.text)
	case tNum:
		set, err := parseNum(t.text)
		if err != nil {
			return nil, fmt.Errorf("offset %d: %w", t.pos, err)
		}
		return &node{kind: kClass, set: set, text: t.text}, nil
	case tOpen:
		return p.group(tClose)
	case tOptOpen:
		n, err := p.group(tOptClose)
		if err != nil {
			return nil, err
		}
		return &node{kind: kRep, kids: []*node{n}, min: 0, max: 1, text: p.span(t.pos, p.toks[p.i-1])}, nil
	}
	return nil, fmt.Errorf("offset %d: unexpected %q", t.pos, t.text)
}

// group reads an alternation and its closing bracket.
func (p *parser) group(closer tokKind) (*node, error) {
	n, err := p.alternation()
	if err != nil {
		return nil, err
	}
	if t := p.next(); t.kind != closer {
		return nil, fmt.Errorf("offset %d: unclosed group", t.pos)
	}
	return n, nil
}

// isName reports whether s is one rule name.
func isName(s string) bool {
	if s == "" || !isAlpha(s[0]) {
		return false
	}
	for i := 1; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return true
}

// isNameByte reports whether c may follow a rule name's first letter
// (RFC 1738 has gopher+_string).
func isNameByte(c byte) bool { return isAlnum(c) || c == '-' || c == '_' || c == '+' }

// parseNum reads RFC 5234 §2.3 num-vals: %x41 or %x30-39.
func parseNum(s string) (byteSet, error) {
	var set byteSet
	if len(s) < 3 || s[1] != 'x' && s[1] != 'X' {
		return set, fmt.Errorf("unsupported value %q (want %%xHH or %%xHH-HH)", s)
	}
	lo, hi, isRange := strings.Cut(s[2:], "-")
	a, err := strconv.ParseUint(lo, 16, 8)
	if err != nil {
		return set, fmt.Errorf("bad value %q", s)
	}
	b := a
	if isRange {
		if b, err = strconv.ParseUint(hi, 16, 8); err != nil || b < a {
			return set, fmt.Errorf("bad range %q", s)
		}
	}
	for c := a; c <= b; c++ {
		set.add(byte(c))
	}
	return set, nil
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
func isAlnum(c byte) bool { return isAlpha(c) || isDigit(c) }

// byteSet is a set of bytes, one bit each.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }
func (s *byteSet) union(t byteSet) {
	s[0], s[1], s[2], s[3] = s[0]|t[0], s[1]|t[1], s[2]|t[2], s[3]|t[3]
}
func (s *byteSet) addFold(c byte) { s.add(c); s.add(fold(c)) }

// fold returns c in the other case, or c if it is not a letter.
func fold(c byte) byte {
	switch {
	case 'a' <= c && c <= 'z':
		return c - 'a' + 'A'
	case 'A' <= c && c <= 'Z':
		return c - 'A' + 'a'
	}
	return c
}
