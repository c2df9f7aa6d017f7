package resolve

import (
	"testing"

	"github.com/relurl/relurl/internal/testkit"
)

// BenchmarkNormalizeCorpus normalizes, with the Crawler set, the URLs the
// WHATWG mode resolves corpus A's references to (resolved outside the
// timed loop), one URL per op.
//
//	RELURL_CORPUS_A=/root/.cache/relurl-corpus/A go test -run '^$' -bench NormalizeCorpus -benchmem ./resolve
func BenchmarkNormalizeCorpus(b *testing.B) {
	var urls []string
	n := 0
	for _, r := range testkit.RefsA(b) {
		if u, err := Reference(WHATWG, r.Base, r.Ref); err == nil {
			urls = append(urls, u)
			n += len(u)
		}
	}
	if len(urls) == 0 {
		b.Skip("no URLs")
	}
	b.SetBytes(int64(n / len(urls)))
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := Normalize(urls[i], Crawler); err != nil {
			b.Fatal(err)
		}
		if i++; i == len(urls) {
			i = 0
		}
	}
}
