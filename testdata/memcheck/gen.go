// Command gen writes the generated inputs of the memory check to standard
// output, so that they are piped, not stored:
//
//	go run ./testdata/memcheck/gen.go page SIZE [base]  an HTML page of SIZE bytes
//	go run ./testdata/memcheck/gen.go warc.gz SIZE      a .warc.gz of about SIZE bytes
//	go run ./testdata/memcheck/gen.go warc.zst SIZE     the same records, a zstd frame each
//	go run ./testdata/memcheck/gen.go style SIZE        a page that is one <style> sheet of SIZE bytes
//	go run ./testdata/memcheck/gen.go qp SIZE           the page of SIZE bytes, quoted-printable (RFC 2045 §6.7)
//	go run ./testdata/memcheck/gen.go base64 SIZE       the page of SIZE bytes, base64 in 76-character CRLF lines (§6.8)
//
// and the hostile inputs, each a structure that grows where a reader
// holds something per item:
//
//	deepsvg N      an SVG of N unclosed <g> with a link inside
//	attrs N        an HTML tag of N attributes, then a link
//	srcset N       an <img> whose srcset has N candidates
//	css SIZE       a stylesheet of SIZE bytes of rules with url()
//	manifest N     a web app manifest whose icons nest N arrays deep
//	module SIZE    a JavaScript module of SIZE bytes of imports
//	gzipwarc SIZE  a WARC of one response whose gzip body decodes to SIZE bytes
//
// The page is links, text, inline scripts, styles and comments, with one
// inline JSON script of 32 MiB (twice the old 16 MiB token cap) when SIZE
// allows; with "base" it starts with a <base href>, settling its base at
// once. The WARC file is one gzip member per response record, each an
// HTML page of about 20 KB that hardly compresses.
package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"fmt"
	"io"
	"math/rand/v2"
	"mime/quotedprintable"
	"os"
	"strconv"

	"github.com/klauspost/compress/zstd"

	"github.com/relurl/relurl/internal/countio"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: gen page|warc.gz SIZE [base]")
		os.Exit(2)
	}
	size, err := strconv.ParseInt(os.Args[2], 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	switch os.Args[1] {
	case "page":
		err = page(w, size, len(os.Args) > 3 && os.Args[3] == "base")
	case "warc.gz":
		err = warc(w, size, false)
	case "warc.zst":
		err = warc(w, size, true)
	case "style":
		err = style(w, size)
	case "deepsvg":
		io.WriteString(w, `<svg xmlns="http://www.w3.org/2000/svg">`)
		for range size {
			io.WriteString(w, "<g>")
		}
		_, err = io.WriteString(w, `<image href="x.png"/>`)
	case "attrs":
		io.WriteString(w, "<!doctype html><html><body><div")
		for i := range size {
			fmt.Fprintf(w, " a%d", i)
		}
		_, err = io.WriteString(w, ">x</div><a href=\"the-end.html\">end</a></body></html>\n")
	case "srcset":
		io.WriteString(w, `<!doctype html><html><body><img srcset="`)
		for i := range size {
			fmt.Fprintf(w, "i%d.png %dw, ", i, i%5000+1)
		}
		_, err = io.WriteString(w, "last.png 2x\"><a href=\"the-end.html\">end</a></body></html>\n")
	case "css":
		c := &countio.Writer{W: w}
		for i := 0; c.N < size; i++ {
			fmt.Fprintf(c, ".r%d { color: #%06x; background: url(\"img/%d.png\") no-repeat; }\n", i, i&0xffffff, i)
		}
	case "manifest":
		io.WriteString(w, `{"name":"deep","icons":`)
		for range size {
			io.WriteString(w, "[")
		}
		for range size {
			io.WriteString(w, "]")
		}
		_, err = io.WriteString(w, "}\n")
	case "module":
		c := &countio.Writer{W: w}
		for i := 0; c.N < size; i++ {
			fmt.Fprintf(c, "import a%d from \"./m/%d.js\";\n", i, i)
		}
	case "gzipwarc":
		err = gzipWARC(w, size)
	case "qp":
		q := quotedprintable.NewWriter(w)
		if err = page(q, size, false); err == nil {
			err = q.Close()
		}
	case "base64":
		l := &lines{w: w}
		e := base64.NewEncoder(base64.StdEncoding, l)
		if err = page(e, size, false); err == nil {
			err = e.Close()
		}
	default:
		err = fmt.Errorf("unknown kind %q", os.Args[1])
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// block writes one stretch of page: links of every kind, text, a script,
// a style, a comment.
func block(w io.Writer, i int) {
	fmt.Fprintf(w, "<div class=\"item\" id=\"i%d\"><a href=\"/articles/%d.html?ref=home&amp;x=%d\">Article %d</a>\n", i, i, i%97, i)
	fmt.Fprintf(w, "<img src=\"img/%d.png\" srcset=\"img/%d.png 1x, img/%d@2x.png 2x\" alt=\"picture %d\">\n", i, i, i, i)
	fmt.Fprintf(w, "<p style=\"background:url(bg/%d.jpg)\">Lorem ipsum dolor sit amet, consectetur adipiscing elit %d, sed do eiusmod tempor.</p>\n", i%13, i)
	if i%10 == 0 {
		fmt.Fprintf(w, "<script>var d%d = {a: %d, s: \"</p><a href=x>\"}; if (d%d.a < 3) { run(); }</script>\n", i, i, i)
		fmt.Fprintf(w, "<style>.c%d { background: url(\"sprite.png\") } @import url(more%d.css);</style>\n", i, i%5)
		fmt.Fprintf(w, "<!-- item %d: <a href=\"not-a-link.html\"> -->\n", i)
		fmt.Fprintf(w, "<form action=\"search\"><input type=image src=\"go.png\"></form><link rel=stylesheet href=\"s%d.css\">\n", i%7)
	}
	io.WriteString(w, "</div>\n")
}

func page(out io.Writer, size int64, withBase bool) error {
	w := &countio.Writer{W: out}
	io.WriteString(w, "<!doctype html>\n<html><head><meta charset=utf-8>")
	if withBase {
		io.WriteString(w, `<base href="https://gen.example/app/">`)
	}
	io.WriteString(w, "<title>generated</title></head><body>\n")
	const bigScript = 32 << 20
	i := 0
	for ; w.N < size/3; i++ {
		block(w, i)
	}
	if size > 4*bigScript {
		// One inline JSON script twice as long as the old token cap.
		io.WriteString(w, `<script type="application/json" id="state">{"items":[`)
		for n := int64(0); n < bigScript; n += 64 {
			fmt.Fprintf(w, `{"id":%12d,"url":"/a/%12d.html"},`, n, n)
		}
		io.WriteString(w, "0]}</script>\n")
	}
	for ; w.N < size-200; i++ {
		block(w, i)
	}
	io.WriteString(w, "<a href=\"the-end.html\">end</a></body></html>\n")
	return nil
}

// style writes a page whose <style> sheet is size bytes of rules, each
// with a url(): the sheet passes in pieces, not held whole.
func style(out io.Writer, size int64) error {
	w := &countio.Writer{W: out}
	io.WriteString(w, "<!doctype html>\n<html><head><style>\n")
	for i := 0; w.N < size; i++ {
		fmt.Fprintf(w, ".r%d { color: #%06x; background: url(\"img/%d.png\") no-repeat; }\n", i, i&0xffffff, i)
		if i%100 == 0 {
			fmt.Fprintf(w, "@media (min-width: %dpx) { .m%d { background-image: image-set(\"a%d.png\" 1x, \"b%d.png\" 2x) } }\n/* rule %d: url(not-a-link.png) */\n", i%2000, i, i, i, i)
		}
	}
	io.WriteString(w, "</style></head><body><a href=\"the-end.html\">end</a></body></html>\n")
	return nil
}

func warc(out io.Writer, size int64, zst bool) error {
	var enc *zstd.Encoder
	if zst {
		var err error
		if enc, err = zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1)); err != nil {
			return err
		}
	}
	w := &countio.Writer{W: out}
	rng := rand.New(rand.NewPCG(1, 2))
	raw := make([]byte, 3<<20)
	for i := range raw {
		raw[i] = byte(rng.Uint32())
	}
	noise := base64.StdEncoding.EncodeToString(raw) // text that hardly compresses
	for rec := 0; w.N < size; rec++ {
		var body []byte
		body = fmt.Appendf(body, "<!doctype html><html><head><title>page %d</title><link rel=stylesheet href=\"/s.css\"></head><body>\n", rec)
		for j := range 20 {
			body = fmt.Appendf(body, "<p><a href=\"/p/%d/%d.html\">link</a> <img src=\"i%d.png\"> ", rec, j, j)
			off := rng.IntN(len(noise) - 1024)
			body = append(body, noise[off:off+900]...)
			body = append(body, "</p>\n"...)
		}
		body = append(body, "</body></html>\n"...)
		http := fmt.Appendf(nil, "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n", len(body))
		http = append(http, body...)
		record := fmt.Appendf(nil, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-%012d>\r\n"+
			"WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: https://gen.example/p/%d.html\r\n"+
			"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n", rec, rec, len(http))
		record = append(append(record, http...), "\r\n\r\n"...)
		if zst {
			if _, err := w.Write(enc.EncodeAll(record, nil)); err != nil {
				return err
			}
			continue
		}
		zw, err := gzip.NewWriterLevel(w, gzip.BestSpeed)
		if err != nil {
			return err
		}
		zw.Write(record)
		if err := zw.Close(); err != nil {
			return err
		}
	}
	return nil
}

