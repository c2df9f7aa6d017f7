package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A recordField is one field of a link record: its JSON name, where it is
// in linkRecord, and whether it is left out when empty.
type recordField struct {
	name      string
	index     int
	omitEmpty bool
}

// linkFields are the fields of linkRecord in the order of the JSON output,
// read from its json tags so that a field added there is selectable here.
var linkFields = func() []recordField {
	var fields []recordField
	t := reflect.TypeFor[linkRecord]()
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" || name == "-" {
			continue
		}
		fields = append(fields, recordField{name: name, index: i, omitEmpty: strings.Contains(opts, "omitempty")})
	}
	return fields
}()

func linkFieldNames() []string {
	names := make([]string, len(linkFields))
	for i, f := range linkFields {
		names[i] = f.name
	}
	return names
}

// parseFields returns the fields a --fields list names, in its order.
func parseFields(list string) ([]recordField, error) {
	var out []recordField
	for name := range strings.SplitSeq(list, ",") {
		name = strings.TrimSpace(name)
		i := -1
		for j, f := range linkFields {
			if f.name == name {
				i = j
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("unknown field %q in --fields (fields: %s)", name, strings.Join(linkFieldNames(), ", "))
		}
		out = append(out, linkFields[i])
	}
	return out, nil
}

// recordFormat writes link records as --format and --fields say: JSON
// Lines with every field (the encoding/json output, as before), JSON
// Lines with the chosen fields in the chosen order, or tab-separated
// values.
type recordFormat struct {
	tsv    bool
	fields []recordField // nil: every field, as encoding/json writes them
}

// custom reports whether the format writes the link records (--fields or
// tsv), not encoding/json.
func (f recordFormat) custom() bool { return f.tsv || f.fields != nil }

// append appends r's line to buf.
func (f recordFormat) append(buf *bytes.Buffer, r *linkRecord) {
	v := reflect.ValueOf(r).Elem()
	fields := f.fields
	if fields == nil {
		fields = linkFields
	}
	if f.tsv {
		for i, fl := range fields {
			if i > 0 {
				buf.WriteByte('\t')
			}
			if fv := v.Field(fl.index); !fl.omitEmpty || !fv.IsZero() {
				appendTSV(buf, fv) // a field JSON leaves out is an empty column
			}
		}
		buf.WriteByte('\n')
		return
	}
	buf.WriteByte('{')
	n := 0
	for _, fl := range fields {
		fv := v.Field(fl.index)
		if fl.omitEmpty && fv.IsZero() {
			continue
		}
		if n > 0 {
			buf.WriteByte(',')
		}
		n++
		appendJSONString(buf, fl.name)
		buf.WriteByte(':')
		appendJSON(buf, fv)
	}
	buf.WriteString("}\n")
}

// appendJSON writes the value of a linkRecord field as JSON.
func appendJSON(buf *bytes.Buffer, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			buf.WriteString("null")
			return
		}
		appendJSON(buf, v.Elem())
	case reflect.String:
		appendJSONString(buf, v.String())
	case reflect.Int, reflect.Int64, reflect.Int32:
		buf.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Slice:
		buf.WriteByte('[')
		for i := range v.Len() {
			if i > 0 {
				buf.WriteByte(',')
			}
			appendJSON(buf, v.Index(i))
		}
		buf.WriteByte(']')
	default:
		b, _ := json.Marshal(v.Interface())
		buf.Write(b)
	}
}

// appendTSV writes the value of a linkRecord field as a TSV column:
// strings with backslash, tab, newline and carriage return escaped as
// \\, \t, \n and \r (so that every line has all its columns and
// unescaping gives the value back); lists joined with spaces; a field that
// is not there empty.
func appendTSV(buf *bytes.Buffer, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			appendTSV(buf, v.Elem())
		}
	case reflect.String:
		escapeTSV(buf, v.String())
	case reflect.Int, reflect.Int64, reflect.Int32:
		buf.WriteString(strconv.FormatInt(v.Int(), 10))
	case reflect.Slice:
		for i := range v.Len() {
			if i > 0 {
				buf.WriteByte(' ')
			}
			appendTSV(buf, v.Index(i))
		}
	default:
		escapeTSV(buf, fmt.Sprint(v.Interface()))
	}
}

func escapeTSV(buf *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			buf.WriteString(`\\`)
		case '\t':
			buf.WriteString(`\t`)
		case '\n':
			buf.WriteString(`\n`)
		case '\r':
			buf.WriteString(`\r`)
		default:
			buf.WriteByte(c)
		}
	}
}

// unescapeTSV inverts escapeTSV.
func unescapeTSV(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 == len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// appendJSONString writes s as a JSON string as encoding/json does with
// SetEscapeHTML(false): invalid UTF-8 becomes U+FFFD, U+2028 and U+2029
// are escaped.
func appendJSONString(buf *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	buf.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			buf.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				buf.WriteByte('\\')
				buf.WriteByte(c)
			case '\n':
				buf.WriteString(`\n`)
			case '\r':
				buf.WriteString(`\r`)
			case '\t':
				buf.WriteString(`\t`)
			case '\b':
				buf.WriteString(`\b`)
			case '\f':
				buf.WriteString(`\f`)
			default:
				buf.WriteString(`\u00`)
				buf.WriteByte(hex[c>>4])
				buf.WriteByte(hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf.WriteString(s[start:i])
			buf.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			buf.WriteString(s[start:i])
			buf.WriteString(`\u202`)
			buf.WriteByte(hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	buf.WriteString(s[start:])
	buf.WriteByte('"')
}
