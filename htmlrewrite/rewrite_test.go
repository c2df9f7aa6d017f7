package htmlrewrite

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

const testBase = "http://ex.com/dir/page.html?q#f"

func testOptions() Options {
	return Options{Document: link.Document{Context: base.Context{Spec: resolve.RFC3986, Retrieval: testBase}}}
}

func rewrite(t *testing.T, doc string, opts Options) (string, link.Stats) {
	t.Helper()
	var out bytes.Buffer
	st, err := Rewrite(&out, strings.NewReader(doc), opts)
	require.NoError(t, err)
	return out.String(), st
}

type rewriteCase struct {
	name string // the spec section or the bug
	in   string
	want string // "" means unchanged
}

func runCases(t *testing.T, cases []rewriteCase, opts Options) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := c.want
			if want == "" {
				want = c.in
			}
			got, _ := rewrite(t, c.in, opts)
			assert.Equal(t, want, got)
			again, _ := rewrite(t, got, opts)
			assert.Equal(t, got, again, "a second rewrite changes nothing")
		})
	}
}

// TestAttributeTable has a value for every row of the notes' §1.1 table:
// HTML Living Standard attributes, HTML 4.01 %URI attributes, the legacy
// ones, SVG and MathML href.
func TestAttributeTable(t *testing.T) {
	const d = "http://ex.com/dir/"
	runCases(t, []rewriteCase{
		{"LS 4.6.1 a href", `<a href="x.html">`, `<a href="` + d + `x.html">`},
		{"LS 4.6.1 area href", `<area href="x.html">`, `<area href="` + d + `x.html">`},
		{"LS 4.6.1 a ping (space-separated)", `<a ping="p1  /p2	p3">`, `<a ping="` + d + `p1  http://ex.com/p2	` + d + `p3">`},
		{"LS 4.2.4 link href", `<link rel=stylesheet href="s.css">`, `<link rel=stylesheet href="` + d + `s.css">`},
		{"LS 4.2.4 link imagesrcset", `<link rel=preload as=image imagesrcset="a.png 1x, b.png 2x">`, `<link rel=preload as=image imagesrcset="` + d + `a.png 1x, ` + d + `b.png 2x">`},
		{"LS 4.8.3 img src", `<img src="i.png">`, `<img src="` + d + `i.png">`},
		{"LS 4.8.3 source srcset", `<picture><source srcset="s.webp"></picture>`, `<picture><source srcset="` + d + `s.webp"></picture>`},
		{"H4 img longdesc", `<img longdesc="l.html">`, `<img longdesc="` + d + `l.html">`},
		{"NS img lowsrc dynsrc", `<img lowsrc="l.png" dynsrc="d.avi">`, `<img lowsrc="` + d + `l.png" dynsrc="` + d + `d.avi">`},
		{"LS 4.8.5 iframe src", `<iframe src="f.html"></iframe>`, `<iframe src="` + d + `f.html"></iframe>`},
		{"H4 iframe longdesc", `<iframe longdesc="l.html"></iframe>`, `<iframe longdesc="` + d + `l.html"></iframe>`},
		{"H4 frame src longdesc", `<frame src="f.html" longdesc="l.html">`, `<frame src="` + d + `f.html" longdesc="` + d + `l.html">`},
		{"LS 4.8.6 embed src, pluginspage", `<embed src="e.swf" pluginspage="p.html">`, `<embed src="` + d + `e.swf" pluginspage="` + d + `p.html">`},
		{"LS 4.8.7 object data", `<object data="o.swf"></object>`, `<object data="` + d + `o.swf"></object>`},
		{"H4 13.3 object codebase is the base of classid, data, archive", `<object codebase="/cb/" classid="c.class" data="o" archive="a.jar b.jar" usemap="#m">`, `<object codebase="http://ex.com/cb/" classid="http://ex.com/cb/c.class" data="http://ex.com/cb/o" archive="http://ex.com/cb/a.jar http://ex.com/cb/b.jar" usemap="#m">`},
		{"H4 13.4 applet codebase, archive (comma-separated)", `<applet code="A.class" codebase="ap/" archive="x.jar , y.jar">`, `<applet code="A.class" codebase="` + d + `ap/" archive="` + d + `ap/x.jar , ` + d + `ap/y.jar">`},
		{"LS 4.12.1 script src", `<script src="s.js"></script>`, `<script src="` + d + `s.js"></script>`},
		{"LS 4.10.5 input type=image src, usemap", `<input type=image src="i.png" usemap="#m">`, `<input type=image src="` + d + `i.png" usemap="#m">`},
		{"LS 4.10.18.6 formaction", `<button formaction="go">`, `<button formaction="` + d + `go">`},
		{"LS 4.10.3 form action", `<form action="post">`, `<form action="` + d + `post">`},
		{"LS 4.10.21.3 empty action is the document URL", `<form action="">`, `<form action="http://ex.com/dir/page.html?q">`},
		{"LS 4.8.8 audio video source track src, video poster", `<video src="v.mp4" poster="p.png"><source src="s.mp4"><track src="t.vtt"></video><audio src="a.ogg">`, `<video src="` + d + `v.mp4" poster="` + d + `p.png"><source src="` + d + `s.mp4"><track src="` + d + `t.vtt"></video><audio src="` + d + `a.ogg">`},
		{"LS 4.4.4 blockquote q del ins cite", `<blockquote cite="c1"><q cite="c2"><del cite="c3"><ins cite="c4">`, `<blockquote cite="` + d + `c1"><q cite="` + d + `c2"><del cite="` + d + `c3"><ins cite="` + d + `c4">`},
		{"H4 head profile (space-separated)", `<head profile="p1 p2">`, `<head profile="` + d + `p1 ` + d + `p2">`},
		{"html manifest is resolved against the document URL", `<html manifest="m.appcache"><base href="/other/">`, `<html manifest="` + d + `m.appcache"><base href="/other/">`},
		{"menuitem command icon", `<menuitem icon="i.png"><command icon="c.png">`, `<menuitem icon="` + d + `i.png"><command icon="` + d + `c.png">`},
		{"LS 15.3 body table td background", `<body background="b.png"><table background="t.png"><tr background="r.png"><td background="d.png">`, `<body background="` + d + `b.png"><table background="` + d + `t.png"><tr background="` + d + `r.png"><td background="` + d + `d.png">`},
		{"NS bgsound layer ilayer fig overlay src", `<bgsound src="b.mid"><layer src="l.html"><ilayer src="i.html"><fig src="f.png"><overlay src="o.png">`, `<bgsound src="` + d + `b.mid"><layer src="` + d + `l.html"><ilayer src="` + d + `i.html"><fig src="` + d + `f.png"><overlay src="` + d + `o.png">`},
		{"LS 5.2 itemid on any element", `<div itemscope itemid="urn-less/id" itemtype="http://schema.org/Book">`, `<div itemscope itemid="` + d + `urn-less/id" itemtype="http://schema.org/Book">`},
		{"SVG 2 href, SVG 1.1 xlink:href", `<svg><image href="i.png"/><use xlink:href="s.svg#a"/><a href="a.html"><text>t</text></a></svg>`, `<svg><image href="` + d + `i.png"/><use xlink:href="` + d + `s.svg#a"/><a href="` + d + `a.html"><text>t</text></a></svg>`},
		{"MathML 3 href", `<math><mi href="m.html">x</mi></math>`, `<math><mi href="` + d + `m.html">x</mi></math>`},
		{"notes 1.2: never xmlns, itemtype, rel, itemprop, on*, download, target, og:", `<html xmlns="x" xmlns:o="y"><a rel="next" itemprop="url" onclick="go('a.html')" download="f.txt" target="t"><meta property="og:image" content="og.png"><!DOCTYPE html SYSTEM "about:legacy-compat">`, ""},
		{"an element the table does not list keeps src", `<div src="x" href="y">`, ""},
	}, testOptions())
}

