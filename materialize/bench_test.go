package materialize

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkRun materializes a generated crawl of 300 linked pages, each
// with a stylesheet and an image, into the same DIR each time (the second
// and later runs find most files unchanged, as a re-run does). MB/s is of
// the WARC.
func BenchmarkRun(b *testing.B) {
	dir := b.TempDir()
	var warc bytes.Buffer
	n := 0
	add := func(r fixtureRecord) { warc.Write(r.bytes(n)); n++ }
	for i := range 300 {
		var body strings.Builder
		fmt.Fprintf(&body, "<!DOCTYPE html><html><head><link rel=stylesheet href=\"/s/%d.css?v=1\"></head><body>", i%10)
		for j := range 40 {
			fmt.Fprintf(&body, "<p>text %d <a href=\"/p/%d\">next</a> <a href=\"https://elsewhere.test/%d\">out</a> <img src=\"../img/%d.png\" srcset=\"/img/%d.png 2x\"></p>\n", j, (i+j)%300, j, i%50, i%50)
		}
		body.WriteString("</body></html>")
		add(fixtureRecord{uri: fmt.Sprintf("http://bench.test/p/%d", i), headers: []string{htmlType}, body: body.String()})
	}
	for i := range 10 {
		add(fixtureRecord{uri: fmt.Sprintf("http://bench.test/s/%d.css?v=1", i), headers: []string{css}, body: strings.Repeat("a { background: url(/img/1.png) }\n", 50)})
	}
	for i := range 50 {
		add(fixtureRecord{uri: fmt.Sprintf("http://bench.test/img/%d.png", i), headers: []string{png}, body: pngBytes + strings.Repeat("x", 2000)})
	}
	in := filepath.Join(dir, "bench.warc")
	if err := os.WriteFile(in, warc.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	b.SetBytes(int64(warc.Len()))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		sum, err := Run([]string{in}, Options{Dir: out})
		if err != nil || sum.Problems > 0 || sum.URLs != 360 {
			b.Fatalf("%+v %v", sum, err)
		}
	}
}
