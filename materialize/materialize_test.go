package materialize

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/manifest"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/xmlrewrite"
)

// materialized runs Run over inputs into a new directory and fails the
// test on an error or a problem.
func materialized(t *testing.T, inputs []string, opts Options) (string, Summary) {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = filepath.Join(t.TempDir(), "out")
	}
	opts.Warn = func(w Warning) {
		if w.Problem {
			t.Errorf("problem: %v", w)
		} else {
			t.Logf("warning: %v", w)
		}
	}
	sum, err := Run(inputs, opts)
	if err != nil {
		t.Fatal(err)
	}
	return opts.Dir, sum
}

// withProblems runs Run over inputs and returns the problems it reported
// (the test expects some).
func withProblems(t *testing.T, inputs []string, opts Options) (Summary, []string) {
	t.Helper()
	var problems []string
	opts.Warn = func(w Warning) {
		if w.Problem {
			problems = append(problems, w.String())
		}
	}
	sum, err := Run(inputs, opts)
	must(t, err)
	return sum, problems
}

// readURLs reads DIR/urls.jsonl.
func readURLs(t *testing.T, dir string) map[string]URLRecord {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "urls.jsonl"))
	must(t, err)
	defer f.Close()
	m := map[string]URLRecord{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var r URLRecord
		must(t, json.Unmarshal(sc.Bytes(), &r))
		if r.Kind == "stale" {
			continue
		}
		m[r.URL] = r
	}
	return m
}

// capturedKeys is the set of captured URLs, http and https merged; a
// redirect from http to https of a URL whose https form was not captured
// does not count (its stub points at the web).
func capturedKeys(urls map[string]URLRecord) map[string]bool {
	keys := map[string]bool{}
	for u, rec := range urls {
		w, err := resolve.ParseWebURL(u, nil, resolve.Options{})
		if err != nil {
			continue
		}
		if rec.Kind == "redirect" {
			if f, err := resolve.ParseWebURL(rec.Redirect, nil, resolve.Options{}); err == nil && keyOf(f) == keyOf(w) {
				continue
			}
		}
		keys[keyOf(w)] = true
	}
	return keys
}

// checkLinks reads every HTML page and stylesheet of the tree dir as a
// browser would from file:// and requires that each link either names a
// file of the tree or is an absolute URL that was not captured. It
// returns the number of local and absolute links.
func checkLinks(t *testing.T, dir string) (local, web int) {
	t.Helper()
	captured := capturedKeys(readURLs(t, dir))
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := strings.ToLower(filepath.Ext(p))
		if ext != ".html" && ext != ".css" && ext != ".htm" && ext != ".svg" && ext != ".webmanifest" && ext != ".js" && ext != ".mjs" && ext != ".atom" && ext != ".xml" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		fileURL := (&url.URL{Scheme: "file", Path: p}).String()
		opts := htmlrewrite.Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: fileURL}}}
		check := func(l link.Link) error {
			if l.Err != nil {
				t.Errorf("%s: %q does not resolve: %v", p, l.Raw, l.Err)
				return nil
			}
			u, err := resolve.ParseWebURL(l.URL, nil, resolve.Options{})
			if err != nil {
				t.Errorf("%s: %q: %v", p, l.URL, err)
				return nil
			}
			switch u.Scheme() {
			case "file":
				target, err := url.PathUnescape(u.Pathname())
				if err != nil {
					t.Errorf("%s: %q: %v", p, l.URL, err)
					return nil
				}
				if !strings.HasPrefix(target, dir+"/") {
					t.Errorf("%s: %q leaves the tree (%s)", p, l.Raw, target)
					return nil
				}
				if info, err := os.Stat(target); err != nil || !info.Mode().IsRegular() {
					t.Errorf("%s: %q names no file of the tree (%s)", p, l.Raw, target)
				}
				local++
			case "http", "https":
				if captured[keyOf(u)] {
					t.Errorf("%s: %q is absolute but %s was captured", p, l.Raw, l.URL)
				}
				web++
			}
			return nil
		}
		switch ext {
		case ".css":
			_, err = htmlrewrite.CSSLinks(bytes.NewReader(data), opts, check)
		case ".svg", ".atom", ".xml":
			// Feeds honour xml:base, as feed readers do.
			_, err = xmlrewrite.Links(bytes.NewReader(data), xmlrewrite.Options{Document: link.Document{Context: opts.Context}},
				func(l link.Link) error { return check(l) })
		case ".webmanifest":
			_, err = manifest.Links(bytes.NewReader(data), manifest.Options{Document: link.Document{Context: opts.Context}},
				func(l link.Link) error {
					if l.Attr == "id" { // an identity, written absolute as captured
						return nil
					}
					return check(l)
				})
		case ".js", ".mjs":
			_, err = jsmodule.Links(bytes.NewReader(data), jsmodule.Options{Document: link.Document{Context: opts.Context}},
				func(l link.Link) error {
					// A specifier that is not URL-like is bare: a name for
					// the import map, which a relative path must never become.
					if l.Kind == link.Import && !strings.HasPrefix(l.Raw, "./") && !strings.HasPrefix(l.Raw, "../") {
						if _, abs := resolve.Scheme(l.Raw); !abs {
							t.Errorf("%s: specifier %q is neither absolute nor \"./\" or \"../\"", p, l.Raw)
						}
					}
					return check(l)
				})
		default:
			_, err = htmlrewrite.Links(bytes.NewReader(data), opts, check)
		}
		return err
	})
	must(t, err)
	return local, web
}

