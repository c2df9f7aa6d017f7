package htmlrewrite

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"reflect"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// rewindBuffer is a Rewinder: a buffer that counts its rewinds.
type rewindBuffer struct {
	bytes.Buffer
	rewinds int
}

func (b *rewindBuffer) Rewind() error {
	b.Reset()
	b.rewinds++
	return nil
}

// countingSource is a seekable document that counts the bytes read from
// it, by Read and by ReadAt (it has no WriteTo: io.Copy reads it too).
type countingSource struct {
	r     *bytes.Reader
	read  int64
	seeks int
}

func (c *countingSource) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += int64(n)
	return n, err
}

func (c *countingSource) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.read += int64(n)
	return n, err
}

func (c *countingSource) Seek(off int64, whence int) (int64, error) {
	c.seeks++
	return c.r.Seek(off, whence)
}

// seekOnly hides ReadAt (the single pass reads the deciding element by
// seeking back and forth) and reads at most 7 bytes at a time, so that
// "<base" is met after tokens even in a short document.
type seekOnly struct{ io.ReadSeeker }

func (s seekOnly) Read(p []byte) (int, error) { return s.ReadSeeker.Read(p[:min(len(p), 7)]) }

// onceDocs are documents whose <base> the single pass must decide as
// the look-ahead does: none, early, late (after links, past the first
// read), in foreign content, in <template>, in <noscript>, several,
// only in a comment or a script, split across reads, in a legacy
// encoding, unusable, relative (strict), and after a refresh pragma.
func onceDocs() map[string]string {
	pad := strings.Repeat("<p>some text, no link. ", 2000) // ~46 KB: past the first read
	links := `<a href="a.html">a</a><img src="i/b.png" srcset="c.png 1x, /d.png 2x"><form action=""></form><a href="#top">t</a>`
	meta := `<meta http-equiv=refresh content="5; url=next.html">`
	style := `<style>p{background:url(bg.png)}</style><p style="background:url('s.png')">`
	return map[string]string{
		"none":                      links + pad + links,
		"early":                     `<!doctype html><html><head><base href="https://cdn.example/app/">` + links + `</head><body>` + pad + links,
		"early after links":         `<html><head>` + meta + links + `<base href="https://cdn.example/app/">` + style + pad + links,
		"late":                      links + pad + `<base href="https://cdn.example/late/">` + links,
		"late, no link first":       `<p>` + pad + `<base href="https://cdn.example/late/">` + links,
		"late, relative":            links + pad + `<base href="sub/dir/">` + links,
		"late foreign":              links + `<svg>` + pad + `<base href="https://svg.example/">` + `</svg>` + links,
		"late template":             links + `<template>` + pad + `<base href="https://tpl.example/">` + `</template>` + links,
		"late noscript":             links + `<noscript>` + pad + `<base href="https://ns.example/">` + `</noscript>` + links,
		"several late":              links + pad + `<base target=_top><base href="https://one.example/"><base href="https://two.example/">` + links,
		"several early":             `<base href="https://one.example/"><base href="https://two.example/">` + links + pad + `<base href="https://three.example/">`,
		"comment only":              links + pad + `<!-- <base href="https://comment.example/"> -->` + links,
		"script only":               links + pad + `<script>document.write('<BASE href="https://js.example/">')</script>` + links,
		"early comment, late base":  `<!-- <base> -->` + links + pad + `<base href="https://cdn.example/x/">` + links,
		"split at read":             strings.Repeat("x", readSize-3) + `<base href="https://split.example/">` + links,
		"split at 4":                links + strings.Repeat("y", readSize+readSize-2) + `<BASE href="https://split.example/">` + links,
		"legacy":                    `<meta charset="windows-1252"><a href="caf` + "\xe9" + `.html">` + pad + `<base href="https://caf` + "\xe9" + `.example/d/">` + links,
		"unusable late":             links + pad + `<base href="http://[::1">` + links,
		"unusable early":            `<base href="http://[::1">` + links + pad,
		"empty href":                links + pad + `<base href="">` + links,
		"refresh before late base":  meta + pad + `<base href="https://cdn.example/r/">` + meta + links,
		"srcdoc":                    `<iframe srcdoc="&lt;a href=x.html&gt;&lt;base href=https://inner.example/&gt;"></iframe>` + pad + `<base href="https://outer.example/">` + links,
		"modules":                   `<script type=importmap>{"imports":{"a":"./a.js"}}</script><script type=module>import "./m.js"</script>` + pad + `<base href="https://mod.example/">`,
		"strict head":               `<head><base href="https://head.example/"></head><body>` + links + pad + `<base href="https://body.example/">`,
		"long tag before late base": links + `<a href="x" title="` + strings.Repeat("t", 200) + `">` + pad + `<base href="https://long.example/">` + links,
		"warning before base":       `<script type=importmap>{bad json</script><base href="https://warn.example/">` + links + pad,
		"empty":                     ``,
		"short":                     `<base href=x>`,
	}
}

