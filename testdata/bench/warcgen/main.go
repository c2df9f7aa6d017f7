// Command warcgen writes .warc.gz files of HTML pages for benchmarks: each
// page of a folder becomes a WARC response record (its own gzip member, as
// crawlers write them) with target https://bench.example/NAME.
//
//	go run ./testdata/bench/warcgen -n 16 -pages 258 -o DIR CORPUS_DIR
//
// With -zstd the files are .warc.zst (IIPC WARC-zstd: a zstd frame per
// record, no dictionary) of the same records.
//
// File i holds pages i*pages/n .. of the sorted folder, wrapping around,
// so -n 16 -pages 258 spreads the whole corpus over 16 files.
package main

import (
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/klauspost/compress/zstd"
)

func main() {
	n := flag.Int("n", 1, "number of files")
	pages := flag.Int("pages", 0, "pages in all (0: every page of the folder)")
	repeat := flag.Int("repeat", 1, "times each file holds its pages")
	out := flag.String("o", ".", "output folder")
	zst := flag.Bool("zstd", false, "write .warc.zst, a zstd frame per record")
	flag.Parse()
	if flag.NArg() != 1 {
		log.Fatal("usage: warcgen [-n N] [-pages P] [-repeat R] [-o DIR] CORPUS_DIR")
	}
	names, err := filepath.Glob(filepath.Join(flag.Arg(0), "*.html"))
	if err != nil || len(names) == 0 {
		log.Fatalf("no .html files in %s", flag.Arg(0))
	}
	sort.Strings(names)
	total := *pages
	if total <= 0 {
		total = len(names)
	}
	per := (total + *n - 1) / *n
	for i := 0; i < *n; i++ {
		var buf bytes.Buffer
		for r := 0; r < *repeat; r++ {
			for j := 0; j < per; j++ {
				p := names[(i*per+j)%len(names)]
				body, err := os.ReadFile(p)
				if err != nil {
					log.Fatal(err)
				}
				target := fmt.Sprintf("https://bench.example/%d/%s", r, strings.TrimSuffix(filepath.Base(p), ".html"))
				writeRecord(&buf, target, body, *zst)
			}
		}
		ext := ".warc.gz"
		if *zst {
			ext = ".warc.zst"
		}
		name := filepath.Join(*out, fmt.Sprintf("bench-%03d%s", i, ext))
		if err := os.WriteFile(name, buf.Bytes(), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// writeRecord appends one response record as its own gzip member (zstd
// frame with zst).
func writeRecord(w *bytes.Buffer, target string, body []byte, zst bool) {
	http := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: %d\r\n\r\n", len(body))
	block := append([]byte(http), body...)
	head := fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: %s\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nWARC-Record-ID: <urn:uuid:%08x-0000-4000-8000-000000000000>\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n", target, uint32(len(target)*7919+len(body)), len(block))
	rec := slices.Concat([]byte(head), block, []byte("\r\n\r\n"))
	if zst {
		w.Write(zenc.EncodeAll(rec, nil))
		return
	}
	zw, _ := gzip.NewWriterLevel(w, gzip.DefaultCompression)
	zw.Write(rec)
	zw.Close()
}

var zenc, _ = zstd.NewWriter(nil, zstd.WithEncoderCRC(true), zstd.WithEncoderConcurrency(1))