// neutral is a document with every link value replaced by "X" and its
// <base> removed: two documents that differ only in their links are equal
// once neutral.
func neutral(t *testing.T, data []byte, ext string) string {
	t.Helper()
	var out bytes.Buffer
	o := htmlrewrite.Options{
		Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "http://x.test/"}, Absolute: true, Fragments: true, Map: func(link.Link) (string, bool) { return "X", true }},
		Base:     htmlrewrite.BaseRemove, LazyLoad: true, Srcdoc: true}
	var err error
	switch ext {
	case ".css":
		_, err = htmlrewrite.RewriteCSS(&out, bytes.NewReader(data), o)
	case ".svg", ".atom", ".xml":
		_, err = xmlrewrite.Rewrite(&out, bytes.NewReader(data), xmlrewrite.Options{Document: link.Document{Context: o.Context, Absolute: true, Fragments: true, Map: o.Map}, EmptyXMLBase: true})
	case ".webmanifest":
		_, err = manifest.Rewrite(&out, bytes.NewReader(data), manifest.Options{Document: link.Document{Context: o.Context, Absolute: true, Fragments: true, Map: o.Map}})
	case ".js", ".mjs":
		_, err = jsmodule.Rewrite(&out, bytes.NewReader(data), jsmodule.Options{Document: link.Document{Context: o.Context, Absolute: true, Map: o.Map}})
	default:
		_, err = htmlrewrite.Rewrite(&out, bytes.NewReader(data), o)
	}
	must(t, err)
	return out.String()
}

// checkPayloads requires every payload of the fixture to be in the tree:
// byte for byte (the SHA-1 of the file is the record's payload digest) for
// resources, and for pages and stylesheets byte for byte but for the link
// values.
func checkPayloads(t *testing.T, dir string, recs []fixtureRecord) {
	t.Helper()
	urls := readURLs(t, dir)
	latest := map[string]fixtureRecord{}
	for _, r := range recs {
		if r.typ == "revisit" || strings.HasPrefix(r.status, "3") {
			continue
		}
		w, err := resolve.ParseWebURL(r.uri, nil, resolve.Options{})
		if err != nil || (w.Scheme() != "http" && w.Scheme() != "https") {
			continue
		}
		latest[w.Href()] = r // the fixture lists the captures of a URL oldest first
	}
	for u, r := range latest {
		rec, ok := urls[u]
		if !ok {
			t.Errorf("%s: not in urls.jsonl", u)
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rec.File)))
		if err != nil {
			t.Errorf("%s: %v", u, err)
			continue
		}
		if rec.Digest != sha1Digest([]byte(r.body)) {
			t.Errorf("%s: urls.jsonl digest %s, payload %s", u, rec.Digest, sha1Digest([]byte(r.body)))
		}
		if !rec.Rewritten {
			if got := sha1Digest(data); got != rec.Digest {
				t.Errorf("%s: %s has digest %s, payload %s", u, rec.File, got, rec.Digest)
			}
			continue
		}
		if tag := charsetTag("utf-8"); !strings.Contains(r.body, tag) {
			data = bytes.Replace(data, []byte(tag), nil, 1) // what withCharset adds
		}
		ext := filepath.Ext(rec.File)
		if a, b := neutral(t, []byte(r.body), ext), neutral(t, data, ext); a != b {
			t.Errorf("%s: %s differs from the payload beyond its links:\n%s\n---\n%s", u, rec.File, a, b)
		}
	}
	// A revisit's file holds its original's payload.
	if rec, ok := urls["http://site.test/img/copy.png"]; ok {
		if got := readFile(t, dir, rec.File); got != pngBytes {
			t.Errorf("revisit: copy.png holds %q", got)
		}
	}
}

