// PagesA and RefsA load the real-page benchmark corpus for the project's
// benchmarks. The corpus is not in the repository: testdata/bench/corpus.sh
// builds it and prints its folder, and benchmarks find it through the
// environment variable RELURL_CORPUS_A, skipping with a message when it is
// not set:
//
//	RELURL_CORPUS_A=$(testdata/bench/corpus.sh) go test -run '^$' -bench . ./...

package testkit

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"golang.org/x/net/html"
)

// CorpusEnvA names the environment variable that holds corpus A's folder.
const CorpusEnvA = "RELURL_CORPUS_A"

// Page is one HTML file of the corpus.
type Page struct {
	Name string
	Data []byte
}

// PagesA returns corpus A's pages in name order, or skips tb when the
// corpus is not there.
func PagesA(tb testing.TB) []Page {
	tb.Helper()
	dir := os.Getenv(CorpusEnvA)
	if dir == "" {
		tb.Skipf("benchmark corpus not found: set %s=$(testdata/bench/corpus.sh)", CorpusEnvA)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.html"))
	if err != nil || len(files) == 0 {
		tb.Skipf("benchmark corpus not found in %s=%q: run testdata/bench/corpus.sh", CorpusEnvA, dir)
	}
	sort.Strings(files)
	pages := make([]Page, 0, len(files))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		pages = append(pages, Page{Name: filepath.Base(f), Data: data})
	}
	return pages
}

// Size returns the total bytes of pages.
func PagesSize(pages []Page) int64 {
	var n int64
	for _, p := range pages {
		n += int64(len(p.Data))
	}
	return n
}

// PageRef is a reference found in a corpus page with the base it is resolved
// against: the page's made-up retrieval URL.
type PageRef struct {
	Base string
	Ref  string
}

// RefsA returns the href and src values of corpus A's pages, in document
// order, each with the base "https://corpus.example/NAME/index.html" of
// its page. It skips tb when the corpus is not there.
func RefsA(tb testing.TB) []PageRef {
	tb.Helper()
	var refs []PageRef
	for _, p := range PagesA(tb) {
		base := "https://corpus.example/" + p.Name + "/index.html"
		z := html.NewTokenizer(bytes.NewReader(p.Data))
		for {
			tt := z.Next()
			if tt == html.ErrorToken {
				break
			}
			if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
				continue
			}
			_, more := z.TagName()
			for more {
				var k, v []byte
				k, v, more = z.TagAttr()
				if string(k) == "href" || string(k) == "src" {
					refs = append(refs, PageRef{Base: base, Ref: string(v)})
				}
			}
		}
	}
	return refs
}