// utf16Doc encodes s as UTF-16LE with a byte order mark.
func utf16Doc(s string) string {
	u := utf16.Encode([]rune("\ufeff" + s))
	b := make([]byte, 2*len(u))
	for i, c := range u {
		b[2*i], b[2*i+1] = byte(c), byte(c>>8)
	}
	return string(b)
}

// onceOptions are the option sets the differential runs each document
// with.
func onceOptions() []Options {
	var all []Options
	for _, spec := range []resolve.Spec{resolve.WHATWG, resolve.RFC3986} {
		for _, mode := range []BaseMode{BaseKeep, BaseRemove, BaseAbsolute} {
			for _, strict := range []bool{false, true} {
				o := Options{
					Document: link.Document{Context: base.Context{Spec: spec, Retrieval: "https://www.example.com/dir/page.html", Strict: strict}},
					Base:     mode, Srcdoc: true,
				}
				all = append(all, o)
			}
		}
	}
	noscript := all[0]
	noscript.Scripting = true
	mapped := all[1]
	mapped.Map = func(l link.Link) (string, bool) { return l.URL + "?m", true }
	// A tag longer than MaxSize: the rest is copied unchanged, read
	// through the watch all the same (link.IncompleteError).
	short := all[2]
	short.MaxSize = 90
	return append(all, noscript, mapped, short)
}

// lookahead rewrites doc the scan-first way (the output is no Rewinder).
func lookahead(t *testing.T, doc string, o Options) (string, link.Stats, error) {
	t.Helper()
	var out bytes.Buffer
	st, err := Rewrite(&out, strings.NewReader(doc), o)
	return out.String(), st, err
}

// once rewrites doc in one pass into a Rewinder; it returns the bytes
// read from the document and the rewinds too.
func once(t *testing.T, doc string, o Options, readerAt bool) (string, link.Stats, int64, int, error) {
	t.Helper()
	var out rewindBuffer
	src := &countingSource{r: bytes.NewReader([]byte(doc))}
	var r io.Reader = src
	if !readerAt {
		r = seekOnly{src}
	}
	st, err := Rewrite(&out, r, o)
	return out.String(), st, src.read, out.rewinds, err
}

