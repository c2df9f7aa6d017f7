package resolve

import (
	"strings"
	"testing"
)

// TestHasDotSegment: the test that lets a path skip §5.2.4's loop finds
// exactly the paths with a "." or ".." segment (RFC 3986 §5.2.4 steps
// 2A-2D act on nothing else).
func TestHasDotSegment(t *testing.T) {
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"", false},
		{"/", false},
		{"/a/b.html", false},
		{"a.b.c", false},
		{"/.well-known/x", false},
		{"/a/..b/c", false},
		{"/a/b../c", false},
		{"/a/...", false},
		{"...", false},
		{".hidden", false},
		{"x./y", false},
		{".", true},
		{"..", true},
		{"./a", true},
		{"../a", true},
		{"/.", true},
		{"/..", true},
		{"/a/./b", true},
		{"/a/../b", true},
		{"/a/b/.", true},
		{"/a/b/..", true},
		{"a.b/./c", true},
		{"//.", true},
	} {
		if got := hasDotSegment(tc.path); got != tc.want {
			t.Errorf("hasDotSegment(%q) = %v, want %v", tc.path, got, tc.want)
		}
		// The oracle: a path is its own §5.2.4 result when it has none.
		p := []byte(tc.path)
		if !tc.want && string(p[:removeDotSegments(p)]) != tc.path {
			t.Errorf("removeDotSegments(%q) changed a path without dot segments", tc.path)
		}
	}
}

// TestRFC3986Allocs: a resolution allocates its result string and nothing
// else, and a reference that is already its own result (absolute, no dot
// segment) allocates nothing.
func TestRFC3986Allocs(t *testing.T) {
	r, err := NewResolver(RFC3986, base3986, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ref    string
		allocs float64
	}{
		{"https://www.example.com/static/app.js?v=3#x", 0},
		{"g:h", 0},
		{"http://a/b/./c", 1},
		{"//cdn.example/lib.js", 1},
		{"/images/logo.png", 1},
		{"g/h.html", 1},
		{"../g", 1},
		{"?y", 1},
		{"#s", 1},
		{"", 0}, // the base itself, without its fragment: a substring
		{"/" + strings.Repeat("x/", 200) + "../y", 1}, // longer than the stack buffer: one heap buffer, then the string
	} {
		got := testing.AllocsPerRun(100, func() { _, _ = r.Reference(tc.ref) })
		if tc.ref == "/"+strings.Repeat("x/", 200)+"../y" {
			// compose3986's heap buffer for a long result is the one
			// documented exception.
			if got > 2 {
				t.Errorf("Reference(long) allocates %v times, want <= 2", got)
			}
			continue
		}
		if got != tc.allocs {
			t.Errorf("Reference(%q) allocates %v times, want %v", tc.ref, got, tc.allocs)
		}
	}
}

// FuzzRFC3986Prefix: the prefix + reference shortcut of reference3986
// gives what the step-by-step composition (§5.2.2-§5.3) gives, in strict
// and backward-compatible mode.
func FuzzRFC3986Prefix(f *testing.F) {
	for _, b := range []string{base3986, "http://a", "http://a/b/./c/d", "http://a/b/../", "a:/b", "file:///x/y", "http://a?q#f", "http://a/b.c/d.e"} {
		for _, r := range []string{"", "g", "./g", ".g", "g.", "/g.h", "//g/./h", "//g/h", "?y", "#s", "http:g", "http://x/y.z", "a:b", "g/../h", "..g/h", "?y#s"} {
			f.Add(b, r, false)
		}
	}
	f.Add("http://a/b", "http:g/h", true)
	f.Fuzz(func(t *testing.T, base, ref string, backward bool) {
		r, err := NewResolver(RFC3986, base, Options{BackwardCompatible: backward})
		if err != nil {
			return
		}
		got, err := r.Reference(ref)
		if err != nil {
			return
		}
		R := splitURIRef(ref)
		if R.hasScheme && backward && base != "" && sameScheme(R.scheme, r.generic.scheme) {
			R.hasScheme, R.scheme = false, ""
		}
		if want := r.compose3986(&R); got != want {
			t.Fatalf("Reference(%q) against %q (backward %v) = %q, step by step %q", ref, base, backward, got, want)
		}
	})
}