// TestParamLazyLoad covers the opt-in rows: <param value> and the lazy
// loading data-* attributes.
func TestParamLazyLoad(t *testing.T) {
	const d = "http://ex.com/dir/"
	opts := testOptions()
	in := `<param name="Movie" value="m.swf"><param name="quality" value="high"><param valuetype="ref" value="r.dat"><img data-src="l.png" data-srcset="a.png 1x, b.png 2x" data-original="o.png">`
	got, _ := rewrite(t, in, opts)
	assert.Equal(t, in, got, "off by default")
	opts.Param, opts.LazyLoad = true, true
	got, _ = rewrite(t, in, opts)
	assert.Equal(t, `<param name="Movie" value="`+d+`m.swf"><param name="quality" value="high"><param valuetype="ref" value="`+d+`r.dat"><img data-src="`+d+`l.png" data-srcset="`+d+`a.png 1x, `+d+`b.png 2x" data-original="`+d+`o.png">`, got)
}

// TestRefresh: LS §4.2.5.3 "shared declarative refresh steps" in all the
// forms browsers accept; only the URL changes.
func TestRefresh(t *testing.T) {
	const d = "http://ex.com/dir/"
	runCases(t, []rewriteCase{
		{"5; URL=x", `<meta http-equiv="refresh" content="5; URL=x.html">`, `<meta http-equiv="refresh" content="5; URL=` + d + `x.html">`},
		{"0,url=", `<meta http-equiv=refresh content="0,url=x.html">`, `<meta http-equiv=refresh content="0,url=` + d + `x.html">`},
		{"0; x (no URL=)", `<meta http-equiv=refresh content="0; x.html">`, `<meta http-equiv=refresh content="0; ` + d + `x.html">`},
		{"5 ; URL = quoted", `<meta http-equiv="Refresh" content='5 ; URL = "x.html" trailing'>`, `<meta http-equiv="Refresh" content='5 ; URL = "` + d + `x.html" trailing'>`},
		{"0; 'x'", `<meta http-equiv=refresh content="0; 'x.html'">`, `<meta http-equiv=refresh content="0; '` + d + `x.html'">`},
		{".5 url=x (dot delay)", `<meta http-equiv=refresh content=".5 url=x.html">`, `<meta http-equiv=refresh content=".5 url=` + d + `x.html">`},
		{"no URL", `<meta http-equiv=refresh content="30">`, ""},
		{"not a delay", `<meta http-equiv=refresh content="x; url=y.html">`, ""},
		{"other http-equiv", `<meta http-equiv=content-type content="0; url=y.html">`, ""},
		{"meta name content", `<meta name=refresh content="0; url=y.html">`, ""},
	}, testOptions())
}

