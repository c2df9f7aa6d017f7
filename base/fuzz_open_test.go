package base

import (
	"bytes"
	"io"
	"testing"

	"github.com/relurl/relurl/resolve"
)

// FuzzOpen: whatever the bytes, Open decides without panicking, gives
// every byte back through Reader (file or stream, with a look-ahead small
// enough to run out), and decides the same kind, charset and base for a
// file as for a stream that holds it whole within the limit.
func FuzzOpen(f *testing.F) {
	for _, s := range []string{"", "<base href=/b/>", "\xff\xfe<\x00b\x00", "WARC/1.1\r\n", "MIME-Version: 1.0\r\n", "<?xml version='1.0'?><svg xmlns='http://www.w3.org/2000/svg'/>", "<meta charset=sjis><base href=x>", "<!-- saved from url=(0016)http://a.example -->"} {
		f.Add([]byte(s), "x.html", false)
		f.Add([]byte(s), "-", true)
	}
	f.Fuzz(func(t *testing.T, doc []byte, name string, scripting bool) {
		in := Input{Name: name, Default: HTML, Scripting: scripting, SavedFrom: true, Context: Context{Spec: resolve.WHATWG, Retrieval: "http://r.example/p"}}
		file, ferr := Open(bytes.NewReader(doc), in)
		in.ScanLimit = int64(len(doc))*3/2 + 4096 // a UTF-16 document is looked at decoded: up to 3 bytes a code unit
		piped, serr := Open(stream{bytes.NewReader(doc)}, in)
		if (ferr != nil) != (serr != nil) {
			t.Fatalf("file error %v, stream error %v", ferr, serr)
		}
		if ferr != nil {
			return
		}
		for _, d := range []*Opened{file, piped} {
			got, err := io.ReadAll(d.Reader)
			if err != nil || !bytes.Equal(got, doc) {
				t.Fatalf("Reader gave %q (%v), want %q", got, err, doc)
			}
		}
		if file.Format != piped.Format || file.Charset != piped.Charset || file.Base.URL != piped.Base.URL || !piped.Settled {
			t.Fatalf("file %v %q %q, stream %v %q %q settled %v", file.Format, file.Charset, file.Base.URL, piped.Format, piped.Charset, piped.Base.URL, piped.Settled)
		}
		small := in
		small.ScanLimit = 7
		d, err := Open(stream{bytes.NewReader(doc)}, small)
		if err == nil {
			if got, _ := io.ReadAll(d.Reader); !bytes.Equal(got, doc) {
				t.Fatalf("small look-ahead: Reader gave %q, want %q", got, doc)
			}
		}
	})
}
