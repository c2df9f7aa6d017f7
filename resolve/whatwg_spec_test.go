package resolve

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/unicode"
)

// TestURLParsingExamples runs the URL Standard's own table of parsing
// examples (§4.3, "URL parsing examples"), in the WHATWG mode.
func TestURLParsingExamples(t *testing.T) {
	tests := []struct{ input, base, want string }{
		{"https:example.org", "", "https://example.org/"},
		{"https://////example.com///", "", "https://example.com///"},
		{"https://example.com/././foo", "", "https://example.com/foo"},
		{"hello:world", "https://example.com/", "hello:world"},
		{"https:example.org", "https://example.com/", "https://example.com/example.org"},
		{`\example\..\demo/.\`, "https://example.com/", "https://example.com/demo/"},
		{"example", "https://example.com/demo", "https://example.com/example"},
		{"file:///C|/demo", "", "file:///C:/demo"},
		{"..", "file:///C:/demo", "file:///C:/"},
		{"file://loc%61lhost/", "", "file:///"},
		{"https://user:password@example.org/", "", "https://user:password@example.org/"},
		{"https://example.org/foo bar", "", "https://example.org/foo%20bar"},
		{"https://EXAMPLE.com/../x", "", "https://example.com/x"},
		{"https://ex ample.org/", "", ""},
		{"example", "", ""},
		{"https://example.com:demo", "", ""},
		{"http://[www.example.com]/", "", ""},
		{"https://example.org//", "", "https://example.org//"},
		{"https://example.com/[]?[]#[]", "", "https://example.com/[]?[]#[]"},
		{"https://example/%?%#%", "", "https://example/%?%#%"},
		{"https://example/%25?%25#%25", "", "https://example/%25?%25#%25"},
	}
	for _, tt := range tests {
		got, err := Reference(WHATWG, tt.base, tt.input)
		if tt.want == "" {
			assert.Error(t, err, "§4.3: %q against %q: got %q", tt.input, tt.base, got)
			continue
		}
		if assert.NoError(t, err, "§4.3: %q against %q", tt.input, tt.base) {
			assert.Equal(t, tt.want, got, "§4.3: %q against %q", tt.input, tt.base)
		}
	}
}

// TestWHATWGCrawlerCases is the crawler table of the project's notes
// (url.md §4 Table C and §6): what real pages hold, resolved as a browser
// resolves it (node's new URL column), against one base. Where the notes'
// node 20 column predates the Standard's current text, the Standard wins
// and the row says so.
func TestWHATWGCrawlerCases(t *testing.T) {
	const base = "https://example.com/dir/page.html?x=1#top"
	tests := []struct{ ref, want, why string }{
		{" /x ", "https://example.com/x", "§4.4 step 1.2: leading and trailing C0 control or space"},
		{"\n/x\n", "https://example.com/x", "§4.4 step 3: tab and newline"},
		{"/x\n/y", "https://example.com/x/y", "§4.4 step 3"},
		{"/x\ty", "https://example.com/xy", "§4.4 step 3"},
		{"ja\nvascript:alert(1)", "javascript:alert(1)", "§4.4 step 3, then the scheme state"},
		{`\x`, "https://example.com/x", `relative state: "\" is "/" in special URLs`},
		{`\\evil.com\x`, "https://evil.com/x", "relative slash state"},
		{`/\evil.com`, "https://evil.com/", "relative slash state"},
		{`http:\\evil.com\x`, "http://evil.com/x", "special authority slashes state"},
		{"//evil.com/x", "https://evil.com/x", "scheme-relative"},
		{"///evil.com/x", "https://evil.com/x", "special authority ignore slashes state"},
		{"HTTP://EXAMPLE.COM/X", "http://example.com/X", "scheme state; domain to ASCII"},
		{"HtTpS://Example.COM:443/a", "https://example.com/a", "port state: default port"},
		{"javascript:void(0)", "javascript:void(0)", "opaque path"},
		{"JavaScript:alert(1)", "javascript:alert(1)", "scheme state"},
		{"data:text/html,<b>hi</b>", "data:text/html,<b>hi</b>", "opaque path: C0 control percent-encode set"},
		{"mailto:a@b.c", "mailto:a@b.c", "opaque path"},
		{"tel:+1-555", "tel:+1-555", "opaque path"},
		{"about:blank", "about:blank", "opaque path"},
		{"http:page2.html", "http://page2.html/", "special authority slashes state: another special scheme"},
		{"https:page2.html", "https://example.com/dir/page2.html", "special relative or authority state: the base's scheme"},
		{"ftp:x", "ftp://x/", "special authority slashes state"},
		{"?", "https://example.com/dir/page.html?", "relative state"},
		{"#", "https://example.com/dir/page.html?x=1#", "relative state"},
		{"", "https://example.com/dir/page.html?x=1", "relative state: the base without its fragment"},
		{"?q=a b", "https://example.com/dir/page.html?q=a%20b", "special-query percent-encode set"},
		{"/a b/c d.html", "https://example.com/a%20b/c%20d.html", "path percent-encode set"},
		{"/ä/ö?ü=ß#é", "https://example.com/%C3%A4/%C3%B6?%C3%BC=%C3%9F#%C3%A9", "UTF-8 percent-encode"},
		{"http://münchen.de/", "http://xn--mnchen-3ya.de/", "domain to ASCII"},
		{"http://xn--mnchen-3ya.de/", "http://xn--mnchen-3ya.de/", "domain to ASCII"},
		{"http://EXAMPLE.com./", "http://example.com./", "domain to ASCII"},
		{"/a%2Fb/../c", "https://example.com/c", "%2F is not a slash"},
		{"/a/%2e%2e/b", "https://example.com/b", "double-dot URL path segment"},
		{"/a/%2E/b", "https://example.com/a/b", "single-dot URL path segment"},
		{"/%zz", "https://example.com/%zz", "a bad escape is kept"},
		{"../../../../x", "https://example.com/x", "shorten a URL's path"},
		{"a:b", "a:b", "a scheme"},
		{"./a:b", "https://example.com/dir/a:b", "no scheme"},
		{"x|y^z`{}", "https://example.com/dir/x|y%5Ez%60%7B%7D", `path percent-encode set, with "^" (node 20 predates it)`},
		{`/x"y<z>`, "https://example.com/x%22y%3Cz%3E", "path percent-encode set"},
		{"http://[::1]:8080/x", "http://[::1]:8080/x", "IPv6"},
		{"http://[::FFFF:1.2.3.4]/", "http://[::ffff:102:304]/", "IPv6 serializer"},
		{"http://[fe80::1%25eth0]/", "", "IPv6 parser: no zone identifiers"},
		{"http://1.2.3.4:99999/", "", "port state: port-out-of-range"},
		{"http://0x7f.1/", "http://127.0.0.1/", "IPv4 parser"},
		{"http://127.1/", "http://127.0.0.1/", "IPv4 parser"},
		{"http://example.com:80/x", "http://example.com/x", "default port"},
		{"https://example.com:443/x", "https://example.com/x", "default port"},
		{"http://u:p@h/x", "http://u:p@h/x", "authority state"},
		{"http://a/b#c#d", "http://a/b#c#d", "fragment state"},
		{`C:\path\f.txt`, `c:\path\f.txt`, "a one-letter scheme; opaque path"},
		{"file:///etc/passwd", "file:///etc/passwd", "file state"},
		{"http://x/./a/../b", "http://x/b", "path state"},
		{"//example.com", "https://example.com/", "path start state"},
		{"http://", "", "host-missing"},
		{"http:/x", "http://x/", "special authority ignore slashes state"},
		{".//x", "https://example.com/dir//x", "path state"},
		{"/./x/../../y", "https://example.com/y", "path state"},
		{"x/..", "https://example.com/dir/", "path state"},
		{"%2e%2e/x", "https://example.com/x", "double-dot URL path segment"},
		{"..%2fx", "https://example.com/dir/..%2fx", "%2f is not a slash"},
	}
	r, err := NewResolver(WHATWG, base, Options{})
	require.NoError(t, err)
	for _, tt := range tests {
		got, err := r.Reference(tt.ref)
		if tt.want == "" {
			assert.Error(t, err, "%q (%s): got %q", tt.ref, tt.why, got)
			continue
		}
		if assert.NoError(t, err, "%q (%s)", tt.ref, tt.why) {
			assert.Equal(t, tt.want, got, "%q (%s)", tt.ref, tt.why)
		}
	}
}

// TestQueryEncoding: the query of a special URL is encoded in the
// document's encoding (URL Standard §4.4 query state; HTML Standard
// "encoding-parse a URL"); the path and fragment are always UTF-8, and
// non-special, ws and wss URLs use UTF-8 throughout.
func TestQueryEncoding(t *testing.T) {
	tests := []struct {
		name string
		opts Options
		base string
		ref  string
		want string
	}{
		{"UTF-8 by default", Options{}, "http://a/", "/ä?ä#ä", "http://a/%C3%A4?%C3%A4#%C3%A4"},
		{"windows-1252", Options{QueryEncoding: charmap.Windows1252}, "http://a/", "/ä?ä#ä", "http://a/%C3%A4?%E4#%C3%A4"},
		{"unmappable", Options{QueryEncoding: charmap.Windows1252}, "http://a/", "?ā", "http://a/?%26%23257%3B"},
		{"Shift_JIS", Options{QueryEncoding: japanese.ShiftJIS}, "http://a/", "?日本", "http://a/?%93%FA%96{"},
		{"Shift_JIS U+2212", Options{QueryEncoding: japanese.ShiftJIS}, "http://a/", "?\u2212", "http://a/?%81|"},
		{"ws stays UTF-8", Options{QueryEncoding: charmap.Windows1252}, "ws://a/", "?ä", "ws://a/?%C3%A4"},
		{"wss stays UTF-8", Options{QueryEncoding: charmap.Windows1252}, "http://a/", "wss://a/?ä", "wss://a/?%C3%A4"},
		{"non-special stays UTF-8", Options{QueryEncoding: charmap.Windows1252}, "http://a/", "sc://a/?ä", "sc://a/?%C3%A4"},
		{"UTF-16 documents encode as UTF-8", Options{QueryEncoding: unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)}, "http://a/", "?ä", "http://a/?%C3%A4"},
		{"the base's query is kept as it is", Options{QueryEncoding: charmap.Windows1252}, "http://a/?%C3%A4", "#f", "http://a/?%C3%A4#f"},
	}
	for _, tt := range tests {
		r, err := NewResolver(WHATWG, tt.base, tt.opts)
		require.NoError(t, err, tt.name)
		got, err := r.Reference(tt.ref)
		if assert.NoError(t, err, tt.name) {
			assert.Equal(t, tt.want, got, tt.name)
		}
	}
}

