package resolve

import (
	"net/url"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
)

// benchRefs is the corpus's references with one pre-parsed base per page,
// as a document rewriter would hold them.
type benchRefs struct {
	refs  []string
	bases []int // index into the per-spec resolvers
	raw   []string
}

func loadBenchRefs(b *testing.B) benchRefs {
	var br benchRefs
	idx := map[string]int{}
	for _, r := range testkit.RefsA(b) {
		i, ok := idx[r.Base]
		if !ok {
			i = len(br.raw)
			idx[r.Base] = i
			br.raw = append(br.raw, r.Base)
		}
		br.refs = append(br.refs, r.Ref)
		br.bases = append(br.bases, i)
	}
	return br
}

// BenchmarkReference resolves the href and src values of corpus A against
// their page's base, one resolution per op, in each mode and with Go's
// net/url (Parse + ResolveReference + String) as the baseline, in one run:
//
//	RELURL_CORPUS_A=$(testdata/bench/corpus.sh) go test -run '^$' -bench Reference ./resolve
func BenchmarkReference(b *testing.B) {
	br := loadBenchRefs(b)
	b.Logf("%d references on %d pages", len(br.refs), len(br.raw))
	// MB/s counts reference bytes: each op resolves one reference, of the
	// corpus's mean length.
	size := 0
	for _, r := range br.refs {
		size += len(r)
	}
	mean := int64(max(1, size/max(1, len(br.refs))))
	for _, spec := range []Spec{RFC1808, RFC2396, RFC3986, WHATWG} {
		b.Run(spec.String(), func(b *testing.B) {
			b.SetBytes(mean)
			rs := make([]*Resolver, len(br.raw))
			for i, base := range br.raw {
				r, err := NewResolver(spec, base, Options{})
				if err != nil {
					b.Skipf("%v: %v", spec, err)
				}
				rs[i] = r
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				_, _ = rs[br.bases[i]].Reference(br.refs[i])
				if i++; i == len(br.refs) {
					i = 0
				}
			}
		})
	}
	b.Run("net-url", func(b *testing.B) {
		bases := make([]*url.URL, len(br.raw))
		for i, s := range br.raw {
			u, err := url.Parse(s)
			if err != nil {
				b.Fatal(err)
			}
			bases[i] = u
		}
		b.SetBytes(mean)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if ru, err := url.Parse(br.refs[i]); err == nil {
				_ = bases[br.bases[i]].ResolveReference(ru).String()
			}
			if i++; i == len(br.refs) {
				i = 0
			}
		}
	})
}

// BenchmarkSpecExamples resolves the RFC 3986 §5.4 examples: a small,
// always-present workload for comparing changes without the corpus.
func BenchmarkSpecExamples(b *testing.B) {
	var refs []string
	for _, tab := range loadSpecTables(b) {
		if tab.Spec == "rfc3986" && !tab.Options.BackwardCompatible {
			for _, c := range tab.Cases {
				refs = append(refs, c.Ref)
			}
		}
	}
	r, err := NewResolver(RFC3986, base3986, Options{})
	if err != nil {
		b.Fatal(err)
	}
	bu, _ := url.Parse(base3986)
	b.Run("rfc3986", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			_, _ = r.Reference(refs[i%len(refs)])
			i++
		}
	})
	b.Run("net-url", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			ru, _ := url.Parse(refs[i%len(refs)])
			_ = bu.ResolveReference(ru).String()
			i++
		}
	})
}
