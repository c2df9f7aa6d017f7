package linkout

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/tree"
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
		if got := UnescapeTSV(string(tsv)); got != s {
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
	if len(linkFields()) != len(linkCodecs) {
		t.Fatalf("%d JSON fields in linkRecord, %d codecs", len(linkFields()), len(linkCodecs))
	}
	all := recordFormat{fields: linkFields()}
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
		// Through a document's cache, with the base changed and back.
		r.cache = new(recordCache)
		for _, b := range []string{file, raw, raw, file} {
			r.Base = b
			if got, want := string(recordFormat{}.append(nil, r)), linkRecordJSON(r); got != want {
				t.Fatalf("append (cached):\n got %s\nwant %s", got, want)
			}
			tsv := recordFormat{tsv: true}
			cached := string(tsv.append(nil, r))
			r.cache = nil
			if plain := string(tsv.append(nil, r)); cached != plain {
				t.Fatalf("tsv (cached):\n got %s\nwant %s", cached, plain)
			}
			r.cache = new(recordCache)
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
	b.Run("append-cached", func(b *testing.B) {
		// As a Writer writes the records of one document: its file and
		// base escaped once.
		var line []byte
		c := *r
		c.cache = new(recordCache)
		b.ReportAllocs()
		for b.Loop() {
			line = recordFormat{}.append(line[:0], &c)
		}
	})
}

// TestRecordEscapesOncePerDocument: a document's file name is escaped for
// its records once, its base and base source once per change of base
// (escaping them again for every link was 18 % of relurl links'
// instructions on corpus A), and the records are what they were without
// the cache, in every format.
func TestRecordEscapesOncePerDocument(t *testing.T) {
	some, err := parseFields("base_source,file,raw,base,file_encoding")
	if err != nil {
		t.Fatal(err)
	}
	bases := []base.Result{
		{URL: "https://example.org/a\"b\tc/", Source: base.Embedded},
		{Source: base.Default},
		{URL: "https://example.org/a\"b\tc/", Source: base.Embedded},
	}
	for _, tc := range []struct {
		name   string
		format recordFormat
	}{
		{"jsonl", recordFormat{}},
		{"tsv", recordFormat{tsv: true}},
		{"fields", recordFormat{fields: some}},
		{"fields tsv", recordFormat{fields: some, tsv: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got, want bytes.Buffer
			sink := ordered.Direct(func(_ string, rec []byte) error {
				got.Write(rec)
				return nil
			})
			lw := NewWriter(sink, "dir/caf\xe9 \"x\"\t.html", Mode{format: tc.format})
			for _, b := range bases {
				for i := range 50 {
					l := link.Link{Raw: fmt.Sprintf("p%d.html", i), URL: fmt.Sprintf("%sp%d.html", b.URL, i),
						Tag: "a", Attr: "href", Line: i + 1, Column: 3, Offset: int64(10 * i), Base: b}
					if err := lw.Link(base.HTML, l); err != nil {
						t.Fatal(err)
					}
					var r linkRecord // as written without the cache
					name, _ := tree.JSONName(lw.file)
					record(&r, &l, name, tree.PercentEncoded, &lw.mode)
					r.Rel = []string{}
					want.Write(tc.format.append(nil, &r))
				}
			}
			if got.String() != want.String() {
				t.Errorf("records:\n got %s\nwant %s", got.String(), want.String())
			}
			c := &lw.cache
			if c.file.misses != 1 || c.base.misses != len(bases) || c.baseSource.misses != len(bases) {
				t.Errorf("escaped file %d times, base %d, base source %d; want 1, %d, %d",
					c.file.misses, c.base.misses, c.baseSource.misses, len(bases), len(bases))
			}
		})
	}
}

// TestPlainWord: plainWord says whether all eight bytes are plain
// (jsonPlain), for every byte value at every position, beside plain
// bytes and beside every other byte value below it (the borrows of
// the word arithmetic run upwards).
func TestPlainWord(t *testing.T) {
	for p := range 8 {
		for v := range 256 {
			for _, other := range []byte{'a', ' ', '~', 0x1f, '"', '\\', 0x80, 0xff, 0x21, 0x5b, 0x5d} {
				var w [8]byte
				for i := range w {
					w[i] = other
				}
				w[p] = byte(v)
				want := true
				for _, c := range w {
					want = want && jsonPlain[c]
				}
				if got := plainWord(word(string(w[:]))); got != want {
					t.Fatalf("plainWord(%q) = %v, want %v", w, got, want)
				}
			}
		}
	}
	for a := range 256 {
		for b := range 256 {
			w := []byte("abcdefgh")
			w[3], w[4] = byte(a), byte(b)
			want := jsonPlain[a] && jsonPlain[b]
			if got := plainWord(word(string(w))); got != want {
				t.Fatalf("plainWord(%q) = %v, want %v", w, got, want)
			}
		}
	}
}

// TestAppendInt: appendInt writes what strconv.AppendInt writes.
func TestAppendInt(t *testing.T) {
	for _, n := range []int64{0, 1, 9, 10, 99, 100, 12345, 1e17 - 1, 1e17, 1e18 - 1, 1e18, 1<<63 - 1, -1, -10, -1 << 63} {
		if got, want := string(appendInt([]byte("x"), n)), "x"+strconv.FormatInt(n, 10); got != want {
			t.Errorf("appendInt(%d) = %s, want %s", n, got, want)
		}
	}
	for i := range 100000 {
		n := int64(i) * 7919
		if got, want := string(appendInt(nil, n)), strconv.FormatInt(n, 10); got != want {
			t.Fatalf("appendInt(%d) = %s, want %s", n, got, want)
		}
	}
}
