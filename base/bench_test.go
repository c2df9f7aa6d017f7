package base

import (
	"bytes"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/relurl/relurl/internal/htmltree/htmltreetest"
	"github.com/relurl/relurl/internal/testkit"
)

// BenchmarkScanHTML finds the base of every page of corpus A, against two
// baselines that build a DOM, as html.md §5.5 suggests and most tools do:
// x/net's html.Parse with a walk for the first HTML <base href> outside
// <template> (parsedBase), and goquery's Find("base[href]").
//
//	RELURL_CORPUS_A=/root/.cache/relurl-corpus/A go test -run '^$' -bench ScanHTML ./base/
func BenchmarkScanHTML(b *testing.B) {
	pages := testkit.PagesA(b)
	size := testkit.PagesSize(pages)
	b.Run("ScanHTML", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size)
		for b.Loop() {
			for _, p := range pages {
				if _, _, err := ScanHTML(bytes.NewReader(p.Data), false); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("ScanHTML-strict", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size)
		for b.Loop() {
			for _, p := range pages {
				if _, _, err := ScanHTML(bytes.NewReader(p.Data), true); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("html.Parse", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size)
		for b.Loop() {
			for _, p := range pages {
				htmltreetest.ParsedBase(string(p.Data), false)
			}
		}
	})
	b.Run("goquery", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size)
		for b.Loop() {
			for _, p := range pages {
				doc, err := goquery.NewDocumentFromReader(bytes.NewReader(p.Data))
				if err != nil {
					b.Fatal(err)
				}
				doc.Find("base[href]").First().Attr("href")
			}
		}
	})
}

// TestScanHTMLCorpus checks ScanHTML against the tree builder on every
// page of corpus A (skipped without it).
func TestScanHTMLCorpus(t *testing.T) {
	found := 0
	for _, p := range testkit.PagesA(t) {
		want, wantFound := htmltreetest.ParsedBase(string(p.Data), false)
		e, _, err := ScanHTML(bytes.NewReader(p.Data), false)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if e.Found != wantFound || e.Href != want {
			t.Errorf("%s: ScanHTML = %q (found %v); html.Parse: %q (found %v)", p.Name, e.Href, e.Found, want, wantFound)
		}
		if e.Found {
			found++
		}
	}
	t.Logf("%d pages with a <base href>", found)
}

// BenchmarkScanHTMLSynthetic needs no corpus: a 100 KB page with its
// <base> in the head (the scan stops there) and without one (the scan
// reads it all).
func BenchmarkScanHTMLSynthetic(b *testing.B) {
	body := strings.Repeat(`<div class="item"><a href="/p/1">link</a><img src="i.png" alt=""><svg><use href="#i"/></svg></div>`+"\n", 1000)
	for _, tc := range []struct{ name, doc string }{
		{"base-in-head", `<html><head><base href="http://a/b/"></head><body>` + body},
		{"no-base", `<html><head></head><body>` + body},
	} {
		b.Run("ScanHTML/"+tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(tc.doc)))
			for b.Loop() {
				if _, _, err := ScanHTML(strings.NewReader(tc.doc), false); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run("html.Parse/"+tc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(tc.doc)))
			for b.Loop() {
				htmltreetest.ParsedBase(tc.doc, false)
			}
		})
	}
}