// TestWebURLAccessors checks the accessors on one URL with every component
// (URL Standard §6.1).
func TestWebURLAccessors(t *testing.T) {
	u, err := ParseWebURL("HTTPS://us%65r:pa ss@EXAMPLE.com:8443/a/./b/../c?q=1#frag", nil, Options{})
	require.NoError(t, err)
	assert.Equal(t, "https://us%65r:pa%20ss@example.com:8443/a/c?q=1#frag", u.Href())
	assert.Equal(t, u.Href(), u.String())
	assert.Equal(t, "https:", u.Protocol())
	assert.Equal(t, "https", u.Scheme())
	assert.Equal(t, "us%65r", u.Username())
	assert.Equal(t, "pa%20ss", u.Password())
	assert.Equal(t, "example.com:8443", u.Host())
	assert.Equal(t, "example.com", u.Hostname())
	assert.Equal(t, "8443", u.Port())
	assert.Equal(t, "/a/c", u.Pathname())
	assert.Equal(t, "?q=1", u.Search())
	assert.Equal(t, "#frag", u.Hash())
	assert.Equal(t, "https://example.com:8443", u.Origin())

	u, err = ParseWebURL("blob:https://a.example/uuid", nil, Options{})
	require.NoError(t, err)
	assert.Equal(t, "https://a.example", u.Origin())
	u, err = ParseWebURL("file:///x", nil, Options{})
	require.NoError(t, err)
	assert.Equal(t, "null", u.Origin())
}

