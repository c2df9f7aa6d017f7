package archive

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"net/textproto"
	"strconv"
	"strings"

	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/link"
)

// A Field is one header field as written: its name, and its value with
// folding line breaks removed (RFC 5322 §2.2.3) but nothing else changed.
type Field struct {
	Name  string
	Value string
}

// A Header is the fields of a MIME, HTTP or WARC header block, in the
// order they were written. Names compare case-insensitively.
type Header []Field

// Get returns the value of the first field named name, or "".
func (h Header) Get(name string) string {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Has reports whether a field named name is present.
func (h Header) Has(name string) bool {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return true
		}
	}
	return false
}

// Values returns the values of every field named name, in order.
func (h Header) Values(name string) []string {
	var vs []string
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			vs = append(vs, f.Value)
		}
	}
	return vs
}

// MIME returns h as a textproto.MIMEHeader, the form package base takes.
func (h Header) MIME() textproto.MIMEHeader {
	m := make(textproto.MIMEHeader, len(h))
	for _, f := range h {
		m.Add(f.Name, f.Value)
	}
	return m
}

// readHeader parses the header block at the start of data: fields up to
// the first empty line. It returns the fields, the offset where the body
// starts, and warnings for lines it had to skip. LF-only line ends are
// accepted (RFC 2557 §10 allows non-canonical text in HTTP; real MHTML has
// them too). A line that is neither a field nor a continuation ends the
// block without an empty line, as if the body began there.
func readHeader(data []byte, max int64) (Header, int, []string, error) {
	var (
		h    Header
		warn []string
		pos  int
		// The value of the last field, unfolded: its continuation lines
		// are appended here, not to a string copied for each of them.
		value []byte
	)
	field := func() {
		if len(h) > 0 {
			h[len(h)-1].Value = string(value)
		}
	}
	for pos < len(data) {
		line, next := nextLine(data, pos)
		if int64(next) > max && len(line) > 0 {
			field()
			return h, pos, warn, ErrHeaderTooLarge
		}
		if len(line) == 0 {
			field()
			return h, next, warn, nil
		}
		if line[0] == ' ' || line[0] == '\t' {
			if len(h) == 0 {
				warn = append(warn, fmt.Sprintf("header starts with a continuation line %q", clip(line)))
				pos = next
				continue
			}
			// Folding: drop the line break, keep the whitespace.
			value = append(value, line...)
			pos = next
			continue
		}
		colon := bytes.IndexByte(line, ':')
		if colon <= 0 || !isFieldName(bytes.TrimRight(line[:colon], " \t")) {
			if len(h) == 0 && bytes.HasPrefix(line, []byte("From ")) {
				// An mbox "From " separator line: not a field.
				warn = append(warn, "skipped mbox From line")
				pos = next
				continue
			}
			warn = append(warn, fmt.Sprintf("header ends at a line that is not a field: %q", clip(line)))
			field()
			return h, pos, warn, nil
		}
		field()
		h = append(h, Field{Name: string(bytes.TrimRight(line[:colon], " \t"))})
		value = append(value[:0], bytes.TrimLeft(line[colon+1:], " \t")...)
		pos = next
	}
	field()
	return h, pos, warn, nil
}

// nextLine returns the line at pos without its line end, and the offset of
// the line after it.
func nextLine(data []byte, pos int) ([]byte, int) {
	i := bytes.IndexByte(data[pos:], '\n')
	if i < 0 {
		return bytes.TrimSuffix(data[pos:], []byte("\r")), len(data)
	}
	return bytes.TrimSuffix(data[pos:pos+i], []byte("\r")), pos + i + 1
}

func isFieldName(b []byte) bool {
	// RFC 5322 §3.6.8 ftext is printable ASCII but ":"; real producers also
	// write a space inside names ("Content Location"), which we keep.
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return false
		}
	}
	return len(b) > 0
}

func clip(b []byte) string {
	if len(b) > 60 {
		return string(b[:60]) + "..."
	}
	return string(b)
}

