package base

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/relurl/relurl/internal/htmltree/htmltreetest"
)

// checkAgainstParse fails t when ScanHTML and the tree builder disagree,
// in browser mode (htmltreetest.FirstBase: the tree's, in the document's
// order, as ScanHTML reads where the parser moves nodes) or strict mode
// (parsedHeadBase), read without scripting (the default) and with it
// (Scripting(true)), or in the readings given, and reports whether doc
// has a base in the last reading.
func checkAgainstParse(t *testing.T, doc string, strict bool, readings ...bool) bool {
	t.Helper()
	oracle := htmltreetest.FirstBase
	if strict {
		oracle = parsedHeadBase
	}
	if readings == nil {
		readings = []bool{true, false}
	}
	var found bool
	for _, scripting := range readings {
		want, wantFound := oracle(doc, scripting)
		e, _, err := ScanHTML(strings.NewReader(doc), strict, Scripting(scripting))
		if err != nil {
			t.Fatalf("ScanHTML(%q, strict %v, scripting %v): %v", doc, strict, scripting, err)
		}
		if e.Found != wantFound || e.Href != want {
			t.Fatalf("ScanHTML(%q, strict %v, scripting %v) = %q (found %v); html.Parse: %q (found %v)", doc, strict, scripting, e.Href, e.Found, want, wantFound)
		}
		found = wantFound
	}
	return found
}

// TestScanHTMLAgreesWithParse checks ScanHTML against the tree builder on
// random well-formed documents made of foreign content, integration
// points, breakout tags, templates and raw text elements.
func TestScanHTMLAgreesWithParse(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	r := rand.New(rand.NewPCG(1, 2))
	found := 0
	for range n {
		if checkAgainstParse(t, htmltreetest.Generate(r.IntN, false), false) {
			found++
		}
	}
	// Both outcomes must be common, or the test proves little.
	if found < n/5 || found > n*4/5 {
		t.Fatalf("%d of %d documents have a base: the generator lost its balance", found, n)
	}
	t.Logf("%d of %d documents have a base", found, n)
}

// FuzzScanHTMLAgreesWithParse is TestScanHTMLAgreesWithParse with the
// fuzzer choosing the document's structure.
func FuzzScanHTMLAgreesWithParse(f *testing.F) {
	f.Add([]byte{3, 5, 9, 0, 1, 2})
	f.Add([]byte{2, 1, 5, 2, 9, 2, 0, 0, 1, 2})
	f.Fuzz(func(t *testing.T, choices []byte) {
		checkAgainstParse(t, htmltreetest.Generate(htmltreetest.Chooser(choices), false), false)
	})
}

// parsedHeadBase is the oracle of strict mode: the first base element of
// the tree that is a child of the head element and has an absolute href
// (the draft's §10 appendix: "when present in the "HEAD" portion of a
// document"; "The "HREF" attribute must be an absolute URL").
func parsedHeadBase(doc string, scripting bool) (href string, found bool) {
	root, err := html.ParseWithOptions(strings.NewReader(doc), html.ParseOptionEnableScripting(scripting))
	if err != nil {
		return "", false
	}
	var head *html.Node
	for n := root.FirstChild; n != nil && head == nil; n = n.NextSibling {
		if n.Type == html.ElementNode && n.Data == "html" {
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && c.Namespace == "" && c.Data == "head" {
					head = c
					break
				}
			}
		}
	}
	if head == nil {
		return "", false
	}
	for c := head.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.Namespace != "" || c.Data != "base" {
			continue
		}
		for _, a := range c.Attr {
			if a.Namespace == "" && a.Key == "href" && absolute(trimASCIISpace(a.Val)) {
				return a.Val, true
			}
		}
	}
	return "", false
}

// headTokens are the pieces of the documents TestScanHTMLStrictAgreesWithParse
// strings together: what the head may hold, what ends it, and what the
// "after head" insertion mode puts back into it.
var headTokens = []string{
	"<html>", "<head>", "</head>", "<body>", "</body>", "</html>", "</br>", "</div>",
	"<title>t</title>", "<meta charset=utf-8>", "<link rel=x href=y>", "<script>s</script>",
	"<style>s</style>", "<noscript>n</noscript>", "<template>", "</template>",
	"<div>", "<p>", "x", " ", "\n", "<!-- c -->", "<svg>", "</svg>",
	"<base>", "<base href=rel>",
}

