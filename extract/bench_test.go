package extract_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// benchOptions are the options of corpus page name, as htmlrewrite's
// benchmarks give them.
func benchOptions(name string) extract.Options {
	return extract.Options{HTML: htmlrewrite.Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://corpus.example/" + name + "/index.html"}}}}
}

// BenchmarkLinks reads every link of every corpus page through the
// dispatcher (extract.Links, kind HTML).
func BenchmarkLinks(b *testing.B) {
	pages := testkit.PagesA(b)
	b.SetBytes(testkit.PagesSize(pages))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, p := range pages {
			if _, err := extract.Links(bytes.NewReader(p.Data), base.HTML, benchOptions(p.Name), func(link.Link) error { n++; return nil }); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLinksOpen reads them through the open step first (a stream:
// extract.Open, then Document.Links), as a WARC payload or MHTML part is.
func BenchmarkLinksOpen(b *testing.B) {
	pages := testkit.PagesA(b)
	b.SetBytes(testkit.PagesSize(pages))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, p := range pages {
			d, err := extract.Open(bytes.NewReader(p.Data), base.HTML, benchOptions(p.Name))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := d.Links(func(link.Link) error { n++; return nil }); err != nil {
				b.Fatal(err)
			}
			d.Close()
		}
	}
}

// BenchmarkRewrite rewrites every corpus page through the dispatcher
// (extract.Rewrite, kind HTML).
func BenchmarkRewrite(b *testing.B) {
	pages := testkit.PagesA(b)
	b.SetBytes(testkit.PagesSize(pages))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			if _, err := extract.Rewrite(io.Discard, bytes.NewReader(p.Data), base.HTML, benchOptions(p.Name)); err != nil {
				b.Fatal(err)
			}
		}
	}
}
