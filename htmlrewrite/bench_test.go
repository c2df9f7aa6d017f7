package htmlrewrite

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/corpus"
	"github.com/relurl/relurl/resolve"
)

// benchOptions gives each corpus page the made-up retrieval URL
// corpus.RefsA gives it.
func benchOptions(name string) Options {
	return Options{Spec: resolve.RFC3986, Context: base.Context{Retrieval: "https://corpus.example/" + name + "/index.html"}}
}

// BenchmarkTokenize is the baseline the issue names: a plain x/net
// Tokenizer pass that copies every token's Raw() to the output.
func BenchmarkTokenize(b *testing.B) {
	pages := corpus.PagesA(b)
	b.SetBytes(corpus.Size(pages))
	b.ReportAllocs()
	w := newWriter(io.Discard)
	for b.Loop() {
		for _, p := range pages {
			z := html.NewTokenizer(bytes.NewReader(p.Data))
			for {
				tt := z.Next()
				w.Write(z.Raw())
				if tt == html.ErrorToken {
					break
				}
			}
		}
	}
}

// BenchmarkRewrite rewrites every corpus page to absolute form (RFC 3986).
func BenchmarkRewrite(b *testing.B) {
	pages := corpus.PagesA(b)
	b.SetBytes(corpus.Size(pages))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			if _, err := Rewrite(io.Discard, bytes.NewReader(p.Data), benchOptions(p.Name)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkRewriteWHATWG rewrites every corpus page in the WHATWG mode,
// the CLI's default for HTML.
func BenchmarkRewriteWHATWG(b *testing.B) {
	pages := corpus.PagesA(b)
	b.SetBytes(corpus.Size(pages))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			opts := benchOptions(p.Name)
			opts.Spec = resolve.WHATWG
			if _, err := Rewrite(io.Discard, bytes.NewReader(p.Data), opts); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLinks extracts every link of every corpus page.
func BenchmarkLinks(b *testing.B) {
	pages := corpus.PagesA(b)
	b.SetBytes(corpus.Size(pages))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, p := range pages {
			_, err := Links(bytes.NewReader(p.Data), benchOptions(p.Name), func(Link) error { n++; return nil })
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLinksLongSheet extracts the links of one 4 MB <style> element
// with a url() on every line: placing each link must not count the lines
// of the sheet again (it did, and 16 MB took minutes).
func BenchmarkLinksLongSheet(b *testing.B) {
	doc := []byte("<style>" + strings.Repeat("a{b:url(x.png)}\n", 256<<10) + "</style>")
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		_, err := Links(bytes.NewReader(doc), benchOptions("sheet"), func(Link) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
}
