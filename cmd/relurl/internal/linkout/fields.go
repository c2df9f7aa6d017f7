package linkout

import (
	"bytes"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// A recordField is one field of a link record: its JSON name, whether it
// is left out when empty, and how its value is read and written.
type recordField struct {
	name      string
	key       string // name as a JSON string and ':', written once here, not per record
	omitEmpty bool
	codec     fieldCodec
}

// A fieldCodec reads one field of a linkRecord without reflection: the
// records of relurl links are written once per link, and encoding/json's
// reflective walk was a quarter of `relurl links` (CPU profile on corpus
// A). zero reports the field empty as encoding/json's omitempty sees it;
// json appends its value as encoding/json (SetEscapeHTML(false)) would;
// tsv appends it as a TSV column.
type fieldCodec struct {
	zero func(r *linkRecord) bool
	json func(b []byte, r *linkRecord) []byte
	tsv  func(b []byte, r *linkRecord) []byte
}

func stringCodec(get func(r *linkRecord) string) fieldCodec {
	return fieldCodec{
		zero: func(r *linkRecord) bool { return get(r) == "" },
		json: func(b []byte, r *linkRecord) []byte { return appendJSONString(b, get(r)) },
		tsv:  func(b []byte, r *linkRecord) []byte { return appendTSV(b, get(r)) },
	}
}

// cachedCodec is stringCodec for a field that stays the same across a
// document's records (its file, its base): written through the record's
// cache, it is escaped once per document, or once per base change, not
// once per link (that escaping was 18 % of relurl links' instructions on
// corpus A).
func cachedCodec(get func(r *linkRecord) string, slot func(c *recordCache) *escaped) fieldCodec {
	return fieldCodec{
		zero: func(r *linkRecord) bool { return get(r) == "" },
		json: func(b []byte, r *linkRecord) []byte {
			if r.cache == nil {
				return appendJSONString(b, get(r))
			}
			return slot(r.cache).json(b, get(r))
		},
		tsv: func(b []byte, r *linkRecord) []byte {
			if r.cache == nil {
				return appendTSV(b, get(r))
			}
			return slot(r.cache).tsv(b, get(r))
		},
	}
}

func stringPtrCodec(get func(r *linkRecord) *string) fieldCodec {
	return fieldCodec{
		zero: func(r *linkRecord) bool { return get(r) == nil },
		json: func(b []byte, r *linkRecord) []byte {
			if p := get(r); p != nil {
				return appendJSONString(b, *p)
			}
			return append(b, "null"...)
		},
		tsv: func(b []byte, r *linkRecord) []byte {
			if p := get(r); p != nil {
				return appendTSV(b, *p)
			}
			return b
		},
	}
}

func intCodec(get func(r *linkRecord) int64) fieldCodec {
	return fieldCodec{
		zero: func(r *linkRecord) bool { return get(r) == 0 },
		json: func(b []byte, r *linkRecord) []byte { return strconv.AppendInt(b, get(r), 10) },
		tsv:  func(b []byte, r *linkRecord) []byte { return strconv.AppendInt(b, get(r), 10) },
	}
}

func intPtrCodec(get func(r *linkRecord) *int64) fieldCodec {
	return fieldCodec{
		zero: func(r *linkRecord) bool { return get(r) == nil },
		json: func(b []byte, r *linkRecord) []byte {
			if p := get(r); p != nil {
				return strconv.AppendInt(b, *p, 10)
			}
			return append(b, "null"...)
		},
		tsv: func(b []byte, r *linkRecord) []byte {
			if p := get(r); p != nil {
				return strconv.AppendInt(b, *p, 10)
			}
			return b
		},
	}
}

func boolCodec(get func(r *linkRecord) bool) fieldCodec {
	return fieldCodec{
		zero: func(r *linkRecord) bool { return !get(r) },
		json: func(b []byte, r *linkRecord) []byte { return strconv.AppendBool(b, get(r)) },
		tsv:  func(b []byte, r *linkRecord) []byte { return strconv.AppendBool(b, get(r)) },
	}
}

// stringsCodec is for a list: a JSON array (null when nil, as
// encoding/json writes it), a TSV column of the items joined with spaces.
func stringsCodec(get func(r *linkRecord) []string) fieldCodec {
	return fieldCodec{
		zero: func(r *linkRecord) bool { return len(get(r)) == 0 },
		json: func(b []byte, r *linkRecord) []byte {
			l := get(r)
			if l == nil {
				return append(b, "null"...)
			}
			b = append(b, '[')
			for i, s := range l {
				if i > 0 {
					b = append(b, ',')
				}
				b = appendJSONString(b, s)
			}
			return append(b, ']')
		},
		tsv: func(b []byte, r *linkRecord) []byte {
			for i, s := range get(r) {
				if i > 0 {
					b = append(b, ' ')
				}
				b = appendTSV(b, s)
			}
			return b
		},
	}
}

// linkCodecs reads each field of linkRecord, by its Go name. The JSON
// names, the order and omitempty are linkRecord's tags (linkFields), so
// they stay in one place; a field added to linkRecord needs its line
// here (linkFields panics without one, and TestLinkRecordJSON fails).
var linkCodecs = map[string]fieldCodec{
	"Raw":          stringCodec(func(r *linkRecord) string { return r.Raw }),
	"URL":          stringCodec(func(r *linkRecord) string { return r.URL }),
	"Error":        stringCodec(func(r *linkRecord) string { return r.Error }),
	"Tag":          stringCodec(func(r *linkRecord) string { return r.Tag }),
	"Attr":         stringCodec(func(r *linkRecord) string { return r.Attr }),
	"Kind":         stringCodec(func(r *linkRecord) string { return r.Kind }),
	"Rel":          stringsCodec(func(r *linkRecord) []string { return r.Rel }),
	"Line":         intCodec(func(r *linkRecord) int64 { return int64(r.Line) }),
	"Column":       intCodec(func(r *linkRecord) int64 { return int64(r.Column) }),
	"Offset":       intCodec(func(r *linkRecord) int64 { return r.Offset }),
	"File":         cachedCodec(func(r *linkRecord) string { return r.File }, func(c *recordCache) *escaped { return &c.file }),
	"FileEncoding": stringCodec(func(r *linkRecord) string { return r.FileEncoding }),
	"Part":         stringPtrCodec(func(r *linkRecord) *string { return r.Part }),
	"TargetPart":   stringCodec(func(r *linkRecord) string { return r.TargetPart }),
	"Record":       intPtrCodec(func(r *linkRecord) *int64 { return r.Record }),
	"Target":       stringCodec(func(r *linkRecord) string { return r.Target }),
	"Base":         cachedCodec(func(r *linkRecord) string { return r.Base }, func(c *recordCache) *escaped { return &c.base }),
	"BaseSource":   cachedCodec(func(r *linkRecord) string { return r.BaseSource }, func(c *recordCache) *escaped { return &c.baseSource }),
	"Inert":        boolCodec(func(r *linkRecord) bool { return r.Inert }),
}

// linkFields are the fields of linkRecord in the order of the JSON output,
// read from its json tags so that a field added there is selectable here.
// Made when first asked for (only --fields and tsv/text need them): read
// by reflection, they were most of the package's start-up.
var linkFields = sync.OnceValue(func() []recordField {
	var fields []recordField
	t := reflect.TypeFor[linkRecord]()
	for i := range t.NumField() {
		tag := t.Field(i).Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" || name == "-" {
			continue
		}
		c, ok := linkCodecs[t.Field(i).Name]
		if !ok {
			panic("linkout: linkRecord." + t.Field(i).Name + " has no entry in linkCodecs")
		}
		key := string(appendJSONString(nil, name)) + ":"
		fields = append(fields, recordField{name: name, key: key, omitEmpty: strings.Contains(opts, "omitempty"), codec: c})
	}
	return fields
})

