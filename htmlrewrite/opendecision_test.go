package htmlrewrite

import (
	"bytes"
	"errors"
	"io"
	"net/textproto"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// TestOpenDecisionAgrees: base.Open's HTML branch and this package's Open
// run one open sequence, base.DecideHTML, and decide the same encoding,
// deciding <base> element and base (layer, detail) of the same bytes,
// seekable and streamed. The rows that must agree (same) cover what the
// two sequences once decided differently: the UTF-16 decoder (the BOM is
// U+FEFF in both: Element.Offset 3) and the Content-Type of
// Context.Header (both take its charset). What the callers still choose
// differently is a field of base.HTMLPolicy, each pinned by a row of
// TestOpenDecisionPolicies.
func TestOpenDecisionAgrees(t *testing.T) {
	long := strings.Repeat("<p>filler</p>\n", 400) // past both heads (1 KiB, 4 KiB)
	cases := []struct {
		name, doc, ct string
	}{
		{"none", "<html><head><title>t</title></head><body><a href=x>x</a>", ""},
		{"base", `<head><base href="http://b.example/d/"><a href=x>`, ""},
		{"base-late", long + `<base href="/late/">` + long, ""},
		{"base-relative", `<base href="sub/">`, ""},
		{"two-bases", `<base target=_top><base href="/one/"><base href="/two/">`, ""},
		{"base-in-comment", "<!-- <base href=/no/> -->", ""},
		{"base-in-script", "<script>'<base href=/no/>'</script>", ""},
		{"meta-latin1", `<meta charset=iso-8859-1><base href="/caf` + "\xe9" + `/">`, ""},
		{"ct-charset", `<base href="/caf` + "\xe9" + `/">`, "text/html; charset=windows-1252"},
		{"meta-after-long", long + `<meta charset=iso-8859-2>`, ""},
		{"bom-utf8", "\xef\xbb\xbf<base href=/bom/>", ""},
		// Once difference 2: base.Open decoded UTF-16 with x/text (BOM
		// dropped, Offset 0), prepare with its lossless decoder (Offset 3).
		{"utf16le-bom", utf16le("\ufeff<base href=/u16/>"), ""},
		{"utf16le-late", utf16le("\ufeff" + long + "<base href=/u16/>"), ""},
		{"utf16le-lone-surrogate", utf16le("\ufeff<base href=/a") + "\x00\xd8" + utf16le("b/>"), ""},
		// Once difference 4: a Content-Type only in Context.Header counted
		// for base.Open, not for htmlrewrite (Options.ContentType only).
		{"header-charset", `<base href="/caf` + "\xe9" + `/">`, "header:text/html; charset=iso-8859-2"},
		{"header-utf16", utf16le("<base href=/h16/>"), "header:text/html; charset=utf-16le"},
	}
	ctx := base.Context{Retrieval: "http://r.example/dir/page.html"}
	for _, c := range cases {
		for _, seek := range []bool{true, false} {
			name := c.name + map[bool]string{true: "/seekable", false: "/stream"}[seek]
			t.Run(name, func(t *testing.T) {
				src := func() io.Reader {
					if seek {
						return bytes.NewReader([]byte(c.doc))
					}
					return io.MultiReader(strings.NewReader(c.doc))
				}
				ct, bctx := c.ct, withSpec(ctx)
				if h, ok := strings.CutPrefix(ct, "header:"); ok {
					ct, bctx.Header = "", textproto.MIMEHeader{"Content-Type": {h}}
				}
				o, err := base.Open(src(), base.Input{Format: base.HTML, ContentType: ct, Context: bctx})
				if err != nil {
					t.Fatalf("base.Open: %v", err)
				}
				hctx := withSpec(ctx)
				hctx.Header = bctx.Header
				d, err := Open(src(), Options{Document: link.Document{Context: hctx, ContentType: ct}})
				if err != nil {
					t.Fatalf("Open: %v", err)
				}
				defer d.Close()
				if o.Charset != d.Charset() || o.Element != d.Element() ||
					o.Base.URL != d.Base().URL || o.Base.Source != d.Base().Source || o.Base.Detail != d.Base().Detail {
					t.Errorf("base.Open:   %q %+v %+v\nhtmlrewrite: %q %+v %+v",
						o.Charset, o.Element, o.Base, d.Charset(), d.Element(), d.Base())
				}
			})
		}
	}
}

// TestOpenDecisionPolicies: each way base.Open and this package's Open
// still differ is a field of base.HTMLPolicy (or of the caller's own
// input), pinned here: the row fails when the policy stops making the
// difference it names.
func TestOpenDecisionPolicies(t *testing.T) {
	ctx := base.Context{Spec: resolve.RFC3986, Retrieval: "http://r.example/dir/page.html"}
	late := strings.Repeat("<p>filler</p>\n", 400) + `<base href="/late/"><a href=x>`
	opts := Options{Document: link.Document{Context: ctx}}

	t.Run("WarnScanErrors", func(t *testing.T) {
		// A read error past the first bytes, in the scan: fatal for
		// base.Open (it reads for nothing but the base), a warning for
		// htmlrewrite, whose pass meets the error and returns it.
		fail := func() io.Reader {
			return io.MultiReader(strings.NewReader(strings.Repeat("<p>x</p>", 1000)), errReader{})
		}
		if _, err := base.Open(fail(), base.Input{Format: base.HTML, Context: ctx}); !errors.Is(err, errBroken) {
			t.Errorf("base.Open: %v, want the read error", err)
		}
		d, err := Open(fail(), opts)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		if w := d.Base().Warnings; len(w) != 1 || !strings.HasPrefix(w[0], "looking for <base href>: ") {
			t.Errorf("Open warnings %q", w)
		}
		if _, err := d.Links(func(link.Link) error { return nil }); !errors.Is(err, errBroken) {
			t.Errorf("Links: %v, want the read error", err)
		}
	})
	t.Run("Spool", func(t *testing.T) {
		// A stream whose <base> lies past the look-ahead: base.Open says
		// unsettled (the fallback), htmlrewrite with Spool spools it and
		// finds the element.
		o, err := base.Open(io.MultiReader(strings.NewReader(late)), base.Input{Format: base.HTML, Context: ctx, ScanLimit: 100})
		if err != nil || o.Settled || o.Element.Found {
			t.Fatalf("base.Open: %v settled %v %+v", err, o.Settled, o.Element)
		}
		so := opts
		so.ScanLimit, so.Spool = 100, true
		d, err := Open(io.MultiReader(strings.NewReader(late)), so)
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		if !d.Element().Found || d.Base().URL != "http://r.example/late/" {
			t.Errorf("Open with Spool: %+v %+v", d.Element(), d.Base())
		}
	})
	t.Run("ScanLimit<0", func(t *testing.T) {
		// base: scan whole, keep nothing (Reader nil); htmlrewrite: a
		// negative ScanLimit is DefaultScanLimit, the document is read.
		o, err := base.Open(io.MultiReader(strings.NewReader(late)), base.Input{Format: base.HTML, Context: ctx, ScanLimit: -1})
		if err != nil || o.Reader != nil || o.Base.URL != "http://r.example/late/" {
			t.Fatalf("base.Open: %v %v %+v", err, o.Reader, o.Base)
		}
		no := opts
		no.ScanLimit = -1
		var got []string
		_, err = Links(io.MultiReader(strings.NewReader(late)), no, func(l link.Link) error { got = append(got, l.URL); return nil })
		if err != nil || len(got) != 1 || got[0] != "http://r.example/late/x" {
			t.Errorf("Links with ScanLimit -1: %v %q", err, got)
		}
	})
	t.Run("Charset", func(t *testing.T) {
		// An encoding the tokenizer cannot read: base.Open decides it
		// (and the base from the bytes), htmlrewrite refuses it.
		doc := `<meta charset=iso-2022-jp><base href=/j/>`
		o, err := base.Open(strings.NewReader(doc), base.Input{Format: base.HTML, Context: ctx})
		if err != nil || o.Charset != "iso-2022-jp" || !o.Element.Found {
			t.Fatalf("base.Open: %v %q %+v", err, o.Charset, o.Element)
		}
		if _, err := Open(strings.NewReader(doc), opts); !errors.Is(err, ErrEncoding) {
			t.Errorf("Open: %v, want ErrEncoding", err)
		}
	})
}

var errBroken = errors.New("broken reader")

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errBroken }

