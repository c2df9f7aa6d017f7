package extract_test

import (
	"fmt"
	"strings"

	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/link"
)

// A crawler's page: every link, resolved against the page's URL and its
// <base>, in one call.
func ExampleReader() {
	page := `<base href="/docs/"><a href="intro.html">Intro</a><img src="//cdn.example/logo.png">`
	extract.Reader(strings.NewReader(page), "https://example.org/a/page.html", "text/html", extract.Options{}, func(l link.Link) error {
		fmt.Println(l.URL)
		return nil
	})
	// Output:
	// https://example.org/docs/intro.html
	// https://cdn.example/logo.png
}

// Any kind the response's type names is read by its own reader: here a
// JS module's imports, against the module's URL.
func ExampleReader_module() {
	js := "import { a } from \"./a.mjs\";\nconst b = import(\"../b.mjs\");\n"
	extract.Reader(strings.NewReader(js), "https://example.org/js/app.mjs", "text/javascript", extract.Options{}, func(l link.Link) error {
		fmt.Println(l.Line, l.Kind, l.URL)
		return nil
	})
	// Output:
	// 1 import https://example.org/js/a.mjs
	// 2 import https://example.org/b.mjs
}

// A WARC file gives each payload's links, whatever its kind, each with
// the record it is in (Record, Target) and its base; an MHTML archive
// gives each part's, with Part.
func ExampleFile() {
	_, err := extract.File("../testdata/mime/redirects.warc", extract.Options{}, func(l link.Link) error {
		fmt.Println(l.Record, l.Target, l.Kind, l.URL)
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// 158 http://a.example/start redirect http://a.example/next
	// 158 http://a.example/start navigation http://a.example/next
	// 158 http://a.example/start navigation http://a.example/x
	// 476 http://a.example/next redirect https://b.example/final
	// 720 https://b.example/final navigation https://b.example/page2.html
	// 720 https://b.example/final resource https://b.example/img/x.png
	// 1366 https://b.example/lying navigation https://b.example/plain.html
	// 1711 https://b.example/deflate navigation https://b.example/z.html
	// 2012 https://b.example/final?again navigation https://b.example/page2.html
	// 2012 https://b.example/final?again resource https://b.example/img/x.png
	// 2367 https://b.example/res.html navigation https://b.example/based/r.html
}
