package base

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/net/html"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/internal/countio"
	"github.com/relurl/relurl/internal/htmltree/htmltreetest"
	"github.com/relurl/relurl/resolve"
)

// TestScanHTMLBrowser follows the HTML Living Standard's "document base
// URL": the first base element with an href in tree order, wherever it
// stands, except in foreign content and in template contents.
func TestScanHTMLBrowser(t *testing.T) {
	tests := []struct {
		name     string
		html     string
		want     Element
		warnings int
	}{
		{"none", `<html><head><title>x</title></head><body><a href="a">a</a></body></html>`, Element{}, 0},
		{"in head", "<html><head>\n<base href=\"http://a/b/\">", Element{Found: true, Href: "http://a/b/", Line: 2, Column: 1, Offset: 13}, 0},
		// §3.1: the first base *with an href* counts; one without is skipped.
		{"first with href", `<base target=_top><base href=one><base href=two>`, Element{Found: true, Href: "one", Line: 1, Column: 19, Offset: 18}, 0},
		// "anywhere, including <body>".
		{"in body", "<body>\n<p>text\n  <base href='/about/'>", Element{Found: true, Href: "/about/", Line: 3, Column: 3, Offset: 17}, 0},
		{"after html", `</html><base href=late>`, Element{Found: true, Href: "late", Line: 1, Column: 8, Offset: 7}, 0},
		{"upper case", `<BASE HREF="X">`, Element{Found: true, Href: "X", Line: 1, Column: 1}, 0},
		{"character references", `<base href="?a=1&amp;b=2&copy=3">`, Element{Found: true, Href: "?a=1&b=2&copy=3", Line: 1, Column: 1}, 0},
		{"duplicate href", `<base href=first href=second>`, Element{Found: true, Href: "first", Line: 1, Column: 1}, 0},
		{"empty href", `<base href>`, Element{Found: true, Href: "", Line: 1, Column: 1}, 0},
		{"foster parented", `<table><base href=t>`, Element{Found: true, Href: "t", Line: 1, Column: 8, Offset: 7}, 0},
		// Not elements at all.
		{"comment", `<!-- <base href=c> --><base href=d>`, Element{Found: true, Href: "d", Line: 1, Column: 23, Offset: 22}, 0},
		{"script", `<script>"<base href=s>"</script><base href=d>`, Element{Found: true, Href: "d", Line: 1, Column: 33, Offset: 32}, 0},
		{"title", `<title><base href=s></title>`, Element{}, 0},
		// Without scripting (the default: relurl runs none) <noscript> holds
		// markup; TestScanHTMLNoscript reads it with scripting too.
		{"noscript", `<noscript><base href=n></noscript>`, Element{Found: true, Href: "n", Line: 1, Column: 11, Offset: 10}, 0},
		{"textarea", `<textarea><base href=n></textarea>`, Element{}, 0},
		// Foreign content: an svg or math element named base.
		{"svg", `<svg><base href=s></svg><base href=d>`, Element{Found: true, Href: "d", Line: 1, Column: 25, Offset: 24}, 1},
		{"math", `<math><base href=m></math>`, Element{}, 1},
		{"svg nested", `<svg><g><base href=s></g></svg>`, Element{}, 1},
		{"svg self-closing", `<svg/><base href=d>`, Element{Found: true, Href: "d", Line: 1, Column: 7, Offset: 6}, 0},
		{"svg end tag case", `<svg></SVG><base href=d>`, Element{Found: true, Href: "d", Line: 1, Column: 12, Offset: 11}, 0},
		// In foreign content <title> is not RCDATA, and an svg <title> is
		// an HTML integration point, so a <base> there is an HTML element.
		{"svg title", `<svg><title><base href=t></title></svg>`, Element{Found: true, Href: "t", Line: 1, Column: 13, Offset: 12}, 0},
		{"svg foreignObject", `<svg><foreignObject><base href=f></foreignObject></svg>`, Element{Found: true, Href: "f", Line: 1, Column: 21, Offset: 20}, 0},
		{"svg foreignObject closed", `<svg><foreignObject></foreignObject><base href=s></svg>`, Element{}, 1},
		{"svg foreignObject div", `<svg><foreignObject><div></div></foreignObject><base href=s></svg>`, Element{}, 1},
		{"svg script not raw", `<svg><script></script><base href=s></svg><base href=d>`, Element{Found: true, Href: "d", Line: 1, Column: 42, Offset: 41}, 1},
		{"math mi", `<math><mi><base href=m></mi></math>`, Element{Found: true, Href: "m", Line: 1, Column: 11, Offset: 10}, 0},
		{"math annotation-xml html", `<math><annotation-xml encoding="text/html"><base href=a>`, Element{Found: true, Href: "a", Line: 1, Column: 44, Offset: 43}, 0},
		{"math annotation-xml", `<math><annotation-xml><base href=a>`, Element{}, 1},
		// A breakout tag (HTML §13.2.6.5) pops the foreign elements.
		{"breakout", `<svg><g><p><base href=b>`, Element{Found: true, Href: "b", Line: 1, Column: 12, Offset: 11}, 0},
		{"breakout font", `<svg><font color=red><base href=b>`, Element{Found: true, Href: "b", Line: 1, Column: 22, Offset: 21}, 0},
		{"no breakout font", `<svg><font><base href=b>`, Element{}, 1},
		{"breakout end p", `<svg></p><base href=b>`, Element{Found: true, Href: "b", Line: 1, Column: 10, Offset: 9}, 0},
		// A <div> closes the <p> it stands in (HTML §13.2.6.4.7) and the
		// HTML <annotation-xml> inside that <p>, so the end tag that
		// follows closes the MathML one, and the <base> after it is MathML.
		{"p closed in integration point", `<math><annotation-xml encoding="text/html"><p><annotation-xml><div></div></annotation-xml><base href=m></p></annotation-xml></math>`, Element{}, 1},
		// An HTML end tag closes the foreign elements opened inside its
		// element, up to the integration point (HTML §13.2.6.4.7).
		{"end tag closes svg in html", `<svg><foreignObject><div><svg><g></div><base href=d></foreignObject></svg>`, Element{Found: true, Href: "d", Line: 1, Column: 40, Offset: 39}, 0},
		{"end tag closes math in html", `<math><mi><b><math></b><base href=d>`, Element{Found: true, Href: "d", Line: 1, Column: 24, Offset: 23}, 0},
		{"end tag stops at annotation-xml", `<svg><foreignObject><div><math><annotation-xml></div><base href=m>`, Element{}, 1},
		// A second <a> closes the first and what is open inside it, and
		// reconstructs the formatting elements among those (HTML
		// §13.2.6.4.7, §13.2.4.3): </font> closes the new HTML <font>, not
		// the MathML one, and the <base> stays in the text integration point.
		{"a in a reconstructs font", `<math><font><mtext><a href=x><font><a href=y></a></font><base href=h>`, Element{Found: true, Href: "h", Line: 1, Column: 57, Offset: 56}, 0},
		// Out of scope, the first <a> is only taken off the stack, from
		// under the <svg>: the </a> after the svg closes nothing, and the
		// <base> is in the svg (HTML §13.2.6.4.7, an "a" start tag).
		{"a out of scope", `<a href=x><svg><g><foreignObject><a href=y></a></foreignObject></g></a><base href=s>`, Element{}, 1},
		// Behind a marker, it stays open (HTML §13.2.4.3).
		{"a behind a marker", `<a href=x><template><a href=y></template><svg></a><base href=h>`, Element{Found: true, Href: "h", Line: 1, Column: 51, Offset: 50}, 0},
		// <noscript> is special (HTML §13.2.4.2): </g> stops at it, so the
		// current node stays HTML and "<![CDATA[" opens a bogus comment.
		{"end tag stops at noscript", `<math><mi><g><noscript></g><![CDATA[ > <base href=c> ]]>`, Element{Found: true, Href: "c", Line: 1, Column: 40, Offset: 39}, 0},
		// A formatting element's end tag reaches past a special element (the
		// adoption agency algorithm, HTML §13.2.6.4.7): </font> leaves the
		// div open and closes the svg inside it.
		{"end of formatting element past a div", `<font><div><svg></font><base href=h>`, Element{Found: true, Href: "h", Line: 1, Column: 24, Offset: 23}, 0},
		// CDATA is text in foreign content.
		{"cdata", `<svg><![CDATA[ x > <base href=c> ]]></svg><base href=d>`, Element{Found: true, Href: "d", Line: 1, Column: 43, Offset: 42}, 0},
		{"cdata in integration point", `<svg><foreignObject><![CDATA[ > <base href=c> ]]></foreignObject></svg>`, Element{}, 0},
		// In an HTML element, even inside foreign content, "<![CDATA[" opens
		// a bogus comment that ends at the first ">" (HTML §13.2.5.42).
		{"cdata in html in svg", `<svg><desc><p><![CDATA[ > <base href=c> ]]></p></desc></svg>`, Element{Found: true, Href: "c", Line: 1, Column: 27, Offset: 26}, 0},
		// Template contents are inert.
		{"template", `<template><base href=t></template><base href=d>`, Element{Found: true, Href: "d", Line: 1, Column: 35, Offset: 34}, 1},
		{"template nested", `<template><template></template><base href=t></template>`, Element{}, 1},
		{"template svg", `<template><svg></template><base href=d>`, Element{Found: true, Href: "d", Line: 1, Column: 27, Offset: 26}, 0},
		{"template in foreignObject", `<svg><foreignObject><template><base href=t></template><base href=f>`, Element{Found: true, Href: "f", Line: 1, Column: 55, Offset: 54}, 1},
		// Line and column count bytes after the last newline.
		{"position CR", "<html>\r<head>\r\r<base href=x>", Element{Found: true, Href: "x", Line: 4, Column: 1, Offset: 15}, 0},
		{"position", "<!doctype html>\r\n<html>\n<head>\n<meta charset=utf-8>  <base href=\"é\">", Element{Found: true, Href: "é", Line: 4, Column: 23, Offset: 53}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, warnings, err := ScanHTML(strings.NewReader(tt.html), false)
			require.NoError(t, err)
			assert.Equal(t, tt.want, e)
			assert.Len(t, warnings, tt.warnings, "%q", warnings)
			if e.Found {
				assert.Equal(t, byte('<'), tt.html[e.Offset])
			}
		})
	}
}

