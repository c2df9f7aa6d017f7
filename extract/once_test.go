package extract

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
)

// rewindBuffer is an output that can be taken back (htmlrewrite.Rewinder),
// as safewrite.Writer's streamed writes are.
type rewindBuffer struct{ bytes.Buffer }

func (b *rewindBuffer) Rewind() error { b.Reset(); return nil }

// countingFile is a seekable document that counts the bytes read from it.
type countingFile struct {
	r    *bytes.Reader
	read int
}

func (c *countingFile) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += n
	return n, err
}

func (c *countingFile) Seek(off int64, whence int) (int64, error) { return c.r.Seek(off, whence) }

// TestRewriteReadsOnce: an HTML file rewritten into an output that can
// be rewound (relurl rewrite -i/-o, through safewrite.Writer) is read once, not
// once for "<base" and once more for the rewrite: the dispatch must hand
// it to htmlrewrite.Rewrite, not to htmlrewrite.Open's look-ahead. The
// bytes are those of the look-ahead.
func TestRewriteReadsOnce(t *testing.T) {
	doc := strings.Repeat(`<p><a href="a/b.html">x</a> text `, 3000)
	var want bytes.Buffer
	if _, err := Rewrite(&want, strings.NewReader(doc), base.HTML, options("http://h.example/d/doc")); err != nil {
		t.Fatal(err)
	}
	var out rewindBuffer
	src := &countingFile{r: bytes.NewReader([]byte(doc))}
	st, err := Rewrite(&out, src, base.HTML, options("http://h.example/d/doc"))
	if err != nil {
		t.Fatal(err)
	}
	if src.read != len(doc) {
		t.Errorf("%d bytes read of a %d-byte document", src.read, len(doc))
	}
	if out.String() != want.String() || !st.Changed {
		t.Errorf("the single pass wrote other bytes (changed %v)", st.Changed)
	}
}

// TestLinksReadsOnce: the links of a seekable HTML file (relurl links of
// a file in a tree) are read in one pass, htmlrewrite.Links', not
// through Open's look-ahead, which reads the document once for "<base"
// and once more for the links. Links, results and the base Options.Base
// is given (before the first link) are the look-ahead's, for documents
// with and without a <base> before or after their links, and without links.
func TestLinksReadsOnce(t *testing.T) {
	body := strings.Repeat(`<p><a href="a/b.html">x</a> text `, 3000)
	docs := []struct {
		name, doc string
		once      bool // read once
	}{
		{"no base", body, true},
		{"no links", strings.Repeat("<p>text ", 5000), true},
		{"early base", `<head><base href="https://cdn.example/x/"></head>` + body, false},
		{"late base", body + `<base href="https://cdn.example/x/">`, false},
		{"base without href", `<base target=_top>` + body, false},
		{"empty", "", true},
		{"utf-16", "\xff\xfe<\x00a\x00 \x00h\x00r\x00e\x00f\x00=\x00x\x00>\x00", false},
	}
	type result struct {
		links []link.Link
		base  []base.Result
		res   Result
		err   error
	}
	read := func(r io.Reader, lookahead bool) result {
		var got result
		o := options("http://h.example/d/doc")
		o.Base = func(b base.Result) { got.base = append(got.base, b) }
		fn := func(l link.Link) error {
			if len(got.base) != 1 {
				t.Errorf("link %q given with %d bases before it", l.Raw, len(got.base))
			}
			got.links = append(got.links, l)
			return nil
		}
		if !lookahead {
			got.res, got.err = Links(r, base.HTML, o, fn)
			return got
		}
		d, err := Open(r, base.HTML, o)
		if err != nil {
			got.err = err
			return got
		}
		defer d.Close()
		got.res, got.err = d.Links(fn)
		return got
	}
	for _, tc := range docs {
		t.Run(tc.name, func(t *testing.T) {
			want := read(strings.NewReader(tc.doc), true)
			src := &countingFile{r: bytes.NewReader([]byte(tc.doc))}
			got := read(src, false)
			if tc.once && src.read != len(tc.doc) {
				t.Errorf("%d bytes read of a %d-byte document", src.read, len(tc.doc))
			}
			if len(got.base) != 1 || len(want.base) != 1 {
				t.Fatalf("Options.Base called %d times (look-ahead: %d), want once", len(got.base), len(want.base))
			}
			gb, wb := got.base[0], want.base[0]
			if gb.URL != wb.URL || gb.Source != wb.Source || gb.Detail != wb.Detail {
				t.Errorf("base given %+v, look-ahead %+v", gb, wb)
			}
			if !reflect.DeepEqual(got.links, want.links) {
				t.Errorf("%d links, look-ahead %d; first differences:\n got %+v\nwant %+v", len(got.links), len(want.links), first(got.links), first(want.links))
			}
			if !reflect.DeepEqual(got.res, want.res) || fmt.Sprint(got.err) != fmt.Sprint(want.err) {
				t.Errorf("result %+v, %v; look-ahead %+v, %v", got.res, got.err, want.res, want.err)
			}
		})
	}
}

func first(l []link.Link) []link.Link { return l[:min(len(l), 2)] }

// TestRewriteAllocs: extract.Rewrite of an HTML page costs what
// htmlrewrite.Rewrite does, no Document (a Document per page,
// with its copy of Options, was 1.4 KB a page, more than the rest of the
// dispatch).
func TestRewriteAllocs(t *testing.T) {
	const doc = `<!DOCTYPE html><title>t</title><a href="a/b.html">x</a><img src="i.png">`
	o := options("http://h.example/d/doc")
	for _, k := range []base.Format{base.HTML, base.Other} {
		var out rewindBuffer
		direct := testing.AllocsPerRun(20, func() {
			out.Reset()
			if _, err := htmlrewrite.Rewrite(&out, strings.NewReader(doc), o.HTML); err != nil {
				t.Fatal(err)
			}
		})
		dispatched := testing.AllocsPerRun(20, func() {
			out.Reset()
			if _, err := Rewrite(&out, strings.NewReader(doc), k, o); err != nil {
				t.Fatal(err)
			}
		})
		if dispatched > direct {
			t.Errorf("kind %v: extract.Rewrite makes %v allocations, htmlrewrite.Rewrite %v", k, dispatched, direct)
		}
	}
}

// TestLinksAllocs: extract.Links of a seekable HTML page costs what
// htmlrewrite.Links does, and one closure more when Options.Base is set
// (a closure over all of Options copied them to the heap, 1.4 KB a page).
func TestLinksAllocs(t *testing.T) {
	const doc = `<!DOCTYPE html><title>t</title><a href="a/b.html">x</a><img src="i.png">`
	for _, withBase := range []bool{false, true} {
		o := options("http://h.example/d/doc")
		if withBase {
			o.Base = func(base.Result) {}
		}
		fn := func(link.Link) error { return nil }
		direct := testing.AllocsPerRun(20, func() {
			if _, err := htmlrewrite.Links(strings.NewReader(doc), o.HTML, fn); err != nil {
				t.Fatal(err)
			}
		})
		dispatched := testing.AllocsPerRun(20, func() {
			if _, err := Links(strings.NewReader(doc), base.HTML, o, fn); err != nil {
				t.Fatal(err)
			}
		})
		want := direct
		if withBase {
			want += 2 // the closure and its first
		}
		if dispatched > want {
			t.Errorf("Options.Base set %v: extract.Links makes %v allocations, htmlrewrite.Links %v", withBase, dispatched, direct)
		}
	}
}
