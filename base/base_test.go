package base

import (
	"bufio"
	"errors"
	"net/textproto"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/resolve"
)

// readHeader parses an RFC 822 header block as a message would carry it.
func readHeader(t *testing.T, block string) textproto.MIMEHeader {
	t.Helper()
	h, err := textproto.NewReader(bufio.NewReader(strings.NewReader(block + "\r\n"))).ReadMIMEHeader()
	require.NoError(t, err)
	return h
}

// decide scans doc and decides its base in c.
func decide(t *testing.T, c *Context, doc string) Result {
	t.Helper()
	e, _, err := ScanHTML(strings.NewReader(doc), c.Strict)
	require.NoError(t, err)
	return c.Decide(e)
}

// TestDraftAppendix is the draft's §10 example: "A parser reading the
// example document should interpret the given relative URL "../x" as
// representing the absolute URL <URL:http://www.ics.uci.edu/Test/a/x>
// regardless of the context in which the example document was obtained."
func TestDraftAppendix(t *testing.T) {
	contexts := map[string]Context{
		"no context":       {},
		"retrieval":        {Retrieval: "http://elsewhere.example/doc.html"},
		"base header":      {Header: textproto.MIMEHeader{"Base": {"<URL:http://other.example/>"}}},
		"enclosing entity": {Enclosing: &Result{URL: "http://outer.example/", Source: Header}},
	}
	for name, c := range contexts {
		for _, strict := range []bool{false, true} {
			c.Spec, c.Strict = resolve.RFC1808, strict
			r := decide(t, &c, appendixExample)
			assert.Equal(t, Result{URL: "http://www.ics.uci.edu/Test/a/b/c", Source: Embedded, Detail: "<base href> at line 4"}, r, name)
			x, err := resolve.Reference(c.Spec, r.URL, "../x")
			require.NoError(t, err)
			assert.Equal(t, "http://www.ics.uci.edu/Test/a/x", x, name)
		}
	}
}

// TestDraftBaseHeader is the draft's §3.2 example: "the header
// Base: <URL:http://www.ics.uci.edu/Test/a/b/c> would indicate that any
// relative URLs found within the document should be parsed relative to
// <URL:http://www.ics.uci.edu/Test/a/b/c>", and "Any whitespace (including
// that used for line folding) inside the angle brackets should be
// ignored."
func TestDraftBaseHeader(t *testing.T) {
	const want = "http://www.ics.uci.edu/Test/a/b/c"
	blocks := map[string]string{
		"§3.2 example":      "Base: <URL:http://www.ics.uci.edu/Test/a/b/c>\r\n",
		"case-insensitive":  "BASE: <url:http://www.ics.uci.edu/Test/a/b/c>\r\n",
		"folded":            "Base: <URL:http://www.ics.uci.edu/\r\n Test/a/b/c>\r\n",
		"folded twice, tab": "Base: <URL:\r\n\thttp://www.ics.uci.edu/Test/\r\n  a/b/c>\r\n",
		"spaces inside":     "Base: < URL: http://www.ics.uci.edu/Test/a/b/c >\r\n",
		"without wrapper":   "Base: http://www.ics.uci.edu/Test/a/b/c\r\n",
	}
	doc := strings.Replace(appendixExample, `<BASE href="http://www.ics.uci.edu/Test/a/b/c">`, "", 1)
	for name, block := range blocks {
		c := Context{Spec: resolve.RFC1808, Header: readHeader(t, block), Retrieval: "http://retrieved.example/"}
		r := decide(t, &c, doc)
		assert.Equal(t, Result{URL: want, Source: Header, Detail: "Base header"}, r, name)
		x, err := resolve.Reference(c.Spec, r.URL, "../x")
		require.NoError(t, err)
		assert.Equal(t, "http://www.ics.uci.edu/Test/a/x", x, name)
	}
}

