package links

import (
	"bytes"
	"encoding/json"
	"testing"
)

// appendJSONReference is AppendJSON through encoding/json, as it was
// written before: the bytes the hand-written encoder must give.
func appendJSONReference(l *Link, fields []string) []byte {
	if fields == nil {
		fields = Fields
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	buf := []byte{'{'}
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

// TestAppendJSON: the hand-written encoder gives encoding/json's bytes
// (without HTML escaping) for every field, present or absent, and for
// strings that need escaping: quotes, backslashes, control characters,
// invalid UTF-8, U+2028/U+2029, HTML's <>&.
func TestAppendJSON(t *testing.T) {
	links := []Link{
		{},
		{Raw: "a\"b\\c\n\r\t\b\f\x00\x1f\x7f", URL: "https://x.test/<a>&b", Tag: "a", Attr: "href", Kind: "navigation",
			Rel: []string{"next", "x\u2028y"}, Line: 3, Column: 17, Offset: 1 << 40, File: "f\xff\xfe.warc.gz", FileEncoding: "percent",
			Part: "cid:1", HasPart: true, TargetPart: "t", Record: 0, HasRecord: true, Target: "https://t.test/\u2029", Base: "b", BaseSource: "target", Page: "p\u00e9\U0001F600"},
		{Raw: "bad", Error: "invalid \"URL\"", Record: 12345, HasRecord: true, Rel: []string{}},
	}
	for i := range links {
		for _, fields := range [][]string{nil, fieldNames, {"page", "raw"}, {"rel"}, {"error", "url"}} {
			got := links[i].AppendJSON([]byte("prefix"), fields)
			want := append([]byte("prefix"), appendJSONReference(&links[i], fields)...)
			if !bytes.Equal(got, want) {
				t.Errorf("link %d fields %v:\n got %s\nwant %s", i, fields, got, want)
			}
		}
	}
}

// FuzzAppendString: appendString writes a string as encoding/json does
// with SetEscapeHTML(false).
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\\n\x00\x7f", "\xff\xc3", "\u2028\u2029<>&", "é😀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		want := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
		if got := appendString(nil, s); !bytes.Equal(got, want) {
			t.Errorf("appendString(%q) = %s, want %s", s, got, want)
		}
	})
}
