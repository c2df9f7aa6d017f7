package htmlrewrite

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/relurl/relurl/link"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStyleStreams: a <style> sheet of any size passes in
// pieces, cut between rules and declarations, so only a piece is held: a
// 200 KB sheet goes through with MaxSize 1000 (it was held whole, and
// so incomplete past MaxSize), every url() rewritten and reported at
// its place. Only a stretch with no ";", "{" or "}" to cut after (here
// one declaration) longer than MaxSize is still incomplete.
func TestStyleStreams(t *testing.T) {
	opts := testOptions()
	opts.MaxSize = 1000
	var sheet strings.Builder
	for i := 0; sheet.Len() < 200_000; i++ {
		fmt.Fprintf(&sheet, ".c%d { color: red; background: url(img/%d.png) }\n", i, i)
	}
	doc := "<style>\n" + sheet.String() + `</style><a href="y">y</a>`
	out, st := rewrite(t, doc, opts)
	want := strings.ReplaceAll(strings.ReplaceAll(doc, "url(img/", "url(http://ex.com/dir/img/"), `"y"`, `"http://ex.com/dir/y"`)
	assert.True(t, out == want, "rewritten sheet differs")
	rules := strings.Count(sheet.String(), "\n")
	assert.Equal(t, rules+1, st.Rewritten)

	var links []link.Link
	_, err := Links(strings.NewReader(doc), opts, func(l link.Link) error {
		links = append(links, l)
		return nil
	})
	require.NoError(t, err)
	require.Len(t, links, rules+1)
	for _, i := range []int{0, 1, rules / 2, rules - 1} {
		l := links[i]
		assert.Equal(t, fmt.Sprintf("http://ex.com/dir/img/%d.png", i), l.URL)
		assert.Equal(t, i+2, l.Line, "link %d", i)
		assert.Equal(t, fmt.Sprintf("img/%d.png", i), doc[l.Offset:l.Offset+int64(len(l.Raw))])
		assert.Equal(t, "style", l.Tag)
	}

	long := "<style>a { background: url(x.png); content: \"" + strings.Repeat("z", 5000) + "\" }</style><a href=y>"
	_, err = Rewrite(&bytes.Buffer{}, strings.NewReader(long), opts)
	assert.ErrorIs(t, err, link.ErrIncomplete)
}

// styleFragments are pieces of CSS whose cutting is easy to get wrong:
// ";", "{" and "}" inside comments, strings, url() and parentheses, the
// contexts that make a string a URL (@import, image-set()), escapes,
// @namespace, a string cut by a newline, nested blocks, non-ASCII.
var styleFragments = []string{
	"a{background:url(x1.png)}",
	"/* } ; { url(c.png) */",
	"@import \"i.css\";",
	"@import url(j.css) screen;",
	"@import\n  'k.css' print;",
	"b{content:\"; } {\"; background:url( \"q.png\" )}",
	"c{background-image:image-set(\"s1.png\" 1x, \"s2.png\" 2x)}",
	"c2{background-image:-webkit-image-set(url(s3.png) 1x; \"s4.png\" 2x)}",
	"d{background:url(u\\;v.png)}",
	"d2{background:url(a\\)b\\}.png)}",
	"@namespace url(http://www.w3.org/1999/xhtml);",
	"@namespace svg \"http://www.w3.org/2000/svg\";",
	"@media screen { e { background: url(m.png) } }",
	"f{x: fn(a;b{c}) ; background:url(p.png)}",
	"g{content:\"abc\n; h{background:url(n.png)}",
	".\u00e9{background:url(\u00e9.png)}",
	"i{background:u\\72l(esc.png)}",
	"j{background:url(\n  spaced.png  \n)}",
	"k{background:url(bad url.png); color: blue}",
	"l{background:url(\"#frag\"); m: url(data:image/png;base64,iVBORw0KGgo=)}",
	"\\;n{background:url(o.png)}",
	"p{;;;}",
	"}}};{{",
	"q{background:url(r.png)",
	"'unterminated",
	"\n",
	"    ",
	"<!-- s{background:url(cdo.png)} -->",
	"t{background:url('<x.png')}",
}

// TestStyleStreamAgrees: on sheets built from styleFragments, cut into
// small pieces (MaxSize 400), the rewrite and the links are those of
// the sheet held whole.
func TestStyleStreamAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 1))
	for iter := range 400 {
		var b strings.Builder
		b.WriteString("<p>x</p><style>")
		for range 1 + rng.IntN(120) {
			b.WriteString(styleFragments[rng.IntN(len(styleFragments))])
			if rng.IntN(3) == 0 {
				b.WriteString("\n")
			}
		}
		b.WriteString("</style><a href=after.html>a</a>")
		doc := b.String()
		checkStyleStream(t, doc, fmt.Sprintf("iteration %d", iter))
	}
}

