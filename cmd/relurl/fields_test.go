package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzFieldEncoding: a TSV value unescapes to what was escaped, has no
// tab or line end left, and appendJSONString writes what encoding/json
// writes with SetEscapeHTML(false), for any string.
func FuzzFieldEncoding(f *testing.F) {
	for _, s := range []string{"", "a\tb", "c\\d\ne", "\r\n\\t", "\xff\xfe", "\u2028<>&\"", "\x00\x1f\x7f", "ü€𝄞"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tsv := appendTSV(nil, s)
		if bytes.ContainsAny(tsv, "\t\n\r") {
			t.Fatalf("escaped %q has a tab or line end: %q", s, tsv)
		}
		if got := unescapeTSV(string(tsv)); got != s {
			t.Fatalf("unescape(escape(%q)) = %q", s, got)
		}
		var want bytes.Buffer
		js := appendJSONString(nil, s)
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		if string(js)+"\n" != want.String() {
			t.Fatalf("appendJSONString(%q) = %s, encoding/json: %s", s, js, want.String())
		}
	})
}

// linkRecordJSON is a link record as encoding/json writes it, the
// encoding the records of relurl links had before recordFormat.append and
// must keep byte for byte.
func linkRecordJSON(r *linkRecord) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(r)
	return b.String()
}

// testRecords exercises every field of linkRecord, set and left empty.
func testRecords() []*linkRecord {
	part, empty, rec, zero := "index.html", "", int64(1234), int64(0)
	return []*linkRecord{
		{},
		{Rel: []string{}},
		{Raw: " a.html ", URL: "https://example.com/a.html", Tag: "a", Attr: "href", Kind: "navigation",
			Rel: []string{"nofollow", "noopener"}, Line: 3, Column: 14, Offset: 120, File: "dir/index.html",
			Base: "https://example.com/", BaseSource: "embedded", Inert: true},
		{Raw: "x\"y\\z\n\t\u2028\xff<&>", Error: "parse \"x\": invalid \x01", Tag: "img", Attr: "src", Kind: "resource",
			Rel: []string{}, Line: -1, Column: 1 << 40, Offset: -7, File: "%FF.html", FileEncoding: "percent",
			Part: &part, TargetPart: "img.png", Record: &rec, Target: "https://t.example/ü"},
		{Part: &empty, Record: &zero, Rel: []string{""}},
	}
}

// TestLinkRecordJSON: the records of relurl links are written byte for
// byte as encoding/json wrote them, every field of linkRecord included,
// and --fields in linkRecord's order gives the same line.
func TestLinkRecordJSON(t *testing.T) {
	if len(linkFields) != len(linkCodecs) {
		t.Fatalf("%d JSON fields in linkRecord, %d codecs", len(linkFields), len(linkCodecs))
	}
	all := recordFormat{fields: linkFields}
	for _, r := range testRecords() {
		want := linkRecordJSON(r)
		if got := string(recordFormat{}.append(nil, r)); got != want {
			t.Errorf("append:\n got %s\nwant %s", got, want)
		}
		if got := string(all.append(nil, r)); got != want {
			t.Errorf("--fields (all):\n got %s\nwant %s", got, want)
		}
	}
}

// FuzzLinkRecordJSON: recordFormat.append and encoding/json agree on any
// values.
func FuzzLinkRecordJSON(f *testing.F) {
	f.Add("a.html", "https://example.com/a.html", "x.html", "nofollow", 3, int64(7), true, false)
	f.Add("\xff\u2028\"", "", "\x00", "", -1, int64(-1), false, true)
	f.Fuzz(func(t *testing.T, raw, url, file, rel string, line int, off int64, inert, ptrs bool) {
		r := &linkRecord{Raw: raw, URL: url, Error: rel, Tag: raw, Attr: url, Kind: file, Line: line, Column: -line,
			Offset: off, File: file, FileEncoding: rel, TargetPart: raw, Target: url, Base: file, BaseSource: rel, Inert: inert}
		if rel != "" {
			r.Rel = []string{rel, raw}
		}
		if ptrs {
			r.Part, r.Record = &file, &off
		}
		if got, want := string(recordFormat{}.append(nil, r)), linkRecordJSON(r); got != want {
			t.Fatalf("append:\n got %s\nwant %s", got, want)
		}
	})
}

// BenchmarkLinkRecord writes one link record of corpus-like size with
// encoding/json (the encoding before) and with recordFormat.append.
func BenchmarkLinkRecord(b *testing.B) {
	r := testRecords()[2]
	b.Run("encoding-json", func(b *testing.B) {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		b.ReportAllocs()
		for b.Loop() {
			buf.Reset()
			enc.Encode(r)
		}
	})
	b.Run("append", func(b *testing.B) {
		var line []byte
		b.ReportAllocs()
		for b.Loop() {
			line = recordFormat{}.append(line[:0], r)
		}
	})
}
