package materialize

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// A fixtureRecord is one record of the generated capture.
type fixtureRecord struct {
	typ     string // "response" (default), "resource", "revisit"
	uri     string
	date    string // WARC-Date; default 2026-01-02T03:04:05Z
	status  string // HTTP status line after "HTTP/1.1 "; default "200 OK"
	headers []string
	body    string
	id      string
	extra   []string // more WARC header fields
}

func sha1Digest(b []byte) string {
	s := sha1.Sum(b)
	return "sha1:" + base32.StdEncoding.EncodeToString(s[:])
}

// warcRecord writes one WARC/1.1 record.
func (f fixtureRecord) bytes(n int) []byte {
	typ := f.typ
	if typ == "" {
		typ = "response"
	}
	date := f.date
	if date == "" {
		date = "2026-01-02T03:04:05Z"
	}
	id := f.id
	if id == "" {
		id = fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", n)
	}
	var block []byte
	head := []string{"WARC-Type: " + typ, "WARC-Record-ID: " + id, "WARC-Date: " + date, "WARC-Target-URI: " + f.uri}
	switch typ {
	case "resource":
		block = []byte(f.body)
		head = append(head, "Content-Type: "+f.headers[0], "WARC-Payload-Digest: "+sha1Digest(block))
	default:
		status := f.status
		if status == "" {
			status = "200 OK"
		}
		h := "HTTP/1.1 " + status + "\r\n" + strings.Join(append(append([]string{}, f.headers...), fmt.Sprintf("Content-Length: %d", len(f.body))), "\r\n") + "\r\n\r\n"
		block = []byte(h + f.body)
		head = append(head, "Content-Type: application/http; msgtype=response")
		if typ == "response" {
			head = append(head, "WARC-Payload-Digest: "+sha1Digest([]byte(f.body)))
		}
	}
	head = append(head, f.extra...)
	head = append(head, fmt.Sprintf("Content-Length: %d", len(block)))
	var b bytes.Buffer
	b.WriteString("WARC/1.1\r\n" + strings.Join(head, "\r\n") + "\r\n\r\n")
	b.Write(block)
	b.WriteString("\r\n\r\n")
	return b.Bytes()
}

const (
	pngBytes = "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82"
	htmlType = "Content-Type: text/html; charset=utf-8"
	css      = "Content-Type: text/css"
	png      = "Content-Type: image/png"
	js       = "Content-Type: application/javascript"
)

// modulesPage loads the fixture's module graph: an import map whose
// address is root-relative, a module script by src, a modulepreload and an
// inline module script.
const modulesPage = `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>modules</title>
<script type="importmap">{"imports": {"util": "/js/lib/mark.js"}}</script>
<link rel="modulepreload" href="/js/lazy.js">
<script type="module" src="/js/app.mjs"></script>
<script type="module" src="/js/mapped.mjs"></script>
<script type="module">import { mark } from "/js/lib/mark.js"; mark("inline");</script>
</head><body><a href="/">home</a></body></html>
`