// TestScanHTMLStrict follows the draft's §10 appendix: 'HTML defines a
// special element "BASE" which, when present in the "HEAD" portion of a
// document ... The "HREF" attribute must be an absolute URL.'
func TestScanHTMLStrict(t *testing.T) {
	tests := []struct {
		name     string
		html     string
		want     Element
		warnings []string
	}{
		{"appendix example", appendixExample, Element{Found: true, Href: "http://www.ics.uci.edu/Test/a/b/c", Line: 4, Column: 1, Offset: 100}, nil},
		{"byte order mark", "\ufeff<html><head><base href=\"http://a/\">", Element{Found: true, Href: "http://a/", Line: 1, Column: 16, Offset: 15}, nil},
		{"implied head", `<base href="http://a/">`, Element{Found: true, Href: "http://a/", Line: 1, Column: 1}, nil},
		// "after head" mode puts a base back into the head (HTML §13.2.6.4.6).
		{"after </head>", "<head></head>\n<base href=http://a/>", Element{Found: true, Href: "http://a/", Line: 2, Column: 1, Offset: 14}, nil},
		{"after </head> and noscript", "<head></head><noscript></noscript>\n<base href=http://a/>", Element{}, []string{
			"line 2: <base href> outside the head ignored (strict: the draft's §10 appendix)"}},
		{"after </head> and a div", "<head></head><div></div>\n<base href=http://a/>", Element{}, []string{
			"line 2: <base href> outside the head ignored (strict: the draft's §10 appendix)"}},
		{"after </body>", "<head></head></body>\n<base href=http://a/>", Element{}, []string{
			"line 2: <base href> outside the head ignored (strict: the draft's §10 appendix)"}},
		// Template contents do not end the head.
		{"template in head", "<head><template><div>x</div></head></template><base href=http://a/>", Element{Found: true, Href: "http://a/", Line: 1, Column: 47, Offset: 46}, nil},
		{"stray end tag in head", "<head></div><base href=http://a/>", Element{Found: true, Href: "http://a/", Line: 1, Column: 13, Offset: 12}, nil},
		{"in body", "<body><base href=http://a/>", Element{}, []string{
			"line 1: <base href> outside the head ignored (strict: the draft's §10 appendix)"}},
		{"after text", "hello <base href=http://a/>", Element{}, []string{
			"line 1: <base href> outside the head ignored (strict: the draft's §10 appendix)"}},
		{"after body tag", "<head><title>t</title><link rel=x href=y>\n<div></div><base href=http://a/>", Element{}, []string{
			"line 2: <base href> outside the head ignored (strict: the draft's §10 appendix)"}},
		{"relative", "<head>\n<base href=../x>\n<base href=http://a/>", Element{Found: true, Href: "http://a/", Line: 3, Column: 1, Offset: 24}, []string{
			`line 2: <base href="../x"> ignored: not an absolute URL (strict: the draft's §10 appendix)`}},
		{"title text stays in head", "<head><title>Not body text</title><base href=http://a/>", Element{Found: true, Href: "http://a/", Line: 1, Column: 35, Offset: 34}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, warnings, err := ScanHTML(strings.NewReader(tt.html), true)
			require.NoError(t, err)
			assert.Equal(t, tt.want, e)
			assert.Equal(t, tt.warnings, warnings)
		})
	}
}

