package htmlrewrite

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/htmltree/htmltreetest"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// checkBaseAgainstParse fails t when the rewriter's decisions about
// <base> differ from what html.Parse makes of the document (HTML Standard,
// "the document base URL": the first base element with an href in tree
// order, in the document's order where the parser moves nodes, as
// htmltreetest.FirstBase says): the base its links resolve against;
// --base-element remove leaves no <base href> that counts; --base-element
// absolute makes the one that counts hold the absolute base. It reports
// whether doc has one.
func checkBaseAgainstParse(t testing.TB, name, doc string) bool {
	t.Helper()
	found := false
	for _, scripting := range []bool{true, false} {
		found = checkBaseReading(t, name, doc, scripting)
	}
	return found
}

// checkBaseReading is checkBaseAgainstParse for one reading of
// <noscript>: html.Parse and the rewriter with the same scripting flag
// (Options.Scripting; the default, false, reads it as markup).
func checkBaseReading(t testing.TB, name, doc string, scripting bool) bool {
	t.Helper()
	name = fmt.Sprintf("%s (scripting %v)", name, scripting)
	want, found := htmltreetest.FirstBase(doc, scripting)
	opts := testOptions()
	opts.Scripting = scripting
	wantBase := testBase
	if found {
		r, err := resolve.NewResolver(opts.Context.Spec, testBase, resolve.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if wantBase, err = r.Reference(strings.Trim(want, "\t\n\f\r ")); err != nil {
			wantBase = testBase // an unusable href: the fallback, with a warning
		}
	}
	d, err := Open(strings.NewReader(doc), opts)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if got := d.Base().URL; got != wantBase {
		t.Fatalf("%s: base %q, html.Parse's %q (href %q, found %v)\n%s", name, got, wantBase, want, found, doc)
	}
	for _, mode := range []BaseMode{BaseRemove, BaseAbsolute} {
		opts.Base = mode
		var out bytes.Buffer
		if _, err := Rewrite(&out, strings.NewReader(doc), opts); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, gotFound := htmltreetest.FirstBase(out.String(), scripting)
		switch {
		case mode == BaseRemove && gotFound:
			t.Fatalf("%s: --base-element remove left <base href=%q>, which html.Parse takes as the base\n%s\n=>\n%s", name, got, doc, out.String())
		case mode == BaseAbsolute && gotFound != found,
			mode == BaseAbsolute && found && got != wantBase && got != want:
			t.Fatalf("%s: --base-element absolute: html.Parse's base of the output %q (found %v), want %q\n%s\n=>\n%s", name, got, gotFound, wantBase, doc, out.String())
		}
	}
	return found
}

// TestBaseAgreesWithParse checks the rewriter's choice of <base> (the
// base, remove, absolute) against html.Parse on 20,000 generated
// documents, well formed and misnested, made of the cases package
// htmltree models (the <base> scan and the rewriter read the
// tree through one model).
func TestBaseAgreesWithParse(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 1000
	}
	r := rand.New(rand.NewPCG(7, 8))
	found := 0
	for i := range 2 * n {
		if checkBaseAgainstParse(t, "generated", htmltreetest.Generate(r.IntN, i%2 == 1)) {
			found++
		}
	}
	if found < n/5 || found > 2*n*4/5 {
		t.Fatalf("%d of %d documents have a base: the generator lost its balance", found, 2*n)
	}
}

// TestBaseAgreesWithParseCorpus is TestBaseAgreesWithParse on corpus A.
func TestBaseAgreesWithParseCorpus(t *testing.T) {
	for _, p := range testkit.PagesA(t) {
		checkBaseAgainstParse(t, p.Name, string(p.Data))
	}
}

// TestBaseAfterForeignContent holds two documents where foreign content
// closed by a mismatched end tag decides whether <base> counts.
func TestBaseAfterForeignContent(t *testing.T) {
	for _, doc := range []string{
		`<div><svg></div><base href="https://cdn.example/app/"><a href="page.html">`,
		`<svg><font color=red><base href="https://cdn.example/x/">`,
	} {
		if !checkBaseAgainstParse(t, "issue 11", doc) {
			t.Fatalf("%q: html.Parse finds no base", doc)
		}
	}
	var links []string
	_, err := Links(strings.NewReader(`<div><svg></div><base href="https://cdn.example/app/"><a href="page.html">`), testOptions(), func(l link.Link) error {
		links = append(links, l.URL)
		return nil
	})
	if err != nil || len(links) != 1 || links[0] != "https://cdn.example/app/page.html" {
		t.Fatalf("links %q, %v", links, err)
	}
}

// FuzzBaseAgreesWithParse is TestBaseAgreesWithParse with the fuzzer
// choosing the document's structure.
func FuzzBaseAgreesWithParse(f *testing.F) {
	f.Add([]byte{3, 5, 9, 0, 1, 2}, true)
	f.Fuzz(func(t *testing.T, choices []byte, misnest bool) {
		checkBaseAgainstParse(t, "fuzz", htmltreetest.Generate(htmltreetest.Chooser(choices), misnest))
	})
}
