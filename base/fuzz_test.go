package base

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/relurl/relurl/resolve"
)

// FuzzScanHTML: on any input, in both modes, the scan ends without a
// panic, a found element's position points at its "<" with the line and
// column of that byte, and the result does not depend on how the input
// is cut into reads.
func FuzzScanHTML(f *testing.F) {
	for _, s := range []string{
		appendixExample,
		`<svg><title><base href=t></title></svg>`,
		`<math><annotation-xml encoding="text/html"><base href=a>`,
		`<template><svg></template><base href=d>`,
		"<head>\n<base href=../x>\n<base href=http://a/>",
		`<svg><![CDATA[ <base href=c> ]]></svg><base href=d>`,
		`<svg><font color=red><base href=b>`,
		`<svg><desc><p><![CDATA[ > <base href=c> ]]></p></desc></svg>`,
		`<math><annotation-xml encoding="text/html"><p><annotation-xml><div></div></annotation-xml><base href=m>`,
		`<svg><foreignObject><div><svg><g></div><base href=d>`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, doc []byte, strict bool) {
		e, _, err := ScanHTML(bytes.NewReader(doc), strict)
		if err != nil {
			t.Fatalf("ScanHTML: %v", err)
		}
		if e.Found {
			if e.Offset < 0 || e.Offset >= int64(len(doc)) || doc[e.Offset] != '<' {
				t.Fatalf("Offset %d does not point at a '<'", e.Offset)
			}
			// HTML §13.2.3.5: CRLF and a lone CR are line ends too.
			before := bytes.ReplaceAll(doc[:e.Offset], []byte("\r\n"), []byte("\n"))
			before = bytes.ReplaceAll(before, []byte("\r"), []byte("\n"))
			line := bytes.Count(before, []byte{'\n'}) + 1
			col := len(before) - bytes.LastIndexByte(before, '\n')
			if e.Line != line || e.Column != col {
				t.Fatalf("position %d:%d, want %d:%d", e.Line, e.Column, line, col)
			}
			if strict && !absolute(trimASCIISpace(e.Href)) {
				t.Fatalf("strict scan found relative %q", e.Href)
			}
		}
		e2, _, err := ScanHTML(iotest.OneByteReader(bytes.NewReader(doc)), strict)
		if err != nil || e2 != e {
			t.Fatalf("ScanHTML one byte at a time: %+v, %v; want %+v", e2, err, e)
		}
		// Decide never panics, whatever the element says.
		c := Context{Spec: resolve.WHATWG, Retrieval: "http://a.example/b/c", Strict: strict}
		c.Decide(e)
	})
}

// FuzzHeaderValue: a value HeaderValue accepts has no white space and
// survives being written back as the draft's "<URL:" absoluteURL ">".
func FuzzHeaderValue(f *testing.F) {
	for _, s := range []string{
		"<URL:http://www.ics.uci.edu/Test/a/b/c>",
		"<URL:http://www.ics.uci.edu/\r\n Test/a/b/c>",
		"images/a.gif",
		`"http://a/b"`,
		"=?utf-8?q?http://a/caf=C3=A9?=",
		"<url:>",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, value string) {
		v, err := HeaderValue(value)
		if err != nil {
			return
		}
		if v == "" || strings.ContainsAny(v, " \t\r\n\f\v") {
			t.Fatalf("HeaderValue(%q) = %q", value, v)
		}
		w, err := HeaderValue("<URL:" + v + ">")
		if err != nil || w != v {
			t.Fatalf("HeaderValue(<URL:%s>) = %q, %v; want %q", v, w, err, v)
		}
		// A context with this header decides without panicking.
		c := Context{Spec: resolve.RFC3986, Retrieval: "http://a/b", Header: map[string][]string{"Base": {value}}}
		c.Fallback()
	})
}

// FuzzSavedFrom: the mark of the web is read without a panic, and what it
// gives is a non-empty URL without white space at either end.
func FuzzSavedFrom(f *testing.F) {
	f.Add([]byte("<!DOCTYPE html>\n<!-- saved from url=(0026)https://example.com/a/b/c -->\n<html>"))
	f.Add([]byte("<!-- saved from url=(0014)about:internet -->"))
	f.Add([]byte("<!-- saved from url=(9999)x -->"))
	f.Fuzz(func(t *testing.T, head []byte) {
		u, line, ok := SavedFrom(head)
		if ok && (u == "" || strings.TrimSpace(u) != u || line < 1) {
			t.Fatalf("SavedFrom = %q, %d", u, line)
		}
	})
}

// FuzzLocation: a redirect target is resolved without a panic; the result
// of a Location without a fragment keeps the fragment of the URL that
// answered.
func FuzzLocation(f *testing.F) {
	f.Add("http://www.example.org/~tim#frag", "/People.html")
	f.Add("http://a/b/c/d;p?q", "../g#s")
	f.Add("https://a/x#f", "#")
	f.Fuzz(func(t *testing.T, answered, location string) {
		u, err := Location(answered, location)
		if err != nil {
			return
		}
		_, frag, has := strings.Cut(answered, "#")
		if has && !strings.Contains(location, "#") && !strings.HasSuffix(u, "#"+frag) {
			t.Fatalf("Location(%q, %q) = %q: fragment %q lost", answered, location, u, frag)
		}
	})
}