// appendixExample is the draft's §10 example document.
const appendixExample = `<!doctype html public "-//IETF//DTD HTML//EN">
<HTML><HEAD>
<TITLE>An example HTML document</TITLE>
<BASE href="http://www.ics.uci.edu/Test/a/b/c">
</HEAD><BODY>
... <A href="../x">a hypertext anchor</A> ...
</BODY></HTML>
`

// TestScanHTMLStopsEarly shows the scan ends at the deciding element: it
// never reads the rest of the stream.
func TestScanHTMLStopsEarly(t *testing.T) {
	r := &countio.Reader{R: strings.NewReader("<base href=x>" + strings.Repeat("<p>filler</p>", 100000))}
	e, _, err := ScanHTML(r, false)
	require.NoError(t, err)
	assert.True(t, e.Found)
	assert.Less(t, r.N, int64(64<<10))
}

// TestScanHTMLBounds: nesting and warnings are bounded; deep foreign
// content neither fails nor grows without limit.
func TestScanHTMLBounds(t *testing.T) {
	deep := strings.Repeat("<svg><g>", 5000) + "<base href=s>" + strings.Repeat("</g></svg>", 5000) + "<base href=d>"
	e, warnings, err := ScanHTML(strings.NewReader(deep), false)
	require.NoError(t, err)
	assert.Equal(t, "d", e.Href)
	assert.Len(t, warnings, 1)

	templates := strings.Repeat("<template>", 3000) + "<base href=t>" + strings.Repeat("</template>", 3000) + "<base href=d>"
	e, _, err = ScanHTML(strings.NewReader(templates), false)
	require.NoError(t, err)
	assert.Equal(t, "d", e.Href)

	many := strings.Repeat("<template><base href=t></template>", 100)
	_, warnings, err = ScanHTML(strings.NewReader(many), false)
	require.NoError(t, err)
	assert.Len(t, warnings, maxWarnings+1)
	assert.Equal(t, "more warnings left out", warnings[maxWarnings])
}