func readFile(t *testing.T, dir, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	must(t, err)
	return string(b)
}

// TestFixture materializes the generated capture, from a plain WARC, a
// .warc.gz, a .warc.zst and a WACZ, and checks every hard case of the layout, the
// links and the payloads.
func TestFixture(t *testing.T) {
	src := t.TempDir()
	recs := writeFixture(t, src)
	for _, input := range []string{"fixture.warc", "fixture.warc.gz", "fixture.warc.zst", "fixture.wacz"} {
		t.Run(input, func(t *testing.T) {
			calls, last, total := 0, 0, 0
			out, sum := materialized(t, []string{filepath.Join(src, input)}, Options{Progress: func(done, all int) { calls, last, total = calls+1, done, all }})
			if calls != sum.URLs || last != sum.URLs || total != sum.URLs {
				t.Errorf("progress: %d calls, last %d of %d; %d URLs", calls, last, total, sum.URLs)
			}
			files := map[string]string{
				"http://site.test/":                     "site.test/index.html",                // trailing slash
				"http://site.test/docs":                 "site.test/docs.html",                 // file/directory clash
				"http://site.test/docs/":                "site.test/docs/index.html",           // trailing slash
				"http://site.test/docs/intro":           "site.test/docs/intro.html",           // extension from Content-Type
				"http://site.test/search?q=a+b&lang=en": "site.test/search;q=a+b&lang=en.html", // query in the name
				"http://site.test/search?q=%3F%23%25":   "site.test/search;q=%3F%23%25.html",
				"http://site.test/Readme":               "site.test/Readme.html", // case collision
				"http://site.test/readme":               "site.test/readme~1.html",
				"http://site.test/con":                  "site.test/con_.html",     // Windows device name
				"http://site.test/style.php":            "site.test/style.php.css", // extension a browser honours
				"https://site.test/secure":              "site.test/secure.html",
				"https://cdn.test/lib.js":               "cdn.test/lib.js", // second host
				"http://cdn.test:8080/notes.txt":        "cdn.test+8080/notes.txt",
				"http://site.test/old":                  "site.test/old.html",     // redirect stub
				"http://site.test/img/copy.png":         "site.test/img/copy.png", // revisit
				// Hostile target URIs stay inside the tree.
				"http://site.test/etc/evil":                     "site.test/etc/evil.html",
				"http://site.test/%2F..%2F..%2Fpasswd":          "site.test/%2F..%2F..%2Fpasswd.png",
				"http://site.test/lit%00nul%01ctl%7F":           "site.test/lit%00nul%01ctl%7F.png",
				"http://site.test/nul%00ctl%01/back:colon*star": "site.test/nul%00ctl%01/back%3Acolon%2Astar.png",
				"http://../escape.test/x":                       "%2E%2E/escape.test/x.png",
			}
			urls := readURLs(t, out)
			for u, want := range files {
				if got := urls[u].File; got != want {
					t.Errorf("%s: file %q, want %q", u, got, want)
				}
			}
			if _, ok := urls["file:///etc/passwd"]; ok {
				t.Errorf("a file: target URI was materialized")
			}
			long := urls["http://site.test/"+strings.Repeat("long", 80)].File
			if name := filepath.Base(long); len(name) > maxName || !strings.HasSuffix(name, ".html") || !strings.Contains(name, "~") {
				t.Errorf("long name not shortened with a hash: %q", name)
			}
			home := readFile(t, out, "site.test/index.html")
			for _, want := range []string{
				`<link rel="stylesheet" href="style.css">`,
				`<script src="../cdn.test/lib.js">`,
				`srcset="img/logo.png 1x, img/logo@2x.png 2x"`,
				`<a href="docs.html">`, `<a href="docs/intro.html#part-2">`, `<a href="docs/index.html">`,
				`<a href="search;q=a+b&amp;lang=en.html">`, `<a href="search;q=%253F%2523%2525.html">`,
				`<a href="new.html#sec">old (redirect chain)`, `<a href="https://elsewhere.test/">gone`,
				`<a href="https://uncaptured.test/x?y=1#z">`, `<a href="#top">`, `<a href="mailto:someone@site.test">`,
				`<a href="readme~1.html">`, `<a href="con_.html">`, `<a href="secure.html">`, `<a href="style.php.css">`,
				`url('img/bg.png')`,
			} {
				if !strings.Contains(home, want) {
					t.Errorf("home page lacks %s", want)
				}
			}
			page := readFile(t, out, "site.test/page.html")
			if strings.Contains(page, "<base") || !strings.Contains(page, `href="sub/rel.html"`) || !strings.Contains(page, `src="img/logo.png"`) {
				t.Errorf("page with <base href>: %s", page)
			}
			if css := readFile(t, out, "site.test/style.css"); !strings.Contains(css, `@import "more.css"`) || !strings.Contains(css, "url(img/bg.png)") || !strings.Contains(css, `url("https://uncaptured.test/bg.png")`) {
				t.Errorf("style.css: %s", css)
			}
			if css := readFile(t, out, "site.test/more.css"); !strings.Contains(css, "url('img/logo.png#frag')") {
				t.Errorf("more.css: %s", css)
			}
			if svg := readFile(t, out, "site.test/img/icon.svg"); !strings.Contains(svg, `<image href="logo.png"`) || !strings.Contains(svg, `xlink:href="logo@2x.png"`) || !strings.Contains(svg, `<a href="../docs.html">`) || !strings.Contains(svg, `.b { background: url(bg.png) }`) || !strings.Contains(svg, `url(#g)`) {
				t.Errorf("icon.svg: %s", svg)
			}
			if m := readFile(t, out, "site.test/app.webmanifest"); m != `{"id": "http://site.test/", "start_url": "index;utm=app.html", "scope": "index.html", "icons": [{"src": "img/logo.png", "sizes": "1x1"}]}` {
				t.Errorf("app.webmanifest: %s", m)
			}
			// Module specifiers stay URL-like ("./" where the relative
			// path alone would be a bare specifier); new URL() takes a path.
			if app := readFile(t, out, "site.test/js/app.mjs"); !strings.Contains(app, `import data from "./data.json" with { type: "json" }`) ||
				!strings.Contains(app, `from "../../cdn.test/esm/cdn.mjs"`) || !strings.Contains(app, `await import('./lazy.js')`) ||
				!strings.Contains(app, `new URL("../img/logo.png", import.meta.url)`) || !strings.Contains(app, `import("https://uncaptured.test/later.mjs")`) {
				t.Errorf("app.mjs: %s", app)
			}
			if m := readFile(t, out, "site.test/modules.html"); !strings.Contains(m, `{"imports": {"util": "./js/lib/mark.js"}}`) ||
				!strings.Contains(m, `<script type="module">import { mark } from "./js/lib/mark.js"; mark("inline");</script>`) ||
				!strings.Contains(m, `<script type="module" src="./js/app.mjs">`) {
				t.Errorf("modules.html: %s", m)
			}
			if lazy := readFile(t, out, "site.test/js/lazy.js"); !strings.Contains(lazy, `from "./lib/mark.js"`) {
				t.Errorf("lazy.js: %s", lazy)
			}
			if cdn := readFile(t, out, "cdn.test/esm/cdn.mjs"); !strings.Contains(cdn, `from "../../site.test/js/lib/mark.js"`) {
				t.Errorf("cdn.mjs: %s", cdn)
			}
			// Feeds: links resolved with xml:base, which is then emptied.
			if feed := readFile(t, out, "site.test/feed.atom"); !strings.Contains(feed, `<feed xmlns="http://www.w3.org/2005/Atom" xml:base="">`) ||
				!strings.Contains(feed, `<link rel="self" href="feed.atom"/><link href="index.html"/>`) ||
				!strings.Contains(feed, `<entry xml:base=""><id>tag:site.test,2026:intro</id><title>intro</title><link href="docs/intro.html"/>`) ||
				!strings.Contains(feed, `&lt;a href="search;q=c.html"&gt;c&lt;/a&gt; &lt;img src="img/logo.png"&gt;`) ||
				!strings.Contains(feed, `<id>http://site.test/</id>`) || !strings.Contains(feed, `<link href="https://uncaptured.test/post"/>`) {
				t.Errorf("feed.atom: %s", feed)
			}
			if rss := readFile(t, out, "site.test/rss.xml"); !strings.Contains(rss, `<link>index.html</link>`) || !strings.Contains(rss, `<link>new.html</link>`) ||
				!strings.Contains(rss, `&lt;a href="docs.html"&gt;`) || !strings.Contains(rss, `<enclosure url="img/bg.png"`) {
				t.Errorf("rss.xml: %s", rss)
			}
			stub := readFile(t, out, "site.test/old.html")
			if !strings.Contains(stub, `<meta http-equiv="refresh" content="0; url=new.html#sec">`) || !strings.Contains(stub, `<a href="new.html#sec">`) {
				t.Errorf("redirect stub: %s", stub)
			}
			if idx := readFile(t, out, "index.html"); !strings.Contains(idx, `<h2>site.test</h2>`) || !strings.Contains(idx, `href="site.test/docs/intro.html">http://site.test/docs/intro</a> — intro</li>`) {
				t.Errorf("index.html: %s", idx)
			}
			if sec := urls["https://site.test/secure"]; sec.Kind != "page" || sec.File != "site.test/secure.html" {
				t.Errorf("http → https redirect of a captured page: %+v", sec)
			}
			if stub := readFile(t, out, urls["http://site.test/only-http"].File); !strings.Contains(stub, `url=https://site.test/only-http"`) {
				t.Errorf("redirect to itself: %s", stub)
			}
			if bg := urls["http://site.test/img/bg.png"]; !bg.Revisit || bg.Status != 200 || bg.Time != "2026-03-04T05:06:07Z" || bg.ContentType != "image/png" {
				t.Errorf("304 revisit: %+v", bg)
			}
			if sum.Pages == 0 || sum.Resources == 0 || sum.Redirects != 4 || sum.Revisits != 2 || sum.Uncaptured == 0 || sum.Problems != 0 {
				t.Errorf("summary %+v", sum)
			}
			checkLinks(t, out)
			checkPayloads(t, out, recs)
		})
	}
}

