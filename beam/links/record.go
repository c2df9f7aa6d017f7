package links

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
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
// order (nil: Fields), and a newline: a line of `relurl links` output.
func (l *Link) AppendJSON(buf []byte, fields []string) []byte {
	if fields == nil {
		fields = Fields
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as relurl links writes them
	buf = append(buf, '{')
	first := true
	for _, f := range fields {
		v, ok := l.value(f)
		if !ok {
			continue
		}
		if !first {
			buf = append(buf, ',')
		}
		first = false
		b.Reset()
		enc.Encode(f)
		buf = append(buf, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
		buf = append(buf, ':')
		b.Reset()
		enc.Encode(v)
		buf = append(buf, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...)
	}
	return append(buf, '}', '\n')
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
