package journey

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// wgetGaps are what wget leaves out of its captures of the site.
var wgetGaps = gaps{"img/sprite.svg": "wget reads no SVG <use href>: the sprite is not captured"}

// TestWget captures the site with wget (a mirror with its WARC, and a
// mirror wget converted itself with -k), then runs the journeys: links of
// the WARC against links of the mirror, materialize of the WARC, and
// rewrite --relative of the mirror against wget -k; each resulting tree is
// opened offline in Chromium.
func TestWget(t *testing.T) {
	journeys(t)
	wget := need(t, "wget", "apt-get install wget")
	srv := serve(t)
	origin := srv.URL
	dir := t.TempDir()
	for _, args := range [][]string{
		{"--warc-file=site", "-P", "raw"},
		{"--convert-links", "-P", "wgetk"},
	} {
		res := execIn(t, dir, wget, append([]string{"--mirror", "--page-requisites", "--no-host-directories", "--no-verbose"}, append(args, origin+"/")...)...)
		t.Logf("%v", res)
		// 8: the server answered some request with an error (the 404,
		// robots.txt), which wget reports so.
		if res.code != 0 && res.code != 8 {
			t.Fatalf("wget: exit %d\n%s", res.code, res.stderr)
		}
	}
	// From here on nothing can reach the site.
	srv.Close()

	t.Run("links", func(t *testing.T) { wgetLinks(t, dir, origin) })
	t.Run("materialize", func(t *testing.T) { wgetMaterialize(t, dir, origin) })
	t.Run("relative", func(t *testing.T) { wgetRelative(t, dir, origin) })
}

// A record is one link of relurl links, the fields compared.
type record struct {
	Raw, URL, Tag, Attr, Kind string
	Rel                       []string
	Line, Column              int
	Offset                    int64
	File, Target              string
	Record                    int64
	BaseSource                string `json:"base_source"`
}