// TestNothingOutside runs over the hostile captures and requires that the
// only new files are under DIR.
func TestNothingOutside(t *testing.T) {
	src := t.TempDir()
	writeFixture(t, src)
	top := t.TempDir()
	out := filepath.Join(top, "a", "out")
	materialized(t, []string{filepath.Join(src, "fixture.warc")}, Options{Dir: out})
	filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if p == top || p == filepath.Dir(out) || p == out {
			return nil
		}
		if !strings.HasPrefix(p, out+string(filepath.Separator)) {
			t.Errorf("written outside DIR: %s", p)
		}
		rel, _ := filepath.Rel(out, p)
		if !filepath.IsLocal(rel) || strings.ContainsFunc(rel, func(r rune) bool { return r < 0x20 || r == 0x7f || strings.ContainsRune(`<>:"\|?*`, r) }) {
			t.Errorf("unportable name %q", rel)
		}
		return nil
	})
}

// TestTwice runs twice into one DIR: the second run writes the same tree
// and leaves every file untouched.
func TestTwice(t *testing.T) {
	src := t.TempDir()
	writeFixture(t, src)
	in := []string{filepath.Join(src, "fixture.warc")}
	out, first := materialized(t, in, Options{})
	mtimes := map[string]time.Time{}
	old := time.Now().Add(-time.Hour)
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if !d.IsDir() {
			os.Chtimes(p, old, old)
			mtimes[p] = old
		}
		return nil
	})
	_, second := materialized(t, in, Options{Dir: out})
	if first != second {
		t.Errorf("second run: %+v, first %+v", second, first)
	}
	n := 0
	filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if d.IsDir() {
			return nil
		}
		n++
		info, _ := d.Info()
		if m, ok := mtimes[p]; !ok || !info.ModTime().Equal(m) {
			t.Errorf("%s rewritten by the second run (or new)", p)
		}
		return nil
	})
	if n != len(mtimes) {
		t.Errorf("%d files after the second run, %d after the first", n, len(mtimes))
	}
}

