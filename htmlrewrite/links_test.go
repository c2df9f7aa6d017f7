package htmlrewrite

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

func collect(t *testing.T, doc string, opts Options) ([]link.Link, base.Result) {
	t.Helper()
	var links []link.Link
	b, err := Links(strings.NewReader(doc), opts, func(l link.Link) error {
		links = append(links, l)
		return nil
	})
	require.NoError(t, err)
	return links, b
}

// TestLinks: every link with its raw value, absolute URL or error, tag,
// attribute, kind, rel tokens and position.
func TestLinks(t *testing.T) {
	doc := "<html>\n<head><link rel=\"Stylesheet\" href=\"s.css\"><meta http-equiv=refresh content=\"0; url=r.html\"></head>\n" +
		"<body><a href=\"a.html\" rel=\"nofollow ugc\">a</a> <img src=\"i.png\" srcset=\"i1.png 1x, i2.png 2x\">\n" +
		"<form action=\"\"><button formaction=\"f\"></button></form><blockquote cite=\"c\"></blockquote>\n" +
		"<div style=\"background:url('bg.png')\"></div><style>@import 'im.css';</style><a href=\"http://[bad/\">x</a><a href=\"#t\">t</a>\n" +
		"<base href=\"/b/\"><a href=\"&amp;x\">e</a>"
	links, b := collect(t, doc, testOptions())
	assert.Equal(t, "http://ex.com/b/", b.URL)
	assert.Equal(t, base.Embedded, b.Source)
	type row struct {
		raw, url, tag, attr string
		kind                link.Kind
		rel                 []string
		line                int
	}
	want := []row{
		{"s.css", "http://ex.com/b/s.css", "link", "href", link.Resource, []string{"stylesheet"}, 2},
		{"r.html", "http://ex.com/b/r.html", "meta", "content", link.Refresh, nil, 2},
		{"a.html", "http://ex.com/b/a.html", "a", "href", link.Navigation, []string{"nofollow", "ugc"}, 3},
		{"i.png", "http://ex.com/b/i.png", "img", "src", link.Resource, nil, 3},
		{"i1.png", "http://ex.com/b/i1.png", "img", "srcset", link.Resource, nil, 3},
		{"i2.png", "http://ex.com/b/i2.png", "img", "srcset", link.Resource, nil, 3},
		{"", "http://ex.com/dir/page.html?q", "form", "action", link.Form, nil, 4},
		{"f", "http://ex.com/b/f", "button", "formaction", link.Form, nil, 4},
		{"c", "http://ex.com/b/c", "blockquote", "cite", link.Citation, nil, 4},
		{"bg.png", "http://ex.com/b/bg.png", "div", "style", link.CSS, nil, 5},
		{"im.css", "http://ex.com/b/im.css", "style", "", link.CSS, nil, 5},
		{"http://[bad/", "http://[bad/", "a", "href", link.Navigation, nil, 5}, // RFC 3986 §5.2 does not parse hosts
		{"#t", "http://ex.com/b/#t", "a", "href", link.Navigation, nil, 5},
		{"&x", "http://ex.com/b/&x", "a", "href", link.Navigation, nil, 6},
	}
	require.Len(t, links, len(want))
	for i, w := range want {
		l := links[i]
		assert.Equal(t, w.raw, l.Raw, "%d", i)
		assert.Equal(t, w.url, l.URL, "%d", i)
		assert.Equal(t, w.tag, l.Tag, "%d", i)
		assert.Equal(t, w.attr, l.Attr, "%d", i)
		assert.Equal(t, w.kind, l.Kind, "%d", i)
		assert.Equal(t, w.rel, l.Rel, "%d", i)
		assert.Equal(t, w.line, l.Line, "%d", i)
		if w.url == "" {
			var e *resolve.Error
			assert.ErrorAs(t, l.Err, &e, "%d", i)
		} else {
			assert.NoError(t, l.Err, "%d", i)
		}
		// The position is the value's first byte.
		lineStart := strings.LastIndexByte(doc[:l.Offset], '\n') + 1
		assert.Equal(t, int(l.Offset)-lineStart+1, l.Column, "%d", i)
		assert.Equal(t, l.Line, strings.Count(doc[:l.Offset], "\n")+1, "%d", i)
		if w.raw != "" && w.raw != "&x" {
			assert.True(t, strings.HasPrefix(doc[l.Offset:], w.raw), "%d: %q at %d", i, w.raw, l.Offset)
		}
	}
	assert.True(t, strings.HasPrefix(doc[links[13].Offset:], "&amp;x"))
}

