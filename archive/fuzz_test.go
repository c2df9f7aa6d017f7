package archive

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"testing"

	"github.com/relurl/relurl/resolve"
)

func addFixtures(f *testing.F, patterns ...string) {
	for _, p := range patterns {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", p))
		for _, file := range files {
			f.Add(readFixture(f, file[len("../testdata/"):]))
		}
	}
}

// FuzzParse: the MIME reader never panics or hangs, every part's span
// lies inside the input, and a rewrite (pointing links at parts) that
// changes nothing gives the input back byte for byte.
func FuzzParse(f *testing.F) {
	addFixtures(f, "mhtml/*/*.mht", "mhtml/*/*.mhtml", "mime/*.mht", "mime/*.eml")
	f.Fuzz(func(t *testing.T, data []byte) {
		opts := Options{Spec: resolve.RFC3986, Local: LocalCID, Limits: Limits{Depth: 8, Parts: 200, HeaderBytes: 4 << 10, DecodedBytes: 1 << 20}}
		m, err := Parse(data, opts)
		if err != nil {
			return
		}
		for _, p := range m.Parts() {
			if p.start > p.body || p.body > p.end || p.end > len(data) {
				t.Fatalf("part %s: bad span %d %d %d of %d", p.Path, p.start, p.body, p.end, len(data))
			}
			m.Decode(p)
		}
		m.Links(func(Link) error { return nil })
		var out bytes.Buffer
		st, err := m.Rewrite(&out)
		if err == nil && st.Changed == 0 && !bytes.Equal(out.Bytes(), data) {
			t.Fatalf("unchanged rewrite differs from input")
		}
	})
}

// FuzzWARCReader: the WARC reader never panics or hangs on any input,
// plain, gzip or zstd, recovering past record errors (each Next makes
// progress: no more results than input bytes), and link extraction on it
// neither.
func FuzzWARCReader(f *testing.F) {
	addFixtures(f, "warc/*.warc", "warc/*.gz", "warc/*.bad", "warc/*.arc", "mime/*.warc", "mime/*.warc.gz")
	file, _ := gzipMembers(htmlRecord("r1", -1), htmlRecord("r2", 5000), htmlRecord("r3", -1))
	f.Add(file)
	f.Add([]byte(htmlRecord("r1", 500) + htmlRecord("r2", -1)))
	zf, _ := zstdFrames(&testing.T{}, nil, htmlRecord("r1", -1), htmlRecord("r2", -1))
	f.Add(zf)
	f.Fuzz(func(t *testing.T, data []byte) {
		lim := Limits{HeaderBytes: 4 << 10, DecodedBytes: 1 << 20}
		w := NewWARCReader(bytes.NewReader(data))
		w.Limits = lim
		for i := 0; ; i++ {
			if i > len(data)+2 {
				t.Fatal("no progress")
			}
			rec, err := w.Next()
			var re *RecordError
			if errors.As(err, &re) {
				continue
			}
			if err != nil {
				break
			}
			if rec.ContentLength < 0 {
				t.Fatal("negative Content-Length")
			}
			io.Copy(io.Discard, rec.Block)
		}
		ScanWARCLinks(bytes.NewReader(data), Options{Spec: resolve.RFC3986, Limits: lim}, func(WARCLink) error { return nil },
			func(*RecordError) error { return nil })
	})
}

// FuzzQP: quoted-printable decoding inverts encoding for any bytes, in
// both line-end styles, final line end included.
func FuzzQP(f *testing.F) {
	f.Add([]byte("a=b \r\nc\td\n\xff"))
	f.Add(bytes.Repeat([]byte("x"), 80))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, eol := range []string{"\r\n", "\n"} {
			// The body as encodeBody writes it for an original with a
			// final line end: a soft one when data has none.
			enc := encodeBody(QuotedPrintable, data, []byte("x"+eol))
			if got := decodeQP(enc); !bytes.Equal(got, data) {
				t.Fatalf("round trip: %q -> %q -> %q", data, enc, got)
			}
			for _, line := range bytes.Split(enc, []byte("\n")) {
				if n := len(bytes.TrimSuffix(line, []byte("\r"))); n > maxLine {
					t.Fatalf("line of %d: %q", n, line)
				}
			}
		}
		decodeQP(data)
		decodeBase64(data)
	})
}

// FuzzMediaType: the lenient Content-Type parser never panics.
func FuzzMediaType(f *testing.F) {
	f.Add(`multipart/related; start=<a@b:c>; boundary=----=_X; type=text/html`)
	f.Add(`text/html; charset="a\"b`)
	f.Fuzz(func(t *testing.T, v string) {
		ParseMediaType(v)
		contentID(v)
	})
}