// TestWebURLZero: the zero WebURL is not a URL, but its accessors do not
// panic.
func TestWebURLZero(t *testing.T) {
	var u WebURL
	for _, got := range []string{u.Href(), u.Protocol(), u.Scheme(), u.Username(), u.Password(), u.Host(), u.Hostname(), u.Port(), u.Pathname(), u.Search(), u.Hash()} {
		assert.Empty(t, got)
	}
	assert.Equal(t, "null", u.Origin())
}

// TestParseWebURLError: failures are *Error values naming the input and
// the base.
func TestParseWebURLError(t *testing.T) {
	base, err := ParseWebURL("http://a/b", nil, Options{})
	require.NoError(t, err)
	_, err = ParseWebURL("http://a:x/", base, Options{})
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "parse", e.Op)
	assert.Equal(t, WHATWG, e.Spec)
	assert.Equal(t, "http://a/b", e.Base)
	assert.Equal(t, "http://a:x/", e.Ref)
	assert.EqualError(t, err, `whatwg parse "http://a:x/" against "http://a/b": port-invalid: the port is not a number`)
	_, err = ParseWebURL("x", nil, Options{})
	assert.ErrorIs(t, err, ErrNoBase)
}

// TestWHATWGInvalidUTF8: bytes that are not UTF-8 are read as U+FFFD, as a
// browser reads a lone surrogate; a host with one fails.
func TestWHATWGInvalidUTF8(t *testing.T) {
	got, err := Reference(WHATWG, "http://a/", "/\xff?\xfe#\xfd")
	require.NoError(t, err)
	assert.Equal(t, "http://a/%EF%BF%BD?%EF%BF%BD#%EF%BF%BD", got)
	_, err = Reference(WHATWG, "", "http://\xff/")
	assert.Error(t, err)
	_, err = Reference(WHATWG, "", "http://%ff/")
	assert.Error(t, err)
}
