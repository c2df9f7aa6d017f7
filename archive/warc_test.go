package archive

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/resolve"
)

type recordSummary struct {
	Offset int64
	Type   string
	Target string
	Length int64
}

func readRecords(t *testing.T, r io.Reader) ([]recordSummary, []*Record, error) {
	sums, recs, rerrs, err := readRecordsErrors(t, r)
	if err == nil && len(rerrs) > 0 {
		err = rerrs[0]
	}
	return sums, recs, err
}

// readRecordsErrors reads every record, and the record errors between
// them, up to the end or a file error.
func readRecordsErrors(t *testing.T, r io.Reader) ([]recordSummary, []*Record, []*RecordError, error) {
	t.Helper()
	w := NewWARCReader(r)
	var (
		sums  []recordSummary
		recs  []*Record
		rerrs []*RecordError
	)
	for {
		rec, err := w.Next()
		if err == io.EOF {
			return sums, recs, rerrs, nil
		}
		var re *RecordError
		if errors.As(err, &re) {
			rerrs = append(rerrs, re)
			continue
		}
		if err != nil {
			return sums, recs, rerrs, err
		}
		n, err := io.Copy(io.Discard, rec.Block)
		if err == nil {
			require.Equal(t, rec.ContentLength, n)
		}
		sums = append(sums, recordSummary{rec.Offset, rec.Type, rec.TargetURI, rec.ContentLength})
		recs = append(recs, rec)
	}
}