// generateHead returns a token sequence whose pieces next chooses.
// Template start and end tags come in pairs with nothing between them but
// head content, so that x/net's template handling, which differs from the
// HTML Standard inside foreign content, does not come in.
func generateHead(next func(n int) int) string {
	var b strings.Builder
	bases := 0
	for k := next(12); k > 0; k-- {
		if next(4) == 0 {
			bases++
			fmt.Fprintf(&b, "<base href=http://h%d/>", bases)
			continue
		}
		tok := headTokens[next(len(headTokens))]
		switch tok {
		case "<template>", "</template>":
			tok = "<template><base href=http://t/><div></div></head></template>"
		}
		b.WriteString(tok)
	}
	return b.String()
}

// TestScanHTMLStrictAgreesWithParse checks strict mode against the tree
// builder on random token sequences.
func TestScanHTMLStrictAgreesWithParse(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	r := rand.New(rand.NewPCG(3, 4))
	found := 0
	for range n {
		if checkAgainstParse(t, generateHead(r.IntN), true) {
			found++
		}
	}
	if found < n/5 || found > n*4/5 {
		t.Fatalf("%d of %d documents have a base in the head: the generator lost its balance", found, n)
	}
	t.Logf("%d of %d documents have a base in the head", found, n)
}

// FuzzScanHTMLStrictAgreesWithParse is TestScanHTMLStrictAgreesWithParse
// with the fuzzer choosing the tokens.
func FuzzScanHTMLStrictAgreesWithParse(f *testing.F) {
	f.Add([]byte{5, 1, 1, 2, 0, 1, 3, 9, 0, 0})
	f.Add([]byte{8, 1, 3, 1, 14, 0, 1, 1, 2, 1, 20})
	f.Fuzz(func(t *testing.T, choices []byte) {
		checkAgainstParse(t, generateHead(htmltreetest.Chooser(choices)), true)
	})
}

// misnestedReading is the one reading of <noscript> the misnested
// documents are checked in: with scripting, its content is text. Read as
// markup (the default), the generator's <noscript> is one more element
// like <section> or <span>, around which misnested formatting end tags
// (<b><section>...<svg></b>) call for the adoption agency algorithm, which
// htmltree does not model (its package doc); the well-formed documents are
// checked in both readings.
const misnestedReading = true

// TestScanHTMLMisnestedAgreesWithParse is TestScanHTMLAgreesWithParse on
// documents whose end tags are left out or stray, as real pages have them:
// an end tag in foreign content that closes an HTML element around it
// (<div><svg></div>) ends the foreign content.
func TestScanHTMLMisnestedAgreesWithParse(t *testing.T) {
	n := 20000
	if testing.Short() {
		n = 2000
	}
	r := rand.New(rand.NewPCG(5, 6))
	found := 0
	for range n {
		if checkAgainstParse(t, htmltreetest.Generate(r.IntN, true), false, misnestedReading) {
			found++
		}
	}
	if found < n/5 || found > n*4/5 {
		t.Fatalf("%d of %d documents have a base: the generator lost its balance", found, n)
	}
	t.Logf("%d of %d documents have a base", found, n)
}

// FuzzScanHTMLMisnestedAgreesWithParse is the misnested test with the
// fuzzer choosing the document's structure.
func FuzzScanHTMLMisnestedAgreesWithParse(f *testing.F) {
	f.Add([]byte{3, 5, 9, 0, 1, 2})
	f.Fuzz(func(t *testing.T, choices []byte) {
		checkAgainstParse(t, htmltreetest.Generate(htmltreetest.Chooser(choices), true), false, misnestedReading)
	})
}

// TestScanHTMLForeignContent holds documents whose foreign content decides
// where <base> is, checked against html.Parse.
func TestScanHTMLForeignContent(t *testing.T) {
	for _, doc := range []string{
		`<div><svg></div><base href="https://cdn.example/app/"><a href="page.html">`,
		`<svg><font color=red><base href=X>`,
		`<p><math></p><base href=Y>`,
		`<section><div><svg><g></section><base href=Z>`,
		`<b><svg></b><base href=W>`,
	} {
		if !checkAgainstParse(t, doc, false) {
			t.Errorf("%q: no base found", doc)
		}
	}
}