// TestLinksError: a link that fails to resolve is reported with its error.
func TestLinksError(t *testing.T) {
	opts := testOptions()
	opts.Context.Spec = resolve.WHATWG
	links, _ := collect(t, `<a href="http://[bad/">x</a><a href="ok">`, opts)
	require.Len(t, links, 2)
	var e *resolve.Error
	assert.ErrorAs(t, links[0].Err, &e)
	assert.Equal(t, "", links[0].URL)
	assert.Equal(t, "http://ex.com/dir/ok", links[1].URL)
}

func TestLinksStop(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	_, err := Links(strings.NewReader(`<a href=a><a href=b><a href=c>`), testOptions(), func(link.Link) error {
		n++
		if n == 2 {
			return stop
		}
		return nil
	})
	assert.Equal(t, stop, err)
	assert.Equal(t, 2, n)
}

func TestKindString(t *testing.T) {
	for k, s := range map[link.Kind]string{link.Navigation: "navigation", link.Resource: "resource", link.Form: "form",
		link.Citation: "citation", link.Refresh: "refresh", link.CSS: "css", link.Redirect: "redirect", link.Kind(99): "Kind(99)"} {
		assert.Equal(t, s, k.String())
	}
}

// TestLinkKinds: link rel decides between a resource and a hyperlink
// (LS §4.6.7).
func TestLinkKinds(t *testing.T) {
	links, _ := collect(t, `<link rel="alternate" href="a"><link rel="icon shortcut" href="i"><link href="n"><svg><image href="s"/><a href="l"/></svg>`, testOptions())
	require.Len(t, links, 5)
	assert.Equal(t, []link.Kind{link.Navigation, link.Resource, link.Navigation, link.Resource, link.Navigation},
		[]link.Kind{links[0].Kind, links[1].Kind, links[2].Kind, links[3].Kind, links[4].Kind})
}

// TestLinkPositions: every link's line and column agree with its offset,
// and a plain value starts there, in long tokens holding many links on
// many lines (a <style> sheet, a srcset, a style attribute), and in a
// stylesheet.
func TestLinkPositions(t *testing.T) {
	var b strings.Builder
	b.WriteString("<p>\n<style>\n")
	for i := range 300 {
		fmt.Fprintf(&b, "a%d{b:url(s%d.png)}%s", i, i, strings.Repeat("\n", i%3))
	}
	b.WriteString("</style>\n<img srcset=\"")
	for i := range 100 {
		fmt.Fprintf(&b, "i%d.png 1x,%s", i, strings.Repeat("\n ", i%2))
	}
	b.WriteString("\" style=\"x:url(u1.png);\ny:url(u2.png)\">\n<a href=z.html>")
	doc := b.String()
	check := func(l link.Link) {
		t.Helper()
		line := 1 + strings.Count(doc[:l.Offset], "\n")
		col := int(l.Offset) - strings.LastIndexByte(doc[:l.Offset], '\n')
		require.Equal(t, []int{line, col}, []int{l.Line, l.Column}, "%+v", l)
		require.True(t, strings.HasPrefix(doc[l.Offset:], l.Raw), "%+v", l)
	}
	links, _ := collect(t, doc, testOptions())
	require.Len(t, links, 300+100+2+1)
	for _, l := range links {
		check(l)
	}

	sheet := doc[len("<p>\n<style>\n"):strings.Index(doc, "</style>")]
	doc = sheet
	n := 0
	_, err := CSSLinks(strings.NewReader(sheet), testOptions(), func(l link.Link) error {
		check(l)
		n++
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 300, n)
}

// TestLinkPositionsAfterReferences: in a value with character references,
// each URL is reported where its own bytes stand, not at the value's start
// (check prints FILE:LINE:COLUMN from these, and --fix edits there).
func TestLinkPositionsAfterReferences(t *testing.T) {
	doc := "<img srcset=\"x&amp;a.png 1x, b.png 2x\">\n<a href=\"&#x2F;p\r\nq\">"
	var links []link.Link
	_, err := Links(strings.NewReader(doc), Options{
		Document: link.Document{Context: base.Context{Spec: resolve.RFC3986, Retrieval: "http://h/"}},
	}, func(l link.Link) error { links = append(links, l); return nil })
	require.NoError(t, err)
	require.Len(t, links, 3)
	for i, want := range []string{"x&amp;a.png", "b.png", "&#x2F;p"} {
		assert.Equal(t, int64(strings.Index(doc, want)), links[i].Offset, "link %d (%q)", i, links[i].Raw)
	}
	assert.Equal(t, 1, links[1].Line)
	assert.Equal(t, strings.Index(doc, "b.png")+1, links[1].Column)
}