// TestAt picks the capture closest to Options.At, and the latest without.
func TestAt(t *testing.T) {
	src := t.TempDir()
	writeFixture(t, src)
	in := []string{filepath.Join(src, "fixture.warc")}
	out, _ := materialized(t, in, Options{})
	if home := readFile(t, out, "site.test/index.html"); !strings.Contains(home, "<title>home</title>") {
		t.Errorf("latest: %s", home)
	}
	out, _ = materialized(t, in, Options{At: time.Date(2025, 2, 1, 0, 0, 0, 0, time.UTC)})
	if home := readFile(t, out, "site.test/index.html"); !strings.Contains(home, "<title>old home</title>") {
		t.Errorf("--at 2025-02-01: %s", home)
	}
	if got := readURLs(t, out)["http://site.test/"].Time; got != "2025-01-01T00:00:00Z" {
		t.Errorf("urls.jsonl time %q", got)
	}
}

// TestHosts keeps one host; links to the others become absolute.
func TestHosts(t *testing.T) {
	src := t.TempDir()
	writeFixture(t, src)
	out, sum := materialized(t, []string{filepath.Join(src, "fixture.warc")}, Options{Hosts: []string{"site.test"}})
	if _, err := os.Stat(filepath.Join(out, "cdn.test")); err == nil {
		t.Errorf("cdn.test materialized")
	}
	if home := readFile(t, out, "site.test/index.html"); !strings.Contains(home, `<script src="https://cdn.test/lib.js">`) {
		t.Errorf("link to a left-out host: %s", home)
	}
	if sum.Excluded != 4 {
		t.Errorf("excluded %d", sum.Excluded)
	}
	checkLinks(t, out)
}