// checkStyleStream compares the streamed rewrite and links of doc with
// those of its sheets held whole.
func checkStyleStream(t *testing.T, doc, name string) {
	t.Helper()
	run := func(stream bool, maxTok int) (string, []link.Link, error, error) {
		streamStyle = stream
		defer func() { streamStyle = true }()
		opts := testOptions()
		opts.MaxSize = maxTok
		var out bytes.Buffer
		_, rerr := Rewrite(&out, strings.NewReader(doc), opts)
		var links []link.Link
		_, lerr := Links(strings.NewReader(doc), opts, func(l link.Link) error {
			l.Base = links0Base
			links = append(links, l)
			return nil
		})
		return out.String(), links, rerr, lerr
	}
	wantOut, wantLinks, werr, wlerr := run(false, 1<<20)
	gotOut, gotLinks, gerr, glerr := run(true, 400)
	if werr != nil || wlerr != nil {
		return // not a sheet to compare
	}
	if gerr != nil || glerr != nil {
		// A stretch with nowhere to cut longer than the bound: the
		// one case the pieces cannot take.
		assert.ErrorIs(t, gerr, link.ErrIncomplete, name)
		return
	}
	if !assert.Equal(t, wantOut, gotOut, "%s: rewrite of %q", name, doc) {
		t.FailNow()
	}
	if !assert.Equal(t, fmt.Sprint(wantLinks), fmt.Sprint(gotLinks), "%s: links of %q", name, doc) {
		t.FailNow()
	}
}

var links0Base = link.Link{}.Base

// FuzzStyleStream: any sheet is rewritten and reported alike in pieces
// and whole.
func FuzzStyleStream(f *testing.F) {
	for _, s := range styleFragments {
		f.Add(s + s)
	}
	f.Fuzz(func(t *testing.T, sheet string) {
		if len(sheet) > 1<<16 {
			return
		}
		var b strings.Builder
		b.WriteString("<style>")
		// Repeated so that it is cut more than once.
		for b.Len() < 2000 {
			b.WriteString(sheet)
			if sheet == "" {
				break
			}
		}
		b.WriteString("</style><a href=x>")
		checkStyleStream(t, b.String(), "fuzz")
	})
}

// BenchmarkStyleSheet rewrites a page that is one 4 MiB <style> sheet:
// the sheet passes in pieces, never held whole, and the tokenizer does
// not go through it a byte at a time past the chunk size.
func BenchmarkStyleSheet(b *testing.B) {
	var sheet strings.Builder
	sheet.WriteString("<style>\n")
	for i := 0; sheet.Len() < 4<<20; i++ {
		fmt.Fprintf(&sheet, ".r%d { color: red; background: url(\"img/%d.png\") no-repeat; }\n", i, i)
	}
	sheet.WriteString("</style><a href=x>x</a>")
	doc := sheet.String()
	opts := testOptions()
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Rewrite(io.Discard, strings.NewReader(doc), opts); err != nil {
			b.Fatal(err)
		}
	}
}

// TestStyleStreamUTF16: a UTF-16 page's sheet, cut into pieces, is
// rewritten and reported (lines, columns, offsets counted in UTF-16) as
// held whole.
func TestStyleStreamUTF16(t *testing.T) {
	var b strings.Builder
	b.WriteString("<p>\u00e9</p><style>")
	for i := 0; b.Len() < 20000; i++ {
		b.WriteString(styleFragments[i%len(styleFragments)])
	}
	b.WriteString("</style><a href=after.html>a</a>")
	doc := []byte{0xff, 0xfe}
	for _, c := range utf16.Encode([]rune(b.String())) {
		doc = append(doc, byte(c), byte(c>>8))
	}
	run := func(stream bool, maxTok int) (string, []string) {
		streamStyle = stream
		defer func() { streamStyle = true }()
		opts := testOptions()
		opts.MaxSize = maxTok
		var out bytes.Buffer
		_, err := Rewrite(&out, bytes.NewReader(doc), opts)
		require.NoError(t, err)
		var links []string
		_, err = Links(bytes.NewReader(doc), opts, func(l link.Link) error {
			links = append(links, fmt.Sprint(l.URL, " ", l.Line, ":", l.Column, " @", l.Offset))
			return nil
		})
		require.NoError(t, err)
		return out.String(), links
	}
	wantOut, wantLinks := run(false, 1<<20)
	gotOut, gotLinks := run(true, 400)
	assert.True(t, wantOut == gotOut, "rewrite differs")
	assert.Equal(t, wantLinks, gotLinks)
	assert.Greater(t, len(gotLinks), 100)
}
