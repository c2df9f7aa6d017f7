package extract

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/manifest"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/xmlrewrite"
)

func options(u string) Options {
	c := base.Context{Spec: resolve.WHATWG, Retrieval: u}
	return Options{
		HTML:     htmlrewrite.Options{Document: link.Document{Context: c}},
		MIME:     archive.Options{Spec: resolve.WHATWG},
		XML:      xmlrewrite.Options{Document: link.Document{Context: c}},
		Manifest: manifest.Options{Document: link.Document{Context: c}},
		Module:   jsmodule.Options{Document: link.Document{Context: c}},
	}
}

// TestLinksDispatch: each kind goes to its own reader (the same bytes
// mean different links as HTML, CSS, a manifest or a module), the base
// is given before the first link, and an archive's links carry their
// part or record.
func TestLinksDispatch(t *testing.T) {
	const u = "http://h.example/d/doc"
	for _, c := range []struct {
		kind  base.Format
		doc   string
		want  string // the links' URLs and kinds
		based bool   // Options.Base called before the first link
	}{
		{base.HTML, `<a href=a>url(b)<base href="/x/">`, "http://h.example/x/a navigation", true},
		{base.Other, `<img src=a>`, "http://h.example/d/a resource", true},
		{base.CSS, `<a href=a>url(b)`, "http://h.example/d/b css", true},
		{base.Manifest, `{"start_url": "s/", "icons": [{"src": "i.png"}]}`, "http://h.example/d/s/ manifest http://h.example/d/i.png manifest", true},
		{base.Module, `import "./m.js"; <a href=a>`, "http://h.example/d/m.js import", true},
		{base.XML, `<feed xmlns="http://www.w3.org/2005/Atom"><link href="f"/></feed>`, "http://h.example/d/f feed", false},
	} {
		var got []string
		var baseFirst, based bool
		o := options(u)
		o.Base = func(b base.Result) { based = true; baseFirst = len(got) == 0 }
		res, err := Links(strings.NewReader(c.doc), c.kind, o, func(l link.Link) error {
			got = append(got, l.URL+" "+l.Kind.String())
			if l.Base.URL == "" {
				t.Errorf("%v: link %q without its base", c.kind, l.Raw)
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%v: %v", c.kind, err)
		}
		if s := strings.Join(got, " "); s != c.want {
			t.Errorf("%v: links %q, want %q", c.kind, s, c.want)
		}
		if based != c.based || based && !baseFirst {
			t.Errorf("%v: Base called %v (before the first link %v), want %v", c.kind, based, baseFirst, c.based)
		}
		if res.Records != 1 || res.Base.URL == "" {
			t.Errorf("%v: result %+v", c.kind, res)
		}
	}
}

func TestLinksArchives(t *testing.T) {
	mhtml := "MIME-Version: 1.0\nContent-Type: multipart/related; boundary=b\n\n--b\nContent-Type: text/html\nContent-Location: http://h.example/m/\n\n<img src=\"i.gif\">\n--b\nContent-Type: text/html\nContent-Location: http://h.example/m/2\nContent-Transfer-Encoding: bogus\n\n<a href=x>\n--b--\n"
	var got []link.Link
	res, err := Links(strings.NewReader(mhtml), base.MHTML, options(""), func(l link.Link) error { got = append(got, l); return nil })
	if err != nil || len(got) != 1 || got[0].Part != "1" || got[0].URL != "http://h.example/m/i.gif" {
		t.Fatalf("mhtml: %v %+v", err, got)
	}
	if len(res.Warnings) != 1 || !strings.HasPrefix(res.Warnings[0], `part "2": `) {
		t.Errorf("mhtml warnings %q", res.Warnings)
	}

	body := "<a href=a>"
	http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: " + fmt.Sprint(len(body)) + "\r\n\r\n" + body
	rec := "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://h.example/w/\r\nWARC-Record-ID: <urn:uuid:1>\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: " + fmt.Sprint(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
	warc := rec + "garbage that starts no record\r\n\r\n" + rec
	got = got[:0]
	var recErrs int
	o := options("")
	o.RecordError = func(*archive.RecordError) error { recErrs++; return nil }
	res, err = Links(strings.NewReader(warc), base.WARC, o, func(l link.Link) error { got = append(got, l); return nil })
	if err != nil || len(got) != 2 || got[0].Target != "http://h.example/w/" || got[0].URL != "http://h.example/w/a" {
		t.Fatalf("warc: %v %+v", err, got)
	}
	if res.Records != 2 || res.RecordErrors != 1 || recErrs != 1 {
		t.Errorf("warc: %+v, %d record errors", res, recErrs)
	}
}

// TestRewriteDispatch: each kind goes to its own rewriter, and Changed
// says whether any byte changed.
func TestRewriteDispatch(t *testing.T) {
	const u = "http://h.example/d/doc"
	for _, c := range []struct {
		kind    base.Format
		doc     string
		want    string
		changed bool
	}{
		{base.HTML, `<a href=a>url(b)`, `<a href=http://h.example/d/a>url(b)`, true},
		{base.Other, `<a href=http://x.example/>`, `<a href=http://x.example/>`, false},
		{base.CSS, `<a href=a>url(b)`, `<a href=a>url(http://h.example/d/b)`, true},
		{base.Manifest, `{"start_url": "s/"}`, `{"start_url": "http://h.example/d/s/"}`, true},
		{base.Module, `import "./m.js";`, `import "http://h.example/d/m.js";`, true},
		{base.XML, `<feed xmlns="http://www.w3.org/2005/Atom"><link href="f"/></feed>`, `<feed xmlns="http://www.w3.org/2005/Atom"><link href="http://h.example/d/f"/></feed>`, true},
		{base.CSS, `a{}`, `a{}`, false},
	} {
		var out strings.Builder
		st, err := Rewrite(&out, strings.NewReader(c.doc), c.kind, options(u))
		if err != nil {
			t.Fatalf("%v: %v", c.kind, err)
		}
		if out.String() != c.want || st.Changed != c.changed {
			t.Errorf("%v: %q (changed %v), want %q (%v)", c.kind, out.String(), st.Changed, c.want, c.changed)
		}
	}
	if _, err := Rewrite(io.Discard, strings.NewReader("WARC/1.1\r\n"), base.WARC, options(u)); err == nil {
		t.Error("a WARC file rewritten")
	}
}

// TestOpen: the open step decides, once, what each kind needs before its
// first link — an HTML page's encoding and <base>, a stylesheet's and an
// XML document's encoding (base.SheetEncoding, base.XMLEncoding) — and the
// reader reads with that decision: 0xE9 is "И" (%D0%98) in koi8-r, "й"
// (%D0%B9) in windows-1251, and is no UTF-8 (%EF%BF%BD, U+FFFD).
func TestOpen(t *testing.T) {
	const u = "http://h.example/d/doc"
	for _, c := range []struct {
		name    string
		kind    base.Format
		doc     string
		env     string // the sheet's environment encoding
		charset string
		element string // the deciding <base href>
		want    string // the first link's URL
	}{
		{"css @charset", base.CSS, "@charset \"koi8-r\"; a{b:url(\xe9)}", "windows-1251", "koi8-r", "", "http://h.example/d/%D0%98"},
		{"css environment", base.CSS, "a{b:url(\xe9)}", "windows-1251", "windows-1251", "", "http://h.example/d/%D0%B9"},
		{"css default", base.CSS, "a{b:url(\xe9)}", "", "utf-8", "", "http://h.example/d/%EF%BF%BD"},
		{"css empty", base.CSS, "", "", "utf-8", "", ""},
		{"xml declaration", base.XML, `<?xml version="1.0" encoding="koi8-r"?><svg xmlns="http://www.w3.org/2000/svg"><image href="a.png"/></svg>`, "", "koi8-r", "", "http://h.example/d/a.png"},
		{"html meta and base", base.HTML, `<meta charset=koi8-r><base href="/b/"><a href="` + "\xe9" + `">`, "", "koi8-r", "/b/", "http://h.example/b/%D0%98"},
		{"other as html", base.Other, `<base href="/b/"><a href="x">`, "", "utf-8", "/b/", "http://h.example/b/x"},
		{"module", base.Module, `import "./m.js"`, "", "", "", "http://h.example/d/m.js"},
	} {
		for _, stream := range []bool{false, true} {
			o := options(u)
			o.HTML.SheetEnvironment = c.env
			var r io.Reader = strings.NewReader(c.doc)
			if stream {
				r = struct{ io.Reader }{r} // a pipe: no Seek
			}
			d, err := Open(r, c.kind, o)
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
				continue
			}
			var got []string
			_, err = d.Links(func(l link.Link) error { got = append(got, l.URL); return nil })
			d.Close()
			switch {
			case err != nil:
				t.Errorf("%s: %v", c.name, err)
			case d.Charset() != c.charset || d.Element().Href != c.element:
				t.Errorf("%s: charset %q, <base href> %q; want %q, %q", c.name, d.Charset(), d.Element().Href, c.charset, c.element)
			case c.want == "" && len(got) > 0, c.want != "" && (len(got) == 0 || got[0] != c.want):
				t.Errorf("%s: links %q, want first %q", c.name, got, c.want)
			}
			if _, err := d.Links(func(link.Link) error { return nil }); err == nil {
				t.Errorf("%s: a second pass over one Document: no error", c.name)
			}
		}
	}
}

// FuzzOpen: whatever the bytes, Open over a reader that seeks and over a
// pipe decides the same encoding and gives the reader every byte: the
// same links (or the same error) either way, for each kind whose
// encoding Open decides.
func FuzzOpen(f *testing.F) {
	for _, s := range []string{"", "a{b:url(x)}", "@charset \"koi8-r\"; a{b:url(\xe9)}", "\xff\xfea\x00", `<?xml version="1.0" encoding="koi8-r"?><svg xmlns="http://www.w3.org/2000/svg"><image href="a.png"/></svg>`, "<\x00s\x00", `<meta charset=koi8-r><base href=/b/><a href=x>`} {
		for k := range 3 {
			f.Add([]byte(s), uint8(k))
		}
	}
	kinds := []base.Format{base.CSS, base.XML, base.HTML}
	f.Fuzz(func(t *testing.T, doc []byte, k uint8) {
		kind := kinds[int(k)%len(kinds)]
		read := func(r io.Reader) (string, string) {
			d, err := Open(r, kind, options("http://h.example/d/doc"))
			if err != nil {
				return "", "open: " + err.Error()
			}
			defer d.Close()
			var b strings.Builder
			_, err = d.Links(func(l link.Link) error { fmt.Fprintf(&b, "%s %d|", l.URL, l.Offset); return nil })
			if err != nil {
				fmt.Fprintf(&b, "error: %v", err)
			}
			return d.Charset(), b.String()
		}
		cs1, l1 := read(strings.NewReader(string(doc)))
		cs2, l2 := read(struct{ io.Reader }{strings.NewReader(string(doc))})
		if cs1 != cs2 || l1 != l2 {
			t.Fatalf("%v: seekable %q %q, pipe %q %q", kind, cs1, l1, cs2, l2)
		}
	})
}
