package mime

import (
	"strconv"
	"strings"
	"testing"

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
