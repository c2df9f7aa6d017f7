package resolve

import (
	"net/url"
	"strings"
	"testing"
)

// FuzzParse: the draft's §2.4 parser never fails and loses nothing.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"", "http://a/b/c/d;p?q#f", "//g?y;z/p", "g;x=1/../y", "1a:b", ":x", "#", "?", ";", "/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		u := Parse(s)
		if got := u.String(); got != s {
			t.Fatalf("Parse(%q).String() = %q", s, got)
		}
	})
}

// FuzzReference: resolution never panics in any RFC mode; against an
// absolute base a result is always absolute; and where Go's net/url can
// stand as an oracle, the RFC3986 mode agrees with url.ResolveReference.
func FuzzReference(f *testing.F) {
	for _, b := range []string{base1808, base3986, "http://a", "file:///x", "mailto:a@b"} {
		for _, r := range []string{"", "g", "../../../../g", ";x", "?y", "#s", "//g", "/./g", "g?y/../x", "http:g", "..//x", "a:b"} {
			f.Add(b, r)
		}
	}
	f.Fuzz(func(t *testing.T, base, ref string) {
		for _, spec := range []Spec{RFC1808, RFC2396, RFC3986} {
			r, err := NewResolver(spec, base, Options{})
			if err != nil {
				continue
			}
			got, err := r.Reference(ref)
			if err != nil {
				continue
			}
			if base != "" && !splitURIRef(got).hasScheme && !Parse(got).HasScheme {
				t.Fatalf("%v: Reference(%q) against %q = %q, not absolute", spec, ref, base, got)
			}
			if spec == RFC3986 {
				if want, ok := netURLOracle(base, ref); ok && want != got {
					t.Fatalf("rfc3986: Reference(%q) against %q = %q, net/url gives %q", ref, base, got, want)
				}
			}
		}
	})
}

// netURLOracle resolves ref against base with net/url when its answer is
// RFC 3986's, and reports false for the classes where net/url is known to
// differ:
//   - inputs it rewrites when printing (escaping, an empty "?" or "#", a
//     bare "//"): only inputs that survive url.Parse(s).String() unchanged
//     are compared;
//   - references without a path, query or scheme: ResolveReference keeps
//     the base fragment for "" and "#" (RFC 3986 §5.2.2 does not);
//   - opaque bases and references ("mailto:a@b"), where it gives
//     "mailto:///x" for a relative reference;
//   - references starting with "///" (it reads them as a path) and paths
//     where ".." reaches the root before an empty segment (golang/go#80282);
//   - bases without a scheme (not a base in RFC 3986 §5.1), and bases
//     without an authority ("a:/"), whose results it prints with an
//     empty one ("a:///0").
func netURLOracle(base, ref string) (string, bool) {
	bu, err := url.Parse(base)
	if err != nil || bu.String() != base || bu.Scheme == "" || bu.Opaque != "" {
		return "", false
	}
	ru, err := url.Parse(ref)
	if err != nil || ru.String() != ref || ru.Opaque != "" {
		return "", false
	}
	if ru.Scheme == "" && ru.Host == "" && ru.Path == "" && ru.RawQuery == "" && !ru.ForceQuery {
		return "", false
	}
	if strings.HasPrefix(ref, "///") || strings.Contains(ref, "..//") || strings.Contains(base, "..//") {
		return "", false
	}
	if !strings.HasPrefix(base[len(bu.Scheme)+1:], "//") {
		return "", false
	}
	return bu.ResolveReference(ru).String(), true
}

// FuzzRelativize: the relative form of any resolved target resolves back to
// it exactly, in every RFC mode.
func FuzzRelativize(f *testing.F) {
	for _, r := range []string{"g", "../../../../g", ";x", "?y", "#s", "//g", "/./g", "a:b", ".//x", ""} {
		f.Add(base1808, r)
	}
	f.Fuzz(func(t *testing.T, base, ref string) {
		for _, spec := range []Spec{RFC1808, RFC2396, RFC3986} {
			r, err := NewResolver(spec, base, Options{})
			if err != nil || base == "" {
				continue
			}
			target, err := r.Reference(ref)
			if err != nil {
				continue
			}
			rel, err := r.Relativize(target)
			if err != nil {
				// RFC 1808 and 2396 give back an absolute reference as
				// written, so every target they produce has a reference.
				t.Fatalf("%v: Relativize(%q) from %q: %v (ref %q)", spec, target, base, err, ref)
			}
			if back, err := r.Reference(rel); err != nil || back != target {
				t.Fatalf("%v: Relativize(%q) from %q = %q, which resolves to %q, %v", spec, target, base, rel, back, err)
			}
			if p, err := r.RelativePath(target); err == nil {
				if back, err := r.Reference(p); err != nil || back != target || !isRelativePath(p) {
					t.Fatalf("%v: RelativePath(%q) from %q = %q, which resolves to %q, %v", spec, target, base, p, back, err)
				}
			}
		}
	})
}
