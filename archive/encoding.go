package archive

import (
	"bytes"
	"encoding/base64"
	"strings"
)

// Content-Transfer-Encoding values (RFC 2045 §6.1), lower-case. The empty
// string is an absent header, which means 7bit.
const (
	SevenBit        = "7bit"
	EightBit        = "8bit"
	Binary          = "binary"
	QuotedPrintable = "quoted-printable"
	Base64          = "base64"
)

// lineEnd returns the line end body uses: "\r\n" when it has any CRLF,
// "\n" when it has only bare LFs, and "\r\n" (canonical MIME, RFC 2045
// §2.10) when it has none.
func lineEnd(body []byte) string {
	if i := bytes.IndexByte(body, '\n'); i > 0 && body[i-1] == '\r' {
		return "\r\n"
	} else if i >= 0 {
		if bytes.Contains(body, []byte("\r\n")) {
			return "\r\n"
		}
		return "\n"
	}
	return "\r\n"
}

// decodeQP decodes a quoted-printable body (RFC 2045 §6.7) leniently: "="
// at a line end is a soft line break, "=XX" with hex digits of either case
// is that octet, and any other "=" is kept as written, as rule 1's note
// on robust decoders suggests (Chromium's resource_not_found_in_archive.mht
// has a bare `src="`). Hard line breaks keep their bytes (CRLF or LF), so
// the encoder can give them back. Trailing whitespace on a line is
// transport padding (rule 3) and is dropped.
func decodeQP(src []byte) []byte {
	dst := make([]byte, 0, len(src))
	for pos := 0; pos < len(src); {
		end := bytes.IndexByte(src[pos:], '\n')
		var line, brk []byte
		if end < 0 {
			line, pos = src[pos:], len(src)
		} else {
			line, brk = src[pos:pos+end], src[pos+end:pos+end+1]
			if len(line) > 0 && line[len(line)-1] == '\r' {
				line, brk = line[:len(line)-1], src[pos+end-1:pos+end+1]
			}
			pos += end + 1
		}
		line = bytes.TrimRight(line, " \t")
		soft := len(line) > 0 && line[len(line)-1] == '='
		if soft {
			line = line[:len(line)-1]
		}
		for len(line) > 0 {
			eq := bytes.IndexByte(line, '=')
			if eq < 0 {
				dst = append(dst, line...)
				break
			}
			dst = append(dst, line[:eq]...)
			line = line[eq:]
			if len(line) >= 3 && isHex(line[1]) && isHex(line[2]) {
				dst = append(dst, unhex(line[1])<<4|unhex(line[2]))
				line = line[3:]
				continue
			}
			dst = append(dst, '=')
			line = line[1:]
		}
		if !soft {
			dst = append(dst, brk...)
		}
	}
	return dst
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// maxLine is the longest encoded line RFC 2045 allows (§6.7 rule 5, §6.8),
// not counting the line end.
const maxLine = 76

// encodeQP encodes src as quoted-printable (RFC 2045 §6.7): octets outside
// printable ASCII, "=", and whitespace before a line end as =XX; hard line
// breaks (CRLF or LF, as in src) kept; soft line breaks ("=" + eol) so
// that no line is longer than 76 characters; an =XX never split.
func encodeQP(src []byte, eol string) []byte {
	const hexdigits = "0123456789ABCDEF"
	dst := make([]byte, 0, len(src)+len(src)/8+16)
	col := 0
	softBreak := func() {
		dst = append(dst, '=')
		dst = append(dst, eol...)
		col = 0
	}
	// literal reports whether src[i] stands for itself: printable ASCII
	// but "=", and a space or tab not at the end of a line (rule 3).
	literal := func(i int) bool {
		c := src[i]
		return qpPlain[c] || (c == ' ' || c == '\t') && !atLineEnd(src, i+1)
	}
	for i := 0; i < len(src); {
		c := src[i]
		if literal(i) {
			// A run of characters that stand for themselves, copied a
			// line's room at a time.
			j := i + 1
			for j < len(src) && literal(j) {
				j++
			}
			eolAfter := atLineEnd(src, j)
			for i < j {
				room := maxLine - 1 - col
				if eolAfter && j-i == room+1 {
					room++ // the line's last character may take the "=" column
				}
				if room <= 0 {
					softBreak()
					continue
				}
				n := min(room, j-i)
				dst = append(dst, src[i:i+n]...)
				col += n
				i += n
			}
			continue
		}
		switch {
		case c == '\n':
			dst = append(dst, '\n')
			col = 0
			i++
			continue
		case c == '\r' && i+1 < len(src) && src[i+1] == '\n':
			dst = append(dst, '\r', '\n')
			col = 0
			i += 2
			continue
		}
		if col+3 > maxLine-1 {
			softBreak()
		}
		dst = append(dst, '=', hexdigits[c>>4], hexdigits[c&15])
		col += 3
		i++
	}
	return dst
}

// qpPlain marks the octets quoted-printable writes as themselves anywhere
// on a line (RFC 2045 §6.7 rule 2): printable ASCII but "=".
var qpPlain = func() (t [256]bool) {
	for c := 33; c <= 126; c++ {
		t[c] = c != '='
	}
	return t
}()

// atLineEnd reports whether a hard line break (or the end) starts at i.
func atLineEnd(src []byte, i int) bool {
	return i >= len(src) || src[i] == '\n' || (src[i] == '\r' && i+1 < len(src) && src[i+1] == '\n')
}

// decodeBase64 decodes a base64 body (RFC 2045 §6.8), ignoring line breaks
// and other characters outside the alphabet as the RFC says decoders must,
// and tolerating missing padding.
func decodeBase64(src []byte) ([]byte, error) {
	clean := make([]byte, 0, len(src))
	for _, c := range src {
		if 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/' {
			clean = append(clean, c)
		}
	}
	if n := len(clean) % 4; n == 1 {
		// A lone sextet carries no whole octet: drop it.
		clean = clean[:len(clean)-1]
	}
	return base64.RawStdEncoding.DecodeString(string(clean))
}

