// Package htmltreetest holds what the tests of package base and package
// htmlrewrite share to compare their reading of HTML with html.Parse's:
// the oracle (the first <base href> of the parsed tree) and a generator
// of documents made of the cases package htmltree models.
package htmltreetest

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// ParsedBase is the oracle the <base> scan and the rewriter are checked against: x/net's tree
// builder (html.Parse), and the HTML Standard's "first base element with
// an href attribute in tree order", where an HTML element is one in no
// namespace and template contents are not in the tree (html.md §3.1 [obs]).
// scripting is the parser's scripting flag: set, <noscript> holds raw
// text; unset (relurl's default reading), markup.
func ParsedBase(doc string, scripting bool) (href string, found bool) {
	bases := parsedBases(doc, scripting)
	if len(bases) == 0 {
		return "", false
	}
	return bases[0], true
}

// parsedBases returns the href of every base element of html.Parse's tree
// that has one, HTML and outside template contents, in tree order.
func parsedBases(doc string, scripting bool) []string {
	root, err := html.ParseWithOptions(strings.NewReader(doc), html.ParseOptionEnableScripting(scripting))
	if err != nil {
		return nil
	}
	var bases []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Namespace == "" {
			if n.Data == "template" {
				return
			}
			if n.Data == "base" {
				for _, a := range n.Attr {
					if a.Namespace == "" && a.Key == "href" {
						bases = append(bases, a.Val)
						break
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(root)
	return bases
}

// baseTag finds the href of each <base> start tag written as Generate
// writes them (or as the rewriter writes one back), element or not.
var baseTag = regexp.MustCompile(`<base href="?([^"\s>]+)`)

// FirstBase is ParsedBase in the document's order instead of the tree's:
// of the base elements html.Parse makes (HTML, outside template contents),
// the one whose tag comes first in doc. The two differ only where the
// parser moves nodes (the adoption agency algorithm, <a><div><a>), which
// relurl's model of the tree leaves out, taking the document's order.
// Where two <base> tags have one href (not so in Generate's documents),
// or the tags are written otherwise, it is ParsedBase.
func FirstBase(doc string, scripting bool) (href string, found bool) {
	bases := parsedBases(doc, scripting)
	if len(bases) == 0 {
		return "", false
	}
	var tags []string
	for _, m := range baseTag.FindAllStringSubmatch(doc, -1) {
		if slices.Contains(tags, m[1]) {
			return bases[0], true
		}
		tags = append(tags, m[1])
	}
	for _, h := range tags {
		if slices.Contains(bases, h) {
			return h, true
		}
	}
	return bases[0], true
}

// treeGen writes a random, well-formed document (every element closed in
// order) from a vocabulary chosen for the cases the <base> scan models: foreign
// content, integration points, breakout tags, templates and raw text.
//
// It puts no <template> inside <svg> or <math>: there x/net (v0.62.0,
// observed) loses an HTML template in an integration point, and all that
// follows it, where the HTML Standard inserts it as anywhere in the body
// ("template in foreignObject" in base.TestScanHTMLBrowser); and it treats an
// SVG or MathML element named template as an HTML one.
type treeGen struct {
	next       func(n int) int // a choice in [0, n)
	b          strings.Builder
	bases      int
	nodes      int
	misnest    bool
	sawForeign bool
	pLeftOpen  bool // a <p> was left open: no block inside a formatting element
	formatting int  // open formatting elements, inside which all is well formed
}

// nesting says what a subtree is inside, where the generator, as the
// model, leaves out what the parser does to formatting elements: a new <a>
// inside an open <a> runs the adoption agency algorithm, which moves nodes
// (<a><div><a>) and recreates formatting elements, but for the oldest of
// four alike (<a><b><b><b><b><a>, the Noah's Ark clause); a block that
// closes a <p> with a formatting element open in it (<p><b><div>) pops the
// formatting element, which the next start tag reconstructs; and a
// breakout tag inside an <svg> <a> or <font> closes it, so that its end tag
// closes an HTML one.
type nesting uint8

const (
	inA nesting = 1 << iota // no <a> here
	inP
	formattingInP     // no <div>, <section> or <p> here
	foreignFormatting // no breakout here
)

// breakout holds the start tags of the vocabulary that leave foreign
// content (HTML §13.2.6.5).
var breakout = map[string]bool{
	"<div>": true, "<span>": true, "<p>": true, "<b>": true, "<font color=red>": true,
	"<img src=i>": true, "<br>": true,
}

// block reports whether open starts an element that closes a <p>.
func block(open string) bool {
	return open == "<div>" || open == "<section>" || open == "<p>"
}

// strayEnds are the end tags a misnested document puts anywhere but
// inside a formatting element (a, b, font), which holds a well-formed
// subtree: an end tag that pops a formatting element leaves it to be
// reconstructed by the next start tag or text, and one that closes it
// around an open element calls for the adoption agency algorithm, which
// moves nodes; the model leaves both out.
var strayEnds = []string{"</div>", "</p>", "</span>", "</section>", "</svg>", "</math>", "</g>", "</foreignObject>", "</mi>", "</br>"}

// formatting reports whether open starts a formatting element.
func formatting(open string) bool {
	return strings.HasPrefix(open, "<b>") || strings.HasPrefix(open, "<font") || strings.HasPrefix(open, "<a ")
}

var treeVocabulary = []struct {
	open, close string
	void        bool
}{
	{"<div>", "</div>", false},
	{"<span>", "</span>", false},
	{"<section>", "</section>", false},
	{"<p>", "</p>", false},
	{"<a href=x>", "</a>", false},
	{"<svg>", "</svg>", false},
	{"<svg/>", "", true},
	{"<math>", "</math>", false},
	{"<g>", "</g>", false},
	{"<foreignObject>", "</foreignObject>", false},
	{"<desc>", "</desc>", false},
	{"<title>", "</title>", false},
	{"<mi>", "</mi>", false},
	{"<mtext>", "</mtext>", false},
	{"<annotation-xml>", "</annotation-xml>", false},
	{`<annotation-xml encoding="text/html">`, "</annotation-xml>", false},
	{"<template>", "</template>", false},
	{"<font color=red>", "</font>", false},
	{"<font>", "</font>", false},
	{"<b>", "</b>", false},
	{"<script>", "</script>", false},
	{"<style>", "</style>", false},
	{"<noscript>", "</noscript>", false},
	{"<img src=i>", "", true},
	{"<base target=t>", "", true},
	{"<br>", "", true},
	{"text", "", true},
	{"<!-- c -->", "", true},
	{"<![CDATA[ <base href=cdata> ]]>", "", true},
	{"<![CDATA[ > <base href=cdata> ]]>", "", true},
}

// tree writes a subtree and reports whether it left an element open.
func (g *treeGen) tree(depth int, foreign bool, s nesting) (open bool) {
	for n := g.next(4); n > 0 && g.nodes < 60; n-- {
		g.nodes++
		if g.next(5) == 0 {
			g.bases++
			fmt.Fprintf(&g.b, "<base href=h%d>", g.bases)
			continue
		}
		v := treeVocabulary[g.next(len(treeVocabulary))]
		// Misnested, an <svg> or <math> may stay open past its subtree.
		g.sawForeign = g.sawForeign || v.open == "<svg>" || v.open == "<math>"
		if (foreign || g.misnest && g.sawForeign) && v.open == "<template>" {
			v = treeVocabulary[0]
		}
		if v.open == "<a href=x>" && s&inA != 0 || block(v.open) && s&formattingInP != 0 {
			v = treeVocabulary[1] // <span>
		}
		if s&foreignFormatting != 0 && breakout[v.open] {
			v = treeVocabulary[8] // <g>
		}
		in := s
		if v.open == "<a href=x>" {
			in |= inA
		}
		if foreign && (v.open == "<a href=x>" || v.open == "<font>") {
			in |= foreignFormatting
		}
		if v.open == "<p>" {
			in |= inP
		}
		if formatting(v.open) && (s&inP != 0 || g.pLeftOpen) {
			in |= formattingInP
		}
		g.b.WriteString(v.open)
		inner := false
		if !v.void && depth < 8 {
			if formatting(v.open) {
				g.formatting++
			}
			inner = g.tree(depth+1, foreign || v.open == "<svg>" || v.open == "<math>", in)
			if formatting(v.open) {
				g.formatting--
			}
		}
		if g.misnest && g.formatting == 0 && !formatting(v.open) && g.next(4) == 0 {
			if g.next(2) == 0 {
				g.b.WriteString(strayEnds[g.next(len(strayEnds))])
			}
			open = open || !v.void
			g.pLeftOpen = g.pLeftOpen || v.open == "<p>"
			continue // the element's own end tag left out
		}
		open = open || inner
		g.b.WriteString(v.close)
	}
	return open
}

// Generate returns a document whose structure next chooses: well formed,
// or with misnest some end tags left out or put where they close no open
// element of theirs or an outer one (<div><svg></div>), as real pages
// have them. Each <base href> in it has an href of its own (h1, h2, …,
// cdata1, …), which FirstBase needs.
func Generate(next func(n int) int, misnest bool) string {
	g := treeGen{next: next, misnest: misnest}
	g.b.WriteString("<!DOCTYPE html><body>")
	g.tree(0, false, 0)
	// Each <base href=cdata> its own href, so that FirstBase can tell
	// them apart.
	parts := strings.Split(g.b.String(), "<base href=cdata>")
	var b strings.Builder
	for i, p := range parts {
		if i > 0 {
			b.WriteString("<base href=cdata" + strconv.Itoa(i) + ">")
		}
		b.WriteString(p)
	}
	return b.String()
}

// Chooser returns a choice function that takes its choices from the bytes
// of b, in order, and then 0.
func Chooser(b []byte) func(n int) int {
	return func(n int) int {
		if len(b) == 0 {
			return 0
		}
		c := int(b[0]) % n
		b = b[1:]
		return c
	}
}