// TestHeaderValue covers the forms a Base, Content-Base or
// Content-Location value takes.
func TestHeaderValue(t *testing.T) {
	tests := []struct {
		in, want string
		err      error
	}{
		{"<URL:http://a/b>", "http://a/b", nil},                  // draft §3.2
		{"<url:http://a/b>", "http://a/b", nil},                  // "case-insensitive"
		{"<http://a/b>", "http://a/b", nil},                      // angle brackets alone
		{"URL:http://a/b", "http://a/b", nil},                    // the 1993 "url:" prefix
		{`"http://a/b"`, "http://a/b", nil},                      // RFC 2017 §3.1 quotes
		{"http://a/ b/\r\n c", "http://a/b/c", nil},              // RFC 2017 §3.1: whitespace removed
		{"images/a.gif", "images/a.gif", nil},                    // relative: resolved later
		{"=?utf-8?q?http://a/caf=C3=A9?=", "http://a/café", nil}, // RFC 2557 §4.4.1
		{"%7Euser/a%20b", "%7Euser/a%20b", nil},                  // no percent-decoding (RFC 2557 §8.2)
		{"", "", ErrHeaderSyntax},
		{"<URL:>", "", ErrHeaderSyntax},
		{"<URL:http://a/", "", ErrHeaderSyntax},
		{"<a><b>", "", ErrHeaderSyntax},
	}
	for _, tt := range tests {
		got, err := HeaderValue(tt.in)
		assert.Equal(t, tt.want, got, tt.in)
		assert.ErrorIs(t, err, tt.err, tt.in)
	}
}

// TestHeaderOrder: when several §3.2 headers appear, Base, then
// Content-Base (RFC 2068 §14.11, RFC 2110 §5), then Content-Location.
func TestHeaderOrder(t *testing.T) {
	tests := []struct {
		name   string
		header string
		want   string
		detail string
	}{
		{"Base over Content-Base", "Content-Base: http://cb/\r\nBase: <URL:http://b/>\r\n", "http://b/", "Base of the message"},
		{"Content-Base over Content-Location", "Content-Location: http://cl/x.html\r\nContent-Base: http://cb/\r\n", "http://cb/", "Content-Base of the message"},
		{"Base over Content-Location", "Content-Location: http://cl/x.html\r\nBase: http://b/\r\n", "http://b/", "Base of the message"},
		{"Content-Location alone", "Content-Location: http://cl/x.html\r\n", "http://cl/x.html", "Content-Location of the message"},
		{"unusable Base skipped", "Base: <URL:\r\nContent-Base: http://cb/\r\n", "http://cb/", "Content-Base of the message"},
		{"first of two", "Content-Location: http://one/\r\nContent-Location: http://two/\r\n", "http://one/", "Content-Location of the message"},
	}
	for _, tt := range tests {
		c := Context{Spec: resolve.RFC3986, Header: readHeader(t, tt.header), HeaderOf: "the message", ContentLocation: true}
		r := c.Fallback()
		assert.Equal(t, tt.want, r.URL, tt.name)
		assert.Equal(t, Header, r.Source, tt.name)
		assert.Equal(t, tt.detail, r.Detail, tt.name)
	}
}

// TestHeaderNameCase: "Base" is case-insensitive (draft §3.2). A header
// map built by hand may hold one name under several spellings: they all
// count, the canonical one first and the others in a fixed order, so the
// result does not change from one run to the next.
func TestHeaderNameCase(t *testing.T) {
	h := textproto.MIMEHeader{"base": {"http://lower/"}, "BASE": {"http://upper/"}, " Base ": {"http://spaced/"}}
	for range 50 {
		c := Context{Spec: resolve.RFC3986, Header: h}
		r := c.Fallback()
		require.Equal(t, "http://spaced/", r.URL)
		require.Equal(t, []string{"Base header appears 3 times: the first counts"}, r.Warnings)
	}
	h["Base"] = []string{"http://canonical/"}
	c := Context{Spec: resolve.RFC3986, Header: h}
	assert.Equal(t, "http://canonical/", c.Fallback().URL)
}

// TestContentLocation: RFC 2557 §5 (b) makes a part's Content-Location its
// base; for HTTP, RFC 7231 Appendix B took that away and browsers ignore
// it, so it counts only when asked.
func TestContentLocation(t *testing.T) {
	h := textproto.MIMEHeader{"Content-Location": {"http://cl.example/page.html"}}
	http := Context{Spec: resolve.WHATWG, Header: h, Retrieval: "http://retrieved.example/"}
	r := http.Fallback()
	assert.Equal(t, "http://retrieved.example/", r.URL)
	assert.Equal(t, Retrieval, r.Source)
	assert.Equal(t, []string{"Content-Location header ignored: browsers do not use it for an HTTP response (Context.ContentLocation honours it)"}, r.Warnings)

	http.ContentLocation = true
	r = http.Fallback()
	assert.Equal(t, Result{URL: "http://cl.example/page.html", Source: Header, Detail: "Content-Location header"}, r)

	part := Context{Spec: resolve.WHATWG, Header: h, HeaderOf: "part 3", Enclosing: &Result{URL: "http://outer.example/", Source: Header}}
	assert.Equal(t, "header: Content-Location of part 3", part.Fallback().Provenance())

	// A cid: label (RFC 2557 §8.3; Chrome's synthetic parts) is no base:
	// the search goes on outward.
	part.Header = textproto.MIMEHeader{"Content-Location": {"cid:css-1234@mhtml.blink"}}
	r = part.Fallback()
	assert.Equal(t, "http://outer.example/", r.URL)
	assert.Equal(t, Composite, r.Source)
	assert.Len(t, r.Warnings, 1)
}

