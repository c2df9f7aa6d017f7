package journey

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"testing"
)

// errorMark is in the body of every error response of the site, so that
// a tree whose links lead to a captured error page is caught.
const errorMark = "relurl-journey-error-page"

// The site: pages in folders, a stylesheet with url() and @import,
// srcset, a JS module graph behind an import map, an SVG sprite, a page
// with a <base>, a redirect (/old-about) and a 404 (/missing.html).
// Every page loads the same set of resources, each of which leaves a
// mark the offline check reads: the stylesheets set custom properties,
// the modules set data-* on <html>, the images and the sprite render.
var sitePages = map[string]string{
	"/": page("Home", "", `
<nav><a href="docs/">Docs</a> <a href="about.html">About</a> <a href="/old-about">Old about</a>
<a href="missing.html">Gone</a> <a href="docs/guide/intro.html#setup">Setup</a>
<a href="https://example.invalid/elsewhere">Elsewhere</a> <a href="#top">Top</a></nav>`),
	"/about.html": page("About", "", `
<p><a href="./">Home</a> <a href="docs/guide/intro.html">Intro</a></p>`),
	"/docs/": page("Docs", "../", `
<p><a href="../">Home</a> <a href="guide/intro.html#setup">Setup</a> <a href="../missing.html">Gone too</a></p>`),
	// The <base> makes every relative link of the page resolve against
	// /docs/, not against the page's own folder.
	"/docs/guide/intro.html": page("Intro", "../", `
<h2 id="setup">Setup</h2>
<p><img src="guide/img/diagram.png" alt="diagram" class="check"> <a href="./">Docs</a> <a href="../about.html">About</a></p>`,
		`<base href="/docs/">`),
}

// page is a page of the site: prefix leads from the page's base to the
// root; extra goes into its head (a <base>).
func page(title, prefix, body string, extra ...string) string {
	head := strings.Join(extra, "\n")
	return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">` + head + `
<title>` + title + `</title>
<link rel="stylesheet" href="` + prefix + `css/site.css">
<link rel="modulepreload" href="` + prefix + `js/lib/mark.mjs">
<link rel="modulepreload" href="` + prefix + `js/util.mjs">
<script type="importmap">{"imports": {"lib/": "/js/lib/"}}</script>
<script type="module" src="` + prefix + `js/app.mjs"></script>
</head><body>
<h1 id="top">` + title + `</h1>
<p><img class="check" src="` + prefix + `img/logo.png" srcset="` + prefix + `img/logo.png 1x, ` + prefix + `img/logo-2x.png 2x" alt="logo" width="8" height="8">
<svg class="check" width="16" height="16"><use href="` + prefix + `img/sprite.svg#star"></use></svg></p>` + body + `
</body></html>
`
}

var siteFiles = map[string]string{
	"/css/site.css": `@import url("base.css");
body { --site: loaded; background: url(../img/bg.png) repeat-x; }
`,
	"/css/base.css": `h1 { --base: loaded; padding-left: 20px; background: url("../img/icon.svg") no-repeat; }
`,
	// The import map maps "lib/" to /js/lib/; ./util.mjs is relative.
	"/js/app.mjs": `import { mark } from "lib/mark.mjs";
import { twice } from "./util.mjs";
mark("app", twice("ran"));
`,
	"/js/util.mjs":     "export function twice(s) { return s; }\n",
	"/js/lib/mark.mjs": "export function mark(name, value) { document.documentElement.dataset[name] = value; }\nmark(\"lib\", \"ran\");\n",
	"/img/sprite.svg": `<svg xmlns="http://www.w3.org/2000/svg"><symbol id="star" viewBox="0 0 16 16"><path d="M8 0l2 6h6l-5 4 2 6-5-4-5 4 2-6-5-4h6z"/></symbol></svg>
`,
	"/img/icon.svg": `<svg xmlns="http://www.w3.org/2000/svg" width="16" height="16"><circle cx="8" cy="8" r="8"/></svg>
`,
}

// siteImages are the PNG images of the site, by path: distinct colours.
var siteImages = map[string]color.RGBA{
	"/img/logo.png":               {200, 30, 30, 255},
	"/img/logo-2x.png":            {30, 200, 30, 255},
	"/img/bg.png":                 {30, 30, 200, 255},
	"/docs/guide/img/diagram.png": {200, 200, 30, 255},
}

// site returns the site's handler: its pages and files, /old-about a 301
// to /about.html, everything else (/missing.html) a 404 whose page holds
// errorMark.
func site(t testing.TB) http.Handler {
	files := map[string][]byte{}
	for p, s := range sitePages {
		files[p] = []byte(s)
	}
	for p, s := range siteFiles {
		files[p] = []byte(s)
	}
	for p, c := range siteImages {
		img := image.NewRGBA(image.Rect(0, 0, 8, 8))
		for i := 0; i < 64; i++ {
			img.Set(i%8, i/8, c)
		}
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		files[p] = b.Bytes()
	}
	types := map[string]string{".html": "text/html; charset=utf-8", ".css": "text/css", ".mjs": "text/javascript",
		".svg": "image/svg+xml", ".png": "image/png", "": "text/html; charset=utf-8"}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old-about" {
			http.Redirect(w, r, "/about.html", http.StatusMovedPermanently)
			return
		}
		body, ok := files[r.URL.Path]
		if !ok {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte("<!DOCTYPE html><html><head><title>Error response</title></head><body><h1>404 Not Found</h1><p>" + errorMark + "</p></body></html>\n"))
			return
		}
		ext := path.Ext(r.URL.Path)
		if strings.HasSuffix(r.URL.Path, "/") {
			ext = ".html"
		}
		w.Header().Set("Content-Type", types[ext])
		w.Write(body)
	})
}

// serve starts the site on loopback.
func serve(t testing.TB) *httptest.Server {
	srv := httptest.NewServer(site(t))
	t.Cleanup(srv.Close)
	return srv
}
