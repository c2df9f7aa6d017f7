package archive

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/resolve"
)

// The documents of the kind tests: XHTML whose <textarea> holds markup
// (read as XML, the <a> in it is a link; read as HTML it is text), an SVG
// after a prologue longer than base.ContentSniffLen, and gzip bytes (an
// .svgz) declared image/svg+xml.
var (
	kindXHTML = `<?xml version="1.0"?>` + "\n" + `<html xmlns="http://www.w3.org/1999/xhtml"><body>` +
		`<textarea><a href="in-textarea.html"/></textarea><a href="b.html"/></body></html>`
	kindLongSVG = `<?xml version="1.0"?>` + "\n<!-- " + strings.Repeat("licence text ", base.ContentSniffLen/12) + "-->\n" +
		`<svg xmlns="http://www.w3.org/2000/svg"><image href="late.png"/></svg>`
	kindSVGZ = string(gzipBytes([]byte(`<svg xmlns="http://www.w3.org/2000/svg"><image href="z.png"/></svg>`)))
)

// kindMessage is an MHTML archive with one part of each case.
func kindMessage() string {
	part := func(ct, loc, body string) string {
		return "--B\r\nContent-Type: " + ct + "\r\nContent-Transfer-Encoding: binary\r\nContent-Location: " + loc + "\r\n\r\n" + body + "\r\n"
	}
	return "Content-Type: multipart/related; boundary=B\r\nContent-Location: http://x.example/d/\r\n\r\n" +
		part("application/xhtml+xml", "page.xhtml", kindXHTML) +
		part("image/svg+xml", "long.svg", kindLongSVG) +
		part("image/svg+xml", "z.svg", kindSVGZ) +
		"--B--\r\n"
}

// TestPartKinds: an MHTML part's kind is base.FormatOfContent's: an XHTML
// part with XHTML's root is read as XML (its <textarea>'s <a> is a link),
// an SVG part after a long prologue is read, and a part of gzip bytes
// declared image/svg+xml is named in a warning, not read.
func TestPartKinds(t *testing.T) {
	m, err := Open(strings.NewReader(kindMessage()), Options{Spec: resolve.WHATWG})
	require.NoError(t, err)
	defer m.Close()
	var got []string
	require.NoError(t, m.Links(func(l Link) error {
		got = append(got, l.Part+" "+l.URL)
		return nil
	}))
	assert.Equal(t, []string{
		"1 http://x.example/d/in-textarea.html",
		"1 http://x.example/d/b.html",
		"2 http://x.example/d/late.png",
	}, got)
	var warnings []string
	for _, p := range m.Parts() {
		for _, w := range p.Warnings {
			warnings = append(warnings, p.Path+": "+w)
		}
	}
	assert.Equal(t, []string{"3: not read for links: declared image/svg+xml but its bytes are gzip data, not XML: not read"}, warnings)

	var out bytes.Buffer
	st, err := Rewrite(&out, strings.NewReader(kindMessage()), Options{Spec: resolve.WHATWG})
	require.NoError(t, err)
	assert.Contains(t, out.String(), `<textarea><a href="http://x.example/d/in-textarea.html"/></textarea><a href="http://x.example/d/b.html"/></body>`)
	assert.Contains(t, out.String(), `<image href="http://x.example/d/late.png"/>`)
	assert.Contains(t, out.String(), kindSVGZ, "the gzip part is left as stored")
	assert.Equal(t, []string{"part 3: left as stored: declared image/svg+xml but its bytes are gzip data, not XML: not read"}, st.Warnings)
}

// TestPayloadKinds: a WARC payload's kind is base.FormatOfContent's, as an
// MHTML part's: XHTML with XHTML's root is XML, an SVG or Atom feed after
// a long prologue is read (it was skipped: every XML payload's root was
// sniffed), and gzip bytes declared image/svg+xml are a warning naming the
// record, not skipped silently (a PNG: a gzip payload is gunzipped as
// a body sent without its Content-Encoding, see httpPayload).
func TestPayloadKinds(t *testing.T) {
	record := func(name, ct, body string) string {
		http := "HTTP/1.1 200 OK\r\nContent-Type: " + ct + "\r\n\r\n" + body
		return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.example/" + name +
			"\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: " + strconv.Itoa(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
	}
	longAtom := strings.Replace(kindLongSVG, `<svg xmlns="http://www.w3.org/2000/svg"><image href="late.png"/></svg>`,
		`<feed xmlns="http://www.w3.org/2005/Atom"><link href="entry.html"/></feed>`, 1)
	warc := record("page.xhtml", "application/xhtml+xml", kindXHTML) +
		record("long.svg", "image/svg+xml", kindLongSVG) +
		record("feed", "application/atom+xml; charset=utf-8", longAtom) +
		record("png.svg", "image/svg+xml", "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	var got []string
	st, err := ScanWARCLinks(strings.NewReader(warc), Options{Spec: resolve.WHATWG}, func(l WARCLink) error {
		got = append(got, l.Target+" "+l.URL)
		return nil
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, []string{
		"http://x.example/page.xhtml http://x.example/in-textarea.html",
		"http://x.example/page.xhtml http://x.example/b.html",
		"http://x.example/long.svg http://x.example/late.png",
		"http://x.example/feed http://x.example/entry.html",
	}, got)
	require.Len(t, st.Warnings, 1)
	assert.Regexp(t, `^record at \d+: payload declared image/svg\+xml but its bytes are binary data, not XML: not read$`, st.Warnings[0])
}

// TestXHTMLPartStreams: an application/xhtml+xml part that is HTML (no
// XHTML root) is settled from its first bytes before the choice between
// streaming and holding it, so it streams as a text/html part does, past
// Limits.DecodedBytes (held whole, it would be refused over the limit).
func TestXHTMLPartStreams(t *testing.T) {
	page := `<!DOCTYPE html><a href="x.html">x</a><p>` + strings.Repeat("filler ", 600) + `<a href="y.html">y</a>`
	msg := "Content-Type: multipart/related; boundary=B\r\nContent-Location: http://x.example/d/\r\n\r\n" +
		"--B\r\nContent-Type: application/xhtml+xml\r\nContent-Location: page\r\n\r\n" + page + "\r\n--B--\r\n"
	name := filepath.Join(t.TempDir(), "x.mht")
	require.NoError(t, os.WriteFile(name, []byte(msg), 0o644))
	opts := Options{Spec: resolve.WHATWG, Limits: Limits{DecodedBytes: 1024}}

	f, err := os.Open(name)
	require.NoError(t, err)
	defer f.Close()
	m, err := Open(f, opts)
	require.NoError(t, err)
	defer m.Close()
	var got []string
	require.NoError(t, m.Links(func(l Link) error {
		got = append(got, l.URL)
		return nil
	}))
	assert.Equal(t, []string{"http://x.example/d/x.html", "http://x.example/d/y.html"}, got)
	for _, p := range m.Parts() {
		assert.Empty(t, p.Warnings, "part %s", p.Path)
	}

	g, err := os.Open(name)
	require.NoError(t, err)
	defer g.Close()
	var out bytes.Buffer
	st, err := Rewrite(&out, g, opts)
	require.NoError(t, err)
	assert.Empty(t, st.Warnings)
	assert.Contains(t, out.String(), `<a href="http://x.example/d/y.html">y</a>`)
}
