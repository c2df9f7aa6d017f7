package materialize

import (
	"encoding/json"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl/resolve"
)

// browserResult is what testdata/browser.js prints.
type browserResult struct {
	Pages   int
	Failed  []struct{ Page, URL, Error string }
	Web     []struct{ Page, URL string }
	Errors  []struct{ Page, Error string }
	Marks   map[string]map[string]string // page → data-* of its <html>
	Console []struct{ Page, Error string }
	root    string // the URL of the tree's top directory, as loaded
}

// refused returns the URLs of the module scripts the browser refused to
// load from file://: Chromium treats a file: page as an opaque origin and
// fetches module scripts in CORS mode, which file: URLs cannot pass
// ("Access to script at 'file:///…' from origin 'null' has been blocked by
// CORS policy"; whatwg/html#8121).
func (res browserResult) refused() map[string]bool {
	const prefix, suffix = "Access to script at '", "' from origin 'null' has been blocked by CORS policy"
	m := map[string]bool{}
	for _, c := range res.Console {
		if rest, ok := strings.CutPrefix(c.Error, prefix); ok {
			if u, _, ok := strings.Cut(rest, suffix); ok {
				m[u] = true
			}
		}
	}
	return m
}

// chromiumAvailable returns the chromium binary, or skips the test with
// what is missing: Debian's chromium and npm's playwright-core (found by
// node through NODE_PATH; .ci/run installs both).
func chromiumAvailable(t *testing.T) {
	t.Helper()
	bin := os.Getenv("RELURL_CHROMIUM")
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no Chromium at %s (apt-get install chromium, or set RELURL_CHROMIUM): the real-browser test is skipped", bin)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node: the real-browser test is skipped")
	}
	if err := exec.Command("node", "-e", "require.resolve('playwright-core')").Run(); err != nil {
		t.Skip("node cannot find playwright-core (npm install playwright-core and set NODE_PATH to its node_modules, as .ci/run does): the real-browser test is skipped")
	}
}

// loadInBrowser opens every page of the tree dir that urls.jsonl lists
// (pages and redirect stubs, and DIR/index.html) in headless Chromium
// from file:// with every non-file request blocked; js false turns
// scripts off, so that only the references of the tree itself are loaded.
// env is added to browser.js's environment (see its RELURL_BROWSER_*).
func loadInBrowser(t *testing.T, dir string, js bool, env ...string) browserResult {
	t.Helper()
	pages := []string{filepath.Join(dir, "index.html")}
	for _, r := range readURLs(t, dir) {
		if r.Kind == "page" || r.Kind == "redirect" {
			pages = append(pages, filepath.Join(dir, filepath.FromSlash(r.File)))
		}
	}
	list := filepath.Join(t.TempDir(), "pages.json")
	b, _ := json.Marshal(pages)
	must(t, os.WriteFile(list, b, 0o644))
	script, err := filepath.Abs("testdata/browser.js")
	must(t, err)
	cmd := exec.Command("node", script, list)
	cmd.Env = append(os.Environ(), env...)
	if !js {
		cmd.Env = append(cmd.Env, "RELURL_BROWSER_JS=0")
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("browser.js: %v", err)
	}
	var res browserResult
	must(t, json.Unmarshal(out, &res))
	res.root = (&url.URL{Scheme: "file", Path: dir + "/"}).String()
	for _, e := range env {
		if o, ok := strings.CutPrefix(e, "RELURL_BROWSER_ORIGIN="); ok {
			res.root = o + "/"
		}
	}
	if res.Pages+len(res.Errors) != len(pages) {
		t.Errorf("%d pages loaded and %d errors of %d", res.Pages, len(res.Errors), len(pages))
	}
	return res
}

// checkBrowser requires every page to load, no request for a file of the
// tree to fail (but module scripts refused from file://, which the caller
// checks with refused), and no request to the web for a captured URL. It returns
// the failed file: requests outside the tree: a page's scripts asking for
// "//host/x" or "/x", which from file:// the browser makes file: URLs
// (the links of the tree itself are checked by checkLinks); the caller
// decides whether those are allowed.
func checkBrowser(t *testing.T, dir string, res browserResult) (outside int) {
	t.Helper()
	captured := capturedKeys(readURLs(t, dir))
	for _, e := range res.Errors {
		t.Errorf("page did not load: %s: %s", e.Page, e.Error)
	}
	inTree := res.root
	refused := res.refused()
	for _, f := range res.Failed {
		if refused[f.URL] && strings.HasPrefix(f.URL, "file:") {
			continue
		}
		if !strings.HasPrefix(f.URL, inTree) {
			outside++
			continue
		}
		t.Errorf("local request failed: %s (from %s): %s", f.URL, f.Page, f.Error)
	}
	for _, w := range res.Web {
		if u, err := resolve.ParseWebURL(w.URL, nil, resolve.Options{}); err == nil && captured[keyOf(u)] {
			t.Errorf("request to the web for a captured URL: %s (from %s)", w.URL, w.Page)
		}
	}
	return outside
}

