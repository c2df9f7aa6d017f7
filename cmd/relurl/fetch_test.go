package main

import (
	"testing"

	"github.com/relurl/relurl/base"
)

// TestPageKind pins fetch's page rule: base's kind of typed content
// (base.FormatOfContent), else of the sniffed bytes; XHTML served as such
// is a page, read as XML when its root is XHTML's html (docs/formats.md §3.2,
// as a .xhtml file, an MHTML part or a WARC payload is read).
func TestPageKind(t *testing.T) {
	const xhtml = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>`
	for _, tc := range []struct {
		ct, body string
		want     base.Format
		err      bool
	}{
		{"text/html", "", base.HTML, false},
		{"TEXT/HTML; charset=windows-1252", "", base.HTML, false},
		{"text/html;;", "", base.HTML, false},
		{"application/xhtml+xml", "", base.HTML, false},
		{"application/xhtml+xml", "<!DOCTYPE html><p>", base.HTML, false},
		{"application/xhtml+xml; charset=utf-8", xhtml, base.XML, false},
		{"application/xhtml+xml", "\x1f\x8b\x08\x00\x00\x00", base.Other, true},
		{"text/html", xhtml, base.HTML, false}, // served as HTML: HTML (XHTML 1.0 Appendix C)
		{"image/svg+xml", `<svg xmlns="http://www.w3.org/2000/svg"/>`, base.Other, false},
		{"application/xml", xhtml, base.Other, false},
		{"text/css", "<!DOCTYPE html>", base.Other, false},
		{"image/png", "<html>", base.Other, false},
		{"application/json", "<html>", base.Other, false},
		{"text/html garbage", "", base.Other, false},
		{"", "<!DOCTYPE html><p>", base.HTML, false},
		{"; charset=utf-8", "  <html>", base.HTML, false},
		{"", "plain text, <a href=x>", base.Other, false},
		{"", "\x89PNG\r\n\x1a\n", base.Other, false},
	} {
		got, err := pageKind(tc.ct, []byte(tc.body))
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("pageKind(%q, %q) = %v, %v; want %v, error %v", tc.ct, tc.body, got, err, tc.want, tc.err)
		}
	}
}
