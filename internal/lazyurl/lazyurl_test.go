package lazyurl

import (
	"errors"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/lazyref"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// TestResolve: a link left for later gets the URL and error resolving
// gives; any other link is left as it is.
func TestResolve(t *testing.T) {
	res, err := resolve.NewResolver(resolve.WHATWG, "https://ex.example/a/b", resolve.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var refs lazyref.Refs
	for _, ref := range []string{"c.html", "../d?q#f", "https://x.example/", "http://[bad", "", "//h/p"} {
		wantURL, wantErr := res.Reference(ref)
		raw := " " + ref + "\n"
		l := link.Link{Raw: raw}
		Defer(&l, refs.New(res, 1, len(ref)))
		if !Deferred(&l) || l.Err != nil {
			t.Fatalf("%q: not deferred", ref)
		}
		Resolve(&l)
		if l.URL != wantURL || fmt.Sprint(l.Err) != fmt.Sprint(wantErr) || Deferred(&l) {
			t.Errorf("%q: %q, %v; want %q, %v", ref, l.URL, l.Err, wantURL, wantErr)
		}
	}
	other := errors.New("other")
	l := link.Link{URL: "u", Err: other}
	Resolve(&l)
	if l.URL != "u" || l.Err != other {
		t.Errorf("a link not deferred changed: %+v", l)
	}
}

// TestRefsChunks: a Ref is an allocation per 64 links, not one per link.
func TestRefsChunks(t *testing.T) {
	res, _ := resolve.NewResolver(resolve.WHATWG, "https://ex.example/", resolve.Options{})
	var refs lazyref.Refs
	allocs := testing.AllocsPerRun(10, func() {
		for range 640 {
			refs.New(res, 0, 1)
		}
	})
	if allocs > 10 {
		t.Fatalf("%.0f allocations for 640 Refs, want at most 10", allocs)
	}
}

// TestRefsHoldNoStrings: the Refs of a chunk keep nothing of their links
// alive: links of 1 MiB each, gone, leave the heap small while their
// Refs are still in use (a Ref that kept the reference kept up to 64
// links' strings: 113 MiB peak for relurl links -j 1 of 150 links of
// 1 MiB).
func TestRefsHoldNoStrings(t *testing.T) {
	res, _ := resolve.NewResolver(resolve.WHATWG, "https://ex.example/", resolve.Options{})
	var refs lazyref.Refs
	kept := make([]*lazyref.Ref, 0, 60)
	for i := range 60 {
		raw := strings.Repeat("a", 1<<20) + fmt.Sprint(i)
		l := link.Link{Raw: raw}
		r := refs.New(res, 0, len(raw))
		Defer(&l, r)
		kept = append(kept, r)
	}
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	if m.HeapAlloc > 16<<20 {
		t.Fatalf("heap %d MiB with 60 Refs of links of 1 MiB gone", m.HeapAlloc>>20)
	}
	runtime.KeepAlive(kept)
}

// TestOffset: the field lazyurl reaches is link.Link's unexported Ref.
func TestOffset(t *testing.T) {
	f, ok := reflect.TypeFor[link.Link]().FieldByName("lazy")
	if !ok || f.Offset != lazyref.Offset || f.Type != reflect.TypeFor[*lazyref.Ref]() {
		t.Fatalf("link.Link's lazy field %+v, lazyref.Offset %d", f, lazyref.Offset)
	}
}
