package resolve

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/transform"
)

// This file is the URL Standard's §1.3 "Percent-encoded bytes": the
// percent-encode sets and "percent-encode after encoding".

// An encodeSet says which bytes a component percent-encodes. Every byte of
// a non-ASCII code point's UTF-8 form is in every set, so percent-encoding
// a UTF-8 string byte by byte equals the Standard's "UTF-8 percent-encode"
// of each code point.
type encodeSet [256]bool

func newEncodeSet(parent *encodeSet, extra string) *encodeSet {
	var s encodeSet
	if parent != nil {
		s = *parent
	} else {
		// The C0 control percent-encode set: C0 controls and all code
		// points greater than U+007E (~).
		for c := 0; c < 256; c++ {
			s[c] = c < 0x20 || c > 0x7E
		}
	}
	for i := 0; i < len(extra); i++ {
		s[extra[i]] = true
	}
	return &s
}

// The percent-encode sets of the URL Standard §1.3, each built from the
// one before as the Standard defines it.
var (
	c0ControlSet    = newEncodeSet(nil, "")
	fragmentSet     = newEncodeSet(c0ControlSet, " \"<>`")
	querySet        = newEncodeSet(c0ControlSet, " \"#<>")
	specialQuerySet = newEncodeSet(querySet, "'")
	pathSet         = newEncodeSet(querySet, "?^`{}")
	userinfoSet     = newEncodeSet(pathSet, "/:;=@[\\]|")
)

const upperHex = "0123456789ABCDEF"

// appendEncoded appends s to b with every byte in set percent-encoded.
func appendEncoded(b []byte, s string, set *encodeSet) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if set[c] {
			b = append(b, s[start:i]...)
			b = append(b, '%', upperHex[c>>4], upperHex[c&15])
			start = i + 1
		}
	}
	return append(b, s[start:]...)
}

// appendQuery appends the query s to b as the query state does: "percent-
// encode after encoding" with enc (nil is UTF-8) and set.
func appendQuery(b []byte, s string, set *encodeSet, enc encoding.Encoding) []byte {
	// ASCII encodes to itself in every encoding a document can have,
	// except for the ISO-2022-JP encoder's errors.
	if enc == nil || isASCII(s) && !strings.ContainsAny(s, "\x0e\x0f\x1b") {
		return appendEncoded(b, s, set)
	}
	return appendEncodedAfterEncoding(b, s, set, enc)
}

// appendEncodedAfterEncoding is "percent-encode after encoding" (§1.3) for
// an encoding other than UTF-8: s is encoded with the Encoding Standard's
// encoder for enc, each resulting byte in set is percent-encoded, and a
// code point the encoding cannot represent becomes "%26%23" + its decimal
// value + "%3B", the percent-encoded form of an HTML numeric character
// reference.
//
// x/text's encoders are the Encoding Standard's for the single-byte
// encodings, Big5 and EUC-KR; for the others, whatwg_encode_cjk.go
// applies the Standard's own steps around them.
func appendEncodedAfterEncoding(b []byte, s string, set *encodeSet, enc encoding.Encoding) []byte {
	name, _ := htmlindex.Name(enc)
	if name == "iso-2022-jp" {
		return appendISO2022JP(b, s, set)
	}
	e := &runeEncoder{t: enc.NewEncoder()}
	var out [16]byte
	for _, r := range s {
		if bytes, ok := encodeCodePoint(name, e, r, out[:0]); ok {
			b = appendEncoded(b, string(bytes), set)
		} else {
			b = appendCharRef(b, r)
		}
	}
	return b
}

// appendCharRef appends the percent-encoded numeric character reference
// that stands for a code point the encoding lacks.
func appendCharRef(b []byte, r rune) []byte {
	b = append(b, "%26%23"...)
	b = strconv.AppendInt(b, int64(r), 10)
	return append(b, "%3B"...)
}

// runeEncoder encodes one code point at a time with t, a stateless
// encoder. Its buffers are allocated once per query: those handed to
// Transform, an interface method, escape, and would cost two allocations
// per code point on the stack.
type runeEncoder struct {
	t   transform.Transformer
	in  [utf8.UTFMax]byte
	buf [16]byte
}

// encode appends the encoding of r alone to out.
func (e *runeEncoder) encode(r rune, out []byte) ([]byte, bool) {
	e.t.Reset()
	n, _, err := e.t.Transform(e.buf[:], e.in[:utf8.EncodeRune(e.in[:], r)], true)
	if err != nil {
		return out, false
	}
	return append(out, e.buf[:n]...), true
}

// queryEncoding returns the encoding the query of a URL with this scheme
// is encoded in: UTF-8 (nil) unless the URL is special and not ws or wss
// (the query state's step 1), and UTF-8 for the encodings whose "output
// encoding" is UTF-8 (UTF-16BE/LE and replacement, Encoding Standard "get
// an output encoding").
func queryEncoding(enc encoding.Encoding, special bool, scheme string) encoding.Encoding {
	if enc == nil || !special || scheme == "ws" || scheme == "wss" {
		return nil
	}
	if name, err := htmlindex.Name(enc); err == nil {
		switch name {
		case "utf-8", "utf-16be", "utf-16le", "replacement":
			return nil
		}
	}
	return enc
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
