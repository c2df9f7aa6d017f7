package links

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A Link is one link of a document, as a line of `relurl links` JSON
// says it: the same fields with the same meaning (docs/cli/links.md).
// Its JSON form (AppendJSON) is that line's; the Has fields only say which
// of the optional fields are present, because a Beam row carries no nil
// pointers.
type Link struct {
	Raw    string   // the value as written
	URL    string   // the absolute URL; "" when Error is set
	Error  string   // why the value did not resolve
	Tag    string   // lower-case element name
	Attr   string   // lower-case attribute name
	Kind   string   // navigation, resource, form, citation, refresh, css, redirect
	Rel    []string // the element's rel tokens
	Line   int      // 1-based, in the document
	Column int      // 1-based, in bytes
	Offset int64    // byte offset of the value in the document
	File   string   // the input file, as matched (tree.JSONName)
	// FileEncoding is "percent" when the file's name is not UTF-8 and
	// File holds it percent-encoded (tree.JSONName); "" otherwise.
	FileEncoding string
	Part         string // MHTML: the part the link is in (HasPart)
	HasPart      bool
	TargetPart   string // MHTML: the part of the archive URL names
	Record       int64  // WARC: the record's offset in the file (HasRecord)
	HasRecord    bool
	Target       string // WARC: the record's WARC-Target-URI
	Base         string // the document's base URL
	BaseSource   string // the layer that decided it
	// Page is the URL of the page the link is on: a WARC record's target
	// URI, else the base of the document or part. It is not one of `relurl
	// links`' fields; the graphs use it as the source, and --fields page
	// prints it.
	Page string
}

// Fields are the names of Link's JSON fields in the order `relurl links`
// writes them; "page" is written only when asked for.
var Fields = []string{"raw", "url", "error", "tag", "attr", "kind", "rel", "line", "column", "offset", "file", "file_encoding", "part", "target_part", "record", "target", "base", "base_source"}

// fieldNames is every name a field list may hold.
var fieldNames = append(slices.Clone(Fields), "page")

// ParseFields checks a comma-separated field list ("" is every field of
// `relurl links`) and returns it as a slice.
func ParseFields(list string) ([]string, error) {
	if list == "" {
		return Fields, nil
	}
	var fields []string
	for f := range strings.SplitSeq(list, ",") {
		f = strings.TrimSpace(f)
		if !slices.Contains(fieldNames, f) {
			return nil, fmt.Errorf("unknown field %q (want %s)", f, strings.Join(fieldNames, ", "))
		}
		if slices.Contains(fields, f) {
			return nil, fmt.Errorf("field %q named twice", f)
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// value returns the JSON value of the field name, and false when the
// field is absent, as `relurl links` leaves it out.
func (l *Link) value(name string) (any, bool) {
	switch name {
	case "raw":
		return l.Raw, true
	case "url":
		return l.URL, l.URL != ""
	case "error":
		return l.Error, l.Error != ""
	case "tag":
		return l.Tag, true
	case "attr":
		return l.Attr, true
	case "kind":
		return l.Kind, true
	case "rel":
		if l.Rel == nil {
			return []string{}, true
		}
		return l.Rel, true
	case "line":
		return l.Line, true
	case "column":
		return l.Column, true
	case "offset":
		return l.Offset, true
	case "file":
		return l.File, true
	case "file_encoding":
		return l.FileEncoding, l.FileEncoding != ""
	case "part":
		return l.Part, l.HasPart
	case "target_part":
		return l.TargetPart, l.TargetPart != ""
	case "record":
		return l.Record, l.HasRecord
	case "target":
		return l.Target, l.Target != ""
	case "base":
		return l.Base, true
	case "base_source":
		return l.BaseSource, true
	case "page":
		return l.Page, true
	}
	return nil, false
}

// AppendJSON appends l as one JSON object with the named fields, in that
// order (nil: Fields), and a newline: a line of `relurl links` output,
// byte for byte as encoding/json writes it without HTML escaping. It is
// written by hand because it runs once per link: through encoding/json it
// was most of the pipeline's CPU time.
func (l *Link) AppendJSON(buf []byte, fields []string) []byte {
	if fields == nil {
		fields = Fields
	}
	buf = append(buf, '{')
	first := true
	for _, f := range fields {
		n := len(buf)
		if !first {
			buf = append(buf, ',')
		}
		buf = appendString(buf, f)
		buf = append(buf, ':')
		var ok bool
		if buf, ok = l.appendValue(buf, f); !ok {
			buf = buf[:n] // absent: the field is left out
			continue
		}
		first = false
	}
	return append(buf, '}', '\n')
}

// appendValue appends the JSON value of the field name, and reports
// false when the field is absent, as `relurl links` leaves it out (value
// says which are).
func (l *Link) appendValue(buf []byte, name string) ([]byte, bool) {
	switch name {
	case "rel":
		buf = append(buf, '[')
		for i, r := range l.Rel {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendString(buf, r)
		}
		return append(buf, ']'), true
	case "line":
		return strconv.AppendInt(buf, int64(l.Line), 10), true
	case "column":
		return strconv.AppendInt(buf, int64(l.Column), 10), true
	case "offset":
		return strconv.AppendInt(buf, l.Offset, 10), true
	case "record":
		return strconv.AppendInt(buf, l.Record, 10), l.HasRecord
	}
	v, ok := l.value(name)
	if !ok {
		return buf, false
	}
	return appendString(buf, v.(string)), true
}

// appendString appends s as a JSON string as encoding/json writes it with
// SetEscapeHTML(false): invalid UTF-8 becomes U+FFFD, and U+2028 and
// U+2029 are escaped (as `relurl links` writes them).
func appendString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			buf = append(buf, s[start:i]...)
			switch c {
			case '"', '\\':
				buf = append(buf, '\\', c)
			case '\n':
				buf = append(buf, '\\', 'n')
			case '\r':
				buf = append(buf, '\\', 'r')
			case '\t':
				buf = append(buf, '\\', 't')
			case '\b':
				buf = append(buf, '\\', 'b')
			case '\f':
				buf = append(buf, '\\', 'f')
			default:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			buf = append(buf, s[start:i]...)
			buf = append(buf, '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// A Failure is a dead letter: a record or a file that could not be read
// in full. The links read before the failure are kept.
type Failure struct {
	File         string // the input file, as matched (tree.JSONName)
	FileEncoding string // "percent" when File is percent-encoded
	// Offset is the failed record's offset in the file (HasOffset); a
	// failure of the file as a whole (cannot be opened, not a document
	// relurl reads, ends in the middle of a record) has none.
	Offset    int64
	HasOffset bool
	Target    string // the record's WARC-Target-URI, when known
	Error     string // what went wrong
}

// failureJSON is the JSON form of a Failure.
type failureJSON struct {
	File         string `json:"file"`
	FileEncoding string `json:"file_encoding,omitempty"`
	Offset       *int64 `json:"offset,omitempty"`
	Target       string `json:"target,omitempty"`
	Error        string `json:"error"`
}

// AppendJSON appends f as one JSON object and a newline: {"file",
// "file_encoding" (when the name is percent-encoded), "offset" (when
// known), "target" (when known), "error"}: relurl links' record-error
// status line without its "status" key.
func (f *Failure) AppendJSON(buf []byte) []byte {
	j := failureJSON{File: f.File, FileEncoding: f.FileEncoding, Target: f.Target, Error: f.Error}
	if f.HasOffset {
		j.Offset = &f.Offset
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(j)
	return append(buf, b.Bytes()...)
}