func TestRefreshURL(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"5; URL=x", "x", true},
		{"5;url='x'y", "x", true},
		{"0; Ux", "x", true}, // a "U" that does not make "URL" is skipped (step 11.2)
		{"0 URL x", "x", true},
		{"0;  ", "", false},
		{"0", "", false},
		{"0x", "", false},
		{"  1.5.3 , url = \"a b\" ", "a b", true},
	} {
		u0, u1, ok := refreshURL(c.in)
		assert.Equal(t, c.ok, ok, c.in)
		if ok {
			assert.Equal(t, c.want, strings.TrimRight(c.in[u0:u1], " "), c.in)
		}
	}
}

// TestCSS: url() in both forms, @import, image-set() in style attributes
// and <style> elements; never @namespace, never url(#id) (CSS Values 4
// §4.5.1 local url flag).
func TestCSS(t *testing.T) {
	const d = "http://ex.com/dir/"
	runCases(t, []rewriteCase{
		{"style attribute url()", `<div style="background:url(a.png)">`, `<div style="background:url(` + d + `a.png)">`},
		{"style attribute entity-escaped quotes", `<div style="background:url(&quot;a b.png&quot;)">`, `<div style="background:url(&quot;` + d + `a b.png&quot;)">`},
		{"style element url() forms and @import", "<style>@import 'i.css' screen; @import url(j.css) layer(x);\na{b:url( \"q.png\" ) url(u\\(1\\).png)}</style>", "<style>@import '" + d + "i.css' screen; @import url(" + d + "j.css) layer(x);\na{b:url( \"" + d + "q.png\" ) url(" + d + "u\\(1\\).png)}</style>"},
		{"@namespace is not a URL", `<style>@namespace svg url(http://www.w3.org/2000/svg); @namespace "urn:x";</style>`, ""},
		{"url(#id) is local", `<style>a{fill:url(#g)}</style><p style="fill:url( #g )">`, ""},
		{"image-set strings", `<style>a{b:image-set("a.png" 1x, url(b.png) 2x)}</style>`, `<style>a{b:image-set("` + d + `a.png" 1x, url(` + d + `b.png) 2x)}</style>`},
		{"comments and other strings are skipped", `<style>/* url(c.png) */ a:after{content:"url(s.png)"}</style>`, ""},
		{"font-face src", `<style>@font-face{src:url(f.woff2) format("woff2")}</style>`, `<style>@font-face{src:url(` + d + `f.woff2) format("woff2")}</style>`},
		{"a bad url() is left", `<style>a{b:url(a b.png)}</style>`, ""},
		{"svg style is markup, not CSS", `<svg><style>a{b:url(x.png)}</style></svg>`, ""},
		{"a URL needing CSS escapes in unquoted url()", `<div style="b:url(x%29.png)">`, `<div style="b:url(` + d + `x%29.png)">`},
	}, testOptions())
}

