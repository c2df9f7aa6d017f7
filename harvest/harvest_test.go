package harvest_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/harvest"
	"github.com/relurl/relurl/internal/byref"
	"github.com/relurl/relurl/internal/lazyref"
	"github.com/relurl/relurl/internal/lazyurl"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/linkfilter"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/tree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readers returns the readers' options of a document retrieved from
// docURL, as `relurl links` sets them: links under the WHATWG URL
// Standard, WARC and MHTML under the same spec.
func readers(docURL string) extract.Options {
	return extract.Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: docURL}}}
}

type found struct {
	kind base.Format
	url  string
	base string
}

// harvestAll reads the links of every file walked under paths.
func harvestAll(t *testing.T, r *harvest.Reader, paths ...string) (map[string][]found, map[string]harvest.Result) {
	links := map[string][]found{}
	results := map[string]harvest.Result{}
	for f, err := range tree.Walk(paths) {
		require.NoError(t, err)
		name := f.Rel
		if name == "" {
			name = filepath.Base(f.Path)
		}
		results[name] = r.File(f, func(k base.Format, l link.Link) error {
			links[name] = append(links[name], found{k, l.URL, l.Base.URL})
			return nil
		}, nil)
	}
	return links, results
}

var site = map[string]string{
	"index.html":     `<a href="a/b.html">in</a><a href="https://other.example/x">out</a><a href="/top.html">top</a>`,
	"a/b.html":       `<base href="https://cdn.example/app/"><img src="i.png">`,
	"style.css":      `body { background: url(img/bg.png) }`,
	"notes.txt":      "plain text",
	"feed/atom.xml":  `<feed xmlns="http://www.w3.org/2005/Atom"><link href="entry.html"/></feed>`,
	"unread.bin":     "\x00\x01\x02",
	"m/page.mhtml":   "MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=B\r\n\r\n--B\r\nContent-Type: text/html\r\nContent-Location: https://saved.example/p/\r\n\r\n<a href=q.html>q</a>\r\n--B--\r\n",
	"w/crawl.ignore": "",
}

func TestFileTree(t *testing.T) {
	dir := testkit.NewTree(t, site)
	m, err := tree.NewMapper("https://example.org/site/")
	require.NoError(t, err)
	r := &harvest.Reader{Mapper: m, Options: readers, Spec: resolve.WHATWG}
	links, results := harvestAll(t, r, dir)

	assert.Equal(t, []found{
		{base.HTML, "https://example.org/site/a/b.html", "https://example.org/site/index.html"},
		{base.HTML, "https://other.example/x", "https://example.org/site/index.html"},
		{base.HTML, "https://example.org/top.html", "https://example.org/site/index.html"},
	}, links["index.html"])
	assert.Equal(t, []found{{base.HTML, "https://cdn.example/app/i.png", "https://cdn.example/app/"}}, links["a/b.html"],
		"the base from the first link on")
	assert.Equal(t, "https://cdn.example/app/", results["a/b.html"].Base.URL)
	assert.Equal(t, base.Embedded, results["a/b.html"].Base.Source)
	assert.Equal(t, []found{{base.CSS, "https://example.org/site/img/bg.png", "https://example.org/site/style.css"}}, links["style.css"])
	assert.Equal(t, []found{{base.XML, "https://example.org/site/feed/entry.html", "https://example.org/site/feed/atom.xml"}}, links["feed/atom.xml"])
	assert.Equal(t, []found{{base.MHTML, "https://saved.example/p/q.html", "https://saved.example/p/"}}, links["m/page.mhtml"])
	assert.Equal(t, int64(1), results["index.html"].Records)
	assert.True(t, results["notes.txt"].Skipped, "a file of no kind in a tree is skipped")
	assert.NoError(t, results["notes.txt"].Err)
	assert.Zero(t, results["notes.txt"].Records)
}

