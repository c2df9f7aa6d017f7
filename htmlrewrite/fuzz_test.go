package htmlrewrite

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

var fuzzSeeds = []string{
	`<a href="x.html?a=1&copy=2">`, `<img srcset="a.png 1x,b c 2x, data:,a 1x" src=i>`,
	`<meta http-equiv=refresh content="0; url='x'">`, `<style>@import "a"; a{b:url(c)}</style>`,
	`<div style="background:url(&quot;a b&quot;)">`, `<svg><title><a href=z>`, `<noscript><img src=n>`,
	`<base href=/b/><a href>`, `<iframe srcdoc="<a href=&quot;x&quot;>">`, `<a href=a"b'c>`,
	"<a href=\"\x00\r\n&#10;x\">", `<object codebase=c data=d archive="a b"><applet codebase=e archive="f,g">`,
	`<a =href=x href=y HREF=z>`, `<![CDATA[<a href=q>]]><svg><![CDATA[<a href=q>]]>`,
	`<script type=importmap>{"imports":{"a":"./a.js","/b/":"\u002e/b/"},"scopes":{"s/":{"c":"/c.js"}}}</script>`,
	"<script type=module>import a from './a.js'; import(`b`); new URL(\"c<\", import.meta.url) // import 'd'</script>",
}

// FuzzRewrite: the rewriter never fails or panics on any input; with no
// base, in the identity mode, and with a Map that keeps every value as
// written, the output is the input; with a base,
// a second rewrite changes nothing and the output tokenizes to the same
// tokens apart from URL values; Links reports each link where it stands,
// with strings of its own.
func FuzzRewrite(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		keep := testOptions()
		keep.Srcdoc, keep.LazyLoad, keep.Param = true, true, true
		keep.Map = func(l link.Link) (string, bool) { return l.Raw, true }
		for _, opts := range []Options{{Document: link.Document{Context: base.Context{Spec: resolve.RFC3986}}}, {Document: link.Document{Context: base.Context{Spec: resolve.RFC3986}}, identity: true}, keep} {
			var out bytes.Buffer
			_, err := Rewrite(&out, strings.NewReader(doc), opts)
			if errors.Is(err, ErrEncoding) {
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if out.String() != doc {
				t.Fatalf("identity %+v:\n in %q\nout %q", opts, doc, out.String())
			}
		}
		opts := testOptions()
		opts.Srcdoc, opts.LazyLoad, opts.Param = true, true, true
		var once, twice bytes.Buffer
		st, err := Rewrite(&once, strings.NewReader(doc), opts)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Rewrite(&twice, bytes.NewReader(once.Bytes()), opts); err != nil {
			t.Fatal(err)
		}
		if once.String() != twice.String() {
			t.Fatalf("not idempotent:\n in %q\n 1: %q\n 2: %q", doc, once.String(), twice.String())
		}
		// (A UTF-16 document's tokens are those of its decoded text.)
		if !strings.Contains(strings.ToLower(doc), "<svg") && !strings.Contains(strings.ToLower(doc), "<math") && !strings.HasPrefix(st.Charset, "utf-16") {
			sameTokens(t, "fuzz", doc, once.String())
		}
		// Links: positions where the link stands (in a document read
		// as UTF-8, its line and column those of its offset), and
		// strings of its own, unchanged when the reader moves on.
		var links, copies []link.Link
		_, err = Links(strings.NewReader(doc), opts, func(l link.Link) error {
			if l.Offset < 0 || l.Offset > int64(len(doc)) || l.Line < 1 || l.Column < 1 {
				t.Fatalf("bad position %+v in %q", l, doc)
			}
			if !strings.HasPrefix(st.Charset, "utf-16") {
				line := 1 + strings.Count(doc[:l.Offset], "\n")
				col := int(l.Offset) - strings.LastIndexByte(doc[:l.Offset], "\n"[0])
				if l.Line != line || l.Column != col {
					t.Fatalf("%+v: at line %d column %d in %q", l, line, col, doc)
				}
			}
			links, copies = append(links, l), append(copies, deepCopy(l))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i := range links {
			if fmt.Sprint(links[i]) != fmt.Sprint(copies[i]) {
				t.Fatalf("link %d changed after its token: %+v, was %+v, in %q", i, links[i], copies[i], doc)
			}
		}
	})
}

// FuzzSrcset: the srcset reader yields ordered spans inside the value.
func FuzzSrcset(f *testing.F) {
	for _, s := range []string{"a 1x, b 2x", "data:,a 1x 1x \\,data:;\\,b, data:,c", "a (1, 2) 1x,,b,", " , "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		prev := 0
		for u0, u1 := range srcsetURLs(v) {
			if u0 < prev || u1 <= u0 || u1 > len(v) || strings.ContainsAny(v[u0:u1], " \t\n\f\r") {
				t.Fatalf("bad span %d,%d in %q", u0, u1, v)
			}
			prev = u1
		}
	})
}