func withSpec(c base.Context) base.Context {
	c.Spec = resolve.RFC3986
	return c
}

func utf16le(s string) string {
	var b []byte
	for _, r := range s {
		if r > 0xffff {
			panic("BMP only")
		}
		b = append(b, byte(r), byte(r>>8))
	}
	return string(b)
}

// TestUTF16FileScannedWhole: a seekable UTF-16 document is looked at as
// any file is (its decoded text searched for "<base", then scanned, then
// read again), not held as a stream up to ScanLimit: its late <base> is
// found without Spool (it went the stream way, and past ScanLimit the
// links took the fallback base).
func TestUTF16FileScannedWhole(t *testing.T) {
	doc := utf16le("\ufeff" + strings.Repeat("<p>filler</p>\n", 100) + `<a href=x></a><base href="/late/">`)
	o := Options{Document: link.Document{Context: base.Context{Spec: resolve.RFC3986, Retrieval: "http://r.example/d/p"}}, ScanLimit: 200}
	var got []string
	res, err := Links(bytes.NewReader([]byte(doc)), o, func(l link.Link) error { got = append(got, l.URL); return nil })
	if err != nil || res.URL != "http://r.example/late/" || len(got) != 1 || got[0] != "http://r.example/late/x" {
		t.Errorf("Links: %v %+v %q", err, res, got)
	}
	var out bytes.Buffer
	if _, err := Rewrite(&out, bytes.NewReader([]byte(doc)), o); err != nil || !strings.Contains(out.String(), utf16le("http://r.example/late/x")) {
		t.Errorf("Rewrite: %v", err)
	}
}
