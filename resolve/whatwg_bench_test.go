package resolve

import (
	"net/url"
	"testing"

	whatwgurl "github.com/nlnwa/whatwg-url/url"
	"github.com/relurl/relurl/internal/corpus"
)

// corpusRefs returns corpus A's references and the average length of one,
// for b.SetBytes.
func corpusRefs(b *testing.B) ([]corpus.Ref, int64) {
	refs := corpus.RefsA(b)
	if len(refs) == 0 {
		b.Skip("corpus A has no references")
	}
	n := 0
	for _, r := range refs {
		n += len(r.Ref)
	}
	return refs, int64(n / len(refs))
}

// allocsPerRef returns the exact mean allocations of one resolution over a
// pass of n resolutions, for the "allocs/ref" metric: allocs/op is
// rounded down to an integer.
func allocsPerRef(n int, pass func()) float64 {
	return testing.AllocsPerRun(1, pass) / float64(n)
}

// BenchmarkWHATWGCorpus resolves the href and src values of corpus A
// against their page's URL, one resolution per op, in the WHATWG mode
// (Resolver per base, made outside the timed loop), with
// github.com/nlnwa/whatwg-url (base parsed once per page, then
// base.Parse(ref).Href) and, for context, with net/url (base parsed once,
// then Parse(ref), ResolveReference and String). References net/url
// rejects still cost it the failed Parse.
//
//	RELURL_CORPUS_A=/root/.cache/relurl-corpus/A go test -run '^$' -bench WHATWGCorpus -benchmem ./resolve
func BenchmarkWHATWGCorpus(b *testing.B) {
	b.Run("relurl", func(b *testing.B) {
		refs, size := corpusRefs(b)
		resolvers := map[string]*Resolver{}
		rs := make([]*Resolver, len(refs))
		for i, r := range refs {
			if resolvers[r.Base] == nil {
				res, err := NewResolver(WHATWG, r.Base, Options{})
				if err != nil {
					b.Fatal(err)
				}
				resolvers[r.Base] = res
			}
			rs[i] = resolvers[r.Base]
		}
		b.SetBytes(size)
		b.ReportAllocs()
		apr := allocsPerRef(len(refs), func() {
			for i, r := range refs {
				rs[i].Reference(r.Ref)
			}
		})
		i := 0
		for b.Loop() {
			rs[i].Reference(refs[i].Ref)
			if i++; i == len(refs) {
				i = 0
			}
		}
		b.ReportMetric(apr, "allocs/ref")
	})
	b.Run("nlnwa-whatwg-url", func(b *testing.B) {
		refs, size := corpusRefs(b)
		p := whatwgurl.NewParser()
		bases := map[string]*whatwgurl.Url{}
		bs := make([]*whatwgurl.Url, len(refs))
		for i, r := range refs {
			if bases[r.Base] == nil {
				u, err := p.Parse(r.Base)
				if err != nil {
					b.Fatal(err)
				}
				bases[r.Base] = u
			}
			bs[i] = bases[r.Base]
		}
		b.SetBytes(size)
		b.ReportAllocs()
		apr := allocsPerRef(len(refs), func() {
			for i, r := range refs {
				if u, err := bs[i].Parse(r.Ref); err == nil {
					_ = u.Href(false)
				}
			}
		})
		i := 0
		for b.Loop() {
			if u, err := bs[i].Parse(refs[i].Ref); err == nil {
				_ = u.Href(false)
			}
			if i++; i == len(refs) {
				i = 0
			}
		}
		b.ReportMetric(apr, "allocs/ref")
	})
	b.Run("net-url", func(b *testing.B) {
		refs, size := corpusRefs(b)
		bases := map[string]*url.URL{}
		bs := make([]*url.URL, len(refs))
		for i, r := range refs {
			if bases[r.Base] == nil {
				u, err := url.Parse(r.Base)
				if err != nil {
					b.Fatal(err)
				}
				bases[r.Base] = u
			}
			bs[i] = bases[r.Base]
		}
		b.SetBytes(size)
		b.ReportAllocs()
		apr := allocsPerRef(len(refs), func() {
			for i, r := range refs {
				if u, err := url.Parse(r.Ref); err == nil {
					_ = bs[i].ResolveReference(u).String()
				}
			}
		})
		i := 0
		for b.Loop() {
			if u, err := url.Parse(refs[i].Ref); err == nil {
				_ = bs[i].ResolveReference(u).String()
			}
			if i++; i == len(refs) {
				i = 0
			}
		}
		b.ReportMetric(apr, "allocs/ref")
	})
}

// BenchmarkWHATWGKinds resolves one reference of each kind the fast paths
// take, and some the parser takes, against one http base, in the WHATWG
// mode and, for comparison, with github.com/nlnwa/whatwg-url.
func BenchmarkWHATWGKinds(b *testing.B) {
	const base = "https://example.com/dir/page.html?x=1#top"
	kinds := []struct{ name, ref string }{
		{"empty", ""},
		{"fragment", "#section-2"},
		{"query", "?page=2&sort=asc"},
		{"absolute-path", "/images/logo.png"},
		{"relative-path", "../css/site.css?v=3"},
		{"absolute-url", "https://cdn.example.net/lib/jquery.min.js"},
		{"scheme-relative", "//cdn.example.net/lib/jquery.min.js"},
		{"parser/javascript", "javascript:void(0)"},
		{"parser/spaces", " https://Example.COM:443/a b?c d "},
		{"parser/newline", "/x\n/y"},
		{"parser/idna", "http://münchen.de/straße"},
	}
	r, err := NewResolver(WHATWG, base, Options{})
	if err != nil {
		b.Fatal(err)
	}
	nb, err := whatwgurl.NewParser().Parse(base)
	if err != nil {
		b.Fatal(err)
	}
	for _, k := range kinds {
		b.Run("relurl/"+k.name, func(b *testing.B) {
			b.SetBytes(int64(len(k.ref)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := r.Reference(k.ref); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("nlnwa/"+k.name, func(b *testing.B) {
			b.SetBytes(int64(len(k.ref)))
			b.ReportAllocs()
			for b.Loop() {
				u, err := nb.Parse(k.ref)
				if err != nil {
					b.Fatal(err)
				}
				_ = u.Href(false)
			}
		})
	}
}
