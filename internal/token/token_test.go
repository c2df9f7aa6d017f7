package token

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/iotest"

	"golang.org/x/net/html"

	"github.com/relurl/relurl/internal/testkit"
)

// same checks that the tokenizer splits doc into the tokens, raw bytes
// and errors of x/net/html's, when both are read through wrap and told
// the same things: NextIsNotRawText after the start tags in flip, and
// AllowCDATA after <svg>.
func same(t testing.TB, name string, doc []byte, maxBuf int, wrap func(io.Reader) io.Reader) {
	x := html.NewTokenizer(wrap(bytes.NewReader(doc)))
	z := NewTokenizer(wrap(bytes.NewReader(doc)))
	x.SetMaxBuf(maxBuf)
	z.SetMaxBuf(maxBuf)
	for n := 0; ; n++ {
		tx, tz := x.Next(), z.Next()
		rx, rz := x.Raw(), z.Raw()
		if int(tx) != int(tz) || !bytes.Equal(rx, rz) {
			t.Fatalf("%s (maxBuf %d): token %d: x/net %v %q, here %v %q", name, maxBuf, n, tx, rx, TokenType(tz), rz)
		}
		if tx == html.ErrorToken {
			ex, ez := x.Err(), z.Err()
			if (ex == html.ErrBufferExceeded) != (ez == ErrBufferExceeded) || ex != html.ErrBufferExceeded && ex != ez {
				t.Fatalf("%s: errors %v and %v", name, ex, ez)
			}
			if !bytes.Equal(x.Buffered(), z.Buffered()) {
				t.Fatalf("%s: buffered bytes differ", name)
			}
			return
		}
		if tx == html.EndTagToken {
			// The end tag's name as TagName gives it (htmlrewrite's
			// scanner reads it there, not again from Raw).
			n := z.TagName()
			if xn, _ := x.TagName(); lowerNUL(rz[n[0]:n[1]]) != string(xn) || z.AttrCount() != 0 {
				t.Fatalf("%s: end tag %q: name %q, x/net %q", name, rz, rz[n[0]:n[1]], xn)
			}
			if z.NameLower() && bytes.ContainsFunc(rz[n[0]:n[1]], isUpper) {
				t.Fatalf("%s: end tag %q: NameLower", name, rz)
			}
		}
		if tx == html.StartTagToken || tx == html.SelfClosingTagToken {
			nm := sameTag(t, name, x, z)
			if tx == html.SelfClosingTagToken {
				continue
			}
			switch nm {
			case "noscript", "title", "style":
				x.NextIsNotRawText()
				z.NextIsNotRawText()
			case "svg":
				x.AllowCDATA(true)
				z.AllowCDATA(true)
			}
		}
	}
}

// sameTag checks that z.Tag finds, in the current start tag, the name
// and attributes x/net's TagName and TagAttr give (lower-cased, NUL as
// U+FFFD, first of duplicates only), the values byte for byte when they
// have nothing to decode, and returns the name.
func sameTag(t testing.TB, name string, x *html.Tokenizer, z *Tokenizer) string {
	raw := z.Raw()
	span, attrs := z.Tag(nil)
	nm, more := x.TagName()
	if got := lowerNUL(raw[span[0]:span[1]]); got != string(nm) {
		t.Fatalf("%s: tag %q: name %q, x/net %q", name, raw, got, nm)
	}
	if z.NameLower() && bytes.ContainsFunc(raw[span[0]:span[1]], isUpper) {
		t.Fatalf("%s: tag %q: NameLower", name, raw)
	}
	var keys []string
	for more {
		var k, v []byte
		k, v, more = x.TagAttr()
		keys = append(keys, string(k))
		if i := len(keys) - 1; i < len(attrs) {
			rv := raw[attrs[i].Val[0]:attrs[i].Val[1]]
			if !bytes.ContainsAny(rv, "&\r\x00") && !bytes.Equal(rv, v) {
				t.Fatalf("%s: tag %q: attribute %d value %q, x/net %q", name, raw, i, rv, v)
			}
		}
	}
	got := make([]string, len(attrs))
	for i, a := range attrs {
		got[i] = lowerNUL(raw[a.Key[0]:a.Key[1]])
	}
	if strings.Join(got, "\x00") != strings.Join(keys, "\x00") || len(got) != len(keys) {
		t.Fatalf("%s: tag %q: attributes %q, x/net %q", name, raw, got, keys)
	}
	return string(nm)
}

