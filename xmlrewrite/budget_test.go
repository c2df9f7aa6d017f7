package xmlrewrite

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
	"unsafe"

	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
)

// An open element costs a small frame whatever the document: the stack is
// MaxDepth of them at most.
func TestFrameSize(t *testing.T) {
	if n := unsafe.Sizeof(frame{}); n > 24 {
		t.Errorf("a frame is %d bytes, more than 24", n)
	}
}

func deepSVG(levels int) string {
	return `<svg xmlns="http://www.w3.org/2000/svg">` + "\n" + strings.Repeat("<g>", levels) + `<image href="x.png"/>`
}

// A document nested deeper than MaxDepth stops at the element that goes
// past it, with an *link.IncompleteError that names it and its
// line; Rewrite copies the rest as written, Links reports what came
// before.
func TestMaxDepth(t *testing.T) {
	ok := `<svg xmlns="http://www.w3.org/2000/svg"><a href="a.png"/>` + strings.Repeat("<g>", MaxDepth-1) + `<image href="x.png"/>`
	var b bytes.Buffer
	if _, err := Rewrite(&b, strings.NewReader(ok), opts("https://h.example/d/")); err != nil {
		t.Fatalf("Rewrite at MaxDepth: %v", err)
	}
	if !strings.HasSuffix(b.String(), `<image href="https://h.example/d/x.png"/>`) {
		t.Errorf("Rewrite at MaxDepth: the innermost link is not rewritten: ...%s", b.String()[b.Len()-60:])
	}

	deep := `<svg xmlns="http://www.w3.org/2000/svg"><a href="a.png"/>` + "\n" + strings.Repeat("<g>", 2*MaxDepth) + `<image href="x.png"/>`
	b.Reset()
	_, err := Rewrite(&b, strings.NewReader(deep), opts("https://h.example/d/"))
	var inc *link.IncompleteError
	if !errors.As(err, &inc) || !errors.Is(err, link.ErrIncomplete) {
		t.Fatalf("Rewrite past MaxDepth: err = %v, want an *link.IncompleteError", err)
	}
	if inc.Line != 2 || inc.Unit != "levels" || inc.Limit != MaxDepth || inc.What != "<g>" {
		t.Errorf("Rewrite past MaxDepth: %+v", inc)
	}
	if want := strings.Replace(deep, `"a.png"`, `"https://h.example/d/a.png"`, 1); b.String() != want {
		t.Errorf("Rewrite past MaxDepth: the output is not the input with the first link rewritten")
	}
	if got := err.Error(); !strings.Contains(got, "<g> at line 2") || !strings.Contains(got, "nested deeper than 512 levels") {
		t.Errorf("the message does not say what happened: %s", got)
	}
	var ls []link.Link
	_, err = Links(strings.NewReader(deep), opts("https://h.example/d/"), func(l link.Link) error { ls = append(ls, l); return nil })
	if !errors.As(err, &inc) || len(ls) != 1 || ls[0].URL != "https://h.example/d/a.png" {
		t.Errorf("Links past MaxDepth: %v, %d links", err, len(ls))
	}
}

// A start tag of more than MaxAttrs attributes stops the reading, named;
// the attributes are not held.
func TestMaxAttrsXML(t *testing.T) {
	doc := `<svg xmlns="http://www.w3.org/2000/svg"><g` + strings.Repeat(" a", link.MaxAttrs+1) + `/><image href="x.png"/></svg>`
	_, err := Links(strings.NewReader(doc), opts("https://h.example/"), func(link.Link) error { return nil })
	var inc *link.IncompleteError
	if !errors.As(err, &inc) || inc.Unit != "attributes" || inc.Limit != link.MaxAttrs {
		t.Fatalf("err = %v, want an *IncompleteError for attributes", err)
	}
}

// A document over MaxSize is refused by name (*link.TooLargeError)
// and copied as written.
func TestTooLarge(t *testing.T) {
	doc := `<svg xmlns="http://www.w3.org/2000/svg"><image href="x.png"/></svg>`
	o := opts("https://h.example/")
	o.MaxSize = 20
	var b bytes.Buffer
	_, err := Rewrite(&b, strings.NewReader(doc), o)
	var tl *link.TooLargeError
	if !errors.As(err, &tl) || !errors.Is(err, link.ErrIncomplete) || tl.Limit != 20 || b.String() != doc {
		t.Errorf("err = %v, output %q", err, b.String())
	}
}

// Nesting, attributes and their links take time linear in the input.
func TestLinearTime(t *testing.T) {
	o := opts("https://h.example/")
	cases := []struct {
		name string
		n    int
		doc  func(n int) string
	}{
		{"depth", 1000000, deepSVG},
		{"siblings", 50000, func(n int) string {
			return `<svg xmlns="http://www.w3.org/2000/svg">` + strings.Repeat(`<g><image href="x.png"/></g>`, n) + `</svg>`
		}},
		// 2n under MaxAttrs: all read. Held for their tag (the cap bounds
		// them), thousands of attributes cross the CPU's cache sizes, which
		// adds a step to the time but not a growth: a quadratic read would
		// still multiply it by 4.
		{"attributes", 16000, func(n int) string {
			return `<svg xmlns="http://www.w3.org/2000/svg"><g` + strings.Repeat(` a="x"`, n) + `/></svg>`
		}},
		{"xlink:href attributes", 20000, func(n int) string {
			return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><image` +
				strings.Repeat(` xlink:href="x.png"`, n) + `/></svg>`
		}},
		{"CDATA sections of escaped HTML", 5000, func(n int) string {
			return `<feed xmlns="http://www.w3.org/2005/Atom"><entry><content type="html">` +
				strings.Repeat(`<![CDATA[<a href="x.html">x</a>]]>`, n) + `</content></entry></feed>`
		}},
		{"xml:base at every level", 200000, func(n int) string {
			return `<svg xmlns="http://www.w3.org/2000/svg">` + strings.Repeat(`<g xml:base="d/">`, n)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			docs := map[int]string{c.n: c.doc(c.n), 2 * c.n: c.doc(2 * c.n)}
			growth := 2.5
			if c.name == "attributes" {
				growth = 3.2
			}
			testkit.Linear(t, c.n, growth, func(n int) {
				Rewrite(io.Discard, strings.NewReader(docs[n]), o)
				Links(strings.NewReader(docs[n]), o, func(link.Link) error { return nil })
			})
		})
	}
}

// The map from decoded text back to the source is kept by pieces (a run
// as written, a reference): references, CR LF and runs around them map
// back to their own bytes.
func TestDecodedPieces(t *testing.T) {
	var d decoded
	src := []byte("a&amp;b&#x10000;c\r\nd")
	if err := d.add(src, 0, len(src), false, 0); err != nil {
		t.Fatal(err)
	}
	if string(d.text) != "a&b\U00010000c\nd" {
		t.Fatalf("text %q", d.text)
	}
	want := [][2]int{{0, 1}, {1, 6}, {6, 7}, {7, 16}, {7, 16}, {7, 16}, {7, 16}, {16, 17}, {17, 19}, {19, 20}}
	for i, w := range want {
		if a, b := d.source(i); a != w[0] || b != w[1] {
			t.Errorf("byte %d: source [%d, %d), want %v", i, a, b, w)
		}
	}
	if len(d.pieces) != 7 {
		t.Errorf("%d pieces, want 7", len(d.pieces))
	}
	if a, b, _, ok := d.span(1, 8); !ok || a != 1 || b != 17 {
		t.Errorf("span(1, 8) = %d, %d, %v", a, b, ok)
	}
}