// TestBrowser loads every page of the materialized fixture in headless
// Chromium from file:// with the network cut.
func TestBrowser(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no browser")
	}
	chromiumAvailable(t)
	src := t.TempDir()
	writeFixture(t, src)
	out, _ := materialized(t, []string{filepath.Join(src, "fixture.warc.gz")}, Options{})
	res := loadInBrowser(t, out, true)
	if n := checkBrowser(t, out, res); n > 0 {
		t.Errorf("%d failed requests for files outside the tree: %+v", n, res.Failed)
	}
	// The stub of a redirect out of the capture was followed, and blocked.
	var web []string
	for _, w := range res.Web {
		web = append(web, w.URL)
	}
	if !strings.Contains(strings.Join(web, " "), "https://elsewhere.test/") {
		t.Errorf("the redirect out of the capture was not followed: %v", web)
	}
	t.Logf("%d pages loaded; %d requests to the web (uncaptured) blocked", res.Pages, len(res.Web))
	// From file:// Chromium refuses every module script (whatwg/html#8121):
	// the module graph's files are in the tree, and are refused.
	var refused []string
	for u := range res.refused() {
		if rel, ok := strings.CutPrefix(u, res.root); ok {
			refused = append(refused, rel)
		}
	}
	slices.Sort(refused)
	if want := []string{"site.test/js/app.mjs", "site.test/js/lazy.js", "site.test/js/lib/mark.js", "site.test/js/mapped.mjs"}; !slices.Equal(refused, want) {
		t.Errorf("module scripts refused from file://: %v, want %v", refused, want)
	}

	// The harness sees a broken tree: a missing image is a failed request.
	must(t, os.Remove(filepath.Join(out, "site.test", "img", "bg.png")))
	res = loadInBrowser(t, out, true)
	missing := false
	for _, f := range res.Failed {
		missing = missing || strings.HasSuffix(f.URL, "/site.test/img/bg.png")
	}
	if !missing {
		t.Errorf("a missing file was not reported as a failed request: %+v", res.Failed)
	}
}

// TestBrowserModules runs the fixture's module graph (static imports,
// a JSON module, a dynamic import, new URL(x, import.meta.url), another
// host's module, an import map and an inline module script) in Chromium
// with the network cut, from a loopback HTTP server serving the tree, and
// from file:// with --allow-file-access-from-files (without it, Chromium
// refuses module scripts from file://: TestBrowser). Each module marks the
// page's <html> when it runs.
func TestBrowserModules(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no browser")
	}
	chromiumAvailable(t)
	src := t.TempDir()
	writeFixture(t, src)
	out, _ := materialized(t, []string{filepath.Join(src, "fixture.warc.gz")}, Options{})
	want := []string{"dynamic", "importmap", "inline", "static", "url"}
	modules := filepath.Join(out, "site.test", "modules.html")
	marks := func(res browserResult) []string {
		got := slices.Sorted(maps.Keys(res.Marks[modules]))
		return got
	}

	srv := httptest.NewServer(http.FileServer(http.Dir(out)))
	defer srv.Close()
	res := loadInBrowser(t, out, true, "RELURL_BROWSER_ORIGIN="+srv.URL, "RELURL_BROWSER_ROOT="+out)
	checkBrowser(t, out, res)
	if got := marks(res); !slices.Equal(got, want) {
		t.Errorf("over HTTP: modules run %v, want %v; console: %+v", got, want, res.Console)
	}

	res = loadInBrowser(t, out, true, "RELURL_BROWSER_ARGS=--allow-file-access-from-files")
	if n := checkBrowser(t, out, res); n > 0 {
		t.Errorf("%d failed requests for files outside the tree: %+v", n, res.Failed)
	}
	if got := marks(res); !slices.Equal(got, want) {
		t.Errorf("file:// with --allow-file-access-from-files: modules run %v, want %v; console: %+v", got, want, res.Console)
	}
}
