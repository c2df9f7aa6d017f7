package materialize

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCaptureKinds: a capture's reader is base.FormatOfContent's, as an MHTML
// part's and a WARC payload's: an XHTML page with XHTML's root is read as
// XML (a link in its <textarea> is markup there, and is pointed at the
// tree; read as HTML it was text and stayed on the web) and is still a
// page; a payload declared image/svg+xml that is not XML is written as
// captured with a warning naming it.
func TestCaptureKinds(t *testing.T) {
	src := t.TempDir()
	xhtml := `<?xml version="1.0"?>` + "\n" + `<html xmlns="http://www.w3.org/1999/xhtml"><head><title>X</title></head><body>` +
		`<textarea><a href="http://k.test/t.html"/></textarea><a href="http://k.test/b.html"/></body></html>`
	png := "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
	var warc []byte
	for i, r := range []fixtureRecord{
		{uri: "http://k.test/page.xhtml", headers: []string{"Content-Type: application/xhtml+xml"}, body: xhtml},
		{uri: "http://k.test/t.html", headers: []string{htmlType}, body: "<p>t"},
		{uri: "http://k.test/b.html", headers: []string{htmlType}, body: "<p>b"},
		{uri: "http://k.test/z.svg", headers: []string{"Content-Type: image/svg+xml"}, body: png},
	} {
		warc = append(warc, r.bytes(i)...)
	}
	in := filepath.Join(src, "k.warc")
	must(t, os.WriteFile(in, warc, 0o644))
	out := filepath.Join(src, "out")
	var warnings []string
	_, err := Run([]string{in}, Options{Dir: out, Warn: func(w Warning) {
		if w.Problem {
			t.Errorf("problem: %v", w)
		}
		warnings = append(warnings, w.String())
	}})
	must(t, err)
	urls := readURLs(t, out)
	page := urls["http://k.test/page.xhtml"]
	if page.Kind != "page" || !page.Rewritten {
		t.Errorf("page.xhtml: %+v, want a rewritten page", page)
	}
	got := readFile(t, out, page.File)
	if strings.Contains(got, "http://k.test/") {
		t.Errorf("page.xhtml still links to the web (read as HTML?):\n%s", got)
	}
	if !strings.Contains(got, `"/></textarea>`) {
		t.Errorf("page.xhtml: the empty-element tag in <textarea> is gone:\n%s", got)
	}
	if z := readFile(t, out, urls["http://k.test/z.svg"].File); z != png {
		t.Errorf("z.svg not written as captured: %q", z)
	}
	want := "http://k.test/z.svg: declared image/svg+xml but its bytes are binary data, not XML: not read, written as captured"
	if !slices.ContainsFunc(warnings, func(w string) bool { return strings.HasSuffix(w, want) }) {
		t.Errorf("warnings %q, want one ending %q", warnings, want)
	}
}
