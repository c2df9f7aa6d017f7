package journey

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// needChromium skips the test without Debian's chromium and npm's
// playwright-core (found by node through NODE_PATH; .ci/run installs both).
func needChromium(t testing.TB) {
	t.Helper()
	bin := os.Getenv("RELURL_CHROMIUM")
	if bin == "" {
		bin = "/usr/bin/chromium"
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("no Chromium at %s (apt-get install chromium, or set RELURL_CHROMIUM): skipped", bin)
	}
	need(t, "node", "apt-get install nodejs")
	if err := exec.Command("node", "-e", "require.resolve('playwright-core')").Run(); err != nil {
		t.Skip("node cannot find playwright-core (npm install playwright-core and set NODE_PATH to its node_modules, as .ci/run does): skipped")
	}
}

// runNode runs testdata/SCRIPT with spec (written as JSON) and decodes what
// it prints into out.
func runNode(t testing.TB, script string, spec, out any) {
	t.Helper()
	abs, err := filepath.Abs(filepath.Join("testdata", script))
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "spec.json")
	b, _ := json.Marshal(spec)
	if err := os.WriteFile(f, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", abs, f)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, stderr.String())
	}
	if err := json.Unmarshal(stdout, out); err != nil {
		t.Fatalf("%s: %v: %s", script, err, stdout)
	}
}

// A loaded page is what offline.js saw of one page.
type loaded struct {
	Page, Error string
	Requests    []struct {
		URL, Type string
		OK        bool
		Error     string
	}
	Left       []string
	Site, Base string
	Marks      map[string]string
	Images     []struct {
		Src string
		OK  bool
	}
	Uses []struct {
		Href  string
		Width float64
	}
	Anchors []string
}

// gaps are what a capture lacks through no fault of relurl's, each with
// why: a URL suffix (a file the capturing tool did not fetch) or "module"
// (the module graph does not run), mapped to the reason.
type gaps map[string]string

// match returns the gap the URL u falls in, or "".
func (g gaps) match(u string) string {
	u, _, _ = strings.Cut(u, "#")
	for k := range g {
		if k != "module" && strings.HasSuffix(u, k) {
			return k
		}
	}
	return ""
}

// offline opens pages (absolute paths) from file: in Chromium with the
// network cut, with --allow-file-access-from-files (without it Chromium
// refuses module scripts and external SVG <use> from file:, whatever the
// tree), and fails the test unless every page loads its stylesheets
// (--site, and --base from the @import), images, sprite and module graph
// from disk, no request leaves the machine, no local request fails, and
// no link leads to a missing file or a captured error page; a gap of the
// capture is logged instead. It returns the number of requests served
// from disk and what failed (the caller decides whether that fails the
// test).
func offline(t *testing.T, journey string, pages []string, g gaps) (served int, failed []string) {
	t.Helper()
	var res struct{ Pages []loaded }
	fail := func(format string, args ...any) { failed = append(failed, fmt.Sprintf(format, args...)) }
	runNode(t, "offline.js", map[string]any{"pages": pages, "args": []string{"--allow-file-access-from-files"}}, &res)
	seen := map[string]bool{}
	gap := func(k, what string) {
		if !seen[k] {
			seen[k] = true
			t.Logf("%s: known gap %s (%s): %s", journey, k, g[k], what)
		}
	}
	for _, p := range res.Pages {
		name := p.Page
		if p.Error != "" {
			fail("%s: %s did not load: %s", journey, name, p.Error)
			continue
		}
		if p.Site != "loaded" || p.Base != "loaded" {
			fail("%s: %s: stylesheet not applied (--site %q, --base %q from the @import)", journey, name, p.Site, p.Base)
		}
		for _, im := range p.Images {
			if !im.OK {
				if k := g.match(im.Src); k != "" {
					gap(k, "image "+im.Src)
				} else {
					fail("%s: %s: image %s not loaded", journey, name, im.Src)
				}
			}
		}
		for _, u := range p.Uses {
			if u.Width <= 0 {
				if k := g.match(u.Href); k != "" {
					gap(k, "<use href="+u.Href+"> draws nothing")
				} else {
					fail("%s: %s: <use href=%q> draws nothing (sprite not loaded)", journey, name, u.Href)
				}
			}
		}
		if p.Marks["app"] != "ran" || p.Marks["lib"] != "ran" {
			if _, ok := g["module"]; ok {
				gap("module", "marks "+formatMarks(p.Marks))
			} else {
				fail("%s: %s: the module graph did not run (marks %v)", journey, name, p.Marks)
			}
		}
		for _, r := range p.Requests {
			switch {
			case r.OK:
				served++
			case !strings.HasPrefix(r.URL, "file:"):
				// Aborted by the routing: in Left.
			case g.match(r.URL) != "":
				gap(g.match(r.URL), "request "+r.URL+": "+r.Error)
			default:
				fail("%s: %s: local request failed: %s (%s): %s", journey, name, r.URL, r.Type, r.Error)
			}
		}
		for _, u := range p.Left {
			if k := g.match(u); k != "" {
				gap(k, "request left the machine (blocked): "+u)
			} else {
				fail("%s: %s: request left the machine (blocked): %s", journey, name, u)
			}
		}
		for _, a := range p.Anchors {
			if err := checkAnchor(a); err != "" {
				fail("%s: %s: %s", journey, name, err)
			}
		}
	}
	t.Logf("%s: %d pages opened from file: with the network cut, %d requests served from disk", journey, len(res.Pages), served)
	return served, failed
}

// checkAnchor says what is wrong when the link a (absolute) leads to a
// file that is missing or holds a captured error page.
func checkAnchor(a string) string {
	u, err := url.Parse(a)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	p := filepath.FromSlash(u.Path)
	if info, err := os.Stat(p); err == nil && info.IsDir() {
		p = filepath.Join(p, "index.html")
	}
	b, err := os.ReadFile(p)
	switch {
	case err != nil:
		return "link to " + a + " leads nowhere: " + err.Error()
	case bytes.Contains(b, []byte(errorMark)):
		return "link to " + a + " leads to a captured error page"
	}
	return ""
}

func formatMarks(m map[string]string) string {
	b, _ := json.Marshal(m)
	return string(b)
}

// htmlFiles returns the .html files under dir, absolute.
func htmlFiles(t testing.TB, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") {
			abs, err := filepath.Abs(p)
			if err != nil {
				return err
			}
			out = append(out, abs)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// assertOffline is offline, failing the test on what failed.
func assertOffline(t *testing.T, journey string, pages []string, g gaps) {
	t.Helper()
	_, failed := offline(t, journey, pages, g)
	for _, f := range failed {
		t.Error(f)
	}
}
