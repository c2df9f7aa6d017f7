package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzFieldEncoding: a TSV value unescapes to what was escaped, has no
// tab or line end left, and appendJSONString writes what encoding/json
// writes with SetEscapeHTML(false), for any string.
func FuzzFieldEncoding(f *testing.F) {
	for _, s := range []string{"", "a\tb", "c\\d\ne", "\r\n\\t", "\xff\xfe", "\u2028<>&\"", "\x00\x1f\x7f", "ü€𝄞"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var tsv bytes.Buffer
		escapeTSV(&tsv, s)
		if bytes.ContainsAny(tsv.Bytes(), "\t\n\r") {
			t.Fatalf("escaped %q has a tab or line end: %q", s, tsv.String())
		}
		if got := unescapeTSV(tsv.String()); got != s {
			t.Fatalf("unescape(escape(%q)) = %q", s, got)
		}
		var js, want bytes.Buffer
		appendJSONString(&js, s)
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.Encode(s)
		if js.String()+"\n" != want.String() {
			t.Fatalf("appendJSONString(%q) = %s, encoding/json: %s", s, js.String(), want.String())
		}
	})
}
