package htmlrewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/lazyref"
	"github.com/relurl/relurl/internal/lazyurl"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
)

// linksLookahead is Links the look-ahead way (Open, then Document.Links:
// the whole document searched for "<base" first). stop > 0 makes fn fail
// at the stop-th link.
func linksLookahead(doc string, o Options, stop int) ([]link.Link, base.Result, error) {
	d, err := Open(bytes.NewReader([]byte(doc)), o)
	if err != nil {
		return nil, base.Result{}, err
	}
	defer d.Close()
	var got []link.Link
	res, err := d.Links(collectUntil(&got, stop))
	return got, res, err
}

var errStop = errors.New("stop")

func collectUntil(got *[]link.Link, stop int) func(link.Link) error {
	return func(l link.Link) error {
		*got = append(*got, l)
		if len(*got) == stop {
			return errStop
		}
		return nil
	}
}

// sameLinks checks that Links of doc over a seekable source (with or
// without ReadAt, read in small pieces or not) gives the look-ahead's
// links, base and error, and returns the bytes it read.
func sameLinks(t *testing.T, name, doc string, o Options, readerAt bool, stop int) int64 {
	t.Helper()
	want, wantRes, wantErr := linksLookahead(doc, o, stop)
	src := &countingSource{r: bytes.NewReader([]byte(doc))}
	var r io.Reader = src
	if !readerAt {
		r = seekOnly{src}
	}
	var got []link.Link
	res, err := Links(r, o, collectUntil(&got, stop))
	agree(t, name, got, res, err, want, wantRes, wantErr)
	// linksRef gives the same, whatever fn does to the links it is
	// handed (harvest changes URL): they are the pass's own.
	var byRef []link.Link
	r = bytes.NewReader([]byte(doc))
	if !readerAt {
		r = seekOnly{r.(io.ReadSeeker)}
	}
	res, err = linksRef(r, o, func(l *link.Link) error {
		byRef = append(byRef, *l)
		*l = link.Link{URL: "scribbled", Rel: []string{"x"}, Line: -1, Part: "p", Record: 9}
		if len(byRef) == stop {
			return errStop
		}
		return nil
	})
	agree(t, name+": linksRef", byRef, res, err, want, wantRes, wantErr)
	// With lazyurl.DeferIn, the links resolved later (lazyurl.Resolve, by
	// whoever reads them last) are the same.
	var deferred []link.Link
	r = bytes.NewReader([]byte(doc))
	od := o
	od.deferred = new(lazyref.Refs)
	res, err = linksRef(r, od, func(l *link.Link) error {
		c := *l
		lazyurl.Resolve(&c)
		deferred = append(deferred, c)
		if len(deferred) == stop {
			return errStop
		}
		return nil
	})
	agree(t, name+": Defer", deferred, res, err, want, wantRes, wantErr)
	return src.read
}

// agree reports where the links, base and error of a pass (what names
// it) differ from the look-ahead's.
func agree(t *testing.T, what string, got []link.Link, res base.Result, err error, want []link.Link, wantRes base.Result, wantErr error) {
	t.Helper()
	if fmt.Sprint(err) != fmt.Sprint(wantErr) {
		t.Errorf("%s: error %v, look-ahead %v", what, err, wantErr)
	}
	if !reflect.DeepEqual(res, wantRes) {
		t.Errorf("%s: base %+v, look-ahead %+v", what, res, wantRes)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s: %d links, look-ahead %d", what, len(got), len(want))
		for i := range min(len(got), len(want)) {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("%s: link %d: %+v, look-ahead %+v", what, i, got[i], want[i])
				break
			}
		}
	}
}

// withBound runs f with the hold's bound set to n links (and bytes).
func withBound(n, size int, f func()) {
	l, b := holdLinks, holdBytes
	holdLinks, holdBytes = n, size
	defer func() { holdLinks, holdBytes = l, b }()
	f()
}

// bounds are the hold's bounds the differential runs with: the default
// (every test document under it), one link (over it at once), three
// links, and 200 bytes of strings.
var bounds = []struct{ links, bytes int }{{4096, 1 << 20}, {1, 1 << 20}, {3, 1 << 20}, {4096, 200}}

