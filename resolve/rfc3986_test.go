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
// and backward-compatible mode; AppendReference appends the same.
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
		if b, err := r.AppendReference([]byte(base), ref); err != nil || string(b) != base+got {
			t.Fatalf("AppendReference(%q, %q) against %q (backward %v) = %q, %v; want %q", base, ref, base, backward, b, err, base+got)
		}
	})
}

// TestAppendReference: AppendReference appends what Reference returns in
// every mode, leaves dst as it was on error (with Reference's error), and
// in the RFC 3986 mode makes no allocation when dst has room, whatever
// path the reference takes (prefix + reference, or composed step by
// step), nor in the WHATWG mode for relative paths and serialized
// absolute URLs.
func TestAppendReference(t *testing.T) {
	refs := []string{"", "g", "./g", "../g", "/g?y#s", "//h/p", "?y", "#s", "https://x.example/a/../b", "g:h", "a b", "%zz", "http://[::1"}
	for _, spec := range []Spec{RFC1808, RFC2396, RFC3986, WHATWG} {
		for _, base := range []string{base3986, "", "mailto:a@b"} {
			r, err := NewResolver(spec, base, Options{})
			if err != nil {
				continue
			}
			for _, ref := range refs {
				want, wantErr := r.Reference(ref)
				dst := []byte("prefix ")
				got, err := r.AppendReference(dst, ref)
				switch {
				case wantErr != nil:
					if err == nil || err.Error() != wantErr.Error() || string(got) != "prefix " {
						t.Errorf("%v: AppendReference(%q) against %q = %q, %v; want dst unchanged, %v", spec, ref, base, got, err, wantErr)
					}
				case err != nil || string(got) != "prefix "+want:
					t.Errorf("%v: AppendReference(%q) against %q = %q, %v; want %q", spec, ref, base, got, err, "prefix "+want)
				}
			}
		}
	}
	r, err := NewResolver(RFC3986, base3986, Options{})
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 0, 1024)
	for _, ref := range []string{"https://www.example.com/x", "g/h.html", "../g", "?y", "#s", "//cdn.example/lib.js", "/a/./b"} {
		if n := testing.AllocsPerRun(100, func() { buf, _ = r.AppendReference(buf[:0], ref) }); n != 0 {
			t.Errorf("AppendReference(%q) allocates %v times, want 0", ref, n)
		}
	}
	// WHATWG: relative paths against an http(s) base are written in
	// place too; an absolute URL already serialized is Reference's ref.
	w, err := NewResolver(WHATWG, "https://example.com/dir/page.html?x=1", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ref := range []string{"https://www.example.com/a/b.js?v=3", "g/h.html", "../css/site.css", "/images/logo.png", "./a/../b?q#f",
		"", "#top", "?q=1#f", "//cdn.example/lib.js", "//cdn.example", "https://www.example.com", "http://x.example:8080?q"} {
		want, _ := w.Reference(ref)
		if got, err := w.AppendReference(buf[:0], ref); err != nil || string(got) != want {
			t.Errorf("WHATWG AppendReference(%q) = %q, %v; want %q", ref, got, err, want)
		}
		if n := testing.AllocsPerRun(100, func() { buf, _ = w.AppendReference(buf[:0], ref) }); n != 0 {
			t.Errorf("WHATWG AppendReference(%q) allocates %v times, want 0", ref, n)
		}
	}
}
