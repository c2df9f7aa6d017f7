package base

import (
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// A UTF-16 document (HTML Standard §13.2.3: a BOM or the transport
// layer's charset says so; a <meta> cannot) is not ASCII-compatible: its
// <base> is looked for in, and its links are read from, its text decoded
// to UTF-8. The decoding is lossless, so that a rewriter can encode the
// text back to the very bytes it came from: the BOM is decoded to U+FEFF
// (counted in offsets: 3 bytes), a lone surrogate (which the Encoding
// Standard's decoder makes U+FFFD) travels as its three-byte generalized
// UTF-8 form, and an odd last byte is kept aside (utf16Reader.tail).
// Where a value is taken as text (a <base href>), lone surrogates are
// read as U+FFFD (replaceSurrogates), as the Encoding Standard decodes
// them.

// utf16Reader decodes a UTF-16 stream to UTF-8, losslessly.
type utf16Reader struct {
	big  bool // UTF-16BE
	src  io.Reader
	in   []byte // undecoded input
	out  []byte // decoded, not yet read
	buf  []byte
	tail []byte // an odd last byte of the input
	eof  bool
	err  error
}

func newUTF16Reader(src io.Reader, big bool) *utf16Reader {
	return &utf16Reader{big: big, src: src}
}

func (r *utf16Reader) Read(p []byte) (int, error) {
	for len(r.out) == 0 {
		if r.eof {
			return 0, r.err
		}
		r.fill()
	}
	n := copy(p, r.out)
	r.out = r.out[n:]
	return n, nil
}

// unit returns the code unit in b[0:2].
func (r *utf16Reader) unit(b []byte) uint16 {
	if r.big {
		return uint16(b[0])<<8 | uint16(b[1])
	}
	return uint16(b[1])<<8 | uint16(b[0])
}

// fill reads more input and decodes what it can.
func (r *utf16Reader) fill() {
	if r.buf == nil {
		r.buf = make([]byte, 32<<10)
	}
	n, err := r.src.Read(r.buf)
	r.in = append(r.in, r.buf[:n]...)
	if err != nil {
		r.eof = true
		if err != io.EOF {
			r.err = err
		} else {
			r.err = io.EOF
		}
	}
	out := r.out[:0]
	i := 0
	for ; i+2 <= len(r.in); i += 2 {
		u := r.unit(r.in[i:])
		switch {
		case utf16.IsSurrogate(rune(u)) && u < 0xDC00:
			if i+4 > len(r.in) && !r.eof {
				goto done // the low half may follow
			}
			if i+4 <= len(r.in) {
				if lo := r.unit(r.in[i+2:]); lo >= 0xDC00 && lo <= 0xDFFF {
					out = utf8.AppendRune(out, utf16.DecodeRune(rune(u), rune(lo)))
					i += 2
					continue
				}
			}
			out = appendSurrogate(out, u)
		case utf16.IsSurrogate(rune(u)):
			out = appendSurrogate(out, u)
		default:
			out = utf8.AppendRune(out, rune(u))
		}
	}
done:
	r.in = append(r.in[:0], r.in[i:]...)
	if r.eof && len(r.in) > 0 {
		r.tail = append(r.tail[:0], r.in...)
		r.in = r.in[:0]
	}
	r.out = out
}

// appendSurrogate appends a lone surrogate in its generalized (three
// byte) UTF-8 form, which no valid UTF-8 holds.
func appendSurrogate(dst []byte, u uint16) []byte {
	return append(dst, 0xE0|byte(u>>12), 0x80|byte(u>>6)&0x3F, 0x80|byte(u)&0x3F)
}

// replaceSurrogates returns s with each lone surrogate (in its
// generalized UTF-8 form) replaced by U+FFFD; both are three bytes.
func replaceSurrogates(s string) string {
	b := []byte(s)
	changed := false
	for i := 0; i+2 < len(b); i++ {
		if b[i] == 0xED && b[i+1] >= 0xA0 && b[i+1] <= 0xBF && b[i+2]&0xC0 == 0x80 {
			copy(b[i:], "\uFFFD")
			i += 2
			changed = true
		}
	}
	if !changed {
		return s
	}
	return string(b)
}