// sameRewrite fails unless the single pass and the look-ahead agree on
// doc: output bytes, Stats (base, provenance, warnings, counts) and error.
func sameRewrite(t *testing.T, name, doc string, o Options, readerAt bool) (read int64, rewinds int) {
	t.Helper()
	want, wst, werr := lookahead(t, doc, o)
	got, gst, read, rewinds, gerr := once(t, doc, o, readerAt)
	if fmt.Sprint(gerr) != fmt.Sprint(werr) {
		t.Errorf("%s (%+v): error %v, look-ahead %v", name, o.Base, gerr, werr)
	}
	if got != want {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		t.Errorf("%s (spec %v, base %v, strict %v): output differs at byte %d:\n once %.80q\nahead %.80q", name, o.Context.Spec, o.Base, o.Context.Strict, i, got[i:], want[i:])
	}
	if !reflect.DeepEqual(gst, wst) {
		t.Errorf("%s (spec %v, base %v, strict %v): stats\n once %+v\nahead %+v", name, o.Context.Spec, o.Base, o.Context.Strict, gst, wst)
	}
	// The look-ahead over a file decides as over a stream (held, or
	// spooled when longer than the look-ahead).
	var stream bytes.Buffer
	so := o
	so.Spool = true
	sst, serr := Rewrite(&stream, onlyReader{strings.NewReader(doc)}, so)
	if stream.String() != want || fmt.Sprint(serr) != fmt.Sprint(werr) || !reflect.DeepEqual(sst, wst) {
		t.Errorf("%s (spec %v, base %v, strict %v): the stream's rewrite differs from the file's:\n%+v\n%+v", name, o.Context.Spec, o.Base, o.Context.Strict, sst, wst)
	}
	return read, rewinds
}

// TestRewriteOnceAgrees: rewriting a seekable document into a Rewinder
// in one pass gives the bytes, the base (with its provenance and
// warnings) and the counts of the scan-first way, for every placement of
// <base> (early, late, foreign, template, noscript, several, comment,
// script, split between reads), in UTF-8, a legacy encoding and UTF-16,
// with every BaseMode, both specs, strict, scripting and a Map.
func TestRewriteOnceAgrees(t *testing.T) {
	for name, doc := range onceDocs() {
		for _, o := range onceOptions() {
			sameRewrite(t, name, doc, o, true)
			sameRewrite(t, name, doc, o, false)
			sameRewrite(t, name+" (UTF-16)", utf16Doc(doc), o, true)
		}
	}
}

// TestRewriteOnceReads: the single pass reads a document without a
// <base> tag once (the look-ahead read it twice: base.MentionsBase, then
// the rewrite), even when "<base" is in a comment or a script (a search for
// the bytes read it again), a document whose <base> comes before any
// link once plus the bytes up to it (no second pass), and rewinds only
// for a deciding <base> after links.
func TestRewriteOnceReads(t *testing.T) {
	docs := onceDocs()
	o := Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://www.example.com/dir/page.html"}}}
	for _, c := range []struct {
		name    string
		most    func(n int64) int64 // the most bytes read of a document of n
		rewinds int
	}{
		{"none", func(n int64) int64 { return n }, 0},
		{"early", func(n int64) int64 { return n + readSize }, 0},
		{"early after links", func(n int64) int64 { return 2 * n }, 1},
		{"comment only", func(n int64) int64 { return n }, 0},
		{"script only", func(n int64) int64 { return n }, 0},
		{"late, no link first", func(n int64) int64 { return 2 * n }, 0},
		{"late", func(n int64) int64 { return 3 * n }, 1},
	} {
		doc := docs[c.name]
		read, rewinds := sameRewrite(t, c.name, doc, o, true)
		if n := int64(len(doc)); read > c.most(n) || read < n {
			t.Errorf("%s: %d bytes read of %d, want at most %d", c.name, read, n, c.most(n))
		}
		if rewinds != c.rewinds {
			t.Errorf("%s: %d rewinds, want %d", c.name, rewinds, c.rewinds)
		}
	}
	// io.Discard (a dry run) is rewound by doing nothing.
	src := &countingSource{r: bytes.NewReader([]byte(docs["none"]))}
	if _, err := Rewrite(io.Discard, src, o); err != nil || src.read != int64(len(docs["none"])) {
		t.Errorf("io.Discard: %v, %d bytes read of %d", err, src.read, len(docs["none"]))
	}
}