func linkFieldNames() []string {
	names := make([]string, len(linkFields()))
	for i, f := range linkFields() {
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
		for j, f := range linkFields() {
			if f.name == name {
				i = j
			}
		}
		if i < 0 {
			return nil, fmt.Errorf("unknown field %q in --fields (fields: %s)", name, strings.Join(linkFieldNames(), ", "))
		}
		out = append(out, linkFields()[i])
	}
	return out, nil
}

// recordFormat writes link records as --format and --fields say: JSON
// Lines with every field (byte for byte what encoding/json writes), JSON
// Lines with the chosen fields in the chosen order, or tab-separated
// values.
type recordFormat struct {
	tsv    bool
	fields []recordField // nil: every field
}

// append appends r's line to b.
func (f recordFormat) append(b []byte, r *linkRecord) []byte {
	fields := f.fields
	if fields == nil {
		if !f.tsv {
			return appendRecordJSON(b, r)
		}
		fields = linkFields()
	}
	if f.tsv {
		for i, fl := range fields {
			if i > 0 {
				b = append(b, '\t')
			}
			if !fl.omitEmpty || !fl.codec.zero(r) {
				b = fl.codec.tsv(b, r) // a field JSON leaves out is an empty column
			}
		}
		return append(b, '\n')
	}
	b = append(b, '{')
	n := 0
	for _, fl := range fields {
		if fl.omitEmpty && fl.codec.zero(r) {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		b = append(b, fl.key...)
		b = fl.codec.json(b, r)
	}
	return append(b, "}\n"...)
}

// appendRecordJSON appends r's line with every field: what the field
// codecs write (TestLinkRecordJSON, FuzzLinkRecordJSON), written out
// field by field, the way almost every record is written. Through the
// codecs, each field cost two indirect calls, each calling its getter.
func appendRecordJSON(b []byte, r *linkRecord) []byte {
	b = append(b, `{"raw":`...)
	b = appendJSONString(b, r.Raw)
	if r.URL != "" {
		b = append(b, `,"url":`...)
		b = appendJSONString(b, r.URL)
	}
	if r.Error != "" {
		b = append(b, `,"error":`...)
		b = appendJSONString(b, r.Error)
	}
	b = append(b, `,"tag":`...)
	b = appendJSONString(b, r.Tag)
	b = append(b, `,"attr":`...)
	b = appendJSONString(b, r.Attr)
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, r.Kind)
	b = append(b, `,"rel":`...)
	if r.Rel == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range r.Rel {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, s)
		}
		b = append(b, ']')
	}
	b = append(b, `,"line":`...)
	b = appendInt(b, int64(r.Line))
	b = append(b, `,"column":`...)
	b = appendInt(b, int64(r.Column))
	b = append(b, `,"offset":`...)
	b = appendInt(b, r.Offset)
	var file, base, source *escaped // nil: no cache (a record alone)
	if c := r.cache; c != nil {
		file, base, source = &c.file, &c.base, &c.baseSource
	}
	b = append(b, `,"file":`...)
	b = file.json(b, r.File)
	if r.FileEncoding != "" {
		b = append(b, `,"file_encoding":`...)
		b = appendJSONString(b, r.FileEncoding)
	}
	if r.Part != nil {
		b = append(b, `,"part":`...)
		b = appendJSONString(b, *r.Part)
	}
	if r.TargetPart != "" {
		b = append(b, `,"target_part":`...)
		b = appendJSONString(b, r.TargetPart)
	}
	if r.Record != nil {
		b = append(b, `,"record":`...)
		b = strconv.AppendInt(b, *r.Record, 10)
	}
	if r.Target != "" {
		b = append(b, `,"target":`...)
		b = appendJSONString(b, r.Target)
	}
	b = append(b, `,"base":`...)
	b = base.json(b, r.Base)
	b = append(b, `,"base_source":`...)
	b = source.json(b, r.BaseSource)
	if r.Inert {
		b = append(b, `,"inert":true`...)
	}
	return append(b, "}\n"...)
}