func isUpper(r rune) bool { return 'A' <= r && r <= 'Z' }

// TestNameLower: a tag name read from the buffer is known to be lower
// case when it is (htmlrewrite then takes it as written, not a
// lower-cased copy of every name), and never when it is not.
func TestNameLower(t *testing.T) {
	z := NewTokenizer(strings.NewReader(`<div class=a><DIV><dIv/></Div></div x=y><a-b><svg:g>`))
	var got []bool
	for z.Next() != ErrorToken {
		got = append(got, z.NameLower())
	}
	if want := []bool{true, false, false, false, true, true, true}; !slices.Equal(got, want) {
		t.Errorf("NameLower %v, want %v", got, want)
	}
}

// lowerNUL is b as x/net's TagName and TagAttr give a name.
func lowerNUL(b []byte) string {
	l := bytes.ReplaceAll(b, []byte{0}, []byte("\ufffd"))
	for i, c := range l {
		if 'A' <= c && c <= 'Z' {
			l[i] = c + 'a' - 'A'
		}
	}
	return string(l)
}

var readers = map[string]func(io.Reader) io.Reader{
	"whole":    func(r io.Reader) io.Reader { return r },
	"one byte": iotest.OneByteReader,
	"half":     iotest.HalfReader,
}

func check(t testing.TB, name string, doc []byte) {
	for rn, wrap := range readers {
		for _, maxBuf := range []int{0, 37} {
			same(t, name+"/"+rn, doc, maxBuf, wrap)
			for _, chunk := range []int{0, 5} {
				samePassed(t, name+"/"+rn, doc, maxBuf, chunk, wrap)
			}
		}
	}
}

// passed is a token as a caller of SetPassText meets it: the text Next
// passed before it (kind passedText), or a token Next returned.
type passed struct {
	tt  TokenType
	raw string
}

const passedText TokenType = 100

// samePassed checks that a tokenizer with SetPassText returns the tokens
// of one without, but for text tokens whose bytes it passes instead
// (Before says how many), at the same places, with the same errors and
// buffered bytes at the end; and that the bytes it hands to the pass
// function, with those of the tokens the caller writes itself, are the
// input but for the tokens it drops (it passes, writes and drops tokens
// in turn).
func samePassed(t testing.TB, name string, doc []byte, maxBuf, chunk int, wrap func(io.Reader) io.Reader) {
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s (maxBuf %d, chunk %d): %s", name, maxBuf, chunk, fmt.Sprintf(format, args...))
	}
	tokens := func(pass bool) (list []passed, buffered string, err error) {
		z := NewTokenizer(wrap(bytes.NewReader(doc)))
		z.SetMaxBuf(maxBuf)
		z.SetChunk(chunk)
		var out []byte
		z.SetPass(func(b []byte) { out = append(out, b...) })
		z.SetPassText(pass)
		off := 0
		var kept []byte // the input but for the dropped tokens
		for n := 0; ; n++ {
			tt := z.Next()
			if b := z.Before(); b > 0 {
				list = append(list, passed{passedText, string(doc[off : off+b])})
				off += b
			}
			raw := z.Raw()
			list = append(list, passed{tt, string(raw)})
			if !bytes.HasPrefix(doc[off:], raw) {
				fail("token %d %q is not at offset %d", n, raw, off)
			}
			kept = append(kept, doc[off-z.Before():off]...)
			off += len(raw)
			if tt == ErrorToken {
				z.Flush()
				if string(out) != string(kept) {
					fail("out %q, want %q", out, kept)
				}
				return list, string(z.Buffered()), z.Err()
			}
			switch n % 3 {
			case 0:
				z.Pass()
				kept = append(kept, raw...)
			case 2:
				z.Flush()
				out = append(out, raw...)
				kept = append(kept, raw...)
			}
			if tt == StartTagToken {
				n := z.TagName()
				switch lowerNUL(raw[n[0]:n[1]]) {
				case "noscript", "title", "style":
					z.NextIsNotRawText()
				case "svg":
					z.AllowCDATA(true)
				}
			}
		}
	}
	want, wbuf, werr := tokens(false)
	got, gbuf, gerr := tokens(true)
	if gerr != werr || gbuf != wbuf || len(got) != len(want) {
		fail("with SetPassText %v (%v)\nwithout %v (%v)", got, gerr, want, werr)
	}
	for i, w := range want {
		if g := got[i]; g != w && !(g.tt == passedText && w.tt == TextToken && g.raw == w.raw) {
			fail("token %d: with SetPassText %v %q, without %v %q", i, g.tt, g.raw, w.tt, w.raw)
		}
	}
}