func openFixture(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", name))
	require.NoError(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

// TestWARCFixtures reads every WARC fixture of testdata/warc with the
// record sequence testdata/warc/README.md lists. Offsets of .warc.gz
// records are those of their gzip members (the CDX convention); for the
// two files compressed as one stream, every record is in the member at 0.
func TestWARCFixtures(t *testing.T) {
	const ex = "http://example.com/"
	example := func(offs ...int64) []recordSummary {
		return []recordSummary{
			{offs[0], "warcinfo", "", 249}, {offs[1], "warcinfo", "", 470}, {offs[2], "response", ex, 975},
			{offs[3], "request", ex, 493}, {offs[4], "revisit", ex, 369}, {offs[5], "request", ex, 493},
		}
	}
	tests := []struct {
		file string
		want []recordSummary
	}{
		{"warc/example.warc", example(0, 488, 1197, 2566, 3370, 4316)},
		{"warc/example.warc.gz", example(0, 353, 784, 2012, 2621, 3207)},
		{"warc/example-bad-non-chunked.warc.gz", example(0, 0, 0, 0, 0, 0)},
		{"warc/example-iana.org-chunked.warc", []recordSummary{
			{0, "warcinfo", "", 137}, {405, "response", "http://www.iana.org/", 7566}, {8379, "request", "http://www.iana.org/", 76}}},
		// wget's <...> around the target URI is stripped.
		{"warc/example-wget-bad-target-uri.warc.gz", []recordSummary{
			{0, "warcinfo", "", 232}, {410, "request", ex, 141}, {824, "response", ex, 1598},
			{1978, "metadata", "metadata://gnu.org/software/wget/warc/MANIFEST.txt", 48},
			{2295, "resource", "metadata://gnu.org/software/wget/warc/wget_arguments.txt", 49},
			{2681, "resource", "metadata://gnu.org/software/wget/warc/wget.log", 471}}},
		// Literal spaces become %20, as warcio normalises them.
		{"warc/example-space-in-target-uri.warc.gz", []recordSummary{
			{0, "warcinfo", "", 73}, {241, "resource", "file:///example%20with%20spaces.png", 70}}},
		// One gzip member for the whole file: warcio fails; a stream read
		// gives all six records.
		{"warc/example-bad.warc.gz.bad", []recordSummary{
			{0, "warcinfo", "", 196}, {0, "response", "http://example.com?example=1", 1610},
			{0, "request", "http://example.com?example=1", 323}, {0, "revisit", "http://example.com?example=1", 340},
			{0, "request", "http://example.com?example=1", 323}, {0, "response", "http://www.iana.org/domains/example", 471}}},
		// Member boundaries that do not match record boundaries.
		{"warc/example-wrong-chunks.warc.gz", []recordSummary{{0, "response", ex, 1613}, {1130, "request", ex, 137}}},
		// Content-Length of the response too short: all four records,
		// the fourth with a warning about the skipped bytes.
		{"warc/example-trunc.warc", []recordSummary{
			{0, "warcinfo", "", 249}, {488, "warcinfo", "", 470}, {1197, "response", ex, 973}, {2566, "request", ex, 493}}},
		{"warc/example-digest.warc", []recordSummary{
			{0, "request", ex, 493}, {922, "request", ex, 493}, {1840, "request", ex, 493}, {2758, "request", ex, 493}}},
		{"warc/example-resource.warc.gz", []recordSummary{
			{0, "warcinfo", "", 249}, {361, "warcinfo", "", 399}, {802, "resource", ex, 1303}}},
		{"warc/post-test.warc.gz", []recordSummary{
			{0, "response", "http://httpbin.org/post", 733}, {720, "request", "http://httpbin.org/post", 227},
			{1196, "response", "http://httpbin.org/post", 740}, {1919, "request", "http://httpbin.org/post", 223},
			{2395, "response", "http://httpbin.org/post?foo=bar", 739}, {3118, "request", "http://httpbin.org/post?foo=bar", 224}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, recs, rerrs, err := readRecordsErrors(t, openFixture(t, tt.file))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			if tt.file == "warc/example-trunc.warc" {
				require.Len(t, rerrs, 1)
				assert.EqualError(t, rerrs[0], "archive: record at 1197 (http://example.com/): Content-Length does not match the record: 4 bytes that start no record skipped after the record (its Content-Length too short?)")
			} else {
				assert.Empty(t, rerrs)
			}
			for _, r := range recs {
				assert.Equal(t, "WARC/1.0", r.Version)
			}
		})
	}
}

// TestWARCHandWritten reads testdata/mime/redirects.warc and its
// per-record .gz twin: WARC/1.1, the same records and headers.
func TestWARCHandWritten(t *testing.T) {
	plain, precs, err := readRecords(t, openFixture(t, "mime/redirects.warc"))
	require.NoError(t, err)
	gz, grecs, err := readRecords(t, openFixture(t, "mime/redirects.warc.gz"))
	require.NoError(t, err)
	require.Len(t, plain, 8)
	require.Len(t, gz, 8)
	for i := range plain {
		assert.Equal(t, plain[i].Type, gz[i].Type)
		assert.Equal(t, plain[i].Target, gz[i].Target)
		assert.Equal(t, precs[i].Header, grecs[i].Header)
		assert.Equal(t, "WARC/1.1", precs[i].Version)
	}
}

// TestWARCTruncatedBlock: a file that ends inside a block gives the bytes
// there are and an error wrapping ErrTruncated; the next call ends.
func TestWARCTruncatedBlock(t *testing.T) {
	data := "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 100\r\n\r\nshort"
	w := NewWARCReader(strings.NewReader(data))
	rec, err := w.Next()
	require.NoError(t, err)
	b, err := io.ReadAll(rec.Block)
	assert.Equal(t, "short", string(b))
	assert.ErrorIs(t, err, ErrTruncated)
	assert.EqualError(t, err, "archive: read block of record at 0: truncated (95 bytes missing)")
	_, err = w.Next()
	assert.EqualError(t, err, "archive: record at 0: truncated: the file ends 95 bytes before the end of the block")
	_, err = w.Next()
	assert.Equal(t, io.EOF, err)
}

// TestWARCErrors: input that is not WARC or empty ends the file (the
// error is sticky); a header past the bound, a missing Content-Length, a
// header cut short and gzip garbage are record errors, after which the
// reader goes on (here: to the end).
func TestWARCErrors(t *testing.T) {
	tests := []struct {
		name, data string
		lim        Limits
		want       error
		record     bool
	}{
		{"not WARC", "<html>hello</html>\n", Limits{}, ErrNotWARC, false},
		{"empty", "", Limits{}, ErrEmpty, false},
		{"header too large", "WARC/1.1\r\nX: " + strings.Repeat("a", 300) + "\r\n\r\n", Limits{HeaderBytes: 100}, ErrHeaderTooLarge, true},
		{"no Content-Length", "WARC/1.1\r\nWARC-Type: resource\r\n\r\n", Limits{}, ErrNotWARC, true},
		{"header cut", "WARC/1.1\r\nWARC-Type: resource\r\n", Limits{}, ErrTruncated, true},
		{"gzip garbage", "\x1f\x8b\x00\x00\x01\x02\x03", Limits{}, ErrCorrupt, true},
	}
	for _, tt := range tests {
		w := NewWARCReader(strings.NewReader(tt.data))
		w.Limits = tt.lim
		_, err := w.Next()
		assert.ErrorIs(t, err, tt.want, tt.name)
		var re *RecordError
		assert.Equal(t, tt.record, errors.As(err, &re), tt.name)
		_, err2 := w.Next()
		if tt.record {
			assert.Equal(t, io.EOF, err2, tt.name)
		} else {
			assert.Equal(t, err, err2, "errors are sticky")
		}
	}
}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Write(b)
	z.Close()
	return buf.Bytes()
}

// TestHTTPPayload: RFC 9112 §7.1 chunked, RFC 9110 §8.4.1 codings, and the
// fall-backs when a header lies.
func TestHTTPPayload(t *testing.T) {
	const html = `<a href="x">x</a>`
	var zl, fl, br bytes.Buffer
	zw := zlib.NewWriter(&zl)
	zw.Write([]byte(html))
	zw.Close()
	fw, _ := flate.NewWriter(&fl, 5)
	fw.Write([]byte(html))
	fw.Close()
	bw := brotli.NewWriter(&br)
	bw.Write([]byte(html))
	bw.Close()
	chunked := "4;ext=1\r\n<a h\r\nd\r\nref=\"x\">x</a>\r\n0\r\nTrailer: 1\r\n\r\n"
	tests := []struct {
		name   string
		header Header
		raw    []byte
		warn   int
	}{
		{"identity", nil, []byte(html), 0},
		{"chunked", Header{{"Transfer-Encoding", "chunked"}}, []byte(chunked), 0},
		{"chunked lying", Header{{"Transfer-Encoding", "chunked"}}, []byte(html), 1},
		{"gzip", Header{{"Content-Encoding", "gzip"}}, gzipBytes([]byte(html)), 0},
		{"x-gzip", Header{{"Content-Encoding", "x-gzip"}}, gzipBytes([]byte(html)), 0},
		{"gzip lying", Header{{"Content-Encoding", "gzip"}}, []byte(html), 1},
		{"gzip unlabelled", nil, gzipBytes([]byte(html)), 0},
		{"deflate zlib", Header{{"Content-Encoding", "deflate"}}, zl.Bytes(), 0},
		{"deflate raw", Header{{"Content-Encoding", "deflate"}}, fl.Bytes(), 0},
		{"br", Header{{"Content-Encoding", "br"}}, br.Bytes(), 0},
		{"br lying", Header{{"Content-Encoding", "br"}}, []byte(html), 1},
		{"unknown coding", Header{{"Content-Encoding", "compress"}}, []byte(html), 1},
		{"chunked gzip", Header{{"Transfer-Encoding", "chunked"}, {"Content-Encoding", "gzip"}}, []byte(chunk(gzipBytes([]byte(html)))), 0},
	}
	for _, tt := range tests {
		got, warn, err := httpPayload(tt.header, tt.raw, 1<<20)
		require.NoError(t, err, tt.name)
		assert.Equal(t, html, string(got), tt.name)
		assert.Len(t, warn, tt.warn, tt.name)
	}
	// A bomb stops at the bound.
	_, _, err := httpPayload(Header{{"Content-Encoding", "gzip"}}, gzipBytes(make([]byte, 1<<20)), 1000)
	assert.ErrorIs(t, err, ErrTooLarge)
	_, _, err = httpPayload(Header{{"Transfer-Encoding", "chunked"}}, []byte(chunk(make([]byte, 5000))), 1000)
	assert.ErrorIs(t, err, ErrTooLarge)
}

func chunk(b []byte) string {
	var s strings.Builder
	for len(b) > 0 {
		n := min(len(b), 1000)
		s.WriteString(strings.ToUpper(strings.TrimLeft(string("0123456789abcdef"[n>>8&15])+string("0123456789abcdef"[n>>4&15])+string("0123456789abcdef"[n&15]), "0")))
		s.WriteString("\r\n")
		s.Write(b[:n])
		s.WriteString("\r\n")
		b = b[n:]
	}
	s.WriteString("0\r\n\r\n")
	return s.String()
}

// TestReadHTTPHead: status lines Go's net/http rejects but archives hold.
func TestReadHTTPHead(t *testing.T) {
	tests := []struct {
		in   string
		code int
	}{
		{"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\nbody", 200},
		{"HTTP/2 200\r\nContent-Type: text/html\r\n\r\nbody", 200},
		{"HTTP/1.0 302 \r\nLocation: /x\r\n\r\n", 302},
		{"HTTP/1.1 200 OK\nContent-Type: text/html\n\nbody", 200},
	}
	for _, tt := range tests {
		r, err := readHTTPHead(bufioReader(tt.in), 1<<10)
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.code, r.StatusCode, tt.in)
	}
	_, err := readHTTPHead(bufioReader("GET / HTTP/1.1\r\n\r\n"), 1<<10)
	assert.Error(t, err)
}

