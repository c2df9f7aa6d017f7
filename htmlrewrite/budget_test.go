package htmlrewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

func budgetOpts() Options {
	return Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: "https://h.example/d/"}}}
}

// incomplete runs Rewrite and Links on doc and returns their errors as
// *link.IncompleteError, failing unless Rewrite copied doc as written after
// its first link.
func incomplete(t *testing.T, doc string, o Options) (rw, ln *link.IncompleteError, links int) {
	t.Helper()
	var b bytes.Buffer
	_, err := Rewrite(&b, strings.NewReader(doc), o)
	if !errors.As(err, &rw) || !errors.Is(err, link.ErrIncomplete) {
		t.Fatalf("Rewrite: err = %v, want an *link.IncompleteError", err)
	}
	if want := strings.Replace(doc, `"a.png"`, `"https://h.example/d/a.png"`, 1); b.String() != want {
		t.Errorf("Rewrite: the output is not the input with its first link rewritten")
	}
	_, err = Links(strings.NewReader(doc), o, func(link.Link) error { links++; return nil })
	if !errors.As(err, &ln) {
		t.Fatalf("Links: err = %v, want an *link.IncompleteError", err)
	}
	return rw, ln, links
}

// attrs returns n distinct attributes (repeated names are dropped as they
// come: they are not kept, and do not count).
func attrs(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, " a%d", i)
	}
	return b.String()
}

// A tag of more than link.MaxAttrs attributes stops the reading where it
// starts: named, at its line, with the rest left as written.
func TestMaxAttrs(t *testing.T) {
	doc := "<img src=\"a.png\">\n\n<div" + attrs(link.MaxAttrs+1) + "><a href=\"b.png\">"
	rw, ln, n := incomplete(t, doc, budgetOpts())
	for _, e := range []*link.IncompleteError{rw, ln} {
		if e.Line != 3 || e.Unit != "attributes" || e.Limit != link.MaxAttrs || e.Offset != 19 {
			t.Errorf("%+v", e)
		}
	}
	if n != 1 {
		t.Errorf("Links: %d links before the tag, want 1", n)
	}
	if !strings.Contains(rw.Error(), "a tag at line 3 (byte 19) has more than 65536 attributes") {
		t.Errorf("message: %s", rw.Error())
	}
	// link.MaxAttrs attributes are read.
	ok := "<div" + attrs(link.MaxAttrs-1) + " href=x><img src=\"a.png\">"
	if _, err := Rewrite(io.Discard, strings.NewReader(ok), budgetOpts()); err != nil {
		t.Errorf("link.MaxAttrs attributes: %v", err)
	}
}

// A srcset of more than MaxRewrites candidates: the same, its tag left
// as written and not counted as rewritten.
func TestMaxRewrites(t *testing.T) {
	var set strings.Builder
	for i := range MaxRewrites + 1 {
		fmt.Fprintf(&set, "i%d.png %dw, ", i, i+1)
	}
	doc := "<img src=\"a.png\">\n<img srcset=\"" + set.String() + "\"><a href=\"b.png\">"
	rw, ln, n := incomplete(t, doc, budgetOpts())
	for _, e := range []*link.IncompleteError{rw, ln} {
		if e.Line != 2 || e.Unit != "srcset candidates" || e.Limit != MaxRewrites || e.What != "a srcset" {
			t.Errorf("%+v", e)
		}
	}
	if n != 1+MaxRewrites {
		t.Errorf("Links: %d links, want the %d before the stop", n, 1+MaxRewrites)
	}
	st, _ := Rewrite(io.Discard, strings.NewReader(doc), budgetOpts())
	if st.Rewritten != 1 {
		t.Errorf("Rewritten = %d, want 1 (the tag left as written is not counted)", st.Rewritten)
	}
}

// Rewrite names the line of a tag over MaxSize as Links does (it
// counted no lines: "line 1"), and a <style> sheet that cannot be cut is
// "a <style> element", not a tag.
func TestIncompleteNames(t *testing.T) {
	o := budgetOpts()
	o.MaxSize = 1 << 10
	doc := "<p>\n<p>\n<p>\n<div title=\"" + strings.Repeat("x", 2<<10) + "\">"
	var b bytes.Buffer
	_, err := Rewrite(&b, strings.NewReader(doc), o)
	var e *link.IncompleteError
	if !errors.As(err, &e) || e.Line != 4 || e.What != "a tag" || b.String() != doc {
		t.Errorf("a long tag: %v", err)
	}
	doc = "<p>\n<style>" + strings.Repeat("x{background:url(", 200) + "</style>"
	_, err = Rewrite(io.Discard, strings.NewReader(doc), o)
	if !errors.As(err, &e) || e.Line != 2 || e.What != "a <style> element" {
		t.Errorf("a long <style>: %v", err)
	}
}

// Hostile inputs take time linear in their size: doubling one at most
// multiplies the time by 2.5 (4 for a quadratic reader).
func TestLinearTime(t *testing.T) {
	cases := []struct {
		name string
		n    int
		doc  func(n int) string
		max  float64 // of the growth; 0 is 2.5
	}{
		{"attributes", 100000, func(n int) string { return "<div" + strings.Repeat(" a", n) + ">" }, 0},
		{"distinct attributes", 30000, func(n int) string {
			var b strings.Builder
			b.WriteString("<div")
			for i := range n {
				fmt.Fprintf(&b, " a%d=%d", i, i)
			}
			return b.String() + ">"
			// The set of names that drops duplicates outgrows the caches
			// as it doubles (2.5 to 2.9 under load); a quadratic one gives 4.
		}, 3},
		{"srcset", 4000, func(n int) string {
			return "<img srcset=\"" + strings.Repeat("i.png 2w, ", n) + "\">"
		}, 0},
		{"unterminated url( in <style>", 100000, func(n int) string {
			return "<style>" + strings.Repeat("x{background:url(", n) + "</style>"
		}, 0},
		{"unterminated url( in style=", 100000, func(n int) string {
			return "<p style=\"" + strings.Repeat("x{background:url(", n) + "\">"
		}, 0},
	}
	// A stylesheet alone: rules that stream, and an unterminated url(
	// repeated, which never gives a place to cut.
	sheets := []struct {
		name string
		n    int
		doc  func(n int) string
	}{
		{"stylesheet rules", 20000, func(n int) string { return strings.Repeat("a{b:url(x.png)}\n", n) }},
		{"stylesheet unterminated url(", 100000, func(n int) string { return strings.Repeat("x{background:url(", n) }},
	}
	for _, c := range sheets {
		t.Run(c.name, func(t *testing.T) {
			docs := map[int]string{c.n: c.doc(c.n), 2 * c.n: c.doc(2 * c.n)}
			testkit.Linear(t, c.n, 2.5, func(n int) {
				RewriteCSS(io.Discard, strings.NewReader(docs[n]), budgetOpts())
				CSSLinks(strings.NewReader(docs[n]), budgetOpts(), func(link.Link) error { return nil })
			})
		})
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			docs := map[int]string{c.n: c.doc(c.n), 2 * c.n: c.doc(2 * c.n)}
			growth := c.max
			if growth == 0 {
				growth = 2.5
			}
			testkit.Linear(t, c.n, growth, func(n int) {
				Rewrite(io.Discard, strings.NewReader(docs[n]), budgetOpts())
				Links(strings.NewReader(docs[n]), budgetOpts(), func(link.Link) error { return nil })
			})
		})
	}
}
