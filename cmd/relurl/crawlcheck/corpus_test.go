package crawlcheck

import (
	"os"
	"path/filepath"
	"sort"
	"testing"
)

// TestCorpusWARC writes the pages of the directory RELURL_CORPUS_DIR as
// one .warc.gz to RELURL_CORPUS_WARC, each page a response from
// https://corpus.example/NAME: the input of the crawl formats' figures.
func TestCorpusWARC(t *testing.T) {
	dir, out := os.Getenv("RELURL_CORPUS_DIR"), os.Getenv("RELURL_CORPUS_WARC")
	if dir == "" || out == "" {
		t.Skip("RELURL_CORPUS_DIR and RELURL_CORPUS_WARC not set")
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	var recs []Record
	for _, n := range names {
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, Record{Target: "https://corpus.example/" + filepath.Base(n), Header: []string{"Content-Type: text/html; charset=utf-8"}, Body: string(b)})
	}
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteWARC(f, recs, true); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