// TestPassText: with SetPassText, the text before a tag, a comment or a
// doctype never comes as a token of its own (a token per text
// run was 6 % of a rewrite); raw text and the text at the end still do.
func TestPassText(t *testing.T) {
	doc := "a<b>c\n</b><!--x-->d<!DOCTYPE html>\n<title>e</title>f<script>g</script>h"
	z := NewTokenizer(strings.NewReader(doc))
	var run []byte
	z.SetPass(func(b []byte) { run = append(run, b...) })
	z.SetPassText(true)
	var got []string
	for tt := z.Next(); tt != ErrorToken; tt = z.Next() {
		got = append(got, fmt.Sprintf("%d:%v:%s", z.Before(), tt, z.Raw()))
		z.Pass()
	}
	z.Flush()
	want := []string{"1:StartTag:<b>", "2:EndTag:</b>", "0:Comment:<!--x-->", "1:Doctype:<!DOCTYPE html>",
		"1:StartTag:<title>", "0:Text:e", "0:EndTag:</title>", "1:StartTag:<script>", "0:Text:g", "0:EndTag:</script>", "0:Text:h"}
	if !slices.Equal(got, want) {
		t.Errorf("tokens %q\nwant %q", got, want)
	}
	if string(run) != doc {
		t.Errorf("passed %q", run)
	}
}

// TestHTML5lib compares the tokenizers on every input of the html5lib
// tokenizer suite.
func TestHTML5lib(t *testing.T) {
	n := 0
	for _, in := range html5libInputs(t) {
		for _, w := range []string{"", "<script>", "<style>", "<title>", "<svg><![CDATA[", "<plaintext>", "<a title='"} {
			check(t, in.file, []byte(w+in.input))
			n++
		}
	}
	if n < 6000 {
		t.Fatalf("only %d inputs", n)
	}
}

// TestCorpus compares the tokenizers on every page of corpus A.
func TestCorpus(t *testing.T) {
	for _, p := range testkit.PagesA(t) {
		for rn, wrap := range readers {
			same(t, p.Name+"/"+rn, p.Data, 0, wrap)
		}
		same(t, p.Name, p.Data, 4096, readers["half"])
		samePassed(t, p.Name, p.Data, 0, 0, readers["whole"])
		samePassed(t, p.Name, p.Data, 4096, 1024, readers["half"])
	}
}