// The tree's scope decides --internal for a file walked in it; a file
// alone has the origin of its URL; an MHTML part the origin of its own.
func TestFileFilterScope(t *testing.T) {
	dir := testkit.NewTree(t, site)
	m, err := tree.NewMapper("https://example.org/site/")
	require.NoError(t, err)
	r := &harvest.Reader{Mapper: m, Options: readers, Spec: resolve.WHATWG, Filter: linkfilter.Filter{Scope: linkfilter.Internal}}
	links, _ := harvestAll(t, r, dir)
	assert.Equal(t, []found{{base.HTML, "https://example.org/site/a/b.html", "https://example.org/site/index.html"}}, links["index.html"],
		"inside the tree: under its root, not /top.html")
	assert.Empty(t, links["a/b.html"], "the CDN is outside the tree")
	assert.Len(t, links["m/page.mhtml"], 1, "a part's links compare with the part's own origin")

	alone, _ := harvestAll(t, r, filepath.Join(dir, "index.html"))
	assert.Equal(t, []string{"https://example.org/site/a/b.html", "https://example.org/top.html"},
		[]string{alone["index.html"][0].url, alone["index.html"][1].url}, "alone: the origin of the file's URL")

	r.Filter = linkfilter.Filter{Scope: linkfilter.External}
	links, _ = harvestAll(t, r, dir)
	assert.Equal(t, []found{
		{base.HTML, "https://other.example/x", "https://example.org/site/index.html"},
		{base.HTML, "https://example.org/top.html", "https://example.org/site/index.html"},
	}, links["index.html"])
}

func TestFileKinds(t *testing.T) {
	dir := testkit.NewTree(t, site)
	r := &harvest.Reader{Options: readers}
	_, results := harvestAll(t, r, filepath.Join(dir, "notes.txt"))
	assert.ErrorIs(t, results["notes.txt"].Err, extract.ErrNotDocument, "named alone, it is an error")

	// A forced kind reads every input as that kind.
	r.Kind = base.CSS
	links, results := harvestAll(t, r, filepath.Join(dir, "notes.txt"), filepath.Join(dir, "style.css"))
	require.NoError(t, results["notes.txt"].Err)
	assert.Empty(t, links["notes.txt"])
	assert.Len(t, links["style.css"], 1)
	assert.True(t, strings.HasPrefix(links["style.css"][0].url, "file:///"), "without a mapper, the file: URL")
}

func TestFileWARCRecordErrors(t *testing.T) {
	f := filepath.Join("..", "testdata", "warc", "example-trunc.warc")
	r := &harvest.Reader{Options: readers}
	var order []string
	var errs []*archive.RecordError
	var got harvest.Result
	for wf, err := range tree.Walk([]string{f}) {
		require.NoError(t, err)
		got = r.File(wf, func(k base.Format, l link.Link) error {
			assert.Equal(t, base.WARC, k)
			assert.Equal(t, "http://example.com/", l.Target)
			order = append(order, "link")
			return nil
		}, func(e *archive.RecordError) error {
			errs = append(errs, e)
			order = append(order, "error")
			return nil
		})
	}
	require.NoError(t, got.Err)
	assert.Equal(t, []string{"link", "error"}, order, "record errors come in file order between the links")
	assert.Equal(t, int64(4), got.Records)
	assert.Equal(t, int64(1), got.RecordErrors)
	assert.Equal(t, int64(1197), errs[0].Offset)

	// Without onRecordError the first damaged record ends the file.
	for wf := range tree.Walk([]string{f}) {
		got = r.File(wf, func(base.Format, link.Link) error { return nil }, nil)
	}
	var re *archive.RecordError
	assert.True(t, errors.As(got.Err, &re), "%v", got.Err)
}

func TestStream(t *testing.T) {
	r := &harvest.Reader{Options: readers}
	var got []found
	collect := func(k base.Format, l link.Link) error {
		got = append(got, found{k, l.URL, l.Base.URL})
		return nil
	}
	res := r.Stream(strings.NewReader(`<a href=x.html>x</a>`), "https://s.example/d/p.html", collect, nil)
	require.NoError(t, res.Err)
	assert.Equal(t, []found{{base.HTML, "https://s.example/d/x.html", "https://s.example/d/p.html"}}, got)

	got = nil
	res = r.Stream(strings.NewReader(site["m/page.mhtml"]), "", collect, nil)
	require.NoError(t, res.Err)
	assert.Equal(t, []found{{base.MHTML, "https://saved.example/p/q.html", "https://saved.example/p/"}}, got, "kind by the first bytes")

	r.Kind = base.WARC
	res = r.Stream(strings.NewReader(`<a href=x.html>x</a>`), "", collect, nil)
	assert.Error(t, res.Err, "not a WARC file")

	r.Kind = base.Other
	res = r.Stream(strings.NewReader(""), "", collect, nil)
	assert.ErrorIs(t, res.Err, base.ErrEmpty)
}

