package resolve

import (
	"net/url"
	"strings"
	"testing"

	whatwgurl "github.com/nlnwa/whatwg-url/url"
	"github.com/relurl/relurl/internal/testkit"
	"golang.org/x/text/encoding/japanese"
)

// corpusRefs returns corpus A's references and the average length of one,
// for b.SetBytes.
func corpusRefs(b *testing.B) ([]testkit.PageRef, int64) {
	refs := testkit.RefsA(b)
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
		benchmarkCorpus(b, func(base string) (*Resolver, error) { return NewResolver(WHATWG, base, Options{}) },
			func(r *Resolver, ref string) { r.Reference(ref) })
	})
	b.Run("nlnwa-whatwg-url", func(b *testing.B) {
		p := whatwgurl.NewParser()
		benchmarkCorpus(b, p.Parse, func(base *whatwgurl.Url, ref string) {
			if u, err := base.Parse(ref); err == nil {
				_ = u.Href(false)
			}
		})
	})
	b.Run("net-url", func(b *testing.B) {
		benchmarkCorpus(b, url.Parse, func(base *url.URL, ref string) {
			if u, err := url.Parse(ref); err == nil {
				_ = base.ResolveReference(u).String()
			}
		})
	})
}

// benchmarkCorpus calls resolve on each reference of corpus A with its
// page's base, which parseBase parses once per page, outside the timed
// loop.
func benchmarkCorpus[T any](b *testing.B, parseBase func(string) (T, error), resolve func(base T, ref string)) {
	refs, size := corpusRefs(b)
	parsed := map[string]T{}
	bases := make([]T, len(refs))
	for i, r := range refs {
		base, ok := parsed[r.Base]
		if !ok {
			var err error
			if base, err = parseBase(r.Base); err != nil {
				b.Fatal(err)
			}
			parsed[r.Base] = base
		}
		bases[i] = base
	}
	b.SetBytes(size)
	b.ReportAllocs()
	apr := allocsPerRef(len(refs), func() {
		for i, r := range refs {
			resolve(bases[i], r.Ref)
		}
	})
	i := 0
	for b.Loop() {
		resolve(bases[i], refs[i].Ref)
		if i++; i == len(refs) {
			i = 0
		}
	}
	b.ReportMetric(apr, "allocs/ref")
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

// BenchmarkWHATWGHostile resolves 64 KiB references built to find
// quadratic work: the MB/s of each stays that of ordinary input. idna is a
// domain of Punycode labels of maxIDNALabel bytes, each with 85 distinct
// code points (Punycode's worst case; one 64 KiB label once took 5 s).
//
//	go test -run '^$' -bench WHATWGHostile -benchmem ./resolve
func BenchmarkWHATWGHostile(b *testing.B) {
	const size = 64 << 10
	var label strings.Builder
	for r := rune(0x4E00); label.Len() < maxIDNALabel-2; r++ {
		label.WriteRune(r)
	}
	repeat := func(prefix, unit, suffix string) string {
		return prefix + strings.Repeat(unit, (size-len(prefix)-len(suffix))/len(unit)) + suffix
	}
	inputs := []struct{ name, ref string }{
		{"idna", repeat("http://", label.String()+".", "com/")},
		{"dots", repeat("http://", "1.", "/")},
		{"dot-segments", repeat("/", "a/../", "")},
		{"encoded-dot-segments", repeat("/", "%2e%2E/", "")},
		{"at-signs", repeat("http://", "@", "a/")},
		{"ipv6", repeat("http://[", "1:", "]/")},
		{"port", repeat("http://a:", "0", "/")},
		{"backslashes", repeat("http:", `\`, "a/")},
		{"percent-encode", repeat("/", "\x01 <ä", "")},
		{"query-shift_jis", repeat("?", "日ā", "")},
	}
	r, err := NewResolver(WHATWG, "http://example.com/a/b", Options{QueryEncoding: japanese.ShiftJIS})
	if err != nil {
		b.Fatal(err)
	}
	for _, in := range inputs {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.ref)))
			b.ReportAllocs()
			for b.Loop() {
				r.Reference(in.ref)
			}
		})
	}
}
