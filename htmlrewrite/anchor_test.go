package htmlrewrite

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// TestAnchor: Options.Anchor reports the names a fragment can indicate
// (HTML Standard "find a potential indicated element": an id on any
// element, a name on an HTML a element), in the pass that finds links.
func TestAnchor(t *testing.T) {
	const doc = `<!DOCTYPE html><h1 id=intro>x</h1><A NAME="old&amp;name">y</A>` +
		`<div name=notananchor></div><p id="">empty</p>` +
		`<svg><a name=svga id=svgid></a><circle ID='c1'/></svg>` +
		`<template><p id=intemplate></p></template>` +
		`<iframe srcdoc="<p id=insrcdoc>"></iframe><math><mi id=m></mi></math>` +
		`<a href="#intro" id="a%20b">z</a><p id="caf&eacute;">`
	want := []string{"intro", "old&name", "svgid", "c1", "m", "a%20b", "café"}
	for _, srcdoc := range []bool{false, true} {
		var got []string
		opts := Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG}}, Srcdoc: srcdoc, Anchor: func(n string) { got = append(got, n) }}
		links := 0
		_, err := Links(strings.NewReader(doc), opts, func(link.Link) error { links++; return nil })
		require.NoError(t, err)
		assert.Equal(t, want, got, "srcdoc %v", srcdoc)
		assert.Positive(t, links)
		// The same from a rewrite, whose strings must outlive the buffer.
		got = nil
		_, err = Rewrite(io.Discard, bytes.NewReader([]byte(doc)), opts)
		require.NoError(t, err)
		assert.Equal(t, want, got, "rewrite, srcdoc %v", srcdoc)
	}
}

// FuzzAnchor: the anchors a document reports are the same whether it is
// read for links or rewritten, and none is empty.
func FuzzAnchor(f *testing.F) {
	for _, s := range []string{`<p id=a><a name="b&amp;c">`, `<svg><g id=x></g></svg><template><p id=t></template>`, `<iframe srcdoc="<p id=s>"><a name="">`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		var fromLinks, fromRewrite []string
		opts := Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG}}, Srcdoc: true}
		opts.Anchor = func(n string) { fromLinks = append(fromLinks, n) }
		if _, err := Links(strings.NewReader(doc), opts, func(link.Link) error { return nil }); err != nil {
			return
		}
		opts.Anchor = func(n string) { fromRewrite = append(fromRewrite, n) }
		if _, err := Rewrite(io.Discard, strings.NewReader(doc), opts); err != nil {
			t.Fatalf("Rewrite: %v", err)
		}
		if len(fromLinks) != len(fromRewrite) {
			t.Fatalf("Links reported %q, Rewrite %q", fromLinks, fromRewrite)
		}
		for i, n := range fromLinks {
			if n == "" || n != fromRewrite[i] {
				t.Fatalf("Links reported %q, Rewrite %q", fromLinks, fromRewrite)
			}
		}
	})
}
