package treerewrite_test

import (
	"bytes"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/treerewrite"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readers returns the readers' options of a document retrieved from
// docURL, links resolving under the WHATWG URL Standard.
func readers(docURL string) extract.Options {
	return extract.Options{HTML: htmlrewrite.Options{
		Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: docURL}},
	}}
}

// rewriteAll rewrites every file walked under paths with r, to dst when
// not nil, and returns the results by slash-separated Rel (or Path).
func rewriteAll(t *testing.T, r *treerewrite.Rewriter, dst *bytes.Buffer, paths ...string) map[string]treerewrite.Result {
	got := map[string]treerewrite.Result{}
	for f, err := range tree.Walk(paths) {
		require.NoError(t, err)
		var w *bytes.Buffer
		if dst != nil {
			w = dst
		}
		var res treerewrite.Result
		if w != nil {
			res = r.Rewrite(w, f)
		} else {
			res = r.Rewrite(nil, f)
		}
		assert.Equal(t, f, res.File)
		got[cmpName(f)] = res
	}
	return got
}

func cmpName(f tree.File) string {
	if f.Rel != "" {
		return f.Rel
	}
	return filepath.Base(f.Path)
}

var site = map[string]string{
	"index.html":  `<a href="a/b.html">b</a>`,
	"a/b.html":    `<img src="../i.png"><a href="https://other.example/">o</a>`,
	"same.html":   `<p>no links</p>`,
	"i.png":       "\x89PNG\r\n\x1a\nnot a page",
	"style.css":   `body { background: url(i.png) }`,
	"notes.txt":   "plain text",
	"broken.html": `<a href="//[bad/">x</a>`,
}

func TestRewriterMirror(t *testing.T) {
	src := testkit.NewTree(t, site)
	out := filepath.Join(t.TempDir(), "mirror")
	m, err := tree.NewMapper("https://example.org/site/")
	require.NoError(t, err)
	r := &treerewrite.Rewriter{Mapper: m, Options: readers, Mirror: out, CopyOthers: true, Writer: safewrite.Writer{NoSync: true, KeepSame: true}}
	got := rewriteAll(t, r, nil, src)

	assert.True(t, got["index.html"].Changed && got["index.html"].Read)
	assert.Equal(t, 1, got["index.html"].Links)
	assert.Equal(t, 1, got["index.html"].Rewritten)
	assert.False(t, got["same.html"].Changed, "no link: the mirror gets it as it was")
	assert.True(t, got["same.html"].Read)
	assert.True(t, got["i.png"].Copied)
	assert.True(t, got["notes.txt"].Copied)
	assert.False(t, got["i.png"].Read)
	assert.True(t, got["style.css"].Changed)
	assert.Equal(t, 1, got["broken.html"].Failed, "a link that cannot be resolved is left, the document is not failed")
	assert.NoError(t, got["broken.html"].Err)

	data, err := os.ReadFile(filepath.Join(out, "index.html"))
	require.NoError(t, err)
	assert.Equal(t, `<a href="https://example.org/site/a/b.html">b</a>`, string(data))
	data, err = os.ReadFile(filepath.Join(out, "a", "b.html"))
	require.NoError(t, err)
	assert.Equal(t, `<img src="https://example.org/site/i.png"><a href="https://other.example/">o</a>`, string(data))
	data, err = os.ReadFile(filepath.Join(out, "style.css"))
	require.NoError(t, err)
	assert.Equal(t, `body { background: url(https://example.org/site/i.png) }`, string(data))
	data, err = os.ReadFile(filepath.Join(out, "i.png"))
	require.NoError(t, err)
	assert.Equal(t, site["i.png"], string(data))

	// Made again, the mirror's documents are up to date and left alone.
	again := rewriteAll(t, &treerewrite.Rewriter{Mapper: m, Options: readers, Mirror: out, Writer: safewrite.Writer{NoSync: true, KeepSame: true}}, nil, src)
	assert.True(t, again["index.html"].UpToDate)
	assert.False(t, again["index.html"].Changed)
	assert.True(t, again["i.png"].Skipped, "without CopyOthers other files are skipped")
}