// encodeBase64 encodes src as base64 in lines of 76 characters ending in
// eol (RFC 2045 §6.8); the last line has no line end.
func encodeBase64(src []byte, eol string) []byte {
	enc := base64.StdEncoding.EncodeToString(src)
	var dst strings.Builder
	dst.Grow(len(enc) + len(enc)/maxLine*len(eol))
	for len(enc) > maxLine {
		dst.WriteString(enc[:maxLine])
		dst.WriteString(eol)
		enc = enc[maxLine:]
	}
	dst.WriteString(enc)
	return []byte(dst.String())
}

// decodeBody undoes a Content-Transfer-Encoding. Identity encodings and
// unknown ones (RFC 2045 §6.4 says to treat the body as opaque) come back
// as they are; the bool reports whether the encoding was understood.
func decodeBody(cte string, raw []byte) ([]byte, bool, error) {
	switch cte {
	case QuotedPrintable:
		return decodeQP(raw), true, nil
	case Base64:
		b, err := decodeBase64(raw)
		return b, true, err
	case "", SevenBit, EightBit, Binary:
		return raw, true, nil
	}
	return raw, false, nil
}

// encodeBody applies a Content-Transfer-Encoding again, in the line-end
// style of the original raw body, and with a final line end when the
// original had one. In quoted-printable that line end is a soft line
// break: a hard one would add a line break to the content.
func encodeBody(cte string, decoded, orig []byte) []byte {
	eol := lineEnd(orig)
	var out []byte
	switch cte {
	case QuotedPrintable:
		out = encodeQP(decoded, eol)
	case Base64:
		out = encodeBase64(decoded, eol)
	default:
		return decoded
	}
	if bytes.HasSuffix(orig, []byte("\n")) && !bytes.HasSuffix(out, []byte("\n")) {
		if cte == QuotedPrintable {
			out = softEnd(out, eol)
		}
		out = append(out, eol...)
	}
	return out
}

// softEnd appends the "=" of a soft line break to the quoted-printable
// out. A last line of 76 characters has no room for it: its last
// character (a literal one: an =XX never takes the 76th column) moves to
// a line of its own.
func softEnd(out []byte, eol string) []byte {
	if last := out[bytes.LastIndexByte(out, '\n')+1:]; len(last) >= maxLine {
		c := out[len(out)-1]
		out = append(append(out[:len(out)-1], '='), eol...)
		out = append(out, c)
	}
	return append(out, '=')
}