func TestCSSQuote(t *testing.T) {
	assert.Equal(t, `a\(b\)\'\"\\c\20 d`, cssQuote(`a(b)'"\c d`, 0))
	assert.Equal(t, `a(b)'\"\\c d`, cssQuote(`a(b)'"\c d`, '"'))
}

// TestSrcdoc: LS §4.8.5 iframe srcdoc, rewritten recursively as an option,
// against the container's base.
func TestSrcdoc(t *testing.T) {
	in := `<base href="/b/"><iframe srcdoc="<a href=&quot;in.html&quot;>x</a><img src='i.png'>"></iframe>`
	opts := testOptions()
	got, _ := rewrite(t, in, opts)
	assert.Equal(t, in, got, "off by default")
	opts.Srcdoc = true
	got, _ = rewrite(t, in, opts)
	assert.Equal(t, `<base href="/b/"><iframe srcdoc="<a href=&#34;http://ex.com/b/in.html&#34;>x</a><img src='http://ex.com/b/i.png'>"></iframe>`, got)
	again, _ := rewrite(t, got, opts)
	assert.Equal(t, got, again)
}

// TestLeftAsWritten: references with a scheme, fragment-only ones and
// failures are not touched; options change the first two.
func TestLeftAsWritten(t *testing.T) {
	in := `<a href="mailto:x@y">m</a><a href="tel:12345">t</a><a href="javascript:go('a')">j</a><a href="java
script:x">j2</a><img src="data:image/png;base64,AAAA"><a href="c:\x">c</a><a href="#top">t</a><a href="HTTP://EX.COM/a/../b">h</a>`
	got, st := rewrite(t, in, testOptions())
	assert.Equal(t, in, got)
	assert.Equal(t, 8, st.Links)
	assert.Equal(t, 8, st.Skipped)
	assert.Equal(t, 0, st.Rewritten)

	opts := testOptions()
	opts.Fragments, opts.Absolute = true, true
	got, _ = rewrite(t, `<a href="#top">t</a><a href="HTTP://EX.COM/a/../b">h</a>`, opts)
	assert.Equal(t, `<a href="http://ex.com/dir/page.html?q#top">t</a><a href="HTTP://EX.COM/b">h</a>`, got)
}

// TestFailures: a reference that cannot be resolved is counted, left as
// written and does not stop the document (notes §4 "malformed URLs abort
// the whole job").
func TestFailures(t *testing.T) {
	opts := Options{Document: link.Document{Context: base.Context{Spec: resolve.RFC3986}}} // no base at all: §3.4
	in := `<a href="rel.html">r</a><a href="http://abs/">a</a><img src="i.png">`
	got, st := rewrite(t, in, opts)
	assert.Equal(t, in, got)
	assert.Equal(t, base.Default, st.Base.Source)
	assert.Equal(t, 3, st.Links)
	assert.Equal(t, 2, st.Failed)
}