// TestMerge materializes two inputs into one tree: a WARC and an MHTML
// file whose parts link to each other's URLs.
func TestMerge(t *testing.T) {
	src := t.TempDir()
	writeFixture(t, src)
	mht := "From: <Saved by test>\r\nSnapshot-Content-Location: http://other.test/saved\r\nSubject: saved\r\nDate: Fri, 02 Jan 2026 03:04:05 +0000\r\nMIME-Version: 1.0\r\n" +
		"Content-Type: multipart/related; type=\"text/html\"; boundary=\"B\"\r\n\r\n" +
		"--B\r\nContent-Type: text/html\r\nContent-Location: http://other.test/saved\r\n\r\n" +
		"<!DOCTYPE html><html><body><a href=\"http://site.test/docs\">docs</a><img src=\"cid:pic@x\"><img src=\"i.png\"><a href=\"/missing\">m</a></body></html>\r\n" +
		"--B\r\nContent-Type: image/png\r\nContent-ID: <pic@x>\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n" +
		"--B\r\nContent-Type: image/png\r\nContent-Location: i.png\r\n\r\npng\r\n" +
		"--B\r\nContent-Type: text/html\r\nContent-Location: ../../../../etc/evil.html\r\n\r\n<p>evil</p>\r\n" +
		"--B\r\nContent-Type: text/plain\r\nContent-Location: file:///etc/passwd\r\n\r\nroot\r\n" +
		"--B--\r\n"
	must(t, os.WriteFile(filepath.Join(src, "saved.mhtml"), []byte(mht), 0o644))
	// Two archives whose parts have relative Content-Locations only
	// (RFC 2557 §5(e): thismessage:/): each keeps its own parts.
	for i, word := range []string{"one", "two"} {
		rel := "MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"B\"\r\n\r\n" +
			"--B\r\nContent-Type: text/html\r\nContent-Location: page.html\r\n\r\n<img src=\"img.png\"><a href=\"nowhere.html\">" + word + "</a>\r\n" +
			"--B\r\nContent-Type: image/png\r\nContent-Location: img.png\r\n\r\n" + word + "\r\n--B--\r\n"
		must(t, os.WriteFile(filepath.Join(src, fmt.Sprintf("rel%d.mhtml", i)), []byte(rel), 0o644))
	}
	out, sum := materialized(t, []string{filepath.Join(src, "fixture.warc.gz"), filepath.Join(src, "saved.mhtml"), filepath.Join(src, "rel0.mhtml"), filepath.Join(src, "rel1.mhtml")}, Options{})
	for i, word := range []string{"one", "two"} {
		dir := fmt.Sprintf("_thismessage/%d/", i+2)
		if page := readFile(t, out, dir+"page.html"); !strings.Contains(page, `<img src="img.png"><a href="thismessage:/nowhere.html">`+word) {
			t.Errorf("%spage.html: %s", dir, page)
		}
		if img := readFile(t, out, dir+"img.png"); img != word {
			t.Errorf("%simg.png: %q", dir, img)
		}
	}
	saved := readFile(t, out, "other.test/saved.html")
	for _, want := range []string{`href="../site.test/docs.html"`, `src="../_cid/pic@x.png"`, `src="i.png"`, `href="http://other.test/missing"`} {
		if !strings.Contains(saved, want) {
			t.Errorf("saved page lacks %s: %s", want, saved)
		}
	}
	urls := readURLs(t, out)
	if f := urls["http://other.test/etc/evil.html"].File; f != "other.test/etc/evil.html" {
		t.Errorf("hostile Content-Location: %q", f)
	}
	if f := urls["file:///etc/passwd"].File; f != "_file/%2Fetc%2Fpasswd.txt" {
		t.Errorf("file: Content-Location: %q", f)
	}
	if sum.Inputs != 4 {
		t.Errorf("inputs %d", sum.Inputs)
	}
	checkLinks(t, out)
}

