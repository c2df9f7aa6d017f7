package htmlrewrite_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

func ExampleRewrite() {
	page := `<a href="news/today.html?a=1&copy=2">news</a>
<img src=logo.png srcset="logo.png 1x, logo@2x.png 2x">
<base href="/site/"><a href="#top">top</a> <a href="mailto:me@example.com">mail</a>
`
	opts := htmlrewrite.Options{
		Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://example.com/dir/page.html"}},
	}
	st, err := htmlrewrite.Rewrite(os.Stdout, strings.NewReader(page), opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(st.Base.URL, st.Base.Source, st.Links, st.Rewritten, st.Skipped)
	// Output:
	// <a href="https://example.com/site/news/today.html?a=1&copy=2">news</a>
	// <img src=https://example.com/site/logo.png srcset="https://example.com/site/logo.png 1x, https://example.com/site/logo@2x.png 2x">
	// <base href="/site/"><a href="#top">top</a> <a href="mailto:me@example.com">mail</a>
	// https://example.com/site/ embedded 6 4 2
}

func ExampleLinks() {
	page := `<link rel=stylesheet href=s.css>
<a href="/about" rel="nofollow">about</a>
<div style="background: url('bg.png')"></div>`
	opts := htmlrewrite.Options{
		Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://example.com/dir/"}},
	}
	_, err := htmlrewrite.Links(strings.NewReader(page), opts, func(l link.Link) error {
		fmt.Println(l.Line, l.Column, l.Tag, l.Attr, l.Kind, l.Rel, l.URL)
		return nil
	})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// 1 27 link href resource [stylesheet] https://example.com/dir/s.css
	// 2 10 a href navigation [nofollow] https://example.com/about
	// 3 30 div style css [] https://example.com/dir/bg.png
}

// Options.Map points chosen links elsewhere in the same pass: here the
// images saved beside the page become local files, whatever the way
// their references are written, and every other link becomes absolute.
func ExampleRewrite_map() {
	page := `<img src="img/logo.png"> <img src="/img/ph&#111;to.jpg"> <a href="about.html">about</a>`
	saved := map[string]string{
		"https://example.com/img/logo.png":  "files/logo.png",
		"https://example.com/img/photo.jpg": "files/photo.jpg",
	}
	opts := htmlrewrite.Options{
		Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://example.com/"}, Map: func(l link.Link) (string, bool) {
			local, ok := saved[l.URL]
			return local, ok
		}},
	}
	if _, err := htmlrewrite.Rewrite(os.Stdout, strings.NewReader(page), opts); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <img src="files/logo.png"> <img src="files/photo.jpg"> <a href="https://example.com/about.html">about</a>
}
