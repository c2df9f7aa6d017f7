package links

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// warcRecord is one record of a generated WARC file.
type warcRecord struct {
	typ, target, id string
	headers         []string // more WARC header lines
	block           string
}

func (r warcRecord) bytes() []byte {
	var b bytes.Buffer
	b.WriteString("WARC/1.1\r\n")
	fmt.Fprintf(&b, "WARC-Type: %s\r\n", r.typ)
	fmt.Fprintf(&b, "WARC-Record-ID: <urn:uuid:%s>\r\n", r.id)
	b.WriteString("WARC-Date: 2026-01-02T03:04:05Z\r\n")
	if r.target != "" {
		fmt.Fprintf(&b, "WARC-Target-URI: %s\r\n", r.target)
	}
	for _, h := range r.headers {
		b.WriteString(h + "\r\n")
	}
	if r.typ == "response" || r.typ == "revisit" {
		b.WriteString("Content-Type: application/http; msgtype=response\r\n")
	}
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(r.block))
	b.WriteString(r.block)
	b.WriteString("\r\n\r\n")
	return b.Bytes()
}

// gzipMembers writes each record as a gzip member of its own (the
// .warc.gz convention) and returns the file and each member's offset.
func gzipMembers(t *testing.T, recs []warcRecord) ([]byte, []int64) {
	t.Helper()
	var out bytes.Buffer
	var offs []int64
	for _, r := range recs {
		offs = append(offs, int64(out.Len()))
		zw := gzip.NewWriter(&out)
		if _, err := zw.Write(r.bytes()); err != nil {
			t.Fatal(err)
		}
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
	}
	return out.Bytes(), offs
}

func httpResponse(status, headers, body string) string {
	return "HTTP/1.1 " + status + "\r\n" + headers + fmt.Sprintf("Content-Length: %d\r\n\r\n", len(body)) + body
}

func page(links ...string) string {
	var b strings.Builder
	b.WriteString("<!doctype html><title>t</title>\n")
	for _, l := range links {
		fmt.Fprintf(&b, "<a href=%q>x</a>\n", l)
	}
	b.WriteString(`<img src="/img/logo.png?a=1&amp;b=2">` + "\n")
	return b.String()
}

const identicalPayload = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"

// goodWARC has a warcinfo, an HTML response, a 301 redirect, a revisit of
// the first page under another URL, and an image.
func goodWARC(t *testing.T) []byte {
	home := page("about/", "https://other.test/x", "mailto:a@example.test", "#top", "http://[::1")
	recs := []warcRecord{
		{typ: "warcinfo", id: "00000000-0000-0000-0000-000000000000", headers: []string{"Content-Type: application/warc-fields"}, block: "software: relurl test\r\n"},
		{typ: "response", target: "https://example.test/", id: "00000000-0000-0000-0000-000000000001",
			headers: []string{"WARC-Payload-Digest: sha1:HOMEHOMEHOMEHOMEHOMEHOMEHOMEHOME"},
			block:   httpResponse("200 OK", "Content-Type: text/html; charset=utf-8\r\n", home)},
		{typ: "response", target: "https://example.test/old", id: "00000000-0000-0000-0000-000000000002",
			block: httpResponse("301 Moved Permanently", "Location: /new/\r\nContent-Type: text/html\r\n", `<a href="/new/">moved</a>`)},
		{typ: "revisit", target: "https://mirror.example.test/deep/again", id: "00000000-0000-0000-0000-000000000003",
			headers: []string{"WARC-Profile: " + identicalPayload, "WARC-Refers-To: <urn:uuid:00000000-0000-0000-0000-000000000001>",
				"WARC-Payload-Digest: sha1:HOMEHOMEHOMEHOMEHOMEHOMEHOMEHOME", "WARC-Truncated: length"},
			block: "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"},
		{typ: "response", target: "https://example.test/img/logo.png", id: "00000000-0000-0000-0000-000000000004",
			block: httpResponse("200 OK", "Content-Type: image/png\r\n", "\x89PNG\r\n\x1a\n")},
	}
	data, _ := gzipMembers(t, recs)
	return data
}

// corruptWARC has three HTML responses, the second in a gzip member whose
// compressed bytes are damaged; it returns the file and that member's
// offset.
func corruptWARC(t *testing.T) ([]byte, int64) {
	recs := []warcRecord{
		{typ: "response", target: "https://a.example.test/one", id: "00000000-0000-0000-0000-00000000000a",
			block: httpResponse("200 OK", "Content-Type: text/html\r\n", page("two", "/three"))},
		{typ: "response", target: "https://a.example.test/two", id: "00000000-0000-0000-0000-00000000000b",
			block: httpResponse("200 OK", "Content-Type: text/html\r\n", page("lost-1", "lost-2", "lost-3"))},
		{typ: "response", target: "https://a.example.test/three", id: "00000000-0000-0000-0000-00000000000c",
			block: httpResponse("200 OK", "Content-Type: text/html\r\n", page("one", "https://b.example.test/"))},
	}
	data, offs := gzipMembers(t, recs)
	// Overwrite the middle of the second member's deflate data.
	mid := (offs[1] + offs[2]) / 2
	for i := mid - 4; i < mid+4; i++ {
		data[i] ^= 0xA5
	}
	return data, offs[1]
}

// writeFixtures writes the test inputs into dir and returns the offset of
// the corrupt record.
func writeFixtures(t *testing.T, dir string) int64 {
	t.Helper()
	corrupt, off := corruptWARC(t)
	files := map[string][]byte{
		"good.warc.gz":    goodWARC(t),
		"corrupt.warc.gz": corrupt,
		"page.html":       []byte(`<!doctype html><base href="https://site.example.test/docs/"><a href="a.html">a</a><link rel="stylesheet preload" href="../s.css">`),
	}
	mht, err := os.ReadFile(filepath.Join("..", "..", "testdata", "mime", "content-base.mht"))
	if err != nil {
		t.Fatal(err)
	}
	files["saved.mht"] = mht
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return off
}
