package journey

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// savedPages are the pages the browser journeys save: the home page, and
// the page with a <base>.
var savedPages = []map[string]string{{"path": "/", "name": "index"}, {"path": "/docs/guide/intro.html", "name": "intro"}}

// TestBrowser saves pages of the site in Chromium as a user would (MHTML
// through the DevTools protocol; "Webpage, complete"), and with SingleFile
// when it is installed, then runs the journeys: materialize of the MHTML,
// rewrite, links and check --saved-from of the saved pages, links of
// SingleFile's page; each result is opened offline in Chromium.
func TestBrowser(t *testing.T) {
	journeys(t)
	needChromium(t)
	srv := serve(t)
	origin := srv.URL
	dir := t.TempDir()
	var captured struct{ Pages int }
	runNode(t, "capture.js", map[string]any{"origin": origin, "pages": savedPages, "out": filepath.Join(dir, "saved"), "mhtml": filepath.Join(dir, "mhtml")}, &captured)
	singleFile, noSingleFile := singleFileCapture(t, dir, origin)
	srv.Close()

	t.Run("mhtml", func(t *testing.T) { mhtmlJourney(t, dir, origin) })
	t.Run("saved", func(t *testing.T) { savedJourney(t, dir, origin) })
	t.Run("singlefile", func(t *testing.T) {
		if singleFile == "" {
			t.Skip(noSingleFile + ": skipped")
		}
		singleFileJourney(t, dir, singleFile)
	})
}

// mhtmlGaps are what Chromium's MHTML snapshot cannot hold.
var mhtmlGaps = gaps{
	"module":          "Chromium's snapshot drops the page's scripts (and runs none of an MHTML page)",
	"js/lib/mark.mjs": "the snapshot keeps <link rel=modulepreload> but holds no script: the module is not in it",
	"js/util.mjs":     "the snapshot keeps <link rel=modulepreload> but holds no script: the module is not in it",
	"img/sprite.svg":  "the snapshot holds no resource of an SVG <use href>",
}

// mhtmlJourney: the MHTML files open offline as they are; materialize
// makes a tree of them that opens offline.
func mhtmlJourney(t *testing.T, dir, origin string) {
	mh := filepath.Join(dir, "mhtml")
	files := []string{filepath.Join(mh, "index.mhtml"), filepath.Join(mh, "intro.mhtml")}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var parts []string
		for _, line := range strings.Split(string(b), "\n") {
			if loc, ok := strings.CutPrefix(strings.TrimSpace(line), "Content-Location: "); ok {
				parts = append(parts, strings.TrimPrefix(loc, origin))
			}
		}
		t.Logf("%s: parts %v", filepath.Base(f), parts)
	}
	links, res := readLinks(t, dir, files[0], files[1])
	figures(t, "MHTML: links", len(files), len(links), res)
	_, failed := offline(t, "MHTML as saved", files, mhtmlGaps)
	for _, f := range failed {
		t.Logf("MHTML as saved: %s", f)
	}
	res = relurlIn(t, dir, "materialize", "--json", "-o", "mt", files[0], files[1])
	if res.code != 0 {
		t.Fatalf("materialize: exit %d\n%s", res.code, res.stderr)
	}
	var sum materialized
	if err := json.Unmarshal([]byte(res.stdout), &sum); err != nil {
		t.Fatal(err)
	}
	figures(t, "MHTML: materialize", sum.Pages, sum.Links, res)
	var pages []string
	for _, p := range htmlFiles(t, filepath.Join(dir, "mt")) {
		if filepath.Base(p) != "index.html" || filepath.Dir(p) != filepath.Join(dir, "mt") {
			pages = append(pages, p)
		}
	}
	assertOffline(t, "MHTML: materialize", pages, mhtmlGaps)
}

// savedGaps are what Chromium's "Webpage, complete" leaves broken: it
// keeps an import map as the site wrote it ("/js/lib/"), which names the
// live site once resolved against the page's URL.
var savedGaps = gaps{
	"module":          `the saved page keeps the site's import map ("lib/": "/js/lib/"): root-relative, it names the live site`,
	"js/lib/mark.mjs": `the module the import map maps, on the live site`,
}

