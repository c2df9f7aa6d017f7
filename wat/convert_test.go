package wat_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/wat"
)

// TestOmitWarcinfo: a Converter starts its WAT file with the warcinfo
// record whose block is Warcinfo; with OmitWarcinfo it writes the
// metadata records alone, gzip members a caller can append to a WAT
// file of its own.
func TestOmitWarcinfo(t *testing.T) {
	page := "<title>T</title><a href=\"x\">x</a>"
	resp := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n%s", len(page), page)
	rec := fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2026-01-02T03:04:05Z\r\nWARC-Target-URI: https://a.test/\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(resp), resp)
	path := filepath.Join(t.TempDir(), "a.warc")
	if err := os.WriteFile(path, []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	convert := func(omit bool) ([]string, [][]byte) {
		var buf bytes.Buffer
		c := wat.NewConverter(&buf, true)
		if omit {
			c.OmitWarcinfo()
		}
		if err := c.EndFile(path); err != nil {
			t.Fatal(err)
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		var types []string
		var blocks [][]byte
		wr := archive.NewWARCReader(&buf)
		for {
			r, err := wr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			b, err := io.ReadAll(r.Block)
			if err != nil {
				t.Fatal(err)
			}
			types, blocks = append(types, r.Type+" "+r.Header.Get("WARC-Refers-To")), append(blocks, b)
		}
		return types, blocks
	}
	types, blocks := convert(false)
	if want := []string{"warcinfo ", "metadata <urn:uuid:1>"}; !slices.Equal(types, want) {
		t.Fatalf("records %q, want %q", types, want)
	}
	if string(blocks[0]) != wat.Warcinfo {
		t.Errorf("warcinfo block %q, want %q", blocks[0], wat.Warcinfo)
	}
	omitted, oblocks := convert(true)
	if want := types[1:]; !slices.Equal(omitted, want) {
		t.Errorf("with OmitWarcinfo: records %q, want %q", omitted, want)
	}
	if len(oblocks) == 1 && !bytes.Equal(oblocks[0], blocks[1]) {
		t.Errorf("with OmitWarcinfo: metadata %s, want %s", oblocks[0], blocks[1])
	}
}
