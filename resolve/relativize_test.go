package resolve

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRelativize(t *testing.T) {
	tests := []struct {
		spec         Spec
		base, target string
		want         string
	}{
		// Same document: the empty reference, as each mode allows.
		{RFC3986, base3986, base3986, ""},
		{RFC1808, base1808, base1808, ""},
		{RFC1808, base1808, "http://a/b/c/d;p?q", "?q"}, // "" would keep "#f"
		{RFC3986, base1808, "http://a/b/c/d;p?q", ""},
		{RFC3986, base3986, "http://a/b/c/d;p?q#s", "#s"},
		{RFC3986, base3986, "http://a/b/c/d;p?y", "?y"},
		// Same net_loc: path-relative or abs_path, whichever is shorter.
		{RFC3986, base3986, "http://a/b/c/g", "g"},
		{RFC3986, base3986, "http://a/b/c/", "."},
		{RFC3986, base3986, "http://a/b/g", "../g"},
		{RFC3986, base3986, "http://a/g", "/g"},
		{RFC3986, "http://a/b/c/d/e/f", "http://a/b/x", "/b/x"},
		{RFC3986, "http://a/b/c/d/e/f", "http://a/b/c/d/x", "../x"},
		{RFC3986, base3986, "http://a/b/c/g?y#s", "g?y#s"},
		// §5.3 of the draft: a first segment with a colon gets "./".
		{RFC3986, base3986, "http://a/b/c/this:that", "./this:that"},
		{RFC1808, base1808, "http://a/b/c/this:that", "./this:that"},
		// Other host: a network-path; other scheme: absolute.
		{RFC3986, base3986, "http://g/x", "//g/x"},
		{RFC3986, base3986, "https://a/b/c/g", "https://a/b/c/g"},
		{RFC3986, base3986, "mailto:a@b", "mailto:a@b"},
		// RFC 1808: params stay out of the path.
		{RFC1808, base1808, "http://a/b/c/d;x", ";x"},
		{RFC2396, base3986, "http://a/b/c/?y", "?y"},
		// An empty segment must not turn into a network-path.
		{RFC3986, base3986, "http://a/b/c//x", ".//x"},
	}
	for _, tt := range tests {
		r, err := NewResolver(tt.spec, tt.base, Options{})
		require.NoError(t, err)
		got, err := r.Relativize(tt.target)
		if assert.NoError(t, err, "%v Relativize(%q) from %q", tt.spec, tt.target, tt.base) {
			assert.Equal(t, tt.want, got, "%v Relativize(%q) from %q", tt.spec, tt.target, tt.base)
			back, err := r.Reference(got)
			require.NoError(t, err)
			assert.Equal(t, tt.target, back)
		}
	}
}

func TestRelativizeErrors(t *testing.T) {
	r, err := NewResolver(RFC3986, base3986, Options{})
	require.NoError(t, err)
	_, err = r.Relativize("g")
	assert.ErrorIs(t, err, ErrNotRelativizable)
	// RFC 3986 removes dot segments from every reference, so no reference
	// gives back a target that has one.
	_, err = r.Relativize("http://a/./g")
	assert.ErrorIs(t, err, ErrNotRelativizable)
}

// TestRelativizeProperty: over generated base and reference pairs, in every
// RFC mode, the relative form of a resolved target resolves back to it
// exactly, and is never longer than the reference that produced it.
func TestRelativizeProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(1808, 3986))
	bases := []string{base1808, base3986, "http://a/", "http://a", "https://h:8080/x/y/z/", "ftp://u@h/a;type=d", "file:///etc/hosts", "http://a/b//c"}
	pieces := []string{"a", "b", "..", ".", "", "c:d", "%2e", "x;p", "y.html"}
	n := 0
	for range 4000 {
		var ref string
		switch rng.IntN(6) {
		case 0:
			ref = "/"
		case 1:
			ref = "//a/"
		}
		for k := rng.IntN(5); k >= 0; k-- {
			if k != 0 || rng.IntN(2) == 0 {
				ref += pieces[rng.IntN(len(pieces))]
			}
			if k > 0 {
				ref += "/"
			}
		}
		if rng.IntN(4) == 0 {
			ref += "?q"
		}
		if rng.IntN(4) == 0 {
			ref += "#f"
		}
		for _, spec := range []Spec{RFC1808, RFC2396, RFC3986} {
			b := bases[rng.IntN(len(bases))]
			r, err := NewResolver(spec, b, Options{})
			require.NoError(t, err)
			target, err := r.Reference(ref)
			if err != nil {
				continue
			}
			rel, err := r.Relativize(target)
			if !assert.NoError(t, err, "%v: Relativize(%q) from %q (ref %q)", spec, target, b, ref) {
				continue
			}
			back, err := r.Reference(rel)
			require.NoError(t, err)
			assert.Equal(t, target, back, "%v: %q from %q", spec, rel, b)
			assert.LessOrEqual(t, len(rel), len(ref), "%v: Relativize(%q) from %q = %q, but %q is shorter", spec, target, b, rel, ref)
			if p, err := r.RelativePath(target); err == nil {
				assert.True(t, isRelativePath(p), "%v: RelativePath(%q) = %q", spec, target, p)
				back, err := r.Reference(p)
				require.NoError(t, err)
				assert.Equal(t, target, back, "%v: RelativePath %q from %q", spec, p, b)
			}
			n++
		}
	}
	assert.Greater(t, n, 8000)
}

// TestRelativePath: the form that survives moving a tree (the draft's §1)
// never starts with a scheme, "//" or "/".
func TestRelativePath(t *testing.T) {
	tests := []struct {
		spec         Spec
		base, target string
		want         string
	}{
		{RFC3986, "http://a/b/c/d/e/f", "http://a/b/x", "../../../x"},
		{RFC3986, base3986, "http://a/g", "../../g"},
		{RFC3986, base3986, "http://a/b/c/g", "g"},
		{RFC3986, base3986, base3986, ""},
		{RFC3986, base3986, "http://a/b/c/this:that", "./this:that"},
		{RFC1808, base1808, "http://a/x;p?q", "../../x;p?q"},
		{WHATWG, "https://example.org/docs/guide/intro.html", "https://example.org/img/a.png", "../../img/a.png"},
		{WHATWG, "https://example.org/docs/", "https://example.org/docs/", ""},
		{WHATWG, "https://example.org/docs/index.html", "https://example.org/docs/", "."},
	}
	for _, tt := range tests {
		r, err := NewResolver(tt.spec, tt.base, Options{})
		require.NoError(t, err)
		got, err := r.RelativePath(tt.target)
		if assert.NoError(t, err, "%v RelativePath(%q) from %q", tt.spec, tt.target, tt.base) {
			assert.Equal(t, tt.want, got, "%v RelativePath(%q) from %q", tt.spec, tt.target, tt.base)
		}
	}
	r, err := NewResolver(RFC3986, base3986, Options{})
	require.NoError(t, err)
	for _, target := range []string{"http://g/x", "https://a/b/c/g", "mailto:a@b"} {
		_, err = r.RelativePath(target)
		assert.ErrorIs(t, err, ErrNotRelativizable, target)
	}
}