func bufioReader(s string) *bufio.Reader { return bufio.NewReader(strings.NewReader(s)) }

// TestWARCSyntax: WARC 1.1 §4 header syntax as files write it: field
// names in any case (slyrz/warc writes "Warc-Type"), folded values, LF-only
// line ends, a WARC/1.0 <...> target URI folded onto its own line.
func TestWARCSyntax(t *testing.T) {
	data := "WARC/1.1\nWarc-Type: resource\nwarc-target-uri:\n <http://x.example/a b>\ncontent-length: 2\n\nhi\n\n" +
		"WARC/1.0\r\nWARC-Type: metadata\r\nContent-Length: 0\r\n\r\n\r\n\r\n"
	got, recs, err := readRecords(t, strings.NewReader(data))
	require.NoError(t, err)
	assert.Equal(t, []recordSummary{{0, "resource", "http://x.example/a%20b", 2}, {int64(strings.Index(data, "WARC/1.0")), "metadata", "", 0}}, got)
	assert.Equal(t, "WARC/1.1", recs[0].Version)
	assert.Equal(t, "resource", recs[0].Header.Get("WARC-TYPE"))
}

// TestWARCTrailingGarbage: bytes after the last gzip member that are not
// gzip fail clearly, after the records before them.
func TestWARCTrailingGarbage(t *testing.T) {
	rec := "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: 2\r\n\r\nhi\r\n\r\n"
	data := append(gzipBytes([]byte(rec)), "garbage"...)
	w := NewWARCReader(bytes.NewReader(data))
	r, err := w.Next()
	require.NoError(t, err)
	assert.Equal(t, "resource", r.Type)
	_, err = w.Next()
	assert.EqualError(t, err, "archive: record at 77: corrupt compressed data: not a gzip member; no record after it")
	_, err = w.Next()
	assert.Equal(t, io.EOF, err)
}