// TestRewriterMirrorTwice: without OnePerPlace an input whose place an
// earlier input of the run wrote finds it up to date (a --from-list
// naming a file twice), in a mirror the run made too; with it a fresh
// mirror is written without the look.
func TestRewriterMirrorTwice(t *testing.T) {
	src := testkit.NewTree(t, map[string]string{"index.html": site["index.html"]})
	m, err := tree.NewMapper("https://example.org/site/")
	require.NoError(t, err)
	for _, one := range []bool{false, true} {
		out := filepath.Join(t.TempDir(), "mirror")
		r := &treerewrite.Rewriter{Mapper: m, Options: readers, Mirror: out, OnePerPlace: one, Writer: safewrite.Writer{NoSync: true, KeepSame: true}}
		first := rewriteAll(t, r, nil, src)
		second := rewriteAll(t, r, nil, src)
		assert.True(t, first["index.html"].Changed, "OnePerPlace %v", one)
		assert.Equal(t, !one, second["index.html"].UpToDate, "OnePerPlace %v", one)
		data, err := os.ReadFile(filepath.Join(out, "index.html"))
		require.NoError(t, err)
		assert.Equal(t, `<a href="https://example.org/site/a/b.html">b</a>`, string(data))
	}
}

// A document the rewriter cannot read still belongs to the site: it is
// copied into the mirror as it was, and its result says so.
func TestRewriterMirrorCopiesUnrewritable(t *testing.T) {
	src := testkit.NewTree(t, map[string]string{"big.webmanifest": `{"name":"` + strings.Repeat("a", 300) + `"}`})
	out := t.TempDir()
	r := &treerewrite.Rewriter{Options: readers, Mirror: out, MaxSize: 10, Writer: safewrite.Writer{NoSync: true}}
	got := rewriteAll(t, r, nil, src)["big.webmanifest"]
	require.ErrorIs(t, got.Err, tree.ErrTooLarge)
	assert.True(t, got.CopiedUnchanged)
	assert.True(t, got.Read)
	data, err := os.ReadFile(filepath.Join(out, "big.webmanifest"))
	require.NoError(t, err)
	assert.Equal(t, `{"name":"`+strings.Repeat("a", 300)+`"}`, string(data))
}

func TestRewriterInPlaceAndDryRun(t *testing.T) {
	src := testkit.NewTree(t, site)
	m, err := tree.NewMapper("https://example.org/")
	require.NoError(t, err)

	dry := rewriteAll(t, &treerewrite.Rewriter{Mapper: m, Options: readers}, nil, src)
	assert.True(t, dry["index.html"].Changed, "a dry run says what would change")
	assert.True(t, dry["i.png"].Skipped)
	data, _ := os.ReadFile(filepath.Join(src, "index.html"))
	assert.Equal(t, site["index.html"], string(data), "a dry run writes nothing")

	info, err := os.Stat(filepath.Join(src, "same.html"))
	require.NoError(t, err)
	got := rewriteAll(t, &treerewrite.Rewriter{Mapper: m, Options: readers, InPlace: true}, nil, src)
	assert.True(t, got["index.html"].Changed)
	assert.False(t, got["same.html"].Changed)
	data, _ = os.ReadFile(filepath.Join(src, "index.html"))
	assert.Equal(t, `<a href="https://example.org/a/b.html">b</a>`, string(data))
	after, err := os.Stat(filepath.Join(src, "same.html"))
	require.NoError(t, err)
	assert.True(t, os.SameFile(info, after), "a document with nothing to change is not written")
}

func TestRewriterToWriter(t *testing.T) {
	src := testkit.NewTree(t, site)
	m, err := tree.NewMapper("https://example.org/")
	require.NoError(t, err)
	r := &treerewrite.Rewriter{Mapper: m, Options: readers}
	var out bytes.Buffer
	for f := range tree.Walk([]string{filepath.Join(src, "index.html"), filepath.Join(src, "i.png")}) {
		res := r.Rewrite(&out, f)
		switch f.Kind {
		case base.HTML:
			require.NoError(t, res.Err)
			assert.True(t, res.Changed)
		default:
			assert.ErrorIs(t, res.Err, extract.ErrNotDocument)
			assert.False(t, res.Read)
		}
	}
	// A file alone is retrieved from the root URL itself.
	assert.Equal(t, `<a href="https://example.org/a/b.html">b</a>`, out.String())
}