// TestBaseElement: LS §4.2.3 — one base, the first <base href>, for the
// whole document, including the links before it; keep, remove or set.
func TestBaseElement(t *testing.T) {
	in := `<a href="before.html">b</a><base href="/first/"><base href="/second/"><a href="after.html">a</a>`
	got, st := rewrite(t, in, testOptions())
	assert.Equal(t, `<a href="http://ex.com/first/before.html">b</a><base href="/first/"><base href="/second/"><a href="http://ex.com/first/after.html">a</a>`, got)
	assert.Equal(t, base.Embedded, st.Base.Source)
	assert.Equal(t, "http://ex.com/first/", st.Base.URL)

	opts := testOptions()
	opts.Base = BaseRemove
	got, _ = rewrite(t, in, opts)
	assert.Equal(t, `<a href="http://ex.com/first/before.html">b</a><a href="http://ex.com/first/after.html">a</a>`, got)

	opts.Base = BaseAbsolute
	got, _ = rewrite(t, in, opts)
	assert.Equal(t, `<a href="http://ex.com/first/before.html">b</a><base href="http://ex.com/first/"><base href="/second/"><a href="http://ex.com/first/after.html">a</a>`, got)

	t.Run("not in template or svg", func(t *testing.T) {
		got, _ := rewrite(t, `<template><base href="/t/"></template><svg><base href="/s/"/></svg><a href="x">`, testOptions())
		assert.Equal(t, `<template><base href="/t/"></template><svg><base href="/s/"/></svg><a href="http://ex.com/dir/x">`, got)
	})
	t.Run("protocol-relative and root-relative base", func(t *testing.T) {
		got, _ := rewrite(t, `<base href=//host.example/ /><a href="x">`, testOptions())
		assert.Equal(t, `<base href=//host.example/ /><a href="http://host.example/x">`, got)
		got, _ = rewrite(t, `<base href="/about/"><a href="x">`, testOptions())
		assert.Equal(t, `<base href="/about/"><a href="http://ex.com/about/x">`, got)
	})
	t.Run("base in body counts", func(t *testing.T) {
		got, _ := rewrite(t, `<body><p><a href="x">x</a><base href="/late/"></p>`, testOptions())
		assert.Equal(t, `<body><p><a href="http://ex.com/late/x">x</a><base href="/late/"></p>`, got)
	})
}

// onlyReader hides every method but Read, so the input is a stream.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestStreamScanLimit: a stream is held up to ScanLimit bytes while its
// <base> is looked for; a later <base> is missed, with a warning, and no
// byte is lost.
func TestStreamScanLimit(t *testing.T) {
	doc := `<a href="x">x</a>` + strings.Repeat("<p>filler</p>\n", 100) + `<base href="/late/">`
	opts := testOptions()
	var out bytes.Buffer
	st, err := Rewrite(&out, onlyReader{strings.NewReader(doc)}, opts)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(out.String(), `<a href="http://ex.com/late/x">`), "within the limit: %.40s", out.String())

	opts.ScanLimit = 64
	out.Reset()
	st, err = Rewrite(&out, onlyReader{strings.NewReader(doc)}, opts)
	require.NoError(t, err)
	assert.Equal(t, `<a href="http://ex.com/dir/x">x</a>`+doc[len(`<a href="x">x</a>`):], out.String())
	require.Len(t, st.Base.Warnings, 1)
	assert.Contains(t, st.Base.Warnings[0], "beyond the")
}

// TestMaxToken: text, scripts and comments of any length pass in pieces;
// a tag beyond MaxSize stops the rewrite: the rest is copied unchanged
// and the document is reported incomplete (nothing silent).
func TestMaxToken(t *testing.T) {
	opts := testOptions()
	opts.MaxSize = 1000
	long := `<a href="x">x</a><p>` + strings.Repeat("t", 5000) + `</p><script>` + strings.Repeat("a<b;", 5000) +
		`</script><!--` + strings.Repeat("c", 5000) + `--><a href="y">y</a>`
	var out bytes.Buffer
	_, err := Rewrite(&out, strings.NewReader(long), opts)
	require.NoError(t, err)
	assert.Equal(t, strings.ReplaceAll(strings.ReplaceAll(long, `"x"`, `"http://ex.com/dir/x"`), `"y"`, `"http://ex.com/dir/y"`), out.String())

	doc := `<a href="x">x</a><p title="` + strings.Repeat("t", 5000) + `"></p><a href="y">y</a>`
	out.Reset()
	_, err = Rewrite(&out, strings.NewReader(doc), opts)
	var ie *link.IncompleteError
	require.ErrorAs(t, err, &ie)
	assert.ErrorIs(t, err, link.ErrIncomplete)
	assert.Equal(t, 1, ie.Line)
	assert.Equal(t, int64(len(`<a href="x">x</a>`)), ie.Offset)
	assert.Equal(t, `<a href="http://ex.com/dir/x">x</a>`+doc[len(`<a href="x">x</a>`):], out.String())

	var links []string
	_, err = Links(strings.NewReader(doc), opts, func(l link.Link) error {
		links = append(links, l.URL)
		return nil
	})
	assert.ErrorIs(t, err, link.ErrIncomplete)
	assert.Equal(t, []string{"http://ex.com/dir/x"}, links)
}

