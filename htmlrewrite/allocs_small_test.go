package htmlrewrite

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/relurl/relurl/link"
)

// smallDoc is a page of the usual parts: a head with a stylesheet link
// and a <style>, text, a link with a character reference, a srcset, SVG,
// a script.
const smallDoc = `<!DOCTYPE html><html><head><meta charset=utf-8><title>t &amp; u</title>` +
	`<link rel=stylesheet href=s.css><style>p{background:url(b.png)}</style></head>` +
	`<body><div class="a b"><p>text</p><a href="p.html?a=1&amp;b=2">x</a>` +
	`<img src="i.png" srcset="a.png 1x, b.png 2x"><svg><path d="M0 0"/></svg>` +
	`<script>if (a < b) x--;</script></div></body></html>`

// TestAllocsPerSmallDocument: what a document costs besides its tokens
// and links is a few small allocations, not a scanner, a tokenizer, a
// tree stack, scratch slices and a read buffer made anew for each (issue
// 20: a tree of small pages allocated 10-12 KB per page, and as the
// collector runs once per 8 MiB nearly every byte was a freshly faulted
// page). Rewrite into a Rewinder and Links of a seekable page are the
// single passes relurl's commands run; the scanners are kept
// (scanner.free) so that a page costs a handful of allocations, not dozens.
func TestAllocsPerSmallDocument(t *testing.T) {
	opts := testOptions()
	for _, c := range []struct {
		name   string
		allocs float64
		bytes  uint64
		f      func()
	}{
		{"rewrite", 20, 3000, func() {
			if _, err := Rewrite(discard{}, strings.NewReader(smallDoc), opts); err != nil {
				t.Fatal(err)
			}
		}},
		{"links", 22, 3500, func() {
			if _, err := Links(strings.NewReader(smallDoc), opts, func(link.Link) error { return nil }); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		c.f()
		allocs := testing.AllocsPerRun(50, c.f)
		var before, after runtime.MemStats
		const docs = 100
		runtime.ReadMemStats(&before)
		for range docs {
			c.f()
		}
		runtime.ReadMemStats(&after)
		bytes := (after.TotalAlloc - before.TotalAlloc) / docs
		t.Logf("%s: %v allocations, %d bytes per document", c.name, allocs, bytes)
		if allocs > c.allocs {
			t.Errorf("%s: %v allocations per small document, want <= %v", c.name, allocs, c.allocs)
		}
		if bytes > c.bytes {
			t.Errorf("%s: %d bytes allocated per small document, want <= %d", c.name, bytes, c.bytes)
		}
	}
}

// TestScannerKeptBounded: a scanner kept between documents (free) keeps
// none of a large document's memory beyond its bounds, and nothing of
// the document itself, and the read buffers kept are bounded.
func TestScannerKeptBounded(t *testing.T) {
	opts := testOptions()
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><p`)
	for i := range 3000 {
		b.WriteString(` a` + strings.Repeat("x", i%7) + `="v"`)
	}
	b.WriteString(` style="` + strings.Repeat("background:url(a.png);", 40000) + `">`)
	b.WriteString(`<img srcset="` + strings.Repeat("a.png 1x, ", MaxRewrites) + `">`)
	b.WriteString(`<script>` + strings.Repeat("x = 1; // a long script\n", 100000) + `</script>`)
	big := b.String()
	for range 2 * spareBuffers {
		if _, err := Rewrite(discard{}, strings.NewReader(big), opts); err != nil {
			t.Fatal(err)
		}
		if _, err := Links(strings.NewReader(big), opts, func(link.Link) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	var kept []*scanner
	for {
		s, ok := scanners.Get()
		if !ok {
			break
		}
		kept = append(kept, s)
	}
	if len(kept) == 0 {
		t.Fatal("no scanner kept")
	}
	for _, s := range kept {
		for name, c := range map[string]int{"subs": cap(s.subs), "offs": cap(s.offs), "edits": cap(s.edits),
			"scratch": cap(s.scratch), "linkBuf": cap(s.linkBuf), "urls": cap(s.urls), "rel": cap(s.rel),
			"templates": cap(s.templates), "scriptMap": cap(s.scriptMap), "tag attrs": cap(s.t.attrs)} {
			if c > maxKept {
				t.Errorf("kept scanner's %s has capacity %d, want <= %d", name, c, maxKept)
			}
		}
		if s.opts.Context.Retrieval != "" || s.fn != nil || s.w != nil || s.hold != nil || s.res != nil || s.stats.Links != 0 {
			t.Errorf("kept scanner holds its document's state: %+v", s.stats)
		}
		if s.z != nil && s.z.Buffered() != nil {
			t.Error("kept scanner's tokenizer holds a read buffer")
		}
	}
	for _, s := range kept {
		scanners.Put(s)
	}
	bufs := takeReadBuffers()
	for _, b := range bufs {
		if cap(b) > maxReadBuffer || cap(b) < readSize {
			t.Errorf("read buffer of capacity %d kept, want %d to %d", cap(b), readSize, maxReadBuffer)
		}
	}
	for _, b := range bufs {
		readBuffers.Put(b)
	}
}

// TestKeptScannersConcurrent: documents read at the same time (relurl
// -j N) each get a scanner of their own from the kept ones, and a link
// handed on keeps its values while its scanner serves other documents:
// outputs and links equal those of documents read one at a time.
func TestKeptScannersConcurrent(t *testing.T) {
	opts := testOptions()
	doc := func(i int) string {
		return strings.ReplaceAll(smallDoc, "p.html", fmt.Sprintf("p%d.html", i)) +
			strings.Repeat(fmt.Sprintf(`<a href="d%d/x.html" rel="next n%d">y</a>`, i, i), i%50)
	}
	type result struct {
		out   string
		links string
	}
	read := func(i int) result {
		var out rewindBuffer
		if _, err := Rewrite(&out, strings.NewReader(doc(i)), opts); err != nil {
			t.Error(err)
		}
		var links []link.Link
		if _, err := Links(strings.NewReader(doc(i)), opts, func(l link.Link) error {
			links = append(links, l)
			return nil
		}); err != nil {
			t.Error(err)
		}
		// Other documents read meanwhile must not change the links.
		for j := range 3 {
			Links(strings.NewReader(doc(i+j+1)), opts, func(link.Link) error { return nil })
		}
		return result{out.String(), fmt.Sprintf("%+v", links)}
	}
	const n = 64
	want := make([]result, n)
	for i := range n {
		want[i] = read(i)
	}
	got := make([]result, n)
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Go(func() {
			for i := w; i < n; i += 4 {
				got[i] = read(i)
			}
		})
	}
	wg.Wait()
	for i := range n {
		if got[i] != want[i] {
			t.Errorf("document %d read beside others differs from read alone", i)
		}
	}
}

// TestFirstReadTakenOver: the single passes' first read (the document's
// first 32 KiB, read to decide its encoding) is where the tokenizer
// starts, not copied into a second read buffer: a page takes one read
// buffer, so with one kept a page allocates none (two buffers would copy
// up to 32 KiB of every page from one to the other).
func TestFirstReadTakenOver(t *testing.T) {
	opts := testOptions()
	doc := smallDoc + strings.Repeat(`<p class=x>some text, no link</p>`+"\n", 2000) // 70 KB
	for _, c := range []struct {
		name string
		f    func() error
	}{
		{"rewrite", func() error {
			_, err := Rewrite(discard{}, strings.NewReader(doc), opts)
			return err
		}},
		{"links", func() error {
			n := 0
			_, err := Links(strings.NewReader(doc), opts, func(link.Link) error { n++; return nil })
			if err == nil && n != 6 {
				t.Errorf("links: %d links, want 6", n)
			}
			return err
		}},
	} {
		if err := c.f(); err != nil {
			t.Fatal(err)
		}
		kept := takeReadBuffers()
		readBuffers.Put(kept[0])
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if err := c.f(); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		for _, b := range kept[1:] {
			readBuffers.Put(b)
		}
		if n := after.TotalAlloc - before.TotalAlloc; n >= readSize {
			t.Errorf("%s: %d bytes allocated with one read buffer kept, want < %d (one buffer a page)", c.name, n, readSize)
		}
	}
}

// takeReadBuffers takes every read buffer kept between documents out of
// readBuffers; the caller puts back what it wants kept.
func takeReadBuffers() [][]byte {
	var bufs [][]byte
	for {
		b, ok := readBuffers.Get()
		if !ok {
			return bufs
		}
		bufs = append(bufs, b)
	}
}
