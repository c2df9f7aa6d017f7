package materialize

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestCorpusA materializes a WARC made from corpus A (258 real pages,
// testdata/bench/corpus.sh; set RELURL_CORPUS_A to its folder), each page
// the home page of a host of its own, and checks the tree as TestFixture
// and TestBrowser do.
func TestCorpusA(t *testing.T) {
	dir := os.Getenv("RELURL_CORPUS_A")
	if dir == "" {
		t.Skip("RELURL_CORPUS_A is not set (build corpus A with ../shared/bench/corpus.sh)")
	}
	names, err := filepath.Glob(filepath.Join(dir, "*.html"))
	must(t, err)
	if len(names) == 0 {
		t.Fatalf("no pages in %s", dir)
	}
	sort.Strings(names)
	var warc bytes.Buffer
	var recs []fixtureRecord
	for i, name := range names {
		body, err := os.ReadFile(name)
		must(t, err)
		host := "p" + strings.TrimSuffix(filepath.Base(name), ".html")[:12] + ".corpus.test"
		r := fixtureRecord{uri: "http://" + host + "/", headers: []string{"Content-Type: text/html"}, body: string(body)}
		recs = append(recs, r)
		warc.Write(r.bytes(i))
	}
	in := filepath.Join(t.TempDir(), "corpus-a.warc")
	must(t, os.WriteFile(in, warc.Bytes(), 0o644))
	out, sum := materialized(t, []string{in}, Options{})
	if sum.Pages != len(names) {
		t.Errorf("%d pages of %d", sum.Pages, len(names))
	}
	local, web := checkLinks(t, out)
	checkPayloads(t, out, recs)
	t.Logf("corpus A: %d pages, %d resources, %d redirects, %d links (%d local, %d uncaptured); in the tree: %d local and %d absolute links; %d warnings, %d problems",
		sum.Pages, sum.Resources, sum.Redirects, sum.Links, sum.Local, sum.Uncaptured, local, web, sum.Warnings, sum.Problems)
	if testing.Short() {
		return
	}
	chromiumAvailable(t)
	// Scripts off: only the tree's own references load, and none fails.
	res := loadInBrowser(t, out, false)
	if n := checkBrowser(t, out, res); n > 0 {
		t.Errorf("scripts off: %d failed requests for files outside the tree: %+v", n, res.Failed)
	}
	t.Logf("corpus A in Chromium, scripts off: %d pages loaded, %d file requests failed, %d requests to the web blocked (all uncaptured)", res.Pages, len(res.Failed), len(res.Web))
	// Scripts on: what they compute ("//host/x" from file://) may miss, but
	// never a file of the tree.
	res = loadInBrowser(t, out, true)
	outside := checkBrowser(t, out, res)
	t.Logf("corpus A in Chromium, scripts on: %d pages loaded, %d file requests failed (%d script-made, outside the tree), %d requests to the web blocked (all uncaptured)", res.Pages, len(res.Failed), outside, len(res.Web))
}

// TestMHTMLFixtures materializes each MHTML fixture of testdata/mhtml on
// its own and all of them into one tree: every usable part is a file,
// every link of the tree resolves to a file of it or is absolute to an
// uncaptured URL, and the pages load in Chromium without a failed local
// request. The invalid fixtures are problems, named, never a panic.
func TestMHTMLFixtures(t *testing.T) {
	inputs, err := filepath.Glob("../testdata/mhtml/*/*.mht*")
	must(t, err)
	if len(inputs) == 0 {
		t.Fatal("no MHTML fixtures")
	}
	invalid := map[string]bool{"invalid-bad-boundary.mht": true, "missing_boundary.mhtml": true, "missing_boundary_header.mhtml": true}
	for _, in := range inputs {
		out := filepath.Join(t.TempDir(), "out")
		sum, problems := withProblems(t, []string{in}, Options{Dir: out})
		name := filepath.Base(in)
		if invalid[name] != (sum.Problems > 0) {
			t.Errorf("%s: problems %v", name, problems)
		}
		if sum.Problems == 0 {
			checkLinks(t, out)
		}
		t.Logf("%s: %d parts as files (%d pages, %d resources), %d links (%d local, %d uncaptured), %d problems", name, sum.Pages+sum.Resources, sum.Pages, sum.Resources, sum.Links, sum.Local, sum.Uncaptured, sum.Problems)
	}
	out := filepath.Join(t.TempDir(), "all")
	sum, err := Run(inputs, Options{Dir: out})
	must(t, err)
	checkLinks(t, out)
	t.Logf("all %d MHTML fixtures in one tree: %d URLs, %d pages, %d resources, %d links (%d local, %d uncaptured), %d warnings, %d problems",
		len(inputs), sum.URLs, sum.Pages, sum.Resources, sum.Links, sum.Local, sum.Uncaptured, sum.Warnings, sum.Problems)
	if testing.Short() {
		return
	}
	chromiumAvailable(t)
	res := loadInBrowser(t, out, true)
	if n := checkBrowser(t, out, res); n > 0 {
		t.Errorf("%d failed requests for files outside the tree: %+v", n, res.Failed)
	}
	t.Logf("MHTML fixtures in Chromium: %d pages loaded, %d local requests failed, %d requests to the web blocked (all uncaptured)", res.Pages, len(res.Failed), len(res.Web))
}