// The links of a saved site, each resolved against its page's base, and
// only those into the site.
func ExampleReader_File() {
	dir, err := os.MkdirTemp("", "site")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte(`<a href="guide/">Guide</a> <a href="https://elsewhere.example/">Away</a>`), 0o644)
	os.WriteFile(filepath.Join(dir, "site.css"), []byte(`h1 { background: url(img/h.png) }`), 0o644)

	m, err := tree.NewMapper("https://example.org/docs/")
	if err != nil {
		log.Fatal(err)
	}
	r := &harvest.Reader{
		Mapper: m,
		Options: func(docURL string) extract.Options {
			return extract.Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: docURL}}}
		},
		Spec:   resolve.WHATWG,
		Filter: linkfilter.Filter{Scope: linkfilter.Internal},
	}
	for f, err := range tree.Walk([]string{dir}) {
		if err != nil {
			log.Fatal(err)
		}
		res := r.File(f, func(k base.Format, l link.Link) error {
			fmt.Printf("%s (%s): %s\n", f.Rel, k, l.URL)
			return nil
		}, nil)
		if res.Err != nil {
			log.Fatal(res.Err)
		}
	}
	// Output:
	// index.html (html): https://example.org/docs/guide/
	// site.css (css): https://example.org/docs/img/h.png
}

// A filter's input: the links of a page read from a stream as they come,
// its kind told by its first bytes, each link with its base.
func ExampleReader_Stream() {
	r := &harvest.Reader{
		Options: func(docURL string) extract.Options {
			return extract.Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: docURL}}}
		},
		Filter: linkfilter.Filter{StripFragment: true},
	}
	page := strings.NewReader(`<a href="intro.html#top">Intro</a><base href="https://cdn.example/v2/"><img src="logo.png">`)
	res := r.Stream(page, "https://example.org/docs/", func(k base.Format, l link.Link) error {
		fmt.Printf("%s %s (base %s, %s)\n", k, l.URL, l.Base.URL, l.Base.Source)
		return nil
	}, nil)
	fmt.Println(res.Records, res.Err)
	// Output:
	// html https://cdn.example/v2/intro.html (base https://cdn.example/v2/, embedded)
	// html https://cdn.example/v2/logo.png (base https://cdn.example/v2/, embedded)
	// 1 <nil>
}

func TestHeader(t *testing.T) {
	r := &harvest.Reader{Spec: resolve.WHATWG, Filter: linkfilter.Filter{Scope: linkfilter.Internal}}
	var got []found
	err := r.Header([]string{`<x.js>; rel=modulepreload, </a,b.css>; rel=preload`, `<https://cdn.example/f.woff2>; rel=preload`},
		"https://example.org/dir/page", func(k base.Format, l link.Link) error {
			assert.Equal(t, base.Other, k)
			assert.Equal(t, base.Retrieval, l.Base.Source)
			got = append(got, found{k, l.URL, l.Base.URL})
			return nil
		})
	require.NoError(t, err)
	assert.Equal(t, []found{
		{base.Other, "https://example.org/dir/x.js", "https://example.org/dir/page"},
		{base.Other, "https://example.org/a,b.css", "https://example.org/dir/page"},
	}, got, "against the response URL; the CDN is another origin")
}

// fileRef is Reader.File by pointer, as relurl links reads it (package
// byref).
var fileRef = byref.HarvestFile.(func(*harvest.Reader, tree.File, func(base.Format, *link.Link) error, func(*archive.RecordError) error) harvest.Result)