// Two inputs bound for one place in the mirror: the second is refused.
func TestRewriterClaim(t *testing.T) {
	a := testkit.NewTree(t, map[string]string{"p.html": "a", "x.png": "x"})
	b := testkit.NewTree(t, map[string]string{"p.html": "b", "x.png": "y"})
	for _, copyOthers := range []bool{false, true} {
		r := &treerewrite.Rewriter{Mirror: "/m", CopyOthers: copyOthers}
		var errs []string
		for f, err := range tree.Walk([]string{a, b}) {
			require.NoError(t, err)
			if err := r.Claim(f); err != nil {
				errs = append(errs, err.Error())
			}
		}
		want := []string{"not mirrored: /m/p.html is already the mirror of " + filepath.Join(a, "p.html")}
		if copyOthers {
			want = append(want, "not mirrored: /m/x.png is already the mirror of "+filepath.Join(a, "x.png"))
		}
		assert.Equal(t, want, errs, "copy others %v", copyOthers)
	}
}

func TestMirrorRel(t *testing.T) {
	assert.Equal(t, "a/b.html", treerewrite.MirrorRel(tree.File{Path: "/x/a/b.html", Rel: "a/b.html"}))
	assert.Equal(t, "b.html", treerewrite.MirrorRel(tree.File{Path: "/x/a/b.html"}), "a file named alone goes at its name")
	assert.Equal(t, filepath.Join("out", "a", "b.html"), treerewrite.MirrorPath("out", tree.File{Path: "/x/a/b.html", Rel: "a/b.html"}))
}

func TestCheckMirror(t *testing.T) {
	dir := testkit.NewTree(t, map[string]string{"in/p.html": "", "q.html": ""})
	in := filepath.Join(dir, "in")
	assert.Error(t, treerewrite.CheckMirror(in, in), "the tree itself")
	assert.Error(t, treerewrite.CheckMirror(filepath.Join(in, "out"), in), "inside the tree")
	assert.Error(t, treerewrite.CheckMirror(dir, in), "around the tree")
	assert.NoError(t, treerewrite.CheckMirror(filepath.Join(dir, "out"), in))
	assert.EqualError(t, treerewrite.CheckMirror(dir, filepath.Join(dir, "q.html")), "-o "+dir+" would overwrite the input "+filepath.Join(dir, "q.html"))
	assert.NoError(t, treerewrite.CheckMirror(in, filepath.Join(dir, "q.html")))
}

func TestRewritable(t *testing.T) {
	for _, k := range []base.Format{base.HTML, base.MHTML, base.CSS, base.XML, base.Manifest, base.Module} {
		assert.True(t, treerewrite.Rewritable(k), k.String())
	}
	assert.False(t, treerewrite.Rewritable(base.Other))
	assert.False(t, treerewrite.Rewritable(base.WARC), "WARC is read by links, not rewritten")
}

func TestStreamKind(t *testing.T) {
	for head, want := range map[string]base.Format{
		"<p>x":        base.HTML,
		"":            base.HTML,
		"plain words": base.HTML,
		"\r\nMIME-Version: 1.0\r\nSubject: x\r\n":  base.MHTML,
		`<svg xmlns="http://www.w3.org/2000/svg">`: base.XML,
		"WARC/1.1\r\n": base.HTML, // rewrite reads no WARC: it is taken for a page
	} {
		assert.Equal(t, want, treerewrite.StreamKind([]byte(head)), "%q", head)
	}
}

