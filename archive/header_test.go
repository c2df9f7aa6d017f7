package archive

import (
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseMediaType: RFC 2045 §5.1 values the standard library accepts,
// and the unquoted tspecials real producers write, which make
// mime.ParseMediaType drop every parameter.
func TestParseMediaType(t *testing.T) {
	tests := []struct {
		in     string
		mt     string
		params map[string]string
	}{
		{`text/html; charset="utf-8"`, "text/html", map[string]string{"charset": "utf-8"}},
		{"MULTIPART/RELATED; BOUNDARY=abc", "multipart/related", map[string]string{"boundary": "abc"}},
		// RFC 2110's own examples: type=Text/HTML unquoted.
		{"multipart/related; boundary=boundary-example-1; type=Text/HTML", "multipart/related", map[string]string{"boundary": "boundary-example-1", "type": "Text/HTML"}},
		// IE/Outlook: unquoted boundary containing "=".
		{"multipart/related; boundary=----=_NextPart_000_0000_01D0; type=text/html", "multipart/related", map[string]string{"boundary": "----=_NextPart_000_0000_01D0", "type": "text/html"}},
		// Opera: unquoted start=<...@1111:ffff:...>.
		{"multipart/related; start=<op.mhtml.1@1111:ffff:2222>; boundary=----------LHWA", "multipart/related", map[string]string{"start": "<op.mhtml.1@1111:ffff:2222>", "boundary": "----------LHWA"}},
		// Missing ";" after the type.
		{`text/html charset="utf-8"`, "text/html", map[string]string{"charset": "utf-8"}},
		// Duplicates: the first wins.
		{"text/plain; charset=a; charset=b; x", "text/plain", map[string]string{"charset": "a"}},
		// Quoted string with an escape and a ";".
		{`multipart/mixed; boundary="a\"b;c" ; z=1`, "multipart/mixed", map[string]string{"boundary": `a"b;c`, "z": "1"}},
		// Chrome's tab-folded header, as unfolded.
		{"multipart/related;\r\n\ttype=\"text/html\";\r\n\tboundary=\"----MultipartBoundary--x----\"", "multipart/related", map[string]string{"type": "text/html", "boundary": "----MultipartBoundary--x----"}},
		{"", "", map[string]string{}},
	}
	for _, tt := range tests {
		mt, params := ParseMediaType(tt.in)
		assert.Equal(t, tt.mt, mt, tt.in)
		assert.Equal(t, tt.params, params, tt.in)
	}
}

// TestContentID: RFC 2392 §2: a cid: URL names the Content-ID without
// its angle brackets.
func TestContentID(t *testing.T) {
	assert.Equal(t, "foo4%25foo1@bar.net", contentID(" <foo4%25foo1@bar.net> "))
	assert.Equal(t, "a@b", contentID("<a@b> (comment)"))
	assert.Equal(t, "a@b", contentID("a@b"))
}

// TestReadHeader: folding (RFC 5322 §2.2.3) joins lines keeping their
// whitespace; LF-only and CRLF; case-insensitive lookup; a line that is
// not a field ends the block with a warning.
func TestReadHeader(t *testing.T) {
	h, n, warn, err := readHeader([]byte("A: 1\nContent-Type: multipart/related;\n    boundary=x\nb: 2\n\nbody"), 1<<10)
	require.NoError(t, err)
	assert.Equal(t, Header{{"A", "1"}, {"Content-Type", "multipart/related;    boundary=x"}, {"b", "2"}}, h)
	assert.Equal(t, 59, n)
	assert.Empty(t, warn)
	assert.Equal(t, "2", h.Get("B"))
	assert.True(t, h.Has("content-type"))
	assert.Equal(t, []string{"1"}, h.Values("a"))
	assert.Equal(t, "1", h.MIME().Get("A"))

	h, n, warn, err = readHeader([]byte("A: 1\r\nnot a field\r\nrest"), 1<<10)
	require.NoError(t, err)
	assert.Equal(t, Header{{"A", "1"}}, h)
	assert.Equal(t, 6, n)
	assert.Equal(t, []string{`header ends at a line that is not a field: "not a field"`}, warn)

	_, _, _, err = readHeader([]byte("A: "+string(make([]byte, 100))+"\r\n\r\n"), 10)
	assert.ErrorIs(t, err, ErrHeaderTooLarge)
}

// TestFoldedHeaderLinear: a value folded over many lines (RFC 5322
// §2.2.3) is unfolded in memory linear in its size: appending each line to
// the value so far copied it again, and 320 KB of folding took seconds.
func TestFoldedHeaderLinear(t *testing.T) {
	const n = 50000
	block := "Content-Type: text/html\r\nX-A: a\r\n" + strings.Repeat(" x\r\n", n) + "X-B: b\r\n\r\n"
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	h, body, _, err := readHeader([]byte(block), 1<<20)
	runtime.ReadMemStats(&after)
	require.NoError(t, err)
	assert.Equal(t, len(block), body)
	assert.Equal(t, "a"+strings.Repeat(" x", n), h.Get("X-A"))
	assert.Equal(t, "b", h.Get("X-B"))
	assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16*len(block)), "bytes allocated")
}