// savedJourney: rewrite --saved-from keeps the saved page's links to its
// _files folder local and makes the others absolute, links --saved-from
// gives the local ones their file's URL, check --saved-from finds nothing;
// the rewritten pages open offline.
func savedJourney(t *testing.T, dir, origin string) {
	saved := filepath.Join(dir, "saved")
	res := relurlIn(t, dir, "rewrite", "--saved-from", "-o", "out", "saved")
	if res.code != 0 {
		t.Fatalf("rewrite --saved-from: exit %d\n%s", res.code, res.stderr)
	}
	out := filepath.Join(dir, "out")
	pages := htmlFiles(t, out)
	links, _ := readLinks(t, dir, "--saved-from", "out")
	figures(t, "saved page: rewrite --saved-from", len(pages), len(links), res)
	for _, l := range links {
		if strings.Contains(l.URL, "_files/") && !strings.HasPrefix(l.URL, "file:") {
			t.Errorf("links --saved-from: %s:%d: %q is a live URL %s, not the file saved beside the page", l.File, l.Line, l.Raw, l.URL)
		}
		if strings.Contains(l.Raw, "_files/") && strings.Contains(l.Raw, "://") {
			t.Errorf("rewrite --saved-from: %s:%d: the link to a saved file became %q", l.File, l.Line, l.Raw)
		}
	}
	for _, tree := range []string{"saved", "out"} {
		res := relurlIn(t, dir, "check", "--saved-from", tree)
		if res.code != 0 {
			t.Errorf("check --saved-from %s: exit %d\n%s%s", tree, res.code, res.stdout, res.stderr)
		}
	}
	// The pages as the browser saved them, for the comparison.
	_, failed := offline(t, "saved page as saved", htmlFiles(t, saved), savedGaps)
	for _, f := range failed {
		t.Logf("saved page as saved: %s", f)
	}
	assertOffline(t, "saved page: rewrite --saved-from", pages, savedGaps)
}

// singleFileCapture saves the home page with SingleFile (single-file-cli,
// driving the same Chromium), when it is installed; it returns the file
// written, or "" and why not. SingleFile sometimes loses its script's
// context in the page ("Execution context not found for SingleFile
// world") and writes nothing: it is tried three times.
func singleFileCapture(t *testing.T, dir, origin string) (string, string) {
	bin := os.Getenv("RELURL_SINGLE_FILE")
	if bin == "" {
		var err error
		if bin, err = exec.LookPath("single-file"); err != nil {
			return "", "no single-file (npm install single-file-cli, as .ci/run does, and put its bin on PATH or set RELURL_SINGLE_FILE)"
		}
	}
	chromium := os.Getenv("RELURL_CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	out := filepath.Join(dir, "singlefile", "index.html")
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		t.Fatal(err)
	}
	why := ""
	for try := 1; try <= 3; try++ {
		res := execIn(t, dir, bin, "--browser-executable-path="+chromium, `--browser-args=["--no-sandbox","--headless=new"]`, origin+"/", out)
		t.Logf("SingleFile, try %d: %v", try, res)
		if _, err := os.Stat(out); res.code == 0 && err == nil {
			return out, ""
		}
		why = strings.TrimSpace(res.stdout + res.stderr)
		t.Logf("SingleFile wrote nothing: %s", why)
	}
	return "", "SingleFile failed three times: " + why
}

// singleFileGaps are what SingleFile leaves out of its page.
var singleFileGaps = gaps{
	"module": "SingleFile removes scripts",
	"data:,": `SingleFile writes an external SVG <use href> as "data:,": the sprite is lost`,
}

// singleFileJourney: SingleFile's page holds every resource as data: URLs
// and every link absolute; relurl links reads it, and it opens offline.
func singleFileJourney(t *testing.T, dir, page string) {
	links, res := readLinks(t, dir, page)
	figures(t, "SingleFile: links", 1, len(links), res)
	assertOffline(t, "SingleFile", []string{page}, singleFileGaps)
}