// TestUnrewritable: a page whose links cannot all be rewritten (a tag
// over the token bound) is written as captured and counted as a problem,
// never silently.
func TestUnrewritable(t *testing.T) {
	src := t.TempDir()
	body := `<a href="/x">x</a><img alt="` + strings.Repeat("a", 200) + `" src="/y">`
	warc := fixtureRecord{uri: "http://u.test/", headers: []string{htmlType}, body: body}.bytes(0)
	in := filepath.Join(src, "u.warc")
	must(t, os.WriteFile(in, warc, 0o644))
	out := filepath.Join(src, "out")
	sum, problems := withProblems(t, []string{in}, Options{Dir: out, MaxToken: 100})
	if sum.Problems != 1 || len(problems) != 1 || !strings.Contains(problems[0], "http://u.test/: links not rewritten") {
		t.Errorf("problems %d %v", sum.Problems, problems)
	}
	if got := readFile(t, out, "u.test/index.html"); got != body {
		t.Errorf("not written as captured: %q", got)
	}
}

// TestCheckTree runs package linkcheck's checker (relurl check) over the
// materialized fixture: an independent reading of the tree must find
// nothing — no missing file or anchor, no absolute or root-relative link
// into the tree, no link that climbs out, no letter-case mismatch, no two
// names that are one on a case-insensitive system. Then, with one file
// removed, it must find the links to it missing (the check did read).
func TestCheckTree(t *testing.T) {
	src := t.TempDir()
	writeFixture(t, src)
	out, _ := materialized(t, []string{filepath.Join(src, "fixture.warc")}, Options{})
	for _, f := range checkTree(t, out) {
		t.Errorf("%s:%d: %s: %s: %s", f.File, f.Line, f.Problem, f.Link, f.Reason)
	}
	must(t, os.Remove(filepath.Join(out, "site.test", "img", "bg.png")))
	missing := 0
	for _, f := range checkTree(t, out) {
		if f.Problem == linkcheck.Missing && strings.HasSuffix(f.Link, "img/bg.png") {
			missing++
		}
	}
	if missing == 0 {
		t.Errorf("check did not see the links to a removed file")
	}
}

