package base

import (
	"io"
	"strings"
	"testing"

	"github.com/relurl/relurl/resolve"
)

// TestDecideHTMLPolicy pins what each HTMLPolicy field changes of the
// one HTML open sequence.
func TestDecideHTMLPolicy(t *testing.T) {
	defer func(m int) { maxToken = m }(maxToken)
	maxToken = 4096
	c := Context{Spec: resolve.RFC3986, Retrieval: "http://r.example/d/p"}
	long := "<!--" + strings.Repeat("x", 8192) + "-->" // a token over maxToken
	withBase := long + `<base href="/b/">`
	for _, seek := range []bool{false, true} {
		src := func(s string) io.Reader {
			if seek {
				return strings.NewReader(s)
			}
			return stream{strings.NewReader(s)}
		}
		// WarnScanErrors: the scan's error is the caller's, or a warning
		// on the fallback decision.
		if _, err := DecideHTML(src(withBase), "", c, HTMLPolicy{}); err == nil {
			t.Errorf("seek %v: a token over MaxToken: no error", seek)
		}
		d, err := DecideHTML(src(withBase), "", c, HTMLPolicy{WarnScanErrors: true})
		if err != nil || d.Element.Found || d.Base.URL != "http://r.example/d/p" ||
			len(d.Warnings) != 1 || !strings.HasPrefix(d.Warnings[0], "looking for <base href>: ") {
			t.Errorf("seek %v: WarnScanErrors: %v %+v %q", seek, err, d.Element, d.Warnings)
		}
		if got, _ := io.ReadAll(d.Reader); string(got) != withBase {
			t.Errorf("seek %v: Reader gave %d bytes, want %d", seek, len(got), len(withBase))
		}
		// Charset: its error stops the sequence before the scan.
		if _, err := DecideHTML(src(withBase), "text/html; charset=iso-2022-jp", c, HTMLPolicy{
			Charset: func(n string) error { return &Error{Op: "refuse", Err: io.ErrUnexpectedEOF} },
		}); err == nil || !strings.Contains(err.Error(), "refuse") {
			t.Errorf("seek %v: Charset's error: %v", seek, err)
		}
		// ScanLimit < 0: scanned to the deciding element, nothing kept.
		d, err = DecideHTML(src(`<p>`+strings.Repeat("y", 3000)+`<base href="/n/">`), "", c, HTMLPolicy{ScanLimit: -1})
		if err != nil || d.Reader != nil || d.Base.URL != "http://r.example/n/" {
			t.Errorf("seek %v: ScanLimit -1: %v %+v", seek, err, d)
		}
	}
	// The pre-check: a seekable document without "<base" is not
	// tokenized, so a token over MaxToken does not stop its decision (a
	// stream is scanned: it has no second reading).
	d, err := DecideHTML(strings.NewReader(long), "", c, HTMLPolicy{})
	if err != nil || d.Element.Found || d.Base.URL != "http://r.example/d/p" {
		t.Errorf("pre-check: %v %+v", err, d)
	}
	if o, err := Open(strings.NewReader(long), Input{Format: HTML, Context: c}); err != nil || o.Element.Found {
		t.Errorf("pre-check, Open of a file: %v", err) // before DecideHTML: the scan's error
	}
	if _, err := DecideHTML(stream{strings.NewReader(long)}, "", c, HTMLPolicy{}); err == nil {
		t.Error("a stream with a token over MaxToken: no error")
	}
	// Spool: a stream unsettled within ScanLimit is decided from a spool.
	late := strings.Repeat("<p>z</p>", 100) + `<base href="/late/">`
	d, err = DecideHTML(stream{strings.NewReader(late)}, "", c, HTMLPolicy{ScanLimit: 64})
	if err != nil || d.Settled || d.Element.Found || d.Spool != nil {
		t.Fatalf("no spool: %v settled %v %+v", err, d.Settled, d.Element)
	}
	d, err = DecideHTML(stream{strings.NewReader(late)}, "", c, HTMLPolicy{ScanLimit: 64, Spool: true, SpoolDir: t.TempDir()})
	if err != nil || !d.Settled || !d.Element.Found || d.Spool == nil || d.Base.URL != "http://r.example/late/" {
		t.Fatalf("spool: %v settled %v %+v", err, d.Settled, d.Element)
	}
	defer d.Spool.Close()
	if got, _ := io.ReadAll(d.Reader); string(got) != late {
		t.Errorf("spool: Reader gave %q", got)
	}
}
