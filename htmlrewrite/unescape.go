package htmlrewrite

import (
	"bytes"
	"strings"
	"unsafe"

	"golang.org/x/net/html"
	"golang.org/x/text/transform"
)

// Attribute values are decoded as the tokenizer's TagAttr decodes them
// (HTML Standard §13.2.5.38–40 and §13.2.5.72–80 in the attribute mode;
// x/net/html unescapeEntity with attribute=true): NUL becomes U+FFFD, CR
// and CRLF become LF, then character references are decoded, except that
// a named one not ended by ";" and followed by "=" stays as written, and
// names are never matched by a prefix. So "?a=1&copy=2" stays as it is,
// where html.UnescapeString, which decodes text, would make it "?a=1©=2".
//
// The decoder here also records where each decoded byte comes from, so
// that a change inside a value (a srcset candidate, a CSS url()) replaces
// exactly the raw bytes it came from (notes §2.1: wget's srcset offset
// drift comes from applying decoded offsets to raw bytes).

// references decodes character references, remembering the named ones
// the tokenizer had to decode (x/net keeps its entity table unexported).
type references map[string]string

// maxReferences bounds the memory the remembered references take.
const maxReferences = 1024

// reference returns the length of the character reference (or lone "&")
// at the start of v, which starts with "&", and what it decodes to.
func (rs *references) reference(v []byte) (int, string) {
	// The unit is "&", then "#", an optional "x" and digits, or
	// alphanumerics; then an optional ";".
	i := 1
	numeric := i < len(v) && v[i] == '#'
	if numeric {
		i++
		if i < len(v) && v[i]|0x20 == 'x' {
			i++
		}
	}
	start := i
	for i < len(v) && isAlnum(v[i]) {
		i++
	}
	switch {
	case i == start:
		return 1, "&" // "&" or "&#" without digits: as written
	case !numeric && (i == len(v) || v[i] != ';') && i < len(v) && v[i] == '=':
		// "Historical reasons": as written. The string aliases v (no
		// copy per "&b=" of a query): the callers copy it at once
		// (unescape) or only read it (offsets, asWritten).
		return i, unsafe.String(&v[0], i)
	}
	if i < len(v) && v[i] == ';' {
		i++
	}
	unit := v[:i]
	switch string(unit) {
	case "&amp;":
		return i, "&"
	case "&lt;":
		return i, "<"
	case "&gt;":
		return i, ">"
	case "&quot;":
		return i, `"`
	case "&apos;":
		return i, "'"
	}
	if d, ok := (*rs)[string(unit)]; ok {
		return i, d
	}
	d := tokenizerUnescape(unit)
	if *rs == nil {
		*rs = references{}
	}
	if len(*rs) < maxReferences {
		(*rs)[string(unit)] = d
	}
	return i, d
}

func isAlnum(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}

// unescape decodes the raw attribute value v.
func (rs *references) unescape(v []byte) string {
	var b strings.Builder // its String does not copy
	b.Grow(len(v))
	for {
		// The bytes up to the next NUL, CR or "&" are as written.
		i := 0
		for i < len(v) && !specialUTF8[v[i]] {
			i++
		}
		b.Write(v[:i])
		if i == len(v) {
			return b.String()
		}
		switch v[i] {
		case 0:
			b.WriteString("\uFFFD")
			i++
		case '\r':
			b.WriteByte('\n')
			if i++; i < len(v) && v[i] == '\n' {
				i++
			}
		case '&':
			n, d := rs.reference(v[i:])
			b.WriteString(d)
			i += n
		}
		v = v[i:]
	}
}

// offsets maps the decoded form of the raw value v back to v: m[i] is the
// offset in v of the character, character reference or CRLF that decoded
// byte i comes from, and m[len(decoded)] is len(v). A nil m with ok means
// the identity; ok false means a legacy encoding's decoder failed.
func (s *scanner) offsets(v []byte, plain bool) (m []int32, ok bool) {
	if plain {
		return nil, true
	}
	var legacy []int32
	if s.p.enc != nil && !isASCII(v) {
		v, legacy, ok = s.legacyOffsets(v)
		if !ok {
			return nil, false
		}
	}
	m = s.offs[:0]
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case 0:
			m = append(m, int32(i), int32(i), int32(i)) // U+FFFD is 3 bytes
		case '\r':
			m = append(m, int32(i))
			if i+1 < len(v) && v[i+1] == '\n' {
				i++
			}
		case '&':
			n, d := s.refs.reference(v[i:])
			for range len(d) {
				m = append(m, int32(i))
			}
			i += n - 1
		default:
			m = append(m, int32(i))
		}
	}
	m = append(m, int32(len(v)))
	if legacy != nil {
		for j, k := range m {
			m[j] = legacy[k]
		}
	}
	s.offs = m
	return m, true
}

// legacyOffsets decodes v from the document's encoding one character at
// a time, returning the UTF-8 text and, for each of its bytes (and its
// end), the offset in v of the character it comes from.
func (s *scanner) legacyOffsets(v []byte) ([]byte, []int32, bool) {
	dec := s.p.enc.NewDecoder()
	out := make([]byte, 0, 2*len(v))
	m := make([]int32, 0, 2*len(v)+1)
	var buf [16]byte
	for i := 0; i < len(v); {
		n := 0
		for k := 1; k <= 4 && i+k <= len(v); k++ {
			nDst, nSrc, err := dec.Transform(buf[:], v[i:i+k], i+k == len(v) || k == 4)
			if nSrc > 0 {
				out = append(out, buf[:nDst]...)
				for range nDst {
					m = append(m, int32(i))
				}
				n = nSrc
				break
			}
			if err != nil && err != transform.ErrShortSrc {
				return nil, nil, false
			}
		}
		if n == 0 {
			return nil, nil, false
		}
		i += n
	}
	return out, append(m, int32(len(v))), true
}

// tokenizerUnescape decodes the raw attribute value v by letting the
// tokenizer read it.
func tokenizerUnescape(v []byte) string {
	var b strings.Builder
	b.WriteString(`<a v="`)
	b.Write(bytes.ReplaceAll(v, []byte(`"`), []byte("&quot;")))
	b.WriteString(`">`)
	z := html.NewTokenizer(strings.NewReader(b.String()))
	z.Next()
	z.TagName()
	_, val, _ := z.TagAttr()
	return string(val)
}
