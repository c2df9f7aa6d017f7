package base

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/relurl/relurl/resolve"
)

// TestLocalTarget: a saved page's path-relative links to files beside it
// (existing, or anywhere in its NAME_files folder) stay local, at the
// page's own URL; everything else is the live site's.
func TestLocalTarget(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"page_files/style.css", "other.html", "sub/x.png"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := Context{Spec: resolve.WHATWG, Retrieval: "http://live.test/lib/page.html",
		Local: &Local{URL: "http://mirror.test/page.html", Path: filepath.Join(dir, "page.html")}}
	for _, tc := range []struct{ ref, want string }{
		{"./page_files/style.css", "http://mirror.test/page_files/style.css"},
		{" page_files/style.css?v=1#x ", "http://mirror.test/page_files/style.css?v=1#x"},
		{"page_files/gone.png", "http://mirror.test/page_files/gone.png"}, // in the page's folder: local, missing
		{"other.html", "http://mirror.test/other.html"},                   // beside it, and maybe live too: local
		{"sub/x.png", "http://mirror.test/sub/x.png"},
		{"sub/", "http://mirror.test/sub/"}, // a directory that exists
		{"glob.html", ""},                   // not saved: the live site's
		{"other_files/a.css", ""},           // another page's folder, missing
		{"../up.html", ""},
		{"/index.html", ""},     // root-relative: the live site's
		{"//cdn.test/x.js", ""}, // scheme-relative
		{"http://live.test/lib/other.html", ""},
		{"#top", ""}, // the page itself: its live URL
		{"", ""},
		{"data:,x", ""},
	} {
		got, ok := c.LocalTarget(tc.ref)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("LocalTarget(%q) = %q, %v; want %q", tc.ref, got, ok, tc.want)
		}
	}
	// No Local: nothing is local.
	if u, ok := (&Context{Spec: resolve.WHATWG, Retrieval: "http://live.test/"}).LocalTarget("page_files/style.css"); ok {
		t.Errorf("without Local: %q", u)
	}
}