// gzipWARC writes an uncompressed WARC of one response record whose body
// is one gzip member (Content-Encoding: gzip) of size zero bytes: a few
// MB on disk that decode to size bytes.
func gzipWARC(w io.Writer, size int64) error {
	var body bytes.Buffer
	zw, err := gzip.NewWriterLevel(&body, gzip.BestCompression)
	if err != nil {
		return err
	}
	zero := make([]byte, 1<<20)
	for n := int64(0); n < size; n += int64(len(zero)) {
		zw.Write(zero[:min(int64(len(zero)), size-n)])
	}
	if err := zw.Close(); err != nil {
		return err
	}
	head := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n", body.Len())
	fmt.Fprintf(w, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000001>\r\n"+
		"WARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Target-URI: https://gen.example/big.html\r\n"+
		"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n", len(head)+body.Len())
	io.WriteString(w, head)
	w.Write(body.Bytes())
	_, err = io.WriteString(w, "\r\n\r\n")
	return err
}

// lines writes what it is given in lines of 76 characters ending in CRLF.
type lines struct {
	w   io.Writer
	col int
}

func (l *lines) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 {
		if l.col == 76 {
			if _, err := io.WriteString(l.w, "\r\n"); err != nil {
				return 0, err
			}
			l.col = 0
		}
		k := min(len(p), 76-l.col)
		if _, err := l.w.Write(p[:k]); err != nil {
			return 0, err
		}
		l.col += k
		p = p[k:]
	}
	return n, nil
}