// readLinks runs relurl links ARGS and decodes its records.
func readLinks(t *testing.T, dir string, args ...string) ([]record, result) {
	t.Helper()
	res := relurlIn(t, dir, append([]string{"links"}, args...)...)
	if res.code != 0 {
		t.Fatalf("relurl links: exit %d\n%s", res.code, res.stderr)
	}
	var out []record
	sc := bufio.NewScanner(strings.NewReader(res.stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out, res
}

// figures logs a journey's figures for the closing note.
func figures(t *testing.T, journey string, pages, links int, res result) {
	t.Helper()
	t.Logf("FIGURES %s: %d pages, %d links, %v, peak RSS %d KiB", journey, pages, links, res.wall.Round(100_000), res.rssKiB)
}

// wgetLinks: relurl links of wget's WARC gives, document for document, the
// links relurl links gives of the mirror wget wrote in the same run, once
// the fields only a record has are left out. What only one side has is
// named: the WARC's record-level links (a 301's Location), its captures
// wget does not keep (error responses; a second capture of a URL), and
// the mirror's copy of a redirect's target under the redirect's name.
func wgetLinks(t *testing.T, dir, origin string) {
	warc, res := readLinks(t, dir, "site.warc.gz")
	figures(t, "wget WARC: links", 0, len(warc), res)
	mirror, res := readLinks(t, dir, "--base", origin+"/", "raw")
	figures(t, "wget mirror: links", len(htmlFiles(t, filepath.Join(dir, "raw"))), len(mirror), res)

	byDoc := func(rs []record, doc func(record) string, keep func(record) bool) map[string][]record {
		m := map[string][]record{}
		first := map[string]int64{} // a URL captured twice: its first record
		for _, r := range rs {
			if !keep(r) {
				continue
			}
			d := doc(r)
			if rec, ok := first[d]; ok && rec != r.Record {
				continue
			}
			first[d] = r.Record
			r.File, r.Target, r.Record = "", "", 0
			r.URL = dirURL(r.URL)
			m[d] = append(m[d], r)
		}
		return m
	}
	// A document is named by its URL, a directory's index file by the
	// directory (wget saves http://h/docs/ as docs/index.html).
	w := byDoc(warc, func(r record) string { return r.Target }, func(r record) bool {
		if r.Kind == "redirect" || r.Kind == "header" {
			t.Logf("links: only in the WARC (the HTTP head's, a record-level link): %s %s -> %s", r.Target, r.Attr, r.URL)
			return false
		}
		return true
	})
	m := byDoc(mirror, func(r record) string {
		return strings.TrimSuffix(origin+"/"+r.File[len("raw/"):], "index.html")
	}, func(record) bool { return true })
	for _, d := range sortedKeys(w, m) {
		a, b := w[d], m[d]
		switch {
		case b == nil:
			t.Errorf("links: %s: %d links in the WARC, none in the mirror", d, len(a))
		case d == origin+"/old-about":
			t.Logf("links: %s: the WARC's 301 body has %d links, the mirror's file %d: wget saved the redirect's target (about.html) under the redirect's name", d, len(a), len(b))
		case a == nil:
			t.Errorf("links: %s: %d links in the mirror, none in the WARC", d, len(b))
		default:
			if strings.HasSuffix(d, ".mjs") {
				// A module's bare specifiers count where the import map
				// of the page loading it maps them: the tree's walk
				// knows that page, a WARC record of text/javascript
				// does not (its relative imports are read alike).
				b = slices.DeleteFunc(slices.Clone(b), func(r record) bool {
					bare := r.URL == "" && !strings.HasPrefix(r.Raw, "./") && !strings.HasPrefix(r.Raw, "../") && !strings.HasPrefix(r.Raw, "/")
					if bare {
						t.Logf("links: KNOWN DIFFERENCE: %s: the bare specifier %q, which the page's import map maps, is the mirror's only: a WARC record has no page", d, r.Raw)
					}
					return bare
				})
			}
			if !slices.EqualFunc(a, b, func(x, y record) bool { return fmt.Sprint(x) == fmt.Sprint(y) }) {
				t.Errorf("links: %s: the WARC's links differ from the mirror's:\nWARC:   %v\nmirror: %v", d, a, b)
			}
		}
	}
	t.Logf("links: %d documents compared", len(m))
}

// dirURL writes a URL of a directory's index file as the directory's: the
// mirror's index.html is the WARC's http://h/.
func dirURL(u string) string {
	path, frag, found := strings.Cut(u, "#")
	if rest, ok := strings.CutSuffix(path, "/index.html"); ok {
		path = rest + "/"
	}
	if found {
		return path + "#" + frag
	}
	return path
}

// sortedKeys returns the keys of the maps, each once, sorted.
func sortedKeys[V any](ms ...map[string]V) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

// materialized is relurl materialize --json's summary, the fields read.
type materialized struct {
	Pages, Resources, Redirects, Links, Local, Uncaptured, Problems int
	ErrorResponses                                                  int `json:"error_responses"`
}

// wgetMaterialize: materialize of wget's WARC writes no error page (the
// 404 of missing.html, robots.txt's), keeps the links to them absolute and
// counts them; the tree works offline and relurl check finds nothing.
func wgetMaterialize(t *testing.T, dir, origin string) {
	res := relurlIn(t, dir, "materialize", "--json", "-o", "mat", "site.warc.gz")
	if res.code != 0 {
		t.Fatalf("materialize: exit %d\n%s", res.code, res.stderr)
	}
	var sum materialized
	if err := json.Unmarshal([]byte(res.stdout), &sum); err != nil {
		t.Fatal(err)
	}
	figures(t, "wget WARC: materialize", sum.Pages, sum.Links, res)
	if sum.ErrorResponses != 2 || sum.Problems != 0 || sum.Pages != 4 || sum.Redirects != 1 {
		t.Errorf("materialize: %+v; want 2 error responses (missing.html, robots.txt), 0 problems, 4 pages, 1 redirect", sum)
	}
	mat := filepath.Join(dir, "mat")
	var pages []string
	err := filepath.WalkDir(mat, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), errorMark) {
			t.Errorf("materialize wrote a captured error page: %s", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(mat, "urls.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var u struct{ URL, File, Kind string }
		if err := json.Unmarshal([]byte(line), &u); err != nil {
			t.Fatal(err)
		}
		if u.Kind == "page" {
			pages = append(pages, filepath.Join(mat, filepath.FromSlash(u.File)))
		}
	}
	check := relurlIn(t, dir, "check", "mat")
	if check.code != 0 {
		t.Errorf("relurl check of the materialized tree: exit %d\n%s%s", check.code, check.stdout, check.stderr)
	}
	if !browser(t) {
		return
	}
	assertOffline(t, "wget WARC: materialize", pages, wgetGaps)
}

// browser reports whether the browser checks can run, logging why not.
func browser(t *testing.T) bool {
	t.Helper()
	ok := true
	t.Run("browser", func(t *testing.T) {
		ok = false
		needChromium(t)
		ok = true
	})
	return ok
}

// wgetRelative: rewrite --relative of the raw mirror, against the mirror
// wget converted itself (-k): link by link, each difference named; both
// trees are opened offline (wget -k's failures are logged, for the
// comparison).
func wgetRelative(t *testing.T, dir, origin string) {
	if browser(t) {
		_, failed := offline(t, "wget -k (for comparison)", htmlFiles(t, filepath.Join(dir, "wgetk")), wgetGaps)
		for _, f := range failed {
			t.Logf("wget -k: %s", f)
		}
	}
	res := relurlIn(t, dir, "rewrite", "--relative", "--base", origin+"/", "-o", "rel", "raw")
	if res.code != 0 {
		t.Fatalf("rewrite --relative: exit %d\n%s", res.code, res.stderr)
	}
	rel, _ := readLinks(t, dir, "rel")
	figures(t, "wget mirror: rewrite --relative", len(htmlFiles(t, filepath.Join(dir, "rel"))), len(rel), res)
	conv, _ := readLinks(t, dir, "wgetk")
	compareConversions(t, rel, conv)
	if browser(t) {
		assertOffline(t, "wget mirror: rewrite --relative", htmlFiles(t, filepath.Join(dir, "rel")), wgetGaps)
	}
}

// compareConversions compares, document by document and link by link in
// document order, relurl's relative rewrite with wget -k's conversion, and
// logs each difference with the reason wget's differs where it is known.
func compareConversions(t *testing.T, rel, conv []record) {
	key := func(r record) string { _, f, _ := strings.Cut(r.File, "/"); return f }
	based := map[string]bool{} // relurl's documents with a <base href>
	group := func(rs []record) map[string][]record {
		m := map[string][]record{}
		for _, r := range rs {
			if r.BaseSource == "embedded" {
				based[key(r)] = true // resolved against the page's <base href>
			}
			if r.Tag == "base" {
				based[key(r)] = true
				continue // wget -k writes <base href="">: no link left
			}
			m[key(r)] = append(m[key(r)], r)
		}
		return m
	}
	a := group(rel)
	b := group(conv)
	same, diff := 0, 0
	for _, f := range sortedKeys(a, b) {
		x, y := a[f], b[f]
		if len(x) != len(y) {
			t.Logf("conversion: %s: %d links in relurl's, %d in wget -k's", f, len(x), len(y))
		}
		for i := 0; i < min(len(x), len(y)); i++ {
			if x[i].Raw == y[i].Raw {
				same++
				continue
			}
			diff++
			t.Logf("conversion: %s:%d: %s %s: relurl %q, wget -k %q (%s)", f, x[i].Line, x[i].Tag, x[i].Attr, x[i].Raw, y[i].Raw, why(x[i], y[i], based[f]))
		}
	}
	t.Logf("conversion: %d links the same, %d differ", same, diff)
}

// why names the reason wget -k's conversion of a link differs, where the
// site shows it; based says relurl's document kept a <base href>.
func why(rel, wgetk record, based bool) string {
	switch {
	case rel.Attr == "importmap:address":
		return "wget does not read import maps"
	case rel.Tag == "use":
		return "wget reads no SVG <use href>; with the <base> emptied, its reference now resolves against the file"
	case strings.HasPrefix(wgetk.Raw, "old-about") || strings.HasSuffix(wgetk.Raw, "/old-about"):
		return "wget saved about.html's content under the redirect's name and points every link to about.html there"
	case strings.HasPrefix(rel.Raw, "#") && strings.Contains(wgetk.Raw, "#"):
		return "wget -k names the file in an in-page link"
	case strings.Contains(wgetk.Raw, "://"):
		return "wget -k makes a link to a file it did not download absolute"
	case strings.HasSuffix(wgetk.Raw, "index.html") && (rel.Raw == "" || strings.HasSuffix(rel.Raw, "/")):
		return "wget -k names a directory's index file"
	case based:
		return "wget -k empties the <base href> and writes each link relative to the file; relurl's is relative to the base kept"
	}
	return "unexplained"
}