// fixtureRecords is the generated capture: each hard case of a capture
// (redirects, revisits, query strings, encodings, missing records).
func fixtureRecords() []fixtureRecord {
	page := func(title, body string) string {
		return "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + title + "</title></head><body>\n" + body + "\n</body></html>\n"
	}
	return []fixtureRecord{
		// An older capture of the home page: the later one wins.
		{uri: "http://site.test/", date: "2025-01-01T00:00:00Z", headers: []string{htmlType}, body: page("old home", `<p>old</p>`)},
		{uri: "http://site.test/", headers: []string{htmlType}, body: page("home", `<p id="top">home</p>
<link rel="stylesheet" href="/style.css">
<script src="https://cdn.test/lib.js"></script>
<img src="img/logo.png" srcset="img/logo.png 1x, img/logo@2x.png 2x" alt="">
<img src="img/copy.png" alt="">
<a href="/docs">docs</a> <a href="/docs/intro#part-2">intro</a> <a href="docs/">docs dir</a>
<a href="/search?q=a+b&amp;lang=en">search</a> <a href="search?q=%3F%23%25">odd query</a>
<a href="/old">old (redirect chain)</a> <a href="/gone">gone (redirect out)</a>
<a href="/page">page with base</a> <a href="/Readme">Readme</a> <a href="/readme">readme</a>
<a href="https://uncaptured.test/x?y=1#z">uncaptured</a> <a href="#top">top</a>
<a href="mailto:someone@site.test">mail</a> <a href="/con">con</a> <a href="/`+strings.Repeat("long", 80)+`">long</a>
<a href="/evil">evil</a> <a href="https://site.test/secure">https</a> <a href="/style.php">php css</a>
<div style="background: url('img/bg.png')"></div>
<object data="img/icon.svg" type="image/svg+xml"></object>
<link rel="manifest" href="/app.webmanifest"> <a href="/modules">modules</a>
<link rel="alternate" type="application/atom+xml" href="/feed.atom"> <a href="/rss">rss</a>`)},
		// A web app manifest: its URL members point at the tree.
		{uri: "http://site.test/app.webmanifest", headers: []string{"Content-Type: application/manifest+json"}, body: `{"id": "/", "start_url": "/?utm=app", "scope": "/", "icons": [{"src": "img/logo.png", "sizes": "1x1"}]}`},
		{uri: "http://site.test/?utm=app", headers: []string{htmlType}, body: page("app start", `<a href="/">home</a>`)},
		// SVG as a document: its href and xlink:href are links.
		{uri: "http://site.test/img/icon.svg", headers: []string{"Content-Type: image/svg+xml"}, body: `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10">
<style>rect { fill: url(#g) } .b { background: url(/img/bg.png) }</style>
<image href="logo.png" width="1" height="1"/><image xlink:href="/img/logo@2x.png" width="1" height="1"/><a href="/docs"><text>d</text></a>
</svg>
`},
		{uri: "http://site.test/style.css", headers: []string{css}, body: "@import \"more.css\";\nbody { background: url(img/bg.png) }\n.x { background-image: url(\"https://uncaptured.test/bg.png\") }\n"},
		{uri: "http://site.test/more.css", headers: []string{css}, body: "p { background: url('/img/logo.png#frag') }\n"},
		{uri: "http://site.test/style.php", headers: []string{css}, body: "a { background: url(img/bg.png) }\n"},
		{uri: "http://site.test/img/logo.png", headers: []string{png}, body: pngBytes, id: "<urn:uuid:logo>"},
		{uri: "http://site.test/img/logo@2x.png", headers: []string{png}, body: pngBytes + "2x"},
		{uri: "http://site.test/img/bg.png", headers: []string{png}, body: pngBytes + "bg"},
		// A revisit: identical payload, stored once.
		{typ: "revisit", uri: "http://site.test/img/copy.png", headers: []string{png}, extra: []string{
			"WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest",
			"WARC-Refers-To: <urn:uuid:logo>", "WARC-Refers-To-Target-URI: http://site.test/img/logo.png",
			"WARC-Payload-Digest: " + sha1Digest([]byte(pngBytes)), "WARC-Truncated: length",
		}},
		// A revisit of the server-not-modified profile (304), found by
		// WARC-Refers-To-Target-URI and -Date: the payload is bg.png's.
		{typ: "revisit", uri: "http://site.test/img/bg.png", date: "2026-03-04T05:06:07Z", status: "304 Not Modified", headers: []string{"ETag: x"}, extra: []string{
			"WARC-Profile: http://netpreserve.org/warc/1.1/revisit/server-not-modified",
			"WARC-Refers-To-Target-URI: http://site.test/img/bg.png", "WARC-Refers-To-Date: 2026-01-02T03:04:05Z",
		}},
		// File/directory clash: /docs and /docs/intro; /docs/ too.
		{uri: "http://site.test/docs", headers: []string{htmlType}, body: page("docs", `<a href="docs/intro">intro</a> <a href="/">home</a>`)},
		{uri: "http://site.test/docs/intro", headers: []string{htmlType}, body: page("intro", `<h2 id="part-2">2</h2><a href="../docs">up</a> <a href="./">dir</a>`)},
		{uri: "http://site.test/docs/", headers: []string{htmlType}, body: page("docs dir", `<a href="intro">intro</a>`)},
		// Query strings.
		{uri: "http://site.test/search?q=a+b&lang=en", headers: []string{htmlType}, body: page("search", `<a href="?q=c">next</a> <a href="/">home</a>`)},
		{uri: "http://site.test/search?q=c", headers: []string{htmlType}, body: page("search c", `<a href="/search?q=a+b&amp;lang=en">back</a>`)},
		{uri: "http://site.test/search?q=%3F%23%25", headers: []string{htmlType}, body: page("odd", `<a href="/">home</a>`)},
		// A redirect chain: /old → /older → /new; /gone leaves the capture.
		{uri: "http://site.test/old", status: "301 Moved Permanently", headers: []string{"Location: /older", htmlType}, body: "moved"},
		{uri: "http://site.test/older", status: "302 Found", headers: []string{"Location: http://site.test/new#sec"}},
		{uri: "http://site.test/new", headers: []string{htmlType}, body: page("new", `<h2 id="sec">sec</h2><a href="/old">old</a>`)},
		{uri: "http://site.test/gone", status: "301 Moved Permanently", headers: []string{"Location: https://elsewhere.test/"}},
		// <base href> in a page.
		{uri: "http://site.test/page", headers: []string{htmlType}, body: "<!DOCTYPE html><html><head><base href=\"http://site.test/sub/\"></head><body><a href=\"rel\">rel</a> <img src=\"../img/logo.png\"></body></html>"},
		{uri: "http://site.test/sub/rel", headers: []string{htmlType}, body: page("rel", `<a href="/page">page</a>`)},
		// Case collision.
		{uri: "http://site.test/Readme", headers: []string{htmlType}, body: page("Readme", "R")},
		{uri: "http://site.test/readme", headers: []string{htmlType}, body: page("readme", "r")},
		// Windows-reserved and long names.
		{uri: "http://site.test/con", headers: []string{htmlType}, body: page("con", "con")},
		{uri: "http://site.test/" + strings.Repeat("long", 80), headers: []string{htmlType}, body: page("long", `<a href="/">home</a>`)},
		// https and http share a file.
		{uri: "https://site.test/secure", headers: []string{htmlType}, body: page("secure", `<a href="http://site.test/">home</a>`)},
		// A later http → https redirect of the same URL: one file, the page.
		{uri: "http://site.test/secure", date: "2026-06-01T00:00:00Z", status: "301 Moved Permanently", headers: []string{"Location: https://site.test/secure"}},
		// An http → https redirect alone: a stub to the absolute URL.
		{uri: "http://site.test/only-http", status: "301 Moved Permanently", headers: []string{"Location: https://site.test/only-http"}},
		// A module graph (see modulesPage): static imports (relative,
		// root-relative, absolute to another captured host), a JSON module,
		// a dynamic import, new URL(x, import.meta.url), an import map and
		// an inline module script; every module marks <html> when it runs.
		{uri: "http://site.test/modules", headers: []string{htmlType}, body: modulesPage},
		{uri: "http://site.test/js/app.mjs", headers: []string{"Content-Type: text/javascript"}, body: `import { mark } from "./lib/mark.js";
import data from "/js/data.json" with { type: "json" };
import { cdn } from "https://cdn.test/esm/cdn.mjs";
if (data.ok && cdn === "cdn") mark("static");
const lazy = await import('./lazy.js');
lazy.run();
const logo = new URL("../img/logo.png", import.meta.url);
if (logo.protocol !== "https:" && logo.pathname.endsWith("/site.test/img/logo.png")) mark("url");
// Not captured: absolute, and never loaded.
export const later = () => import("https://uncaptured.test/later.mjs");
`},
		{uri: "http://site.test/js/lib/mark.js", headers: []string{js}, body: "export function mark(name) { document.documentElement.dataset[name] = \"ok\"; }\n"},
		{uri: "http://site.test/js/lazy.js", headers: []string{"Content-Type: text/javascript; charset=utf-8"}, body: "import { mark } from \"/js/lib/mark.js\";\nexport function run() { mark(\"dynamic\"); }\n"},
		{uri: "http://site.test/js/data.json", headers: []string{"Content-Type: application/json"}, body: `{"ok": true}`},
		{uri: "http://site.test/js/mapped.mjs", headers: []string{"Content-Type: text/javascript"}, body: "import { mark } from \"util\";\nmark(\"importmap\");\n"},
		// Feeds: Atom with nested xml:base (an entry's empty link is the
		// entry's base) and escaped HTML content; RSS served as generic XML.
		{uri: "http://site.test/feed.atom", headers: []string{"Content-Type: application/atom+xml"}, body: `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:base="http://site.test/docs/">
<title>site</title><id>http://site.test/</id><link rel="self" href="/feed.atom"/><link href="../"/>
<entry xml:base="intro"><id>tag:site.test,2026:intro</id><title>intro</title><link href=""/>
<content type="html">&lt;a href="../search?q=c"&gt;c&lt;/a&gt; &lt;img src="/img/logo.png"&gt;</content></entry>
<entry><id>tag:site.test,2026:x</id><title>x</title><link href="https://uncaptured.test/post"/></entry>
</feed>
`},
		{uri: "http://site.test/rss", headers: []string{"Content-Type: application/xml"}, body: `<?xml version="1.0"?>
<rss version="2.0"><channel><title>s</title><link>http://site.test/</link>
<item><title>n</title><link>http://site.test/new</link><description>&lt;a href="/docs"&gt;docs&lt;/a&gt;</description><enclosure url="http://site.test/img/bg.png" length="1" type="image/png"/></item>
</channel></rss>
`},
		// A second host.
		{uri: "https://cdn.test/lib.js", headers: []string{js}, body: "console.log('lib');\n"},
		{uri: "https://cdn.test/esm/cdn.mjs", headers: []string{"Content-Type: text/javascript"}, body: "export { mark } from \"https://site.test/js/lib/mark.js\";\nexport const cdn = \"cdn\";\n"},
		{typ: "resource", uri: "http://cdn.test:8080/notes.txt", headers: []string{"text/plain"}, body: "notes\n"},
		// Hostile target URIs: they land inside the tree, under names that
		// cannot climb out.
		{uri: "http://site.test/../../../../etc/evil", headers: []string{htmlType}, body: page("evil", "x")},
		{uri: "http://site.test/a/%2E%2E/%2e%2e/%2F..%2F..%2Fpasswd", headers: []string{png}, body: pngBytes + "p"},
		{uri: "http://site.test/nul%00ctl%01\\back:colon*star", headers: []string{png}, body: pngBytes + "n"},
		{uri: "http://site.test/lit\x00nul\x01ctl\x7f", headers: []string{png}, body: pngBytes + "l"},
		{uri: "http://../../escape.test/x", headers: []string{png}, body: pngBytes + "e"},
		{uri: "file:///etc/passwd", headers: []string{png}, body: "root"},
	}
}

