package tree

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzSavedFrom: any head either yields no URL or a URL that the comment
// really carries with the length it states.
func FuzzSavedFrom(f *testing.F) {
	f.Add([]byte("<!-- saved from url=(0022)https://example.org/a/ -->"))
	f.Add([]byte("<!DOCTYPE html>\r\n<!-- saved from url=(0014)about:internet -->"))
	f.Add([]byte("<!-- saved from url=(9999)x"))
	f.Fuzz(func(t *testing.T, head []byte) {
		u, ok := SavedFrom(head)
		if !ok {
			if u != "" {
				t.Fatalf("SavedFrom(%q) = %q, false", head, u)
			}
			return
		}
		if !bytes.Contains(head, []byte(u+" -->")) {
			t.Fatalf("SavedFrom(%q) = %q, not in the head", head, u)
		}
	})
}

// FuzzFix: Fix never panics, changes nothing outside the values it
// rewrites, and a rewritten value decodes to the relative form.
func FuzzFix(f *testing.F) {
	f.Add(`<a href="https://h/t/a.html">`, int64(9), "https://h/t/a.html", "a.html")
	f.Add(`<a href=/t/a?x&amp;y>`, int64(8), "/t/a?x&y", "a?x&y")
	f.Add(`<a href='//h/t/a'>`, int64(9), "//h/t/a", `a"'b c`)
	f.Fuzz(func(t *testing.T, doc string, offset int64, link, rel string) {
		if rel == "" {
			return
		}
		out, n := Fix([]byte(doc), []Finding{{Problem: Absolute, Link: link, Relative: rel, Offset: offset}})
		if n == 0 {
			if string(out) != doc {
				t.Fatalf("Fix changed %q to %q with no edit", doc, out)
			}
			return
		}
		if !strings.HasPrefix(string(out), doc[:offset]) {
			t.Fatalf("Fix(%q) changed bytes before the value: %q", doc, out)
		}
		quote, start := doc[offset-1], int(offset)
		if quote != '"' && quote != '\'' && out[start] == '"' {
			quote, start = '"', start+1 // an unquoted value that needed quotes
		}
		end := valueEnd(out, start, quote)
		if end < 0 || unescape(out[start:end]) != rel {
			t.Fatalf("Fix(%q) wrote a value that does not decode to %q: %q", doc, rel, out)
		}
	})
}

// FuzzKindOf: the extension decides for MHTML and WARC, and whatever the
// head holds, a file named .html with a NUL byte (and no UTF-16 BOM) is
// never taken for HTML.
func FuzzKindOf(f *testing.F) {
	f.Add("a.html", []byte("<!doctype html>"))
	f.Add("x", []byte("\xff\xfe<\x00"))
	f.Add("x.htm", []byte("\x00"))
	f.Fuzz(func(t *testing.T, name string, head []byte) {
		k := KindOf(name, head)
		if k < Other || k > WARC {
			t.Fatalf("KindOf(%q, %q) = %d", name, head, k)
		}
		if strings.HasSuffix(strings.ToLower(name), ".mht") && !strings.ContainsAny(name, "/\\") && KindOf(name, head) != MHTML {
			t.Fatalf("KindOf(%q) = %v, want mhtml", name, k)
		}
	})
}
