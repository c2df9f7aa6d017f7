package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
)

// BenchmarkTreeRewrite measures the tree mode on corpus A laid out as a
// site (the pages spread over 16 directories), with one worker and with
// two: the baseline is -j 1, and -j 2 should be at least 1.7 times
// as fast on two idle cores. "rewrite" makes a new mirror each time
// (relurl rewrite -o DIR into a directory that does not exist yet);
// "remirror" makes it again over an up-to-date one, whose files are read
// and left alone; "links" extracts the links. The output goes under
// TMPDIR, which decides the file system measured.
//
//	RELURL_CORPUS_A=$(testdata/bench/corpus.sh) go test -run '^$' -bench TreeRewrite ./cmd/relurl
func BenchmarkTreeRewrite(b *testing.B) {
	pages := testkit.PagesA(b)
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
	for _, mode := range []string{"rewrite", "remirror", "links"} {
		for _, j := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/j=%d", mode, j), func(b *testing.B) {
				tmp := b.TempDir()
				args := func(i int) []string {
					switch mode {
					case "rewrite":
						return []string{"rewrite", "--quiet", "-j", strconv.Itoa(j), "--base", "https://corpus.example/", "-o", filepath.Join(tmp, strconv.Itoa(i)), site}
					case "remirror":
						return []string{"rewrite", "--quiet", "-j", strconv.Itoa(j), "--base", "https://corpus.example/", "-o", filepath.Join(tmp, "again"), site}
					}
					return []string{"links", "-j", strconv.Itoa(j), "--base", "https://corpus.example/", site}
				}
				if mode == "remirror" {
					relurl(b, args(0))
				}
				b.SetBytes(testkit.PagesSize(pages))
				b.ReportAllocs()
				for i := 0; b.Loop(); i++ {
					if mode == "rewrite" && i > 0 {
						// The last mirror goes, and its pages reach the
						// disk, before the clock runs again: the kernel's
						// writeback of earlier runs is not this run's work.
						b.StopTimer()
						if err := os.RemoveAll(filepath.Join(tmp, strconv.Itoa(i-1))); err != nil {
							b.Fatal(err)
						}
						syscall.Sync()
						b.StartTimer()
					}
					relurl(b, args(i))
				}
			})
		}
	}
}

func relurl(b *testing.B, args []string) {
	if code := run(args, stdio{in: nil, out: io.Discard, err: io.Discard}); code != exitOK {
		b.Fatalf("relurl %v: exit %d", args, code)
	}
}
