package htmlrewrite

import (
	"bytes"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// UTF-16 documents (HTML Standard §13.2.3: a BOM or the transport
// layer's charset says so; a <meta> cannot) are not ASCII-compatible, so
// their bytes cannot be tokenized as they are. They are decoded to UTF-8
// on the way in (by base.DecideHTML's decoder: HTMLDecision.Reader),
// rewritten as any UTF-8 document, and encoded back on the way out.
// The round trip is lossless: the BOM is decoded to U+FEFF and encoded
// back, a lone surrogate (which the Encoding Standard's decoder
// would make U+FFFD) travels as its three-byte generalized UTF-8 form,
// and an odd last byte is kept aside and written back last. So every byte
// outside the values that change comes out as it went in.

// utf16Codec is the state of one UTF-16 document: base.DecideHTML
// decodes it (one lossless decoder, base's), the scanner encodes it back.
type utf16Codec struct {
	big  bool          // UTF-16BE
	name string        // "utf-16le" or "utf-16be"
	tail func() []byte // an odd last byte of the input, written back last
}

func (c *utf16Codec) appendUnit(dst []byte, u uint16) []byte {
	if c.big {
		return append(dst, byte(u>>8), byte(u))
	}
	return append(dst, byte(u), byte(u>>8))
}

// utf16Writer encodes the UTF-8 written to it (with lone surrogates in
// their generalized form) as UTF-16 to w.
type utf16Writer struct {
	c       *utf16Codec
	w       io.Writer
	pending []byte // an incomplete sequence at the end of the last write
	buf     []byte
}

func (e *utf16Writer) Write(p []byte) (int, error) {
	n := len(p)
	if len(e.pending) > 0 {
		p = append(e.pending, p...)
		e.pending = nil
	}
	out := e.buf[:0]
	for len(p) > 0 {
		r, size := decodeGeneralized(p)
		if size == 0 { // incomplete: wait for the rest
			e.pending = append([]byte(nil), p...)
			break
		}
		p = p[size:]
		if r >= 0x10000 {
			hi, lo := utf16.EncodeRune(r)
			out = e.c.appendUnit(e.c.appendUnit(out, uint16(hi)), uint16(lo))
		} else {
			out = e.c.appendUnit(out, uint16(r))
		}
	}
	e.buf = out
	if _, err := e.w.Write(out); err != nil {
		return 0, err
	}
	return n, nil
}

// Close writes what is pending: an incomplete sequence (as U+FFFD) and
// the input's odd last byte.
func (e *utf16Writer) Close() error {
	var out []byte
	if len(e.pending) > 0 {
		out = e.c.appendUnit(out, utf8.RuneError)
		e.pending = nil
	}
	if e.c.tail != nil {
		out = append(out, e.c.tail()...)
	}
	if len(out) == 0 {
		return nil
	}
	_, err := e.w.Write(out)
	return err
}

// decodeGeneralized decodes the first code point of p, a surrogate in its
// generalized UTF-8 form included. It returns size 0 when p ends in the
// middle of a sequence, and U+FFFD for a byte that starts none.
func decodeGeneralized(p []byte) (rune, int) {
	c := p[0]
	switch {
	case c < 0x80:
		return rune(c), 1
	case c == 0xED:
		if len(p) < 3 {
			if len(p) == 2 && p[1]&0xC0 != 0x80 {
				return utf8.RuneError, 1
			}
			return 0, 0
		}
		if p[1]&0xC0 == 0x80 && p[2]&0xC0 == 0x80 {
			return rune(c&0x0F)<<12 | rune(p[1]&0x3F)<<6 | rune(p[2]&0x3F), 3
		}
		return utf8.RuneError, 1
	}
	if !utf8.FullRune(p) {
		return 0, 0
	}
	return utf8.DecodeRune(p)
}

// utf16Units returns how many UTF-16 code units the decoded text b was
// (a lone surrogate's generalized form counting one).
func utf16Units(b []byte) int64 {
	var n int64
	for _, c := range b {
		switch {
		case c < 0x80 || c >= 0xC0 && c < 0xF0:
			n++ // ASCII or the lead of a BMP sequence
		case c >= 0xF0:
			n += 2 // an astral code point: a surrogate pair
		}
	}
	return n
}

// replaceSurrogates returns v with each lone surrogate (in its generalized
// UTF-8 form) replaced by U+FFFD, as the Encoding Standard's UTF-16
// decoder reads it; both are three bytes, so offsets into v still hold.
func replaceSurrogates(v []byte) []byte {
	i := bytes.IndexByte(v, 0xED)
	if i < 0 {
		return v
	}
	out := append([]byte(nil), v...)
	for ; i+2 < len(out); i++ {
		if out[i] == 0xED && out[i+1] >= 0xA0 && out[i+1] <= 0xBF && out[i+2]&0xC0 == 0x80 {
			copy(out[i:], "\uFFFD")
			i += 2
		}
	}
	return out
}
