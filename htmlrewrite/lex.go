package htmlrewrite

import (
	"bytes"

	"github.com/relurl/relurl/internal/token"
)

// x/net/html's Tokenizer keeps its attribute spans private and TagAttr
// copies and lower-cases every key and value; the copy in internal/token
// hands the spans over (token.Tokenizer.Tag), so a start tag's attributes
// are read in place. Like TagAttr (x/net ≥ v0.55.0), only the first of
// attributes whose ASCII-lower-cased names are equal counts.

// attr is one attribute of a start tag, as spans of the tag's raw bytes.
type attr struct {
	id     attrID
	k0, k1 int  // the name
	v0, v1 int  // the value, without quotes
	quote  byte // '"', '\'' or 0 for an unquoted or absent value
	hasVal bool // an "=" and a value follow the name
}

// tag is a lexed start tag.
type tag struct {
	name  []byte // the lower-cased name, if it fits maxName, else nil
	lower [maxName]byte
	id    tagID
	attrs []attr // the known attributes, first occurrence only
	seen  attrSet
}

const maxName = 24

func isSpace(c byte) bool { return spaceBytes[c] }

// spaceBytes marks ASCII white space as HTML defines it.
var spaceBytes = [256]bool{' ': true, '\n': true, '\r': true, '\t': true, '\f': true}

// lower writes the ASCII-lower-cased b to dst and reports its length, or
// -1 when b does not fit.
func lower(dst *[maxName]byte, b []byte) int {
	if len(b) > len(dst) {
		return -1
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst[i] = c
	}
	return len(b)
}

// tagOf fills t from the start tag raw, the current token of z, keeping
// only the attributes attrIDOf knows. The attributes are read in z (no
// copy of their spans: most are ruled out by their name's length and
// first letter).
func tagOf(raw []byte, z *token.Tokenizer, t *tag) {
	t.attrs = t.attrs[:0]
	t.seen = 0
	t.name, t.id = nil, tagOther
	n := z.TagName()
	if name := raw[n[0]:n[1]]; len(name) <= maxName {
		// Most names are written in lower case: the tokenizer, which
		// read them, tells.
		if !z.NameLower() {
			name = t.lower[:lower(&t.lower, name)]
		}
		t.name, t.id = name, tagIDOf(name)
	}
	var key [maxName]byte
	for i := range z.AttrCount() {
		k0, k1 := z.AttrKey(i)
		// Ruled out by length (1 to 16) and first letter before the
		// name is sliced.
		if n := k1 - k0; uint(n-1) >= uint(len(attrInitials)-1) || attrInitials[n]&initial(raw[k0]) == 0 {
			continue // no known attribute has this length and first letter
		}
		k := raw[k0:k1]
		// Most known names are written in lower case: looked up as
		// written first, lower-cased only when that fails.
		id := attrIDOf(k)
		if id == attrOther {
			if kl := lower(&key, k); kl > 0 && !bytes.Equal(key[:kl], k) {
				id = attrIDOf(key[:kl])
			}
		}
		if id == attrOther || t.seen.has(id) {
			continue
		}
		t.seen.add(id)
		a := attr{id: id, k0: k0, k1: k1}
		a.v0, a.v1 = z.AttrVal(i)
		// An absent value starts where the name ends, and so does an empty
		// unquoted one ("a=>"); a quoted one is between its quotes.
		if a.v0 == a.k1 {
			i := a.k1
			for i < len(raw) && isSpace(raw[i]) {
				i++
			}
			if i < len(raw) && raw[i] == '=' {
				for i++; i < len(raw) && isSpace(raw[i]); i++ {
				}
				a.hasVal, a.v0, a.v1 = true, i, i
			}
		} else if a.hasVal = true; a.v1 < len(raw) {
			if q := raw[a.v0-1]; (q == '"' || q == '\'') && raw[a.v1] == q {
				a.quote = q
			}
		}
		t.attrs = append(t.attrs, a)
	}
}

// get returns t's attribute id, or nil.
func (t *tag) get(id attrID) *attr {
	if !t.seen.has(id) {
		return nil
	}
	for i := range t.attrs {
		if t.attrs[i].id == id {
			return &t.attrs[i]
		}
	}
	return nil
}

// attrInitials says, for each length, the first letters of the known
// attributes of that length (bit c-'a'): most attributes (class, type,
// alt, width, aria-*, ...) are ruled out without lower-casing and
// looking up their names.
var attrInitials = func() (m [17]uint32) {
	for _, n := range attrNames {
		if n != "" {
			m[len(n)] |= initial(n[0])
		}
	}
	return m
}()

// initial returns the bit of the ASCII letter c, either case, in
// attrInitials; 0 for any other byte.
func initial(c byte) uint32 {
	c |= 0x20
	if c < 'a' || c > 'z' {
		return 0
	}
	return 1 << (c - 'a')
}