// TestWARCLinksBounds: an HTML payload past Limits.DecodedBytes is a
// clear record error naming the record.
func TestWARCLinksBounds(t *testing.T) {
	body := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + strings.Repeat("<a href=x>", 100)
	data := "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.example/\r\nContent-Length: " +
		strconv.Itoa(len(body)) + "\r\n\r\n" + body + "\r\n\r\n"
	err := WARCLinks(strings.NewReader(data), Options{Spec: resolve.RFC3986, Limits: Limits{DecodedBytes: 100}}, func(WARCLink) error { return nil })
	assert.ErrorIs(t, err, ErrTooLarge)
	assert.EqualError(t, err, "archive: record at 0 (http://x.example/): too large: payload over 100 bytes decoded; record skipped")
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestWARCStreams: a record's block is streamed, never held: skipping a
// 64 MiB block to reach the next record allocates a small, fixed amount.
func TestWARCStreams(t *testing.T) {
	const size = 64 << 20
	head := "WARC/1.1\r\nWARC-Type: resource\r\nContent-Length: " + strconv.Itoa(size) + "\r\n\r\n"
	src := io.MultiReader(
		strings.NewReader(head),
		io.LimitReader(zeros{}, size),
		strings.NewReader("\r\n\r\nWARC/1.1\r\nWARC-Type: metadata\r\nContent-Length: 0\r\n\r\n\r\n\r\n"),
	)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	w := NewWARCReader(src)
	_, err := w.Next()
	require.NoError(t, err)
	rec, err := w.Next()
	require.NoError(t, err)
	runtime.ReadMemStats(&after)
	assert.Equal(t, "metadata", rec.Type)
	assert.Equal(t, int64(len(head)+size+4), rec.Offset)
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<20))
}

