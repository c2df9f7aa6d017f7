package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLinksAllocsPerLink: relurl links allocates, per link written as a
// JSON record, what the link itself is (htmlrewrite's one string a link)
// and no more: the record is built in the document's writer, not
// allocated per link (one record a link was 38 % of what relurl
// links allocated on corpus B).
func TestLinksAllocsPerLink(t *testing.T) {
	dir := t.TempDir()
	page := func(name string, n int) string {
		var b strings.Builder
		b.WriteString("<!DOCTYPE html><title>t</title>\n")
		for i := range n {
			fmt.Fprintf(&b, "<p><a href=\"p%d.html\">x</a></p>\n", i)
		}
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const small, big = 100, 2100
	allocs := func(path string) float64 {
		return testing.AllocsPerRun(5, func() {
			if code := run([]string{"links", "-j", "1", "--base", "https://example.org/", path}, stdio{out: io.Discard, err: io.Discard}); code != 0 {
				t.Fatalf("exit %d", code)
			}
		})
	}
	// A name that is not UTF-8 is written percent-encoded (tree.JSONName):
	// encoded once a document, not once a link.
	for _, name := range []string{"page", "caf\xe9"} {
		a, b := allocs(page(name+"-small.html", small)), allocs(page(name+"-big.html", big))
		per := (b - a) / (big - small)
		t.Logf("%s: %.0f allocations for %d links, %.0f for %d: %.2f per link", name, a, small, b, big, per)
		if per > 0.1 {
			t.Errorf("%q: %.2f allocations per link written, want at most 0.1 (htmlrewrite carves the links' strings from shared blocks)", name, per)
		}
	}
}