// TestMap: Options.Map decides what is written for each link, in the one
// rewrite pass, whatever the value's bytes: character references, a
// legacy encoding, CSS escapes, srcset, references with a scheme. What it
// returns is escaped for its place; returning Raw or false keeps the
// defaults.
func TestMap(t *testing.T) {
	local := map[string]string{
		"http://ex.com/dir/i.png":     "cid:i@x",
		"http://ex.com/dir/caf\u00e9": "cid:a&b\"c",
		"http://ex.com/dir/s.css":     "cid:s",
	}
	var seen []link.Link
	opts := testOptions()
	opts.Map = func(l link.Link) (string, bool) {
		seen = append(seen, l)
		if l.URL == "http://ex.com/dir/keep.html" {
			return l.Raw, true
		}
		m, ok := local[l.URL]
		return m, ok
	}
	cases := []struct{ name, in, want string }{
		{"character reference", `<img src="i&#46;png">`, `<img src="cid:i@x">`},
		{"named reference", `<img src="&#x69;.png" alt=x>`, `<img src="cid:i@x" alt=x>`},
		{"unquoted", `<img src=i.png>`, `<img src=cid:i@x>`},
		{"escaped for the quote", `<a href='caf&eacute;'>`, `<a href='cid:a&amp;b"c'>`},
		{"escaped for double quotes", `<a href="caf&eacute;">`, `<a href="cid:a&amp;b&#34;c">`},
		{"absolute reference", `<img src="http://ex.com/dir/i.png">`, `<img src="cid:i@x">`},
		{"srcset", `<img srcset="i&#46;png 2x, other.png 1x">`, `<img srcset="cid:i@x 2x, http://ex.com/dir/other.png 1x">`},
		{"style attribute", `<p style="background:url(i\2e png)">`, `<p style="background:url(cid:i@x)">`},
		{"style element", `<style>@import "s.css";</style>`, `<style>@import "cid:s";</style>`},
		{"raw kept", `<a href="keep.html">`, `<a href="keep.html">`},
		{"default", `<a href="other.html">`, `<a href="http://ex.com/dir/other.html">`},
	}
	for _, c := range cases {
		got, st := rewrite(t, c.in, opts)
		assert.Equal(t, c.want, got, c.name)
		if c.name == "raw kept" || c.name == "default" {
			assert.Equal(t, 0, st.Mapped, c.name)
		} else {
			assert.Positive(t, st.Mapped, c.name)
		}
	}

	seen = nil
	opts.ContentType = "text/html; charset=iso-8859-1"
	got, st := rewrite(t, "<a href=\"caf\xe9\">\n<img src=\"i.png\">", opts)
	assert.Equal(t, "<a href=\"cid:a&amp;b&#34;c\">\n<img src=\"cid:i@x\">", got, "legacy encoding")
	assert.Equal(t, 2, st.Rewritten)
	assert.Equal(t, 2, st.Mapped)
	require.Len(t, seen, 2)
	assert.Equal(t, link.Link{Raw: "i.png", URL: "http://ex.com/dir/i.png", Tag: "img", Attr: "src", Kind: link.Resource, Line: 2, Column: 11, Offset: 26,
		Base: base.Result{URL: "http://ex.com/dir/page.html?q#f", Source: base.Retrieval, Detail: "retrieval URL"}}, seen[1])
}

// TestMapKeepsURL: the Link Options.Map gets is the caller's to keep. Its
// URL may be the reference itself (an absolute URL already resolved) and
// the reference may alias the tokenizer's buffer while rewriting: the URL
// must stay what it was after the tokenizer has moved on.
func TestMapKeepsURL(t *testing.T) {
	var doc strings.Builder
	var want []string
	for i := range 3000 {
		u := "http://ex.com/page" + strings.Repeat("x", i%50) + ".html"
		want = append(want, u)
		doc.WriteString(`<a href="` + u + `">link</a>` + strings.Repeat(" ", i%7) + "\n")
	}
	for _, spec := range []resolve.Spec{resolve.RFC3986, resolve.WHATWG} {
		var got []string
		opts := testOptions()
		opts.Context.Spec = spec
		opts.Absolute = true
		opts.Map = func(l link.Link) (string, bool) {
			got = append(got, l.URL)
			return "", false
		}
		var out bytes.Buffer
		_, err := Rewrite(&out, strings.NewReader(doc.String()), opts)
		require.NoError(t, err)
		require.Equal(t, want, got, spec.String())
	}
}
