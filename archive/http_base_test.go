package archive

import (
	"bytes"
	"encoding/base64"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/resolve"
)

// TestWARCHTTPBaseHeader: a WARC response record is an HTTP response, and
// browsers ignore its Base and Content-Base headers (HTML Standard: the
// fallback base URL is the document's URL): under the WHATWG mode the
// record's WARC-Target-URI is the base; the RFC modes keep the draft's
// §3.2 layer (base.Context.HTTP).
func TestWARCHTTPBaseHeader(t *testing.T) {
	for _, h := range []string{"Base: <URL:http://other.example/b/>", "Content-Base: http://other.example/b/"} {
		http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + h + "\r\n\r\n<a href=\"x\">x</a>"
		warc := "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.example/dir/\r\n" +
			"Content-Type: application/http; msgtype=response\r\nContent-Length: " + strconv.Itoa(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
		for spec, want := range map[resolve.Spec]string{
			resolve.WHATWG:  "http://x.example/dir/x",
			resolve.RFC3986: "http://other.example/b/x",
			resolve.RFC2396: "http://other.example/b/x",
		} {
			var urls []string
			require.NoError(t, WARCLinks(strings.NewReader(warc), Options{Spec: spec}, func(l WARCLink) error {
				urls = append(urls, l.URL)
				return nil
			}))
			assert.Equal(t, []string{want}, urls, "%s %v", h, spec)
		}
	}
}

// TestUTF16Part: an MHTML part in UTF-16 (its BOM or its charset says
// so) is decoded, rewritten and encoded back in UTF-16 and in its own
// transfer encoding, BOM kept (it was left as stored before).
func TestUTF16Part(t *testing.T) {
	le := func(s string) string {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			b = append(b, byte(u), byte(u>>8))
		}
		return string(b)
	}
	page := "\uFEFF<a href=\"y.html\">é</a>"
	msg := "Content-Type: multipart/related; boundary=B\r\nContent-Location: http://x.example/\r\n\r\n" +
		"--B\r\nContent-Type: text/html; charset=utf-16\r\nContent-Transfer-Encoding: base64\r\n\r\n" +
		base64.StdEncoding.EncodeToString([]byte(le(page))) + "\r\n" +
		"--B\r\nContent-Type: text/html; charset=utf-16le\r\nContent-Transfer-Encoding: binary\r\n\r\n" + le("<img src=i.png>") + "\r\n" +
		"--B--\r\n"
	var out bytes.Buffer
	st, err := Rewrite(&out, strings.NewReader(msg), Options{Spec: resolve.WHATWG})
	require.NoError(t, err)
	assert.Empty(t, st.Warnings)
	assert.Equal(t, 2, st.Changed)
	m, err := Parse(out.Bytes(), Options{Spec: resolve.WHATWG})
	require.NoError(t, err)
	var bodies []string
	for _, p := range m.Parts() {
		if p.MediaType == "text/html" {
			b, err := m.Decode(p)
			require.NoError(t, err)
			bodies = append(bodies, string(b))
		}
	}
	assert.Equal(t, []string{le("\uFEFF<a href=\"http://x.example/y.html\">é</a>"), le("<img src=http://x.example/i.png>")}, bodies)

	var urls []string
	require.NoError(t, Links(strings.NewReader(msg), Options{Spec: resolve.WHATWG}, func(l Link) error {
		urls = append(urls, l.URL)
		return nil
	}))
	assert.Equal(t, []string{"http://x.example/y.html", "http://x.example/i.png"}, urls)
}
