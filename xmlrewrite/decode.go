package xmlrewrite

import (
	"bytes"
	"errors"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// decoded is text as the XML processor hands it on (references replaced,
// CDATA markers gone), with the source bytes each of its bytes came from,
// so that a span of the text maps back to the source. The map is kept by
// pieces, not per byte: a run of bytes copied as they are is one piece,
// and so is a reference, whatever their length.
type decoded struct {
	text   []byte
	pieces []piece
	segs   []segment
}

// piece maps the decoded bytes from d0 to the next piece's d0 to the
// source: one to one from s0 when ref is false; each of them to the whole
// span [s0, s1) when ref is true (a reference, a CR LF).
type piece struct {
	d0, s0, s1 int32
	ref        bool
}

// put appends the byte c, decoded from src[s:e].
func (d *decoded) put(c byte, s, e int) {
	i := len(d.text)
	d.text = append(d.text, c)
	if n := len(d.pieces); n > 0 {
		p := &d.pieces[n-1]
		if !p.ref && e == s+1 && int(p.s1) == s {
			p.s1++ // the run of bytes as they are goes on
			return
		}
		if p.ref && int(p.s0) == s && int(p.s1) == e {
			return // another byte of the same reference
		}
	}
	d.pieces = append(d.pieces, piece{d0: int32(i), s0: int32(s), s1: int32(e), ref: e != s+1})
}

// source returns the source span of the decoded byte i.
func (d *decoded) source(i int) (int, int) {
	k := sort.Search(len(d.pieces), func(k int) bool { return int(d.pieces[k].d0) > i }) - 1
	p := d.pieces[k]
	if p.ref {
		return int(p.s0), int(p.s1)
	}
	s := int(p.s0) + i - int(p.d0)
	return s, s + 1
}

// segment is a run of decoded text read from one kind of source.
type segment struct {
	d0, d1 int
	cdata  bool
	attr   byte // the quote of an attribute value; 0 in content
	raw    bool // the source itself: written as it is
}

// errEntity is a reference to an entity other than the five predefined
// ones (XML 1.0 §4.6) or a character reference: its text is in a DTD, so
// the value cannot be spliced.
var errEntity = errors.New("the value uses an entity declared in a DTD: left as written")

var predefined = map[string]byte{"lt": '<', "gt": '>', "amp": '&', "apos": '\'', "quot": '"'}

// add appends the decoded form of src[a:b]: character data, or an
// attribute value when quote is set (then white space is normalized to
// spaces, XML 1.0 §3.3.3), or a CDATA section's content (taken as it is).
func (d *decoded) add(src []byte, a, b int, cdata bool, quote byte) error {
	d0 := len(d.text)
	defer func() { d.segs = append(d.segs, segment{d0: d0, d1: len(d.text), cdata: cdata, attr: quote}) }()
	put := d.put
	for i := a; i < b; {
		c := src[i]
		switch {
		case c == '\r':
			// End-of-line handling (§2.11): CR LF and CR are LF.
			e := i + 1
			if e < b && src[e] == '\n' {
				e++
			}
			if quote != 0 {
				put(' ', i, e)
			} else {
				put('\n', i, e)
			}
			i = e
		case quote != 0 && (c == '\n' || c == '\t'):
			put(' ', i, i+1)
			i++
		case c == '&' && !cdata:
			j := bytes.IndexByte(src[i:b], ';')
			if j < 0 {
				return errEntity
			}
			name := string(src[i+1 : i+j])
			e := i + j + 1
			if r, ok := charRef(name); ok {
				var buf [4]byte
				n := utf8.EncodeRune(buf[:], r)
				for _, c := range buf[:n] {
					put(c, i, e)
				}
			} else if c, ok := predefined[name]; ok {
				put(c, i, e)
			} else {
				return errEntity
			}
			i = e
		default:
			put(c, i, i+1)
			i++
		}
	}
	return nil
}

// charRef decodes the name of a character reference ("#65", "#x41").
func charRef(name string) (rune, bool) {
	if !strings.HasPrefix(name, "#") {
		return 0, false
	}
	base, digits := 10, name[1:]
	if strings.HasPrefix(digits, "x") {
		base, digits = 16, digits[1:]
	}
	n, err := strconv.ParseUint(digits, base, 32)
	if err != nil || n == 0 || n > utf8.MaxRune || 0xD800 <= n && n <= 0xDFFF {
		return 0, false
	}
	return rune(n), true
}

// span returns the source span of the decoded bytes [a, b) and the segment
// they lie in, or false when they cross segments.
func (d *decoded) span(a, b int) (int, int, segment, bool) {
	if a >= b || b > len(d.text) {
		return 0, 0, segment{}, false
	}
	// The segments are in order: the last one starting at or before a.
	k := sort.Search(len(d.segs), func(k int) bool { return d.segs[k].d0 > a }) - 1
	if k < 0 {
		return 0, 0, segment{}, false
	}
	if s := d.segs[k]; b <= s.d1 {
		r0, _ := d.source(a)
		_, r1 := d.source(b - 1)
		return r0, r1, s, true
	}
	return 0, 0, segment{}, false
}

// escape writes s for its place in the source: in a CDATA section as it
// is (false when it holds "]]>"), else with the characters XML reserves
// there escaped (§2.4, §3.1).
func (s segment) escape(v string) (string, bool) {
	if s.raw {
		return v, true
	}
	if s.cdata {
		return v, !strings.Contains(v, "]]>")
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '&':
			b.WriteString("&amp;")
		case c == '<':
			b.WriteString("&lt;")
		case c == '>' && s.attr == 0:
			b.WriteString("&gt;")
		case c == '"' && s.attr == '"':
			b.WriteString("&quot;")
		case c == '\'' && s.attr == '\'':
			b.WriteString("&apos;")
		case s.attr != 0 && (c == '\t' || c == '\n' || c == '\r'):
			b.WriteString("&#" + strconv.Itoa(int(c)) + ";")
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// trim returns the span of d's text without XML white space around it.
func (d *decoded) trim() (int, int) {
	a, b := 0, len(d.text)
	for a < b && isSpaceXML(d.text[a]) {
		a++
	}
	for b > a && isSpaceXML(d.text[b-1]) {
		b--
	}
	return a, b
}