// TestARCFixtures: ARC files (the Internet Archive's format before WARC)
// from warcio's test data: the version block as "warcinfo", each record
// as "response" with its URL as the target (spaces as %20, fields taken
// from the right), plain and one gzip member per record; a record whose
// block the file cuts short is reported; bad Archive-lengths are record
// errors, and the good record between them is read.
func TestARCFixtures(t *testing.T) {
	const spaced = "http://example.com/index.cfm?FuseAction=Email&EmailTitle=Examples%20From%20The%20Live%20Web&IsPopUp=False"
	tests := []struct {
		file  string
		want  []recordSummary
		errs  []string
		links int
	}{
		{"warc/example.arc", []recordSummary{{0, "warcinfo", "", 75}, {151, "response", "http://example.com/", 1591}}, nil, 1},
		{"warc/example.arc.gz", []recordSummary{{0, "warcinfo", "", 75}, {171, "response", "http://example.com/", 1591}}, nil, 1},
		{"warc/example-space-in-url.arc", []recordSummary{{0, "warcinfo", "", 75}, {151, "response", spaced, 1591}},
			[]string{"archive: record at 151 (" + spaced + "): truncated: the file ends 12 bytes before the end of the block"}, 1},
		{"warc/bad.arc", []recordSummary{{202, "response", "http://example.com/", 1}}, []string{
			`archive: record at 0 (filedesc://bad.arc.gz): not a WARC record: ARC header: Archive-length "-1"; record skipped`,
			`archive: record at 134 (http://example.com/): not a WARC record: ARC header: Archive-length "-1"; record skipped`,
			`archive: record at 262 (http://example.com/): not a WARC record: ARC header: Archive-length "abc"; record skipped`}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			got, recs, rerrs, err := readRecordsErrors(t, openFixture(t, tt.file))
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			var msgs []string
			for _, e := range rerrs {
				msgs = append(msgs, e.Error())
			}
			assert.Equal(t, tt.errs, msgs)
			for _, r := range recs {
				assert.Equal(t, "ARC/1.0", r.Version)
			}
			var links []WARCLink
			_, err = ScanWARCLinks(openFixture(t, tt.file), Options{Spec: resolve.RFC3986},
				func(l WARCLink) error { links = append(links, l); return nil }, func(*RecordError) error { return nil })
			require.NoError(t, err)
			require.Len(t, links, tt.links)
			if tt.links > 0 {
				assert.Equal(t, "http://www.iana.org/domains/example", links[0].URL)
			}
		})
	}
	// The header line's fields become WARC headers.
	_, recs, _, err := readRecordsErrors(t, openFixture(t, "warc/example.arc"))
	require.NoError(t, err)
	assert.Equal(t, "2014-02-16T05:02:21Z", recs[1].Header.Get("WARC-Date"))
	assert.Equal(t, "93.184.216.119", recs[1].Header.Get("WARC-IP-Address"))
	assert.Equal(t, "text/html", recs[1].Header.Get("Content-Type"))
}
