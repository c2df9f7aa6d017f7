package main

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/relurl/relurl/resolve"
)

// BenchmarkResolveJSONL streams 100,000 JSON lines through "relurl resolve
// --jsonl" (50 references per base, as in a document), one op per stream:
//
//	go test -run '^$' -bench ResolveJSONL ./cmd/relurl
func BenchmarkResolveJSONL(b *testing.B) {
	var in bytes.Buffer
	refs := []string{"g", "../x/y.html", "#top", "?page=2", "/abs/path", "//cdn.example/x.js", "https://other.example/a"}
	for i := range 100_000 {
		fmt.Fprintf(&in, `{"base": "https://example.org/dir/page%d.html", "ref": "%s%d"}`+"\n", i/50, refs[i%len(refs)], i)
	}
	b.SetBytes(int64(in.Len()))
	b.ReportAllocs()
	for b.Loop() {
		s := stdio{in: bytes.NewReader(in.Bytes()), out: io.Discard, err: io.Discard}
		if code := resolveJSONL(resolve.RFC3986, resolve.Options{}, s); code != exitOK {
			b.Fatal(code)
		}
	}
}