func checkTree(t *testing.T, dir string) []linkcheck.Finding {
	t.Helper()
	c := &linkcheck.Checker{Spec: resolve.WHATWG, Dir: dir, Root: (&url.URL{Scheme: "file", Path: dir + "/"}).String()}
	must(t, c.Prepare())
	var found []linkcheck.Finding
	for f, err := range tree.Walk([]string{dir}) {
		must(t, err)
		if !c.Reads(f.Kind) {
			continue
		}
		data, err := os.ReadFile(f.Path)
		must(t, err)
		fs, err := c.Check(f, data)
		must(t, err)
		found = append(found, fs...)
	}
	return append(found, c.Finish()...)
}

// TestSymlinkInDir: a symbolic link planted in DIR (by an earlier,
// hostile tree) is not followed: the files under it are problems, and
// nothing is written where it points.
func TestSymlinkInDir(t *testing.T) {
	src := t.TempDir()
	writeFixture(t, src)
	top := t.TempDir()
	elsewhere := filepath.Join(top, "elsewhere")
	out := filepath.Join(top, "out")
	must(t, os.MkdirAll(elsewhere, 0o755))
	must(t, os.MkdirAll(out, 0o755))
	must(t, os.Symlink(elsewhere, filepath.Join(out, "cdn.test")))
	sum, problems := withProblems(t, []string{filepath.Join(src, "fixture.warc")}, Options{Dir: out})
	if all := strings.Join(problems, "\n"); sum.Problems != 2 || !strings.Contains(all, "cdn.test/lib.js") || !strings.Contains(all, "cdn.test/esm/cdn.mjs") {
		t.Errorf("problems %d: %v", sum.Problems, problems)
	}
	if names, _ := os.ReadDir(elsewhere); len(names) != 0 {
		t.Errorf("written through the link: %v", names)
	}
	if _, err := os.Stat(filepath.Join(out, "site.test", "index.html")); err != nil {
		t.Errorf("the rest of the tree: %v", err)
	}
}

// TestCharsetFromOpen: the <meta charset> a page gets names the encoding
// the open step decided and the page was read and rewritten in, not one
// decided again from the rewritten bytes. Here the Content-Type's label
// names no encoding and the captured page's first 1024 bytes declare
// none: it is read as UTF-8 (HTML §13.2.3.1, base.Encoding). Its <meta
// charset="koi8-r"> starts past byte 1024, so no browser read it either;
// once the <base> is removed it lies within the first 1024 bytes of the
// file written, which a browser would then read as KOI8-R. Deciding again
// from those bytes (the old withCharset) found koi8-r and wrote nothing.
func TestCharsetFromOpen(t *testing.T) {
	head := `<html><head><base href="http://u.test/d/"><!--`
	meta := `<meta charset="koi8-r">`
	body := head + strings.Repeat("-", 1020-len(head)-3) + "-->" + meta + `<a href="/x">x</a>`
	if strings.Index(body, meta) != 1020 {
		t.Fatalf("meta at %d", strings.Index(body, meta))
	}
	src := t.TempDir()
	warc := fixtureRecord{uri: "http://u.test/", headers: []string{"Content-Type: text/html; charset=x-nonsense"}, body: body}.bytes(0)
	in := filepath.Join(src, "u.warc")
	must(t, os.WriteFile(in, warc, 0o644))
	out, _ := materialized(t, []string{in}, Options{})
	got := readFile(t, out, "u.test/index.html")
	if !strings.HasPrefix(got, `<meta charset="utf-8"><html><head><!--`) {
		t.Errorf("written: %.80q...", got)
	}
	if i := strings.Index(got, meta); i < 0 || i > 1024 {
		t.Errorf("the page's own <meta> at %d", i)
	}
}
