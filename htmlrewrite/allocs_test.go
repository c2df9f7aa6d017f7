package htmlrewrite

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/relurl/relurl/link"
)

// TestAllocsPerDocument: the allocations of a document do not grow with
// its length (O(1) per document apart from the links' own
// strings). Without links a page of 10,000 blocks allocates what a page
// of 100 does; each link adds what is its own: in Links a share of the
// blocks its strings and rel slice are carved from (a tenth of an
// allocation or less); in Rewrite nothing (the new URL is made in a
// buffer of the scanner's, scanner.reference).
func TestAllocsPerDocument(t *testing.T) {
	page := func(n int, unit string) string {
		return "<!DOCTYPE html><html><head><meta charset=utf-8><title>t &amp; u</title></head><body>\n" +
			strings.Repeat(unit, n) + "</body></html>\n"
	}
	opts := testOptions()
	rewrite := func(doc string) float64 {
		return testing.AllocsPerRun(3, func() {
			if _, err := Rewrite(io.Discard, strings.NewReader(doc), opts); err != nil {
				t.Fatal(err)
			}
		})
	}
	links := func(doc string) float64 {
		return testing.AllocsPerRun(3, func() {
			if _, err := Links(strings.NewReader(doc), opts, func(link.Link) error { return nil }); err != nil {
				t.Fatal(err)
			}
		})
	}
	const small, big = 100, 10000
	// No links: text, comments, scripts, styles, classes and ids, a
	// value with a character reference, SVG, a template.
	plain := `<div class="a b" id=x data-x='1'><p style="color:red" title="a &amp; b">text &lt; more</p>` +
		`<!-- c --><script>if (a < b) x--;</script><style>p{color:red}</style>` +
		`<svg viewBox="0 0 1 1"><path d="M0 0"/></svg><template><span>t</span></template><br></div>` + "\n"
	for name, f := range map[string]func(string) float64{"rewrite": rewrite, "links": links} {
		a, b := f(page(small, plain)), f(page(big, plain))
		if b != a {
			t.Errorf("%s: %v allocations for %d blocks without links, %v for %d", name, a, small, b, big)
		}
	}
	// Two links per block: each costs Rewrite nothing, and Links a
	// share of a block (emitRef, blocks), the rel tokens being constants
	// when known (relNames).
	for _, c := range []struct {
		name    string
		f       func(string) float64
		block   string
		perLink float64
	}{
		{"rewrite", rewrite, `<p><a href="p.html">x</a><img src="i.png" alt=""></p>` + "\n", 0.1},
		{"rewrite", rewrite, `<img srcset="a.png 1x, b.png 2x"><p style="background:url(c.png)">` + "\n", 0.1},
		{"links", links, `<p><a href="p.html">x</a><img src="i.png" alt=""></p>` + "\n", 0.1},
		{"links", links, `<p><a href="https://e.example/p">x</a><img src="https://e.example/i.png" alt=""></p>` + "\n", 0.1},
		{"links", links, `<link rel="stylesheet" href="s.css"><a rel="nofollow noopener" href="p.html">x</a>` + "\n", 0.2},
	} {
		a, b := c.f(page(small, c.block)), c.f(page(big, c.block))
		if per := (b - a) / (2 * (big - small)); per > c.perLink {
			t.Errorf("%s %q: %.2f allocations per link, want <= %v (%v for %d blocks, %v for %d)", c.name, c.block, per, c.perLink, a, small, b, big)
		}
	}
}

// TestReadBufferReused: the tokenizer's 32 KiB read buffer is reused
// from document to document (it was a sixth of what relurl
// rewrite -o allocated on a tree of small pages), and nothing a pass
// returns refers to it: the links of one document keep their values
// while later documents are read into the same buffer.
func TestReadBufferReused(t *testing.T) {
	opts := testOptions()
	page := func(i int) string {
		return fmt.Sprintf(`<!DOCTYPE html><title>p%d</title><a href="page%d.html" rel="next%d">x</a>`+
			`<img src="i%d.png" srcset="s%d.png 2x"><style>p{background:url(b%d.png)}</style>`, i, i, i, i, i, i)
	}
	var kept []link.Link
	if _, err := Links(strings.NewReader(page(0)), opts, func(l link.Link) error {
		kept = append(kept, l)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("%+v", kept)
	const docs = 200
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := 1; i <= docs; i++ {
		if _, err := Rewrite(io.Discard, strings.NewReader(page(i)), opts); err != nil {
			t.Fatal(err)
		}
		if _, err := Links(strings.NewReader(page(i)), opts, func(link.Link) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if got := fmt.Sprintf("%+v", kept); got != want {
		t.Errorf("links of the first document changed while others were read:\n got %s\nwant %s", got, want)
	}
	per := (after.TotalAlloc - before.TotalAlloc) / (2 * docs)
	t.Logf("%d bytes allocated per document", per)
	if per > 24<<10 {
		t.Errorf("%d bytes allocated per small document, want < 24 KiB (the 32 KiB read buffer reused)", per)
	}
}

// TestFileBuffersReused: Links and Rewrite of a file (the look-ahead
// for <base> reads it through a reused buffer too: io.Copy from an
// *os.File allocated 32 KiB per document) allocate far less than a read
// buffer per document.
func TestFileBuffersReused(t *testing.T) {
	opts := testOptions()
	path := filepath.Join(t.TempDir(), "p.html")
	if err := os.WriteFile(path, []byte(`<!DOCTYPE html><title>p</title><a href="page.html">x</a><img src="i.png">`), 0o644); err != nil {
		t.Fatal(err)
	}
	pass := func() {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := Links(f, opts, func(link.Link) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	pass()
	const docs = 200
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range docs {
		pass()
	}
	runtime.ReadMemStats(&after)
	per := (after.TotalAlloc - before.TotalAlloc) / docs
	t.Logf("%d bytes allocated per file", per)
	if per > 24<<10 {
		t.Errorf("%d bytes allocated per small file read, want < 24 KiB (the 32 KiB buffers reused)", per)
	}
}