// TestRelativeHeader: a relative header value is resolved against the
// layer below (RFC 2557 §8.2 (c); RFC 2616 §14.14 for HTTP).
func TestRelativeHeader(t *testing.T) {
	c := Context{
		Spec:      resolve.RFC3986,
		Header:    textproto.MIMEHeader{"Content-Location": {"images/page.html"}},
		HeaderOf:  "part 2",
		Enclosing: &Result{URL: "http://www.ietf.cnri.reston.va.us/", Source: Header},
	}
	r := c.Fallback()
	assert.Equal(t, Result{URL: "http://www.ietf.cnri.reston.va.us/images/page.html", Source: Header,
		Detail: "Content-Location of part 2 (relative, resolved against the composite base)"}, r)

	// With nothing below, a relative value cannot be resolved: the header
	// is skipped with a warning, and the default remains.
	c.Enclosing, c.ContentLocation = nil, true
	r = c.Fallback()
	assert.Equal(t, Default, r.Source)
	assert.Equal(t, "", r.URL)
	require.Len(t, r.Warnings, 1)
	assert.Contains(t, r.Warnings[0], "relative reference with no base URL")
}

// TestPrecedence has one case per adjacent pair of the draft's §3 layers,
// and the composite layer against its neighbours: the inner one wins.
func TestPrecedence(t *testing.T) {
	const doc = `<head><base href="http://embedded.example/"></head>`
	const plain = `<head></head><a href=x>`
	header := textproto.MIMEHeader{"Base": {"<URL:http://header.example/>"}}
	tests := []struct {
		name string
		c    Context
		doc  string
		want Result
	}{
		{"§3.1 embedded over §3.2 header", Context{Header: header, Retrieval: "http://retrieval.example/"}, doc,
			Result{URL: "http://embedded.example/", Source: Embedded, Detail: "<base href> at line 1"}},
		{"§3.2 header over §3.3 retrieval", Context{Header: header, Retrieval: "http://retrieval.example/"}, plain,
			Result{URL: "http://header.example/", Source: Header, Detail: "Base header"}},
		{"§3.3 retrieval over §3.4 default", Context{Retrieval: "http://retrieval.example/"}, plain,
			Result{URL: "http://retrieval.example/", Source: Retrieval, Detail: "retrieval URL"}},
		{"§3.4 default", Context{}, plain,
			Result{Source: Default}},
		{"§3.2 header over §3.3 composite", Context{Header: header, Enclosing: &Result{URL: "http://outer.example/"}}, plain,
			Result{URL: "http://header.example/", Source: Header, Detail: "Base header"}},
		{"§3.3 composite over retrieval", Context{Enclosing: &Result{URL: "http://outer.example/"}, EnclosingType: "message/rfc822", Retrieval: "http://retrieval.example/"}, plain,
			Result{URL: "http://outer.example/", Source: Composite, Detail: "base of enclosing message/rfc822"}},
		{"§3.3 enclosing without base", Context{Enclosing: &Result{}, Retrieval: "http://retrieval.example/"}, plain,
			Result{URL: "http://retrieval.example/", Source: Retrieval, Detail: "retrieval URL"}},
	}
	for _, tt := range tests {
		tt.c.Spec = resolve.RFC3986
		assert.Equal(t, tt.want, decide(t, &tt.c, tt.doc), tt.name)
	}
}

// TestDefaultFailsPerLink: §3.4 "all embedded URLs within that document
// are assumed to be absolute", so a relative one fails by itself with
// resolve.ErrNoBase, and an absolute one still resolves.
func TestDefaultFailsPerLink(t *testing.T) {
	c := Context{Spec: resolve.RFC1808}
	r := decide(t, &c, `<a href="g">g</a><a href="http://a/g">`)
	assert.Equal(t, "default", r.Provenance())
	_, err := resolve.Reference(c.Spec, r.URL, "g")
	assert.True(t, errors.Is(err, resolve.ErrNoBase), "%v", err)
	u, err := resolve.Reference(c.Spec, r.URL, "http://a/g")
	require.NoError(t, err)
	assert.Equal(t, "http://a/g", u)
}

