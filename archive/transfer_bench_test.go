package archive

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// BenchmarkTransferStreams: the streaming decoders and encoders against
// the whole-body functions, on 4 MB of HTML.
func BenchmarkTransferStreams(b *testing.B) {
	page := []byte(strings.Repeat("<p><a href=\"rel/x.html?a=b\">caf\u00e9 link</a> text\t \n", 80000))
	qp, b64 := encodeQP(page, "\r\n"), encodeBase64(page, "\r\n")
	for _, c := range []struct {
		name  string
		run   func()
		bytes int
	}{
		{"decodeQP", func() { decodeQP(qp) }, len(qp)},
		{"qpReader", func() { io.Copy(io.Discard, newQPReader(bytes.NewReader(qp), int64(len(qp)), streamChunk)) }, len(qp)},
		{"decodeBase64", func() { decodeBase64(b64) }, len(b64)},
		{"base64Reader", func() { io.Copy(io.Discard, newBase64Reader(bytes.NewReader(b64), streamChunk)) }, len(b64)},
		{"encodeQP", func() { encodeBody(QuotedPrintable, page, qp) }, len(page)},
		{"qpWriter", func() { w := newEncoder(io.Discard, QuotedPrintable, "\r\n", true); w.Write(page); w.Close() }, len(page)},
		{"encodeBase64", func() { encodeBody(Base64, page, b64) }, len(page)},
		{"base64Writer", func() { w := newEncoder(io.Discard, Base64, "\r\n", true); w.Write(page); w.Close() }, len(page)},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(c.bytes))
			for range b.N {
				c.run()
			}
		})
	}
}