// TestFileByPointer: the by-pointer path reads what File reads, each
// link handed by pointer: an HTML page's links without a copy on the way
// (the pass's own, consecutive in its hold), whatever fn does to them.
func TestFileByPointer(t *testing.T) {
	files := map[string]string{"many.html": strings.Repeat(`<a href="x.html" rel=next>x</a><img src="https://i.example/i.png">`, 50)}
	for name, data := range site {
		files[name] = data
	}
	dir := testkit.NewTree(t, files)
	m, err := tree.NewMapper("https://example.org/site/")
	require.NoError(t, err)
	r := &harvest.Reader{Mapper: m, Options: readers, Spec: resolve.WHATWG}
	type got struct {
		links []link.Link
		kinds []base.Format
		res   harvest.Result
	}
	byValue, byRef := map[string]*got{}, map[string]*got{}
	addrs := map[string][]uintptr{}
	for f, err := range tree.Walk([]string{dir}) {
		require.NoError(t, err)
		g := &got{}
		g.res = r.File(f, func(k base.Format, l link.Link) error {
			g.links, g.kinds = append(g.links, l), append(g.kinds, k)
			return nil
		}, nil)
		byValue[f.Rel] = g
	}
	for f, err := range tree.Walk([]string{dir}) {
		require.NoError(t, err)
		g := &got{}
		g.res = fileRef(r, f, func(k base.Format, l *link.Link) error {
			g.links, g.kinds = append(g.links, *l), append(g.kinds, k)
			addrs[f.Rel] = append(addrs[f.Rel], reflect.ValueOf(l).Pointer())
			*l = link.Link{URL: "scribbled", Rel: []string{"x"}}
			return nil
		}, nil)
		byRef[f.Rel] = g
	}
	require.Len(t, byRef, len(files))
	for name, want := range byValue {
		assert.Equal(t, want, byRef[name], name)
	}
	a := addrs["many.html"]
	require.Len(t, a, 100)
	size := reflect.TypeOf(link.Link{}).Size()
	for i := 1; i < len(a); i++ {
		if a[i]-a[i-1] != size {
			t.Fatalf("link %d at %#x, link %d at %#x: a copy, not the pass's next link", i-1, a[i-1], i, a[i])
		}
	}
}

// TestFileDeferred: links whose URLs the pass left for later
// (lazyurl.DeferIn) are resolved before a filter that reads
// them, and go on as they are when the filter keeps every link; resolved
// by lazyurl.Resolve, they are what File gives without Defer.
func TestFileDeferred(t *testing.T) {
	dir := testkit.NewTree(t, site)
	m, err := tree.NewMapper("https://example.org/site/")
	require.NoError(t, err)
	for _, filter := range []linkfilter.Filter{{}, {Scope: linkfilter.Internal}, {Schemes: []string{"https"}}, {StripFragment: true}} {
		read := func(refs *lazyref.Refs) (map[string][]link.Link, int) {
			r := &harvest.Reader{Mapper: m, Spec: resolve.WHATWG, Filter: filter, Options: func(u string) extract.Options {
				o := readers(u)
				lazyurl.DeferIn(&o.HTML, refs)
				return o
			}}
			got, deferred := map[string][]link.Link{}, 0
			for f, err := range tree.Walk([]string{dir}) {
				require.NoError(t, err)
				fileRef(r, f, func(k base.Format, l *link.Link) error {
					if lazyurl.Deferred(l) {
						deferred++
					}
					lazyurl.Resolve(l)
					got[f.Rel] = append(got[f.Rel], *l)
					return nil
				}, nil)
			}
			return got, deferred
		}
		want, _ := read(nil)
		got, deferred := read(new(lazyref.Refs))
		assert.Equal(t, want, got, "%+v", filter)
		if all := filter.Scope == linkfilter.Anywhere && filter.Schemes == nil && !filter.StripFragment; all != (deferred > 0) {
			t.Errorf("%+v: %d links deferred past the filter", filter, deferred)
		}
	}
}

// TestPassesAll: a Filter field that is not checked by passesAll would
// let a link go past it with its URL not resolved yet.
func TestPassesAll(t *testing.T) {
	var names []string
	for f := range reflect.TypeFor[linkfilter.Filter]().Fields() {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"Kinds", "Schemes", "StripFragment", "Normalize", "Scope"}, names,
		"linkfilter.Filter changed: make harvest's passesAll check the new field")
}