func FuzzTokenizer(f *testing.F) {
	for _, s := range []string{
		`<a href="x" HREF=y x=/>t<script><!--<script></script>--></script><style></style>`,
		`<svg><![CDATA[<a>]]></svg><!-- x --!><!DOCTYPE html><?pi?></ x><textarea></textarea >`,
		`<noscript><img src=a></noscript><title>&amp;</title><plaintext><a>`,
		`<a a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11 l=12 m=13 n=14 o=15 p=16 q=17 A=18 r=/>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		check(t, "fuzz", doc)
	})
}

// copiedFrom is the x/net version this package copies (see the package
// doc).
const copiedFrom = "v0.62.0"

// TestXNetVersion fails when go.mod moves to another x/net: the
// differential tests catch only the differences their inputs reach, so
// a fix to x/net's tokenizer must be carried over by reading its diff.
func TestXNetVersion(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(mod)) {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "golang.org/x/net" {
			if f[1] != copiedFrom {
				t.Fatalf("go.mod requires golang.org/x/net %s, this copy is of %s: carry html/token.go's changes over, then update copiedFrom and the package doc", f[1], copiedFrom)
			}
			return
		}
	}
	t.Fatal("go.mod does not require golang.org/x/net")
}

// tagRuns tokenizes doc and returns its tags' raw bytes, each preceded by
// the raw bytes of everything before it since the previous tag, and the
// final error: what a split of text, scripts and comments must not change.
func tagRuns(doc []byte, chunk int, wrap func(io.Reader) io.Reader) ([]string, error) {
	z := NewTokenizer(wrap(bytes.NewReader(doc)))
	z.SetChunk(chunk)
	var runs []string
	var between []byte
	for {
		tt := z.Next()
		switch tt {
		case ErrorToken:
			runs = append(runs, string(between))
			return runs, z.Err()
		case StartTagToken, EndTagToken, SelfClosingTagToken:
			name, attrs := z.Tag(nil)
			runs = append(runs, string(between), fmt.Sprint(tt, string(z.Raw()), name, attrs))
			between = between[:0]
		default:
			between = append(between, z.Raw()...)
		}
		if chunk > 0 && tt != StartTagToken && tt != EndTagToken && tt != SelfClosingTagToken && len(z.Raw()) > chunk+64 {
			return nil, fmt.Errorf("a %v token of %d bytes with chunk %d", tt, len(z.Raw()), chunk)
		}
	}
}

func checkChunks(t testing.TB, name string, doc []byte) {
	want, werr := tagRuns(doc, 0, readers["whole"])
	for _, chunk := range []int{1, 3, 64} {
		for rn, wrap := range readers {
			got, gerr := tagRuns(doc, chunk, wrap)
			if !slices.Equal(got, want) || gerr != werr {
				t.Fatalf("%s/%s chunk %d: %q (%v)\nwant %q (%v)", name, rn, chunk, got, gerr, want, werr)
			}
		}
	}
}

// TestChunk: split text, raw text, script data and comments leave the
// tags, the bytes between them and the final error as they were, and no
// split token grows past its chunk by more than a few bytes (only
// a start tag needs holding in memory).
func TestChunk(t *testing.T) {
	n := 0
	for _, in := range html5libInputs(t) {
		for _, w := range []string{"", "<script>", "<title>", "<textarea>", "<plaintext>", "<script><!--", "<script><!--<script>"} {
			checkChunks(t, in.file, []byte(w+in.input))
			n++
		}
	}
	if n < 6000 {
		t.Fatalf("only %d inputs", n)
	}
	big := []byte("<p>" + strings.Repeat("text ", 1<<16) + "<script>" + strings.Repeat("if (a<b) x--;", 1<<14) +
		"</script><!--" + strings.Repeat("- -", 1<<14) + "--><a href=x>" +
		"<script><!--" + strings.Repeat("var a = b < c; x-y; s = '</scrip'; ", 1<<12) + "--></script>")
	checkChunks(t, "big", big)
}

func FuzzChunk(f *testing.F) {
	f.Add([]byte(`t<script><!--<script>x</script>-->y</script><!-- a -- b --!><title>x</title><? p ><plaintext>z`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkChunks(t, "fuzz", doc)
	})
}

// TestHoldRawText: after HoldRawText, the script data or raw text of the
// start tag just read comes as one token whatever the chunk size (issue
// 15: an inline module script or import map is read whole), and the
// following ones are split again.
func TestHoldRawText(t *testing.T) {
	script := strings.Repeat("if (a<b) x--; <!-- <script> --> ", 200)
	doc := "<script type=module>" + script + "</script><script>" + script + "</script><textarea>" + script + "</textarea>"
	z := NewTokenizer(strings.NewReader(doc))
	z.SetChunk(64)
	var texts []int
	starts := 0
	for {
		tt := z.Next()
		if tt == ErrorToken {
			break
		}
		switch tt {
		case StartTagToken:
			if starts != 1 {
				z.HoldRawText() // the first script and the textarea
			}
			starts++
		case TextToken:
			texts = append(texts, len(z.Raw()))
		}
	}
	if len(texts) < 3 || texts[0] != len(script) || texts[len(texts)-1] != len(script) {
		t.Fatalf("held text tokens: %d pieces, first %v, last %v; want the first and last whole (%d)", len(texts), texts[0], texts[len(texts)-1], len(script))
	}
	if len(texts) == 3 {
		t.Fatalf("the second script was not split: %v", texts)
	}
	z = NewTokenizer(strings.NewReader("<p>" + script))
	z.SetChunk(64)
	z.Next()
	z.HoldRawText() // no raw text follows <p>: nothing held
	if z.Next(); len(z.Raw()) > 128 {
		t.Fatalf("text after <p> held: %d bytes", len(z.Raw()))
	}
}

// TestLongQuotedValueLinear: a quoted attribute value longer than the
// chunk size is scanned once, not once per byte. A tag is never split,
// but skipTo's chunk stop applied inside it too, so each byte past the
// chunk size cost a scan to the buffer's end, quadratic up to MaxToken;
// what is read is unchanged.
func TestLongQuotedValueLinear(t *testing.T) {
	for _, q := range []string{`"`, `'`} {
		value := strings.Repeat("a", 1<<20)
		doc := "<p>text</p><a title=" + q + value + q + " href=x>y</a>"
		z := NewTokenizerSize(strings.NewReader(doc), 32<<10)
		z.SetChunk(64 << 10)
		var got []string
		for {
			tt := z.Next()
			if tt == ErrorToken {
				break
			}
			got = append(got, string(z.Raw()))
		}
		if z.Err() != io.EOF {
			t.Fatalf("%s: error %v", q, z.Err())
		}
		if strings.Join(got, "") != doc || len(got) != 6 || got[3] != "<a title="+q+value+q+" href=x>" {
			t.Fatalf("%s: tokens %d, not the input's", q, len(got))
		}
		if z.scanned > 2*len(doc) {
			t.Errorf("%s: scanned %d bytes for a %d-byte document: quadratic", q, z.scanned, len(doc))
		}
	}
}