// onlyReader hides every method of a reader but Read, as a pipe would.
type onlyReader struct{ r io.Reader }

func (o onlyReader) Read(p []byte) (int, error) { return o.r.Read(p) }

// TestPrescan: the rewriter's pattern. The document's base applies to a
// link that stands before the <base> element (HTML: the document base URL
// is the first <base href>, wherever it is), so the scan comes first, and
// the reader Prescan returns gives the whole document for the one pass
// that follows.
func TestPrescan(t *testing.T) {
	const doc = `<html><head><link rel=stylesheet href=early.css><base href="http://b.example/dir/"></head><body><a href=late.html>`
	for name, r := range map[string]io.Reader{
		"seeker":         strings.NewReader(doc),
		"stream":         onlyReader{strings.NewReader(doc)},
		"stream, 1 byte": onlyReader{iotest.OneByteReader(strings.NewReader(doc))},
	} {
		e, warnings, rest, err := Prescan(r, false, 1<<20)
		require.NoError(t, err, name)
		assert.Empty(t, warnings, name)
		c := Context{Spec: resolve.WHATWG, Retrieval: "http://a.example/page.html"}
		b := c.Decide(e)
		all, err := io.ReadAll(rest)
		require.NoError(t, err, name)
		assert.Equal(t, doc, string(all), name)
		var links []string
		z := html.NewTokenizer(bytes.NewReader(all))
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			for more := true; more && tt == html.StartTagToken; {
				var k, v []byte
				k, v, more = z.TagAttr()
				if string(k) == "href" {
					u, err := resolve.Reference(c.Spec, b.URL, string(v))
					require.NoError(t, err)
					links = append(links, u)
				}
			}
		}
		assert.Equal(t, []string{"http://b.example/dir/early.css", "http://b.example/dir/", "http://b.example/dir/late.html"}, links, name)
	}
}