// TestEmbeddedValue follows the HTML Standard's "set the frozen base URL":
// the href is resolved against the fallback base URL; failure, data: and
// javascript: leave the fallback.
func TestEmbeddedValue(t *testing.T) {
	tests := []struct {
		name     string
		spec     resolve.Spec
		fallback string
		doc      string
		want     string
		source   Source
		warning  string
	}{
		{"relative href", resolve.WHATWG, "http://h/dir/page.html", `<base href="/about/">`, "http://h/about/", Embedded, ""},
		{"relative href dot", resolve.RFC3986, "http://h/dir/page.html", `<base href=".">`, "http://h/dir/", Embedded, ""},
		{"network-path href", resolve.RFC3986, "https://h/dir/", `<base href=//cdn.example/x/ />`, "https://cdn.example/x/", Embedded, ""},
		{"relative href under rfc1808", resolve.RFC1808, "http://a/b/c/d;p?q#f", `<base href="../g/">`, "http://a/b/g/", Embedded, ""},
		{"whitespace trimmed", resolve.RFC3986, "http://h/", "<base href=\" \t\nhttp://x/y/\n \">", "http://x/y/", Embedded, ""},
		{"empty href is the fallback", resolve.RFC3986, "http://h/a?b", `<base href="">`, "http://h/a?b", Embedded, ""},
		{"data:", resolve.WHATWG, "http://h/", `<base href="data:text/html,x">`, "http://h/", Retrieval, "<base href> at line 1 ignored: a data: URL cannot be a base"},
		{"javascript:", resolve.WHATWG, "http://h/", `<base href="JavaScript:alert(1)">`, "http://h/", Retrieval, "<base href> at line 1 ignored: a javascript: URL cannot be a base"},
		{"unparsable", resolve.WHATWG, "http://h/", `<base href="http://[::1">`, "http://h/", Retrieval, "<base href> at line 1 ignored: "},
		{"relative with no fallback", resolve.RFC3986, "", `<base href="/about/">`, "", Default, "<base href> at line 1 ignored: "},
	}
	for _, tt := range tests {
		c := Context{Spec: tt.spec, Retrieval: tt.fallback}
		r := decide(t, &c, tt.doc)
		assert.Equal(t, tt.want, r.URL, tt.name)
		assert.Equal(t, tt.source, r.Source, tt.name)
		if tt.warning == "" {
			assert.Empty(t, r.Warnings, tt.name)
		} else if assert.Len(t, r.Warnings, 1, tt.name) {
			assert.True(t, strings.HasPrefix(r.Warnings[0], tt.warning), "%s: %q", tt.name, r.Warnings[0])
		}
	}
}

// TestStrictDecide: in strict mode a relative HREF never becomes the base,
// even when a caller hands Decide an element found in browser mode.
func TestStrictDecide(t *testing.T) {
	c := Context{Spec: resolve.RFC1808, Strict: true, Retrieval: "http://r/"}
	r := c.Decide(Element{Found: true, Href: "../x", Line: 7})
	assert.Equal(t, "http://r/", r.URL)
	assert.Equal(t, []string{`<base href> at line 7 ignored: "../x" is not absolute (strict: the draft's §10 appendix)`}, r.Warnings)
}

// TestRetrievalValidated: a retrieval URL that cannot be a base is
// reported, not used.
func TestRetrievalValidated(t *testing.T) {
	c := Context{Spec: resolve.RFC3986, Retrieval: "relative/path.html"}
	r := c.Fallback()
	assert.Equal(t, Default, r.Source)
	require.Len(t, r.Warnings, 1)
	assert.Contains(t, r.Warnings[0], "base URL is not absolute")
}

func TestProvenance(t *testing.T) {
	assert.Equal(t, "embedded: <base href> at line 12", Result{Source: Embedded, Detail: "<base href> at line 12"}.Provenance())
	assert.Equal(t, "default", Result{}.Provenance())
	for s, name := range map[Source]string{Default: "default", Embedded: "embedded", Header: "header", Retrieval: "retrieval", Composite: "composite"} {
		assert.Equal(t, name, s.String())
	}
}
