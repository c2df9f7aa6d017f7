package resolve

import (
	"testing"
)

// TestScope: a tree's root URL is normalized once, by the resolver, so
// that links resolved by it compare as strings; SameOrigin splits URLs
// with the draft's §2.4 parse (computed with resolve, not
// net/url).
func TestScope(t *testing.T) {
	s := NewScope(WHATWG, Options{}, "HTTPS://Example.ORG/site/")
	if s.Root() != "https://example.org/site/" {
		t.Fatalf("root %q", s.Root())
	}
	for u, want := range map[string]bool{
		"https://example.org/site/a.html": true,
		"https://example.org/site/":       true,
		"https://example.org/other/":      false,
		"https://example.org/site2/a":     false,
		"":                                false,
	} {
		if got := s.Contains(u); got != want {
			t.Errorf("Contains(%q) = %v, want %v", u, got, want)
		}
	}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"https://example.org/a", "HTTPS://EXAMPLE.org/b?q", true},
		{"https://user@example.org:8443/a", "https://example.org:8443/", true},
		{"https://example.org/a", "https://example.org:8443/", false},
		{"https://example.org/a", "http://example.org/a", false},
		{"mailto:x@example.org", "mailto:x@example.org", false},
		{"file:///a", "file:///b", false},
	} {
		if got := SameOrigin(c.a, c.b); got != c.want {
			t.Errorf("SameOrigin(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