// ParseMediaType parses a Content-Type value leniently: it returns the
// lower-case media type and its parameters (names lower-case) where the
// standard library's mime.ParseMediaType would drop every parameter, as it
// does for unquoted values holding tspecials (boundary=----=_NextPart...,
// start=<a@b:c>, type=text/html, all written by real MHTML producers). A
// value is a quoted string (RFC 2045 §5.1, with backslash escapes) or
// everything up to the next ";". The first of repeated parameters wins.
// RFC 2231 continuations and charsets are decoded when the strict parser
// accepts the value.
func ParseMediaType(v string) (string, map[string]string) {
	if mt, params, err := mime.ParseMediaType(v); err == nil {
		return mt, params
	}
	params := map[string]string{}
	semi := strings.IndexByte(v, ';')
	mt := v
	if semi >= 0 {
		mt, v = v[:semi], v[semi+1:]
	} else {
		v = ""
	}
	mt = strings.ToLower(strings.TrimSpace(mt))
	// "text/html charset=utf-8" (no ";"): keep the type.
	if i := strings.IndexAny(mt, " \t"); i >= 0 {
		v = mt[i:] + ";" + v
		mt = mt[:i]
	}
	for v != "" {
		v = strings.TrimLeft(v, " \t\r\n;")
		eq := strings.IndexByte(v, '=')
		semi := strings.IndexByte(v, ';')
		if eq < 0 || (semi >= 0 && semi < eq) {
			if semi < 0 {
				break
			}
			v = v[semi+1:]
			continue
		}
		name := strings.ToLower(strings.TrimSpace(v[:eq]))
		v = strings.TrimLeft(v[eq+1:], " \t\r\n")
		var val string
		if strings.HasPrefix(v, `"`) {
			val, v = quotedString(v)
		} else if i := strings.IndexByte(v, ';'); i >= 0 {
			val, v = strings.TrimSpace(v[:i]), v[i+1:]
		} else {
			val, v = strings.TrimSpace(v), ""
		}
		if _, dup := params[name]; !dup && name != "" {
			params[name] = val
		}
	}
	return mt, params
}

// quotedString reads an RFC 822 quoted-string at the start of s and returns
// its content and the rest after the closing quote. An unclosed string
// runs to the end.
func quotedString(s string) (string, string) {
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i])
			}
		case '"':
			return b.String(), s[i+1:]
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String(), ""
}

// contentID returns a Content-ID value without its angle brackets, the
// form a cid: URL names (RFC 2392 §2).
func contentID(v string) string {
	v = strings.TrimSpace(v)
	v = strings.TrimPrefix(v, "<")
	if i := strings.IndexByte(v, '>'); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}

// Errors a bound or a malformed input gives, carried by *Error. Those of
// a limit of the reader's design (ErrTooDeep, ErrTooManyParts,
// ErrHeaderTooLarge) match link.ErrIncomplete too, as every
// reader's refusal at a limit does.
var (
	ErrTooDeep        error = &limitError{"nesting too deep"}
	ErrTooManyParts   error = &limitError{"too many parts"}
	ErrHeaderTooLarge error = &limitError{"header too large"}
	ErrTooLarge             = errors.New("too large")
	ErrNoBoundary           = errors.New("multipart without a boundary parameter")
	ErrNoParts              = errors.New("multipart body has no delimiter line for its boundary")
	ErrTruncated            = errors.New("truncated")
	ErrNotWARC              = errors.New("not a WARC record")
)

// limitError is a limit of the reader's design met by the input.
type limitError struct{ s string }

func (e *limitError) Error() string { return e.s }

// Is reports whether target is link.ErrIncomplete.
func (e *limitError) Is(target error) bool { return target == link.ErrIncomplete }

// Error records a failure and where it happened, in the manner of
// net/url's Error.
type Error struct {
	Op     string // "read", "decode", "rewrite", "read WARC record", ...
	Where  string // "part 1.2", "the message", "record at 1234", or ""
	Err    error
	Detail string // what was found, e.g. the boundary sought
}

func (e *Error) Error() string { return "archive: " + e.text(e.Err.Error()) }

// Text is the error without the package's name, as a command shows it.
func (e *Error) Text() string { return e.text(errtext.Of(e.Err)) }

// text is the error after the package's name, the wrapped error's text
// being cause.
func (e *Error) text(cause string) string {
	s := e.Op
	if e.Where != "" {
		s += " " + e.Where
	}
	s += ": " + cause
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

// Unwrap returns the cause, for errors.Is with the sentinels above.
func (e *Error) Unwrap() error { return e.Err }

// partName names a part by its path for messages.
func partName(path string) string {
	if path == "" {
		return "the message"
	}
	return "part " + path
}

func recordAt(off int64) string { return "record at " + strconv.FormatInt(off, 10) }
