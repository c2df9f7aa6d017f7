package archive

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// corpusWARC builds a .warc.gz of corpus A's pages, one HTTP response
// record per page in its own gzip member, as crawlers write them, and
// returns it with the pages' total uncompressed HTML size.
func corpusWARC(b *testing.B) ([]byte, int64) {
	pages := testkit.PagesA(b)
	var file bytes.Buffer
	for _, p := range pages {
		http := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n", len(p.Data))
		var rec bytes.Buffer
		fmt.Fprintf(&rec, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://corpus.example/%s/index.html\r\n"+
			"Content-Type: application/http;msgtype=response\r\nContent-Length: %d\r\n\r\n", p.Name, len(http)+len(p.Data))
		rec.WriteString(http)
		rec.Write(p.Data)
		rec.WriteString("\r\n\r\n")
		z := gzip.NewWriter(&file)
		z.Write(rec.Bytes())
		z.Close()
	}
	return file.Bytes(), testkit.PagesSize(pages)
}

// BenchmarkWARCLinks extracts every link of corpus A from a .warc.gz;
// MB/s counts uncompressed HTML. Compare BenchmarkWARCGunzip, the floor:
// decompressing the same file and nothing else.
func BenchmarkWARCLinks(b *testing.B) {
	file, size := corpusWARC(b)
	b.SetBytes(size)
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n = 0
		err := WARCLinks(bytes.NewReader(file), Options{Spec: resolve.WHATWG}, func(WARCLink) error {
			n++
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(n), "links/op")
}

// BenchmarkWARCRead reads the records of the same file, blocks discarded.
func BenchmarkWARCRead(b *testing.B) {
	file, size := corpusWARC(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		w := NewWARCReader(bytes.NewReader(file))
		for {
			rec, err := w.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(io.Discard, rec.Block)
		}
	}
}

// BenchmarkWARCGunzip is the baseline: plain gunzip of the same file.
func BenchmarkWARCGunzip(b *testing.B) {
	file, size := corpusWARC(b)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		z, err := gzip.NewReader(bytes.NewReader(file))
		if err != nil {
			b.Fatal(err)
		}
		if _, err := io.Copy(io.Discard, z); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWARCInflate decompresses the file member by member, as the
// WARC reader does, with the standard library's inflate (the baseline)
// and with the klauspost/compress one the reader uses.
func BenchmarkWARCInflate(b *testing.B) {
	file, size := corpusWARC(b)
	type resetter interface {
		io.Reader
		Multistream(bool)
	}
	run := func(b *testing.B, open func(r *bufio.Reader) (resetter, error), reset func(z resetter, r *bufio.Reader) error) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			src := bufio.NewReader(bytes.NewReader(file))
			z, err := open(src)
			for err == nil {
				z.Multistream(false)
				if _, err = io.Copy(io.Discard, z); err != nil {
					b.Fatal(err)
				}
				err = reset(z, src)
			}
			if err != io.EOF {
				b.Fatal(err)
			}
		}
	}
	b.Run("stdlib", func(b *testing.B) {
		run(b, func(r *bufio.Reader) (resetter, error) { return gzip.NewReader(r) },
			func(z resetter, r *bufio.Reader) error { return z.(*gzip.Reader).Reset(r) })
	})
	b.Run("klauspost", func(b *testing.B) {
		run(b, func(r *bufio.Reader) (resetter, error) { return kgzip.NewReader(r) },
			func(z resetter, r *bufio.Reader) error { return z.(*kgzip.Reader).Reset(r) })
	})
}

// BenchmarkWARCGunzipLinks is the floor for BenchmarkWARCLinks: plain
// gunzip of each member, then htmlrewrite.Links on each page found by
// its header's blank lines, against the same base; no WARC parsing, no
// HTTP decoding, no recovery.
func BenchmarkWARCGunzipLinks(b *testing.B) {
	file, size := corpusWARC(b)
	b.SetBytes(size)
	b.ReportAllocs()
	n := 0
	sep := []byte("\r\n\r\n")
	for b.Loop() {
		n = 0
		src := bufio.NewReader(bytes.NewReader(file))
		z, err := gzip.NewReader(src)
		if err != nil {
			b.Fatal(err)
		}
		var rec bytes.Buffer
		for {
			z.Multistream(false)
			rec.Reset()
			if _, err := rec.ReadFrom(z); err != nil {
				b.Fatal(err)
			}
			data := rec.Bytes()
			i := bytes.Index(data, sep)
			target := data[bytes.Index(data, []byte("Target-URI: "))+12:]
			target = target[:bytes.IndexByte(target, '\r')]
			j := bytes.Index(data[i+4:], sep) + i + 8
			body := data[j : len(data)-4]
			_, err := htmlrewrite.Links(bytes.NewReader(body), htmlrewrite.Options{
				Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: string(target)}},
			}, func(link.Link) error {
				n++
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
			if err := z.Reset(src); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(n), "links/op")
}

// corpusMHTML builds one MHTML file holding corpus A's pages, each a
// quoted-printable text/html part with its own Content-Location.
func corpusMHTML(b *testing.B) ([]testkit.Page, []byte) {
	pages := testkit.PagesA(b)
	var file bytes.Buffer
	file.WriteString("MIME-Version: 1.0\r\nContent-Type: multipart/related; type=\"text/html\"; boundary=\"----B\"\r\n\r\n")
	for _, p := range pages {
		fmt.Fprintf(&file, "------B\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n"+
			"Content-Location: https://corpus.example/%s/index.html\r\n\r\n", p.Name)
		file.Write(encodeQP(p.Data, "\r\n"))
		file.WriteString("\r\n")
	}
	file.WriteString("------B--\r\n")
	return pages, file.Bytes()
}

// BenchmarkMHTMLRewrite rewrites an MHTML file of corpus A's pages:
// parse, QP-decode, rewrite, QP-encode. MB/s counts decoded HTML. Compare
// BenchmarkMHTMLRewriteHTML, htmlrewrite.Rewrite on the same pages.
func BenchmarkMHTMLRewrite(b *testing.B) {
	pages, file := corpusMHTML(b)
	b.SetBytes(testkit.PagesSize(pages))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rewrite(io.Discard, bytes.NewReader(file), Options{Spec: resolve.WHATWG}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMHTMLRewriteHTML is the baseline: the same pages rewritten as
// plain HTML files against the same bases.
func BenchmarkMHTMLRewriteHTML(b *testing.B) {
	pages, _ := corpusMHTML(b)
	b.SetBytes(testkit.PagesSize(pages))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			_, err := htmlrewrite.Rewrite(io.Discard, bytes.NewReader(p.Data), htmlrewrite.Options{
				Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://corpus.example/" + p.Name + "/index.html"}},
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkEncodeQP encodes corpus A's pages as quoted-printable, the
// re-encoding step of an MHTML rewrite.
func BenchmarkEncodeQP(b *testing.B) {
	pages := testkit.PagesA(b)
	b.SetBytes(testkit.PagesSize(pages))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			encodeQP(p.Data, "\r\n")
		}
	}
}
