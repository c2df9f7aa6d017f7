package resolve

import (
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/width"
)

// The Encoding Standard's encoders where x/text's differ: the steps that
// map or refuse code points before the index lookup, which x/text's index
// tables then serve. Section numbers are the Encoding Standard's.

// encodeCodePoint returns the bytes the Encoding Standard's encoder named
// name (a stateless one) gives r, appended to out, or false for its
// "error". e holds x/text's encoder for the same encoding.
func encodeCodePoint(name string, e *runeEncoder, r rune, out []byte) ([]byte, bool) {
	switch name {
	case "gbk", "gb18030":
		// §10.2.2 step 3: U+E5E5 is an error (GB 18030-2005 mapped it to
		// a byte sequence that now decodes to U+3000).
		if r == 0xE5E5 {
			return out, false
		}
	case "euc-jp":
		// §13.2.2 steps 2 to 5.
		switch {
		case r == 0xA5:
			return append(out, 0x5C), true
		case r == 0x203E:
			return append(out, 0x7E), true
		case 0xFF61 <= r && r <= 0xFF9F:
			return append(out, 0x8E, byte(r-0xFF61+0xA1)), true
		case r == 0x2212:
			r = 0xFF0D
		}
		b, ok := e.encode(r, out)
		// Step 6 looks in index jis0208 only: the encoder never writes
		// JIS X 0212, which x/text's does after 0x8F.
		if !ok || len(b) > len(out) && b[len(out)] == 0x8F {
			return out, false
		}
		return b, true
	case "shift_jis":
		// §13.3.2 steps 1 to 5.
		switch {
		case r == 0x80:
			return append(out, 0x80), true
		case r == 0xA5:
			return append(out, 0x5C), true
		case r == 0x203E:
			return append(out, 0x7E), true
		case 0xFF61 <= r && r <= 0xFF9F:
			return append(out, byte(r-0xFF61+0xA1)), true
		case r == 0x2212:
			r = 0xFF0D
		}
		b, ok := e.encode(r, out)
		// Step 6: "index Shift_JIS pointer" skips pointers 8272 to 8835,
		// the NEC-selected IBM extensions (leads 0xED to 0xEF), for the
		// same characters' IBM extensions (leads 0xFA to 0xFC), which
		// x/text does not.
		if ok && len(b) == len(out)+2 && 0xED <= b[len(out)] && b[len(out)] <= 0xEF {
			ibm, found := shiftJISIBM()[r]
			if !found {
				return out, false
			}
			return append(out, ibm[0], ibm[1]), true
		}
		return b, ok
	}
	return e.encode(r, out)
}

// shiftJISIBM maps each IBM extension of Shift_JIS (leads 0xFA to 0xFC)
// to its bytes, read from x/text's decoder.
var shiftJISIBM = sync.OnceValue(func() map[rune][2]byte {
	m := make(map[rune][2]byte)
	d := japanese.ShiftJIS.NewDecoder()
	for lead := 0xFA; lead <= 0xFC; lead++ {
		for trail := 0x40; trail <= 0xFC; trail++ {
			if trail == 0x7F {
				continue
			}
			s, err := d.String(string([]byte{byte(lead), byte(trail)}))
			if err != nil {
				continue
			}
			rs := []rune(s)
			if len(rs) == 1 && rs[0] != 0xFFFD {
				if _, dup := m[rs[0]]; !dup {
					m[rs[0]] = [2]byte{byte(lead), byte(trail)}
				}
			}
		}
	}
	return m
})

// The ISO-2022-JP encoder's states (§12.2.2).
const (
	isoASCII = iota
	isoRoman
	isoJIS0208
)

// appendISO2022JP is "percent-encode after encoding" with the Encoding
// Standard's ISO-2022-JP encoder (§12.2.2), whose Roman state (JIS X 0201,
// for U+00A5 and U+203E) and katakana mapping x/text's lacks; x/text
// serves only the index jis0208 lookup.
func appendISO2022JP(b []byte, s string, set *encodeSet) []byte {
	state := isoASCII
	emit := func(bytes ...byte) { b = appendEncoded(b, string(bytes), set) }
	for _, r := range s {
		// Each "restore code point to ioQueue" of the Standard is another
		// turn of this loop with the same code point.
		for {
			if state != isoJIS0208 && (r == 0x0E || r == 0x0F || r == 0x1B) {
				b = appendCharRef(b, 0xFFFD) // step 2
				break
			}
			if state == isoASCII && r < 0x80 {
				emit(byte(r)) // step 3
				break
			}
			if state == isoRoman && (r < 0x80 && r != 0x5C && r != 0x7E || r == 0xA5 || r == 0x203E) {
				switch r { // step 4
				case 0xA5:
					emit(0x5C)
				case 0x203E:
					emit(0x7E)
				default:
					emit(byte(r))
				}
				break
			}
			if r < 0x80 {
				state = isoASCII // step 5
				emit(0x1B, '(', 'B')
				continue
			}
			if r == 0xA5 || r == 0x203E {
				state = isoRoman // step 6
				emit(0x1B, '(', 'J')
				continue
			}
			cp := r
			if cp == 0x2212 {
				cp = 0xFF0D // step 7
			}
			if 0xFF61 <= cp && cp <= 0xFF9F {
				cp = isoKatakana(cp) // step 8
			}
			lead, trail, ok := jis0208Bytes(cp)
			if !ok { // step 9
				if state == isoJIS0208 {
					state = isoASCII
					emit(0x1B, '(', 'B')
					continue
				}
				b = appendCharRef(b, cp)
				break
			}
			if state != isoJIS0208 {
				state = isoJIS0208 // step 10
				emit(0x1B, '$', 'B')
				continue
			}
			emit(lead, trail) // step 11
			break
		}
	}
	if state != isoASCII {
		emit(0x1B, '(', 'B') // step 1, at the end of the queue
	}
	return b
}

// isoKatakana is index ISO-2022-JP katakana: each halfwidth katakana's
// fullwidth form, which is x/text's width.Widen except for the two sound
// marks, which the index maps to their spacing forms.
func isoKatakana(r rune) rune {
	switch r {
	case 0xFF9E:
		return 0x309B
	case 0xFF9F:
		return 0x309C
	}
	w, _ := utf8.DecodeRuneInString(width.Widen.String(string(r)))
	return w
}

// jis0208Bytes returns the two bytes (each pointer part + 0x21) of r in
// index jis0208, taken from what x/text's ISO-2022-JP encoder writes for r
// alone: ESC $ B, the two bytes, ESC ( B.
func jis0208Bytes(r rune) (lead, trail byte, ok bool) {
	s, err := japanese.ISO2022JP.NewEncoder().String(string(r))
	if err != nil || len(s) != 8 || s[:3] != "\x1b$B" || s[5:] != "\x1b(B" {
		return 0, 0, false
	}
	return s[3], s[4], true
}