func TestRewriterStream(t *testing.T) {
	r := &treerewrite.Rewriter{Options: readers, MaxSize: 1 << 20}
	var out bytes.Buffer
	res := r.Stream(&out, strings.NewReader(`<base href="https://b.example/d/"><a href=x>`), base.Other, "")
	require.NoError(t, res.Err)
	assert.True(t, res.Read && res.Changed)
	assert.Equal(t, base.HTML, res.File.Kind)
	assert.Equal(t, `<base href="https://b.example/d/"><a href=https://b.example/d/x>`, out.String())

	out.Reset()
	res = r.Stream(&out, strings.NewReader(`a { b: url(x.png) }`), base.CSS, "https://s.example/c/s.css")
	require.NoError(t, res.Err)
	assert.Equal(t, `a { b: url(https://s.example/c/x.png) }`, out.String())

	// A stylesheet streams, whatever MaxSize; a kind read whole is
	// bounded by it.
	out.Reset()
	r.MaxSize = 4
	res = r.Stream(&out, strings.NewReader(`a { b: url(x.png) }`), base.CSS, "https://s.example/c/s.css")
	require.NoError(t, res.Err)
	assert.Equal(t, `a { b: url(https://s.example/c/x.png) }`, out.String())
	out.Reset()
	res = r.Stream(&out, strings.NewReader(`{"start_url": "x.html"}`), base.Manifest, "")
	assert.True(t, errors.Is(res.Err, tree.ErrTooLarge), "a kind read whole is bounded: %v", res.Err)
	assert.True(t, tree.Incomplete(res.Err), "over a limit: incomplete")
	assert.Equal(t, `{"start_url": "x.html"}`, out.String(), "left as written: the input's bytes")
}

// A saved site's pages rewritten into a mirror, each link absolute
// against the URL the site was served from.
func ExampleRewriter_Rewrite() {
	src, err := os.MkdirTemp("", "site")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(src)
	os.WriteFile(filepath.Join(src, "index.html"), []byte(`<a href="guide/">Guide</a> <img src=logo.png>`), 0o644)
	os.WriteFile(filepath.Join(src, "logo.png"), []byte("\x89PNG\r\n\x1a\n"), 0o644)
	out := filepath.Join(src+"-mirror", "www")
	defer os.RemoveAll(src + "-mirror")

	m, err := tree.NewMapper("https://example.org/docs/")
	if err != nil {
		log.Fatal(err)
	}
	r := &treerewrite.Rewriter{
		Mapper: m,
		Options: func(docURL string) extract.Options {
			return extract.Options{HTML: htmlrewrite.Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: docURL}}}}
		},
		Mirror:     out,
		CopyOthers: true,
		Writer:     safewrite.Writer{NoSync: true},
	}
	for f, err := range tree.Walk([]string{src}) {
		if err != nil {
			log.Fatal(err)
		}
		res := r.Rewrite(nil, f)
		fmt.Printf("%s: changed %v, copied %v, %d of %d links rewritten, err %v\n", f.Rel, res.Changed, res.Copied, res.Rewritten, res.Links, res.Err)
	}
	page, _ := os.ReadFile(filepath.Join(out, "index.html"))
	fmt.Println(string(page))
	// Output:
	// index.html: changed true, copied false, 2 of 2 links rewritten, err <nil>
	// logo.png: changed false, copied true, 0 of 0 links rewritten, err <nil>
	// <a href="https://example.org/docs/guide/">Guide</a> <img src=https://example.org/docs/logo.png>
}

func TestRewriterAll(t *testing.T) {
	a := testkit.NewTree(t, site)
	b := testkit.NewTree(t, map[string]string{"index.html": `<a href=x>`, "only-b.html": `<a href=y>`})
	out := t.TempDir()
	m, err := tree.NewMapper("https://example.org/")
	require.NoError(t, err)
	for _, jobs := range []int{1, 3} {
		r := &treerewrite.Rewriter{Mapper: m, Options: readers, Mirror: out, Writer: safewrite.Writer{NoSync: true}}
		var names []string
		var errs []string
		for res := range r.All(tree.Walk([]string{a, b, filepath.Join(a, "nothere")}), jobs) {
			names = append(names, cmpName(res.File))
			if res.Err != nil {
				errs = append(errs, res.Err.Error())
			}
		}
		assert.Equal(t, []string{"a/b.html", "broken.html", "i.png", "index.html", "notes.txt", "same.html", "style.css", "index.html", "only-b.html", "nothere"}, names, "walk order, -j %d", jobs)
		require.Len(t, errs, 2)
		assert.Contains(t, errs[0], "is already the mirror of "+filepath.Join(a, "index.html"), "the second tree's index.html")
		assert.Contains(t, errs[1], "no such file")

		// Stopping the iteration stops the walk.
		n := 0
		for range r.All(tree.Walk([]string{a}), jobs) {
			n++
			break
		}
		assert.Equal(t, 1, n)
	}
}