// A recordCache holds the encodings of the fields that stay the same
// across the records of a document: its file name, and its base and the
// base's source, which change only where a document's base does (an
// archive's parts and records).
type recordCache struct {
	file, base, baseSource escaped
}

// escaped is a string and its JSON and TSV encodings, each made when
// first asked for.
type escaped struct {
	s         string
	enc, tsvs []byte
	jsonOK    bool
	tsvOK     bool
	misses    int // encodings made (TestRecordEscapesOncePerDocument)
}

func (e *escaped) set(s string) {
	if s != e.s {
		e.s, e.jsonOK, e.tsvOK = s, false, false
	}
}

// json appends s as appendJSONString does (through no cache when e is
// nil).
func (e *escaped) json(b []byte, s string) []byte {
	if e == nil {
		return appendJSONString(b, s)
	}
	e.set(s)
	if !e.jsonOK {
		e.enc, e.jsonOK = appendJSONString(e.enc[:0], s), true
		e.misses++
	}
	return append(b, e.enc...)
}

// tsv appends s as appendTSV does.
func (e *escaped) tsv(b []byte, s string) []byte {
	e.set(s)
	if !e.tsvOK {
		e.tsvs, e.tsvOK = appendTSV(e.tsvs[:0], s), true
		e.misses++
	}
	return append(b, e.tsvs...)
}