// TestDuplicateAttrs: only the first of attributes whose names are equal
// ASCII case-insensitively is kept, as x/net does, whatever their keyBits
// (equal names share one; different names may too), in tags read whole
// and a byte at a time, with few attributes and past maxLinearAttrs.
func TestDuplicateAttrs(t *testing.T) {
	names := []string{"a", "A", "href", "HREF", "hrEf", "hraf", "src", "SRC", "sRc", "scc", "data-x", "DATA-X", "data-y",
		"xlink:href", "XLINK:HREF", "xlink:hreF", "x", "y", "z", "\xe9", "\xc9", "=a", "=A", "a-", "A-", "a_"}
	for _, a := range names {
		for _, b := range names {
			if (keyBit([]byte(a)) != keyBit([]byte(b))) && strings.EqualFold(a, b) && isASCII(a) {
				t.Errorf("keyBit(%q) != keyBit(%q)", a, b)
			}
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		var doc strings.Builder
		n := 1 + r.IntN(24)
		doc.WriteString("<p")
		for range n {
			fmt.Fprintf(&doc, " %s=%d", names[r.IntN(len(names))], r.IntN(9))
		}
		doc.WriteString(">x")
		check(t, fmt.Sprint("duplicates ", i), []byte(doc.String()))
	}
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// TestResetBuffer: a tokenizer ResetBuffer for another document reads it as a new
// one would, whatever state the last document left (a tag cut short, raw
// text, a long attribute list past maxLinearAttrs, CDATA allowed), and
// keeps the memory of its attribute spans only within maxKeptAttrs.
func TestResetBuffer(t *testing.T) {
	var many strings.Builder
	many.WriteString("<p")
	for i := range 3 * maxKeptAttrs {
		fmt.Fprintf(&many, " a%d=%d", i, i)
	}
	many.WriteString(">")
	docs := []string{
		`<!DOCTYPE html><p class=a id=b>text<a href="x" HREF=y>z</a><script>if (a<b) x--;</script><!-- c -->`,
		`<title>t &amp; u</title><textarea>unclosed`,
		`<p a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11 l=12 m=13 n=14 o=15 p=16 q=17 a=18>x<br/>`,
		`<svg><![CDATA[x]]></svg><div unclosed="`,
		many.String(),
		`<a href=1 href=2>`,
	}
	tokens := func(z *Tokenizer) []string {
		var out []string
		for {
			tt := z.Next()
			if tt == ErrorToken {
				return append(out, fmt.Sprint(z.Err()))
			}
			raw := z.Raw()
			_, attrs := z.Tag(nil)
			out = append(out, fmt.Sprintf("%v %q %v", tt, raw, attrs))
			if tt == StartTagToken && strings.HasPrefix(string(raw), "<svg") {
				z.NextIsNotRawText()
			}
		}
	}
	reused := NewTokenizerBuffer(strings.NewReader(""), make([]byte, 0, 64))
	for round := range 2 {
		for i, d := range docs {
			want := tokens(NewTokenizerBuffer(strings.NewReader(d), make([]byte, 0, 64)))
			reused.ResetBuffer(strings.NewReader(d), make([]byte, 0, 64))
			if got := tokens(reused); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("round %d, document %d after ResetBuffer:\n got %q\nwant %q", round, i, got, want)
			}
			if i == 4 {
				reused.SetChunk(7) // left set by a document: ResetBuffer clears it
			}
		}
	}
	reused.ResetBuffer(strings.NewReader(many.String()), make([]byte, 0, 64))
	tokens(reused)
	reused.ResetBuffer(nil, nil)
	if cap(reused.attr) > maxKeptAttrs || reused.r != nil || reused.buf != nil {
		t.Errorf("after ResetBuffer: attribute spans of capacity %d kept (want <= %d), reader %v, buffer of %d", cap(reused.attr), maxKeptAttrs, reused.r, cap(reused.buf))
	}
}

// html5libInput is one input of the html5lib tokenizer suite and the file
// it comes from.
type html5libInput struct{ file, input string }

// html5libInputs reads every input of the html5lib tokenizer suite
// (testdata/html/html5lib-tokenizer).
func html5libInputs(t *testing.T) []html5libInput {
	t.Helper()
	files, err := filepath.Glob("../../testdata/html/html5lib-tokenizer/*.test")
	if err != nil || len(files) == 0 {
		t.Fatal("no html5lib tests", err)
	}
	var ins []html5libInput
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var suite map[string][]struct {
			Input string `json:"input"`
		}
		if err := json.Unmarshal(data, &suite); err != nil {
			t.Fatal(err)
		}
		for _, tests := range suite {
			for _, c := range tests {
				ins = append(ins, html5libInput{f, c.Input})
			}
		}
	}
	return ins
}