// TestLinksOnceAgrees: Links over a seekable document reads it once and
// holds its links, and gives what the look-ahead gives, for <base> early,
// late, in foreign content, in <template>, several, none, in UTF-16,
// under and over the hold's bound, with fn failing.
func TestLinksOnceAgrees(t *testing.T) {
	docs := onceDocs()
	many := strings.Repeat(`<a href="m.html">m</a>`, 5000)
	docs["many then late base"] = many + `<base href="https://many.example/">` + many
	docs["many, no base"] = many + many
	docs["many, base in comment"] = many + `<!--<base href="https://c.example/">-->` + many
	// "<base" where it is text or an attribute, not a tag, in every
	// raw-text or RCDATA state, in CDATA, and a base tag in <noscript>.
	for i, wrap := range []string{
		`<title>%s</title>`, `<textarea>%s</textarea>`, `<xmp>%s</xmp>`, `<iframe>%s</iframe>`, `<noembed>%s</noembed>`,
		`<noframes>%s</noframes>`, `<noscript>%s</noscript>`, `<style>%s</style>`, `<svg><![CDATA[%s]]></svg>`,
		`<math><mi><![CDATA[%s]]></mi></math>`, `<a title='%s' href=t.html>`, `<plaintext>%s`, `<svg><title>%s</title></svg>`,
		`<math><annotation-xml encoding="text/html">%s</annotation-xml></math>`, `<svg><foreignObject>%s</foreignObject></svg>`,
	} {
		docs[fmt.Sprintf("raw %d", i)] = `<a href=a.html>` + fmt.Sprintf(wrap, `<base href="https://raw.example/">`) + `<a href=b.html>`
	}
	for name, doc := range onceDocs() {
		if len(doc) < 60000 {
			docs["utf-16 "+name] = utf16Doc(doc)
		}
	}
	opts := onceOptions()
	for bi, b := range bounds {
		withBound(b.links, b.bytes, func() {
			for name, doc := range docs {
				for i, o := range opts {
					if bi > 0 && i%3 != bi%3 {
						continue // every option set under the default bound, a third under each other
					}
					stop := 2 * (i % 2)
					sameLinks(t, fmt.Sprintf("%s (bound %v, options %d, stop %d)", name, b, i, stop), doc, o, (i+bi)%2 == 0, stop)
					if t.Failed() {
						return
					}
				}
			}
		})
	}
}

// TestLinksOnceReads: a file without a <base> tag is read once (the
// look-ahead read it twice, three times with "<base" in a comment or a
// script); a late deciding <base> over held links costs a third read (as
// the look-ahead's three).
func TestLinksOnceReads(t *testing.T) {
	docs := onceDocs()
	o := onceOptions()[3]
	for _, c := range []struct {
		name string
		max  float64 // bytes read / document size
	}{
		{"none", 1}, {"comment only", 1}, {"script only", 1}, {"late", 3},
	} {
		doc := docs[c.name]
		if read := sameLinks(t, c.name, doc, o, true, 0); float64(read) > c.max*float64(len(doc)) || read < int64(len(doc)) {
			t.Errorf("%s: %d bytes read of %d (at most %.2fx)", c.name, read, len(doc), c.max)
		}
	}
	// Over the bound: the rest is searched once, the pass goes on.
	withBound(1, 1<<20, func() {
		doc := docs["none"]
		if read := sameLinks(t, "none over the bound", doc, o, false, 0); read > 2*int64(len(doc)) {
			t.Errorf("none over the bound: %d bytes read of %d", read, len(doc))
		}
	})
}

// TestLinksOnceCorpus: the same on every page of corpus A, when
// RELURL_CORPUS_A names it.
func TestLinksOnceCorpus(t *testing.T) {
	opts := onceOptions()
	for i, p := range testkit.PagesA(t) {
		for _, o := range []Options{opts[0], opts[3], opts[i%len(opts)]} {
			sameLinks(t, p.Name, string(p.Data), o, i%2 == 0, 0)
		}
		withBound(5, 1<<20, func() { sameLinks(t, p.Name+" (bound 5)", string(p.Data), opts[i%len(opts)], true, 0) })
	}
}