// writeFixture writes the capture as dir/fixture.warc, dir/fixture.warc.gz
// (one member per record), dir/fixture.warc.zst (one frame per record) and
// dir/fixture.wacz, and returns the records.
func writeFixture(t testing.TB, dir string) []fixtureRecord {
	t.Helper()
	recs := fixtureRecords()
	var plain, gz, zst bytes.Buffer
	enc, err := zstd.NewWriter(nil)
	must(t, err)
	for i, r := range recs {
		b := r.bytes(i)
		plain.Write(b)
		z := gzip.NewWriter(&gz)
		z.Write(b)
		z.Close()
		// One zstd frame per record (warc-zstd §"File Format").
		zst.Write(enc.EncodeAll(b, nil))
	}
	must(t, os.WriteFile(filepath.Join(dir, "fixture.warc.zst"), zst.Bytes(), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "fixture.warc"), plain.Bytes(), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "fixture.warc.gz"), gz.Bytes(), 0o644))
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for name, data := range map[string][]byte{
		"archive/data.warc.gz": gz.Bytes(),
		"pages/pages.jsonl":    []byte("{\"format\": \"json-pages-1.0\", \"id\": \"pages\", \"title\": \"All Pages\"}\n{\"url\": \"http://site.test/\", \"ts\": \"2026-01-02T03:04:05Z\"}\n"),
		"datapackage.json":     []byte(`{"profile": "wacz", "resources": []}`),
	} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		must(t, err)
		w.Write(data)
	}
	must(t, zw.Close())
	must(t, os.WriteFile(filepath.Join(dir, "fixture.wacz"), zb.Bytes(), 0o644))
	return recs
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
