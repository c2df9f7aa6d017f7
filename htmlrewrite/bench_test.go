package htmlrewrite

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// benchOptions gives each corpus page the made-up retrieval URL
// testkit.RefsA gives it.
func benchOptions(name string) Options {
	return Options{Document: link.Document{Context: base.Context{Spec: resolve.RFC3986, Retrieval: "https://corpus.example/" + name + "/index.html"}}}
}

// BenchmarkTokenize is the baseline the issue names: a plain x/net
// Tokenizer pass that copies every token's Raw() to the output.
func BenchmarkTokenize(b *testing.B) {
	pages := testkit.PagesA(b)
	b.SetBytes(testkit.PagesSize(pages))
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
	pages := testkit.PagesA(b)
	b.SetBytes(testkit.PagesSize(pages))
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
	pages := testkit.PagesA(b)
	b.SetBytes(testkit.PagesSize(pages))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			opts := benchOptions(p.Name)
			opts.Context.Spec = resolve.WHATWG
			if _, err := Rewrite(io.Discard, bytes.NewReader(p.Data), opts); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLinks extracts every link of every corpus page.
func BenchmarkLinks(b *testing.B) {
	pages := testkit.PagesA(b)
	b.SetBytes(testkit.PagesSize(pages))
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		for _, p := range pages {
			_, err := Links(bytes.NewReader(p.Data), benchOptions(p.Name), func(link.Link) error { n++; return nil })
			if err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkLinksWHATWG extracts every link of every corpus page in the
// WHATWG mode, the CLI's default for HTML.
func BenchmarkLinksWHATWG(b *testing.B) {
	pages := testkit.PagesA(b)
	b.SetBytes(testkit.PagesSize(pages))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			opts := benchOptions(p.Name)
			opts.Context.Spec = resolve.WHATWG
			if _, err := Links(bytes.NewReader(p.Data), opts, func(link.Link) error { return nil }); err != nil {
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
		_, err := Links(bytes.NewReader(doc), benchOptions("sheet"), func(link.Link) error { return nil })
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScripts: an import map of 2,000 entries and a 1 MB inline
// module script, rewritten (the JSON and JavaScript readers inside a page).
func BenchmarkScripts(b *testing.B) {
	var m strings.Builder
	m.WriteString(`<script type=importmap>{"imports":{`)
	for i := range 2000 {
		if i > 0 {
			m.WriteByte(',')
		}
		m.WriteString(`"pkg` + strings.Repeat("x", i%7) + `/": "./vendor/pkg/v1/", "/lib/m.js": "../lib/m.js"`)
	}
	m.WriteString(`}}</script><script type=module>`)
	chunk := "import a from './a.mjs';\nexport * from \"../b.mjs\";\nconst f = (x) => x / 2 + /re\"/.test(s) ? import(`./c.mjs`) : new URL('img.png', import.meta.url);\n// a comment with import \"x\"\nfunction g(y) { return y.map(z => z * 2).filter(Boolean); }\n"
	m.WriteString(strings.Repeat(chunk, 5000))
	m.WriteString(`</script>`)
	doc := m.String()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rewrite(io.Discard, strings.NewReader(doc), pageOptions()); err != nil {
			b.Fatal(err)
		}
	}
}
