package xmlrewrite

import (
	"io"
	"strings"
	"testing"
)

// BenchmarkRewrite: MB/s of each generated fixture, rewritten against a
// base that makes nothing change (the splicing path runs in full).
func BenchmarkRewrite(b *testing.B) {
	for name, doc := range fixtures() {
		doc = strings.Repeat(doc, 20)
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Rewrite(io.Discard, strings.NewReader(doc), opts("https://www.example/dir/doc")); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
