package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/relurl/relurl/internal/corpus"
)

// BenchmarkTreeRewrite measures the tree mode, "relurl rewrite -o DIR",
// on corpus A laid out as a site (the pages spread over 16 directories),
// with one worker and with two: the baseline is -j 1, and -j 2
// should be at least 1.7 times as fast on two idle cores.
//
//	RELURL_CORPUS_A=$(testdata/bench/corpus.sh) go test -run '^$' -bench TreeRewrite ./cmd/relurl
func BenchmarkTreeRewrite(b *testing.B) {
	pages := corpus.PagesA(b)
	site := filepath.Join(b.TempDir(), "site")
	for i, p := range pages {
		path := filepath.Join(site, fmt.Sprintf("d%02d", i%16), p.Name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, p.Data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, mode := range []string{"rewrite", "links"} {
		for _, j := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/j=%d", mode, j), func(b *testing.B) {
				args := []string{"links", "-j", strconv.Itoa(j), "--base", "https://corpus.example/", site}
				if mode == "rewrite" {
					args = []string{"rewrite", "--quiet", "-j", strconv.Itoa(j), "--base", "https://corpus.example/", "-o", filepath.Join(b.TempDir(), "out"), site}
				}
				b.SetBytes(corpus.Size(pages))
				b.ReportAllocs()
				for b.Loop() {
					if code := run(args, stdio{in: nil, out: io.Discard, err: io.Discard}); code != exitOK {
						b.Fatalf("relurl %v: exit %d", args, code)
					}
				}
			})
		}
	}
}