// FuzzCSS: the CSS reader yields ordered spans inside the text.
func FuzzCSS(f *testing.F) {
	for _, s := range []string{`@import "a"; b{c:url(d) url( 'e' )}`, `a{b:image-set("x" 1x)}`, `url(a\)b`, `/* url(x) */"`, `@namespace url(x)`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		prev := 0
		cssURLs(v, func(u cssURL) {
			if u.u0 < prev || u.u1 < u.u0 || u.u1 > len(v) {
				t.Fatalf("bad span %+v in %q", u, v)
			}
			prev = u.u1
		})
	})
}

// FuzzRefresh: the refresh reader yields a span inside the value.
func FuzzRefresh(f *testing.F) {
	for _, s := range []string{"0; url=x", "5 ; URL = 'x' y", ".5,x", "0 U"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if u0, u1, ok := refreshURL(v); ok && (u0 > u1 || u1 > len(v)) {
			t.Fatalf("bad span %d,%d in %q", u0, u1, v)
		}
	})
}

// FuzzSheet: RewriteCSS never fails or panics on a stylesheet it does not
// refuse for its encoding; with no base the output is the input; with a
// base, a second rewrite changes nothing; CSSLinks' offsets lie inside
// the sheet.
func FuzzSheet(f *testing.F) {
	for _, s := range []string{
		`@import "a"; b{c:url(d) url( 'e' )}`, "@charset \"koi8-r\"; a{b:url(\xe9)}",
		`a{b:image-set("x" 1x)} /* </style> */ c{d:url(#e)}`, `url(a\)b`, "\xef\xbb\xbfa{b:url(c\\ d)}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sheet string) {
		var out bytes.Buffer
		_, err := RewriteCSS(&out, strings.NewReader(sheet), Options{Document: link.Document{Context: base.Context{Spec: resolve.RFC3986}}})
		if errors.Is(err, ErrEncoding) {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if out.String() != sheet {
			t.Fatalf("no base:\n in %q\nout %q", sheet, out.String())
		}
		var once, twice bytes.Buffer
		if _, err := RewriteCSS(&once, strings.NewReader(sheet), testOptions()); err != nil {
			t.Fatal(err)
		}
		if _, err := RewriteCSS(&twice, bytes.NewReader(once.Bytes()), testOptions()); err != nil {
			t.Fatal(err)
		}
		if once.String() != twice.String() {
			t.Fatalf("not idempotent:\n in %q\n 1: %q\n 2: %q", sheet, once.String(), twice.String())
		}
		_, err = CSSLinks(strings.NewReader(sheet), testOptions(), func(l link.Link) error {
			if l.Offset < 0 || l.Offset > int64(len(sheet)) || l.Line < 1 || l.Column < 1 {
				t.Fatalf("bad position %+v in %q", l, sheet)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
