package base

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"

	"github.com/relurl/relurl/resolve"
)

// TestFallbackParsesOnce: deciding the fallback base of a document again
// (as htmlrewrite does: before the pass, then for the pass's document
// URL) does not parse its retrieval URL again, and allocates nothing.
// Before, each call made a Resolver for the check and dropped it.
func TestFallbackParsesOnce(t *testing.T) {
	parses := 0
	newResolver = func(spec resolve.Spec, base string, opts resolve.Options) (*resolve.Resolver, error) {
		parses++
		return resolve.NewResolver(spec, base, opts)
	}
	defer func() { newResolver = resolve.NewResolver }()
	for _, spec := range []resolve.Spec{resolve.WHATWG, resolve.RFC3986, resolve.RFC2396, resolve.RFC1808} {
		c := Context{Spec: spec, Retrieval: "https://e.example/mirror/dir/" + spec.String() + ".html"}
		parses = 0
		want := c.Fallback()
		if n := testing.AllocsPerRun(100, func() {
			if got := c.Fallback(); got.URL != want.URL || got.Source != Retrieval {
				t.Fatalf("%v: Fallback = %+v", spec, got)
			}
		}); n != 0 {
			t.Errorf("%v: Fallback allocates %v times a call, want 0", spec, n)
		}
		if parses != 1 {
			t.Errorf("%v: the retrieval URL parsed %d times for 102 decisions, want 1", spec, parses)
		}
	}
}

// TestUsableBaseRemembered: what usableBase remembers is keyed by all
// that decides NewResolver's answer: a URL usable in one mode and not in
// another is refused in the other after being accepted in the first;
// a refused URL is refused every time, with NewResolver's error; a URL
// with a query encoding is checked with it.
func TestUsableBaseRemembered(t *testing.T) {
	const u = "http://exa mple.com/" // RFC 3986 only asks for a scheme; WHATWG refuses the host
	for range 2 {
		if err := usableBase(resolve.RFC3986, u, resolve.Options{}); err != nil {
			t.Fatalf("RFC3986: %v", err)
		}
		_, want := resolve.NewResolver(resolve.WHATWG, u, resolve.Options{})
		err := usableBase(resolve.WHATWG, u, resolve.Options{})
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Fatalf("WHATWG: %v, want %v", err, want)
		}
	}
	c := Context{Spec: resolve.WHATWG, Retrieval: u}
	for range 2 {
		fb := c.Fallback()
		if fb.Source != Default || len(fb.Warnings) != 1 || !strings.Contains(fb.Warnings[0], "retrieval URL") {
			t.Fatalf("Fallback = %+v, want Default with the retrieval URL's warning", fb)
		}
	}
	enc := resolve.Options{QueryEncoding: charmap.Windows1252}
	if err := usableBase(resolve.WHATWG, "https://e.example/?q=\u00e9", enc); err != nil {
		t.Fatal(err)
	}
	if err := usableBase(resolve.WHATWG, "x", enc); err == nil {
		t.Fatal(`usableBase(WHATWG, "x", windows-1252) = nil, want an error`)
	}
}
