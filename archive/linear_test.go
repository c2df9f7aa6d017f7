package archive

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/resolve"
)

// A WARC's reading takes time linear in its size: records as gzip
// members, one record's gzip body (Content-Encoding), and an MHTML
// archive of many parts.
func TestLinearTime(t *testing.T) {
	records := func(n int) []byte {
		recs := make([]string, n)
		for i := range recs {
			recs[i] = htmlRecord(fmt.Sprint("r", i), -1)
		}
		file, _ := gzipMembers(recs...)
		return file
	}
	body := func(n int) []byte {
		var z bytes.Buffer
		zw := gzip.NewWriter(&z)
		zw.Write([]byte(strings.Repeat(`<a href="x.html">x</a>`, n)))
		zw.Close()
		http := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\nContent-Length: %d\r\n\r\n", z.Len()) + z.String()
		return []byte(fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Target-URI: https://w.example/\r\n"+
			"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(http), http))
	}
	mhtml := func(n int) []byte {
		var b strings.Builder
		b.WriteString("MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"b\"\r\n\r\n")
		for i := range n {
			fmt.Fprintf(&b, "--b\r\nContent-Type: text/html\r\nContent-Location: https://m.example/p%d.html\r\n\r\n<a href=\"x.html\">x</a>\r\n", i)
		}
		b.WriteString("--b--\r\n")
		return []byte(b.String())
	}
	cases := []struct {
		name string
		n    int
		file func(n int) []byte
		warc bool
	}{
		{"gzip members", 500, records, true},
		{"gzip body", 50000, body, true},
		{"MHTML parts", 2000, mhtml, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := map[int][]byte{c.n: c.file(c.n), 2 * c.n: c.file(2 * c.n)}
			testkit.Linear(t, c.n, 2.5, func(n int) {
				if c.warc {
					scanLinks(files[n], Limits{})
					return
				}
				Links(bytes.NewReader(files[n]), Options{Spec: resolve.WHATWG}, func(Link) error { return nil })
			})
		})
	}
}