// TestLinksOnceGenerated: random documents of the pieces that decide a
// base, under random bounds.
func TestLinksOnceGenerated(t *testing.T) {
	parts := []string{
		`<a href="x/y.html">`, `<img src=../i.png>`, `<base href="https://g1.example/a/">`, `<base href="rel/">`,
		`<BASE HREF='https://g2.example/'>`, `<base>`, `<svg>`, `</svg>`, `<template>`, `</template>`, `<noscript>`,
		`</noscript>`, `<head>`, `</head>`, `<body>`, `<!-- <base href="https://c.example/"> -->`,
		`<script>"<base href=s>"</script>`, `<meta http-equiv=refresh content="0;url=r.html">`,
		`<p style="background:url(p.png)">`, `<iframe srcdoc="<a href=z>">`, strings.Repeat("filler text ", 400),
	}
	rng := rand.New(rand.NewSource(21))
	opts := onceOptions()
	for i := range 600 {
		var b strings.Builder
		for k := rng.Intn(12); k >= 0; k-- {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		doc := b.String()
		bound := bounds[rng.Intn(len(bounds))]
		withBound(bound.links, bound.bytes, func() {
			sameLinks(t, fmt.Sprintf("doc %d %.60q", i, doc), doc, opts[rng.Intn(len(opts))], rng.Intn(2) == 0, rng.Intn(3))
		})
		if t.Failed() {
			return
		}
	}
}

// FuzzLinksOnce: the single pass and the look-ahead agree on any
// document, with a small bound.
func FuzzLinksOnce(f *testing.F) {
	f.Add(`<a href=x><base href="https://f.example/">`, uint8(3))
	f.Add(`<a href=x><a href=y><svg><base href=a></svg><base href=c>`, uint8(1))
	opts := onceOptions()
	f.Fuzz(func(t *testing.T, doc string, o uint8) {
		withBound(int(o%4)+1, 1<<20, func() {
			sameLinks(t, "fuzz", doc, opts[int(o)%len(opts)], o%2 == 0, int(o%3))
		})
	})
}

// TestHoldSlotZero: a held link's slot is zero whatever the slice held
// before (slot reuses the cleared slots past the held ones rather than
// appending a zero Link): a link without rel tokens must not show those
// of a link held in the same slot by an earlier document, nor a slot
// past a growth those of anything.
func TestHoldSlotZero(t *testing.T) {
	full := func() error { return nil }
	for doc := range 3 {
		h := &hold{fn: func(link.Link) error { return nil }, full: full}
		for i := range 300 { // past the first array of 256: grow
			l := h.slot()
			if !reflect.DeepEqual(*l, link.Link{}) {
				t.Fatalf("document %d, slot %d: not zero: %+v", doc, i, *l)
			}
			l.URL, l.Rel, l.Err, l.Line = "u", []string{"stylesheet"}, io.EOF, i+1
			if err := h.added(); err != nil {
				t.Fatal(err)
			}
		}
		if err := h.pass(); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLinksByPointerNoCopy: linksRef hands fn the pass's own links, not copies:
// the links held until the document's end are the consecutive elements
// of the hold's array, and once links go straight through (over the
// bound) each is the hold's one Link, filled in place. (Links copies
// each, some 260 bytes, at every call it goes through.)
func TestLinksByPointerNoCopy(t *testing.T) {
	doc := strings.Repeat(`<a href="x.html" rel=next>x</a><img src=i.png>`+"\n", 100)
	size := reflect.TypeOf(link.Link{}).Size()
	addrs := func() []uintptr {
		var got []uintptr
		_, err := linksRef(strings.NewReader(doc), testOptions(), func(l *link.Link) error {
			got = append(got, reflect.ValueOf(l).Pointer())
			return nil
		})
		if err != nil || len(got) != 200 {
			t.Fatalf("linksRef: %d links, %v", len(got), err)
		}
		return got
	}
	got := addrs()
	for i := 1; i < len(got); i++ {
		if got[i]-got[i-1] != size {
			t.Fatalf("held: link %d at %#x, link %d at %#x: not the next element (%d bytes on)", i-1, got[i-1], i, got[i], size)
		}
	}
	withBound(1, 1<<20, func() {
		got := addrs()
		for i := 2; i < len(got); i++ {
			if got[i] != got[1] {
				t.Fatalf("direct: link %d at %#x, link 1 at %#x: a copy", i, got[i], got[1])
			}
		}
	})
}

// TestDeferLeavesURLs: with lazyurl.DeferIn the pass resolves no URL of a
// UTF-8 document's links: each comes with an empty URL and what
// lazyurl.Resolve needs, which gives the URL (and error) the pass gives
// without it. A reference that is not a part of the value as written (a
// tab taken out), a document in a legacy encoding (its query encoding)
// and a UTF-16 one are resolved in the pass, as without Defer.
func TestDeferLeavesURLs(t *testing.T) {
	doc := `<a href=" x.html">x</a><img src="https://i.example/./i.png" srcset="a.png 1x, HTTP://B.example/b.png 2x">` +
		`<p style="background:url(&quot;c.png&quot;)"><a href="http://[bad">y</a><a href="">e</a><a href="t&#9;ab.html">`
	for _, c := range []struct {
		name, doc, contentType string
		deferred               bool
	}{
		{"utf-8", doc, "text/html; charset=utf-8", true},
		{"legacy", doc, "text/html; charset=windows-1252", false},
		{"utf-16", utf16Doc(doc), "", false},
	} {
		o := testOptions()
		o.ContentType = c.contentType
		var want []link.Link
		if _, err := Links(strings.NewReader(c.doc), o, func(l link.Link) error { want = append(want, l); return nil }); err != nil {
			t.Fatal(err)
		}
		o.deferred = new(lazyref.Refs)
		var got []link.Link
		n := 0
		_, err := linksRef(strings.NewReader(c.doc), o, func(l *link.Link) error {
			tab := strings.Contains(l.Raw, "\t")
			if lazyurl.Deferred(l) != (c.deferred && !tab) || lazyurl.Deferred(l) && (l.URL != "" || l.Err != nil) {
				t.Errorf("%s: %+v: deferred %v, want %v", c.name, *l, lazyurl.Deferred(l), c.deferred)
			}
			if lazyurl.Deferred(l) {
				n++
			}
			lazyurl.Resolve(l)
			got = append(got, *l)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: resolved later: %+v\nwant %+v", c.name, got, want)
		}
		if c.deferred && n != len(want)-1 {
			t.Errorf("%s: %d of %d links deferred, want all but the one with a tab", c.name, n, len(want))
		}
	}
}