// appendTSV appends s as a TSV column: backslash, tab, newline and
// carriage return escaped as \\, \t, \n and \r (so that every line has all
// its columns and unescaping gives the value back).
func appendTSV(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			b = append(b, `\\`...)
		case '\t':
			b = append(b, `\t`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// UnescapeTSV returns the value of a TSV column, inverting the escapes
// of the tsv output (\\, \t, \n, \r).
func UnescapeTSV(s string) string {
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

// jsonPlain marks the bytes appendJSONString copies as they are: printable
// ASCII other than '"' and '\\'.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendInt appends n in decimal, as strconv.AppendInt(b, n, 10) does;
// for the small non-negative numbers of a record (line, column, offset)
// a digit at a time into a buffer on the stack, where strconv's general
// path cost three times as much (callgrind, corpus A).
func appendInt(b []byte, n int64) []byte {
	if n < 0 || n >= 1e18 {
		return strconv.AppendInt(b, n, 10)
	}
	var d [18]byte
	i := len(d)
	for n >= 10 {
		q := n / 10
		i--
		d[i] = byte('0' + n - q*10)
		n = q
	}
	i--
	d[i] = byte('0' + n)
	return append(b, d[i:]...)
}

// word reads eight bytes of s as a little-endian word.
func word(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// plainWord reports whether the eight bytes of w are all plain (jsonPlain):
// none >= 0x80, < 0x20, '"' or '\\'. For a byte b < 0x80, b - k borrows
// into the high bit only when b < k, and (b ^ q) - 1 only when b == q; a
// borrow from a lower byte comes only from a byte that is not plain
// itself, and a byte >= 0x80 is caught by w's own high bit.
func plainWord(w uint64) bool {
	const (
		lo = 0x0101010101010101
		hi = 0x8080808080808080
	)
	return (w|(w-lo*0x20)|((w^(lo*'"'))-lo)|((w^(lo*'\\'))-lo))&hi == 0
}

// appendJSONString appends s as a JSON string as encoding/json writes it
// with SetEscapeHTML(false): invalid UTF-8 becomes U+FFFD, U+2028 and
// U+2029 are escaped. Runs of plain bytes are found eight at a time (most
// values are printable ASCII throughout).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		// Eight bytes at a time while all are plain (jsonPlain); the
		// last eight of s (overlapping what was checked) at once when
		// fewer are left.
		for ; i+8 <= len(s); i += 8 {
			if !plainWord(word(s[i : i+8])) {
				break
			}
		}
		if i+8 > len(s) && len(s) >= 8 && plainWord(word(s[len(s)-8:])) {
			i = len(s)
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if jsonPlain[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			default:
				b = append(b, `\u00`...)
				b = append(b, hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, `\u202`...)
			b = append(b, hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// writeJSONString writes s to buf as appendJSONString appends it.
func writeJSONString(buf *bytes.Buffer, s string) {
	buf.Write(appendJSONString(buf.AvailableBuffer(), s))
}