// The results of a whole tree rewritten in place, in walk order.
func ExampleRewriter_All() {
	dir, err := os.MkdirTemp("", "site")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "a.html"), []byte(`<a href="b.html">b</a>`), 0o644)
	os.WriteFile(filepath.Join(dir, "b.html"), []byte(`<p>no links`), 0o644)
	m, err := tree.NewMapper("https://example.org/")
	if err != nil {
		log.Fatal(err)
	}
	r := &treerewrite.Rewriter{Mapper: m, Options: readers, InPlace: true}
	for res := range r.All(tree.Walk([]string{dir}), 2) {
		fmt.Println(res.File.Rel, res.Changed, res.Err)
	}
	a, _ := os.ReadFile(filepath.Join(dir, "a.html"))
	fmt.Println(string(a))
	// Output:
	// a.html true <nil>
	// b.html false <nil>
	// <a href="https://example.org/b.html">b</a>
}

// A page from standard input, or any stream: its kind told by its first
// bytes, written as it is read.
func ExampleRewriter_Stream() {
	r := &treerewrite.Rewriter{Options: readers, MaxSize: 1 << 20}
	res := r.Stream(os.Stdout, strings.NewReader(`<img src="a.png"> <a href="../up/">up</a>`+"\n"), base.Other, "https://example.org/docs/page.html")
	fmt.Println(res.File.Kind, res.Changed, res.Rewritten, res.Err)
	// Output:
	// <img src="https://example.org/docs/a.png"> <a href="https://example.org/up/">up</a>
	// html true 2 <nil>
}

// TestRewriterToWriterLeftAsWritten: a document a reader stops at a limit
// before writing anything (an MHTML archive of more than 10,000 parts, a
// module over MaxSize) is written to the output as it was: the output of
// a document "left as written" holds its bytes, and the error is
// Incomplete.
func TestRewriterToWriterLeftAsWritten(t *testing.T) {
	var mhtml strings.Builder
	mhtml.WriteString("MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"B\"\r\n\r\n")
	mhtml.WriteString("--B\r\nContent-Type: text/html\r\nContent-Location: https://a.example/\r\n\r\n<a href=\"x.html\">x</a>\r\n")
	for i := range 10001 {
		fmt.Fprintf(&mhtml, "--B\r\nContent-Type: text/plain\r\nContent-Location: https://a.example/%d.txt\r\n\r\nx\r\n", i)
	}
	mhtml.WriteString("--B--\r\n")
	files := map[string]string{
		"many.mhtml": mhtml.String(),
		"big.mjs":    "import './x.js';\n// " + strings.Repeat("x", 200) + "\n",
	}
	src := testkit.NewTree(t, files)
	m, err := tree.NewMapper("https://example.org/")
	require.NoError(t, err)
	opts := func(docURL string) extract.Options {
		o := readers(docURL)
		o.MIME = archive.Options{Spec: resolve.WHATWG, Retrieval: docURL}
		o.Module.Context.Spec = resolve.WHATWG
		return o
	}
	r := &treerewrite.Rewriter{Mapper: m, Options: opts, MaxSize: 100 << 20}
	for name, data := range files {
		if name == "big.mjs" {
			r.MaxSize = 100
		}
		var out bytes.Buffer
		for f := range tree.Walk([]string{filepath.Join(src, name)}) {
			res := r.Rewrite(&out, f)
			assert.True(t, tree.Incomplete(res.Err), "%s: %v", name, res.Err)
		}
		// Not assert.Equal: a diff of 10,000 parts says nothing more.
		assert.True(t, data == out.String(), "%s: %d bytes written of %d", name, out.Len(), len(data))
	}
}