// TestPrescanLimit: past its limit Prescan stops looking, says so, and
// still gives back every byte.
func TestPrescanLimit(t *testing.T) {
	doc := strings.Repeat("<p>filler</p>\n", 1000) + `<base href="http://late.example/">`
	e, warnings, rest, err := Prescan(onlyReader{strings.NewReader(doc)}, false, 4096)
	require.NoError(t, err)
	assert.False(t, e.Found)
	require.Len(t, warnings, 1)
	assert.Contains(t, warnings[0], "no <base href> in the first 4096 bytes")
	all, err := io.ReadAll(rest)
	require.NoError(t, err)
	assert.Equal(t, doc, string(all))
}

// TestPrescanError: a document the scan cannot read to its end is an
// error, and the reader Prescan returns still yields every byte, so that a
// caller can pass the document on unchanged.
func TestPrescanError(t *testing.T) {
	defer func(n int) { maxToken = n }(maxToken)
	maxToken = 1000
	doc := "<p>x</p><script>" + strings.Repeat("x", 5000) + "</script><base href=late>"
	for name, r := range map[string]io.Reader{
		"seeker": strings.NewReader(doc),
		"stream": onlyReader{strings.NewReader(doc)},
	} {
		e, _, rest, err := Prescan(r, false, 1<<20)
		assert.ErrorIs(t, err, html.ErrBufferExceeded, name)
		assert.False(t, e.Found, name)
		require.NotNil(t, rest, name)
		all, err := io.ReadAll(rest)
		require.NoError(t, err, name)
		assert.Equal(t, doc, string(all), name)
	}
}

// TestScanHTMLTokenLimit: a token longer than the limit ends the scan
// with an error that says where, not with a buffer that grows on.
func TestScanHTMLTokenLimit(t *testing.T) {
	defer func(n int) { maxToken = n }(maxToken)
	maxToken = 1000
	doc := "<p>x</p><script>" + strings.Repeat("x", 5000) + "</script><base href=late>"
	_, _, err := ScanHTML(strings.NewReader(doc), false)
	assert.ErrorIs(t, err, html.ErrBufferExceeded)
	assert.EqualError(t, err, "base: scan html at byte 1016: max buffer exceeded")
}

// TestScanHTMLNoscript: the scripting flag decides how <noscript> is read
// (HTML §13.2.2). Without scripting (the default, a user agent that runs
// no scripts), its content is markup: a <base href> in a body <noscript>
// is an element, and one in a head <noscript> is moved into the head by
// the "in head noscript" insertion mode (§13.2.6.4.5, "anything else":
// pop the noscript, reprocess in head). With Scripting(true), as in a
// browser running scripts, it is raw text and the <base> no element.
func TestScanHTMLNoscript(t *testing.T) {
	tests := []struct {
		name, html     string
		off, scripting string // the href found ("": none), by reading
		strict         bool
	}{
		{"body", `<body><noscript><base href=n></noscript><base href=d>`, "n", "d", false},
		{"head", `<head><noscript><base href=n></noscript><base href=d></head>`, "n", "d", false},
		{"head, strict", `<head><noscript><base href=http://n/></noscript></head>`, "http://n/", "", true},
		{"head noscript text ends the head, strict", `<head><noscript>x<base href=http://n/></noscript></head>`, "", "", true},
		{"nested markup", `<noscript><div><p><base href=n></div></noscript>`, "n", "", false},
		{"svg inside", `<noscript><svg><base href=s></svg><base href=n></noscript>`, "n", "", false},
		{"in a template", `<template><noscript><base href=t></noscript></template><base href=d>`, "d", "d", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, scripting := range []bool{false, true} {
				want := tt.off
				if scripting {
					want = tt.scripting
				}
				e, _, err := ScanHTML(strings.NewReader(tt.html), tt.strict, Scripting(scripting))
				require.NoError(t, err)
				assert.Equal(t, want != "", e.Found, "scripting %v", scripting)
				assert.Equal(t, want, e.Href, "scripting %v", scripting)
				if !scripting {
					d, _, err := ScanHTML(strings.NewReader(tt.html), tt.strict)
					require.NoError(t, err)
					assert.Equal(t, e, d, "the default reads without scripting")
				}
				got, found := htmltreetest.ParsedBase(tt.html, scripting)
				if tt.strict {
					got, found = parsedHeadBase(tt.html, scripting)
				}
				assert.Equal(t, want, got, "html.Parse, scripting %v", scripting)
				assert.Equal(t, want != "", found)
			}
		})
	}
}