// TestRewriteOnceGenerated: the single pass and the look-ahead agree on
// generated documents mixing links, <base> elements in every context,
// look-alikes and padding that puts them before and after the first
// read.
func TestRewriteOnceGenerated(t *testing.T) {
	parts := []string{
		`<a href="x/y.html">`, `<img src=../i.png>`, `<base href="https://g1.example/a/">`, `<base href="rel/">`,
		`<BASE HREF='https://g2.example/'>`, `<base>`, `<svg>`, `</svg>`, `<math>`, `</math>`, `<foreignObject>`,
		`</foreignObject>`, `<template>`, `</template>`, `<noscript>`, `</noscript>`, `<head>`, `</head>`, `<body>`,
		`<!-- <base href="https://c.example/"> -->`, `<script>"<base href=s>"</script>`, `<textarea><base href=t></textarea>`,
		`<meta http-equiv=refresh content="0;url=r.html">`, `<p style="background:url(p.png)">`, `<style>a{b:url(q.png)}</style>`,
		`<font color=red>`, `<table>`, `<title><base href=x></title>`, `<iframe srcdoc="<a href=z>">`,
		strings.Repeat("filler text ", 400), strings.Repeat("<p>", 3000),
	}
	n := 1500
	if testing.Short() {
		n = 300
	}
	rng := rand.New(rand.NewSource(20))
	opts := onceOptions()
	for i := 0; i < n; i++ {
		var b strings.Builder
		for k := rng.Intn(12); k >= 0; k-- {
			b.WriteString(parts[rng.Intn(len(parts))])
		}
		doc := b.String()
		o := opts[rng.Intn(len(opts))]
		sameRewrite(t, fmt.Sprintf("doc %d %.60q", i, doc), doc, o, rng.Intn(2) == 0)
		if t.Failed() {
			return
		}
	}
}

// TestRewriteOnceCorpus: the same on every page of corpus A, when
// RELURL_CORPUS_A names it.
func TestRewriteOnceCorpus(t *testing.T) {
	opts := onceOptions()
	for i, p := range testkit.PagesA(t) {
		for _, o := range []Options{opts[0], opts[i%len(opts)]} {
			sameRewrite(t, p.Name, string(p.Data), o, true)
		}
	}
}

// FuzzRewriteOnce: the single pass and the look-ahead agree on any
// document (output, Stats, error), with <base> anywhere.
func FuzzRewriteOnce(f *testing.F) {
	for _, doc := range onceDocs() {
		if len(doc) < 4096 {
			f.Add(doc, uint8(0))
		}
	}
	f.Add(`<a href=x><base href="https://f.example/">`, uint8(3))
	f.Add(`<svg><base href=a></svg><template><base href=b></template><base href=c>`, uint8(5))
	opts := onceOptions()
	f.Fuzz(func(t *testing.T, doc string, o uint8) {
		sameRewrite(t, "fuzz", doc, opts[int(o)%len(opts)], o%2 == 0)
	})
}

// TestLookaheadReadsHeadOnce: Links (and Rewrite to an output that cannot
// be rewound) over a file read it through once for "<base" and once for
// the pass; the encoding's prefix comes from the first read (it was read
// twice more, by the UTF-16 check and the encoding decision, each seeking
// back: 7 seeks per file where 2 do).
func TestLookaheadReadsHeadOnce(t *testing.T) {
	docs := onceDocs()
	o := Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://www.example.com/dir/page.html"}}}
	for _, name := range []string{"none", "empty", "short", "early"} {
		doc := docs[name]
		n := int64(len(doc))
		src := &countingSource{r: bytes.NewReader([]byte(doc))}
		if _, err := Links(src, o, func(link.Link) error { return nil }); err != nil {
			t.Fatal(err)
		}
		most, seeks := 2*n, 2
		if strings.Contains(doc, "<base") {
			most, seeks = 3*n, 2 // the scan reads at its own offsets (ReadAt)
		}
		if src.read > most || src.read < n || src.seeks > seeks {
			t.Errorf("%s: %d bytes read of %d (want at most %d), %d seeks (want at most %d)", name, src.read, n, most, src.seeks, seeks)
		}
	}
}
