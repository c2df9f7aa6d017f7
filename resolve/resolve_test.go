package resolve

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/charmap"
)

const (
	base1808 = "http://a/b/c/d;p?q#f" // the draft's §5 base
	base3986 = "http://a/b/c/d;p?q"   // RFC 2396 Appendix C and RFC 3986 §5.4
)

// TestDraftReadingOfStep6c shows the one place where the draft's literal
// step 6c/6d and the published RFC 1808 differ, and that the RFC1808 mode
// follows the published text.
func TestDraftReadingOfStep6c(t *testing.T) {
	tests := []struct {
		path             string
		published, draft string
	}{
		{"b/c/../../../g", "../g", "../g"},
		{"b/c/../../../../g", "../../g", "g"},
		{"b/c/../../g", "g", "g"},
		{"b/../../..", "../..", ""},
		{"a/./b/../../c/.", "c/", "c/"},
		{"a//../b", "a/b", "a/b"},
		{"./..", "..", ".."},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.published, removeDotSegments1808(tt.path, false), "published reading of %q", tt.path)
		assert.Equal(t, tt.draft, removeDotSegments1808(tt.path, true), "draft reading of %q", tt.path)
	}
	got, err := Reference(RFC1808, base1808, "../../../../g")
	require.NoError(t, err)
	assert.Equal(t, "http://a/../../g", got, "RFC 1808 §5.2 (published)")
}

// literalStep6c is step 6c/6d as written: remove the leftmost
// "<segment>/../" again and again. It checks that the one-pass stack in
// removeDotSegments1808 does the same.
func literalStep6c(segs []string, draft bool) []string {
	for {
		changed := false
		for i := 0; i+1 < len(segs); i++ {
			if segs[i+1] == ".." && (draft || segs[i] != "..") {
				if i+2 < len(segs) { // 6c: "<segment>/../"
					segs = append(segs[:i:i], segs[i+2:]...)
				} else { // 6d: "<segment>/.." at the end
					segs = append(segs[:i:i], "")
				}
				changed = true
				break
			}
		}
		if !changed {
			return segs
		}
	}
}

func TestRemoveDotSegments1808MatchesLiteral(t *testing.T) {
	alphabet := []string{"a", "..", ".", "", "b"}
	// Every path of up to 6 segments over the alphabet.
	var walk func(prefix []string)
	walk = func(prefix []string) {
		if len(prefix) > 0 {
			path := joinSegs(prefix)
			for _, draft := range []bool{false, true} {
				// Steps 6a and 6b first, as the draft orders them.
				var segs []string
				for i, s := range prefix {
					switch {
					case s == "." && i < len(prefix)-1:
					case s == ".":
						segs = append(segs, "")
					default:
						segs = append(segs, s)
					}
				}
				want := joinSegs(literalStep6c(segs, draft))
				if got := removeDotSegments1808(path, draft); got != want {
					t.Fatalf("removeDotSegments1808(%q, draft=%v) = %q, literal steps give %q", path, draft, got, want)
				}
			}
		}
		if len(prefix) == 6 {
			return
		}
		for _, s := range alphabet {
			walk(append(prefix[:len(prefix):len(prefix)], s))
		}
	}
	walk(nil)
}

func joinSegs(s []string) string {
	out := ""
	for i, x := range s {
		if i > 0 {
			out += "/"
		}
		out += x
	}
	return out
}

// TestOpaqueBase: §2.3 of the draft: mailto, news, telnet and any base
// outside the generic-RL syntax cannot carry relative references, in every
// RFC mode. A fragment alone still names a place in the document.
func TestOpaqueBase(t *testing.T) {
	for _, spec := range []Spec{RFC1808, RFC2396, RFC3986} {
		for _, b := range []string{"mailto:a@b", "news:comp.lang.go", "urn:isbn:0451450523", "javascript:void(0)"} {
			_, err := Reference(spec, b, "x")
			assert.ErrorIs(t, err, ErrOpaqueBase, "%v: %q against %q", spec, "x", b)
			var rerr *Error
			require.True(t, errors.As(err, &rerr))
			assert.Equal(t, "resolve", rerr.Op)
			got, err := Reference(spec, b, "#s")
			if assert.NoError(t, err) {
				assert.Equal(t, b+"#s", got)
			}
			got, err = Reference(spec, b, "g:h")
			if assert.NoError(t, err) {
				assert.Equal(t, "g:h", got)
			}
		}
	}
	// telnet has a net_loc, but the draft's §2.3 still rules it out.
	_, err := Reference(RFC1808, "telnet://host/", "x")
	assert.ErrorIs(t, err, ErrOpaqueBase)
}

// TestNoBase: the draft's §3.4 empty base. Absolute references resolve to
// themselves; relative ones are an error, never a silently wrong URL.
func TestNoBase(t *testing.T) {
	for _, spec := range []Spec{RFC1808, RFC2396, RFC3986} {
		got, err := Reference(spec, "", "http://x/y")
		if assert.NoError(t, err, spec) {
			assert.Equal(t, "http://x/y", got)
		}
		for _, ref := range []string{"g", "", "#s", "?q", "//h/p"} {
			_, err := Reference(spec, "", ref)
			assert.ErrorIs(t, err, ErrNoBase, "%v %q", spec, ref)
		}
	}
}

func TestRelativeBase(t *testing.T) {
	for _, spec := range []Spec{RFC1808, RFC2396, RFC3986} {
		_, err := NewResolver(spec, "a/b", Options{})
		assert.ErrorIs(t, err, ErrRelativeBase, spec)
	}
	_, err := NewResolver(0, "http://a/", Options{})
	assert.ErrorIs(t, err, ErrInvalidSpec)
}

// TestEmptyAndAbsent: RFC 3986 §5.2.2 tells a present-but-empty query or
// fragment from an absent one; the draft (RFC1808 mode) does not.
func TestEmptyAndAbsent(t *testing.T) {
	tests := []struct {
		spec     Spec
		base     string
		ref, out string
	}{
		{RFC3986, base1808, "#", "http://a/b/c/d;p?q#"},
		{RFC3986, base1808, "?", "http://a/b/c/d;p?"},
		{RFC3986, base1808, "", "http://a/b/c/d;p?q"},
		{RFC3986, "http://a/b?q", "g?", "http://a/g?"},
		{RFC2396, base1808, "#", "http://a/b/c/d;p?q#"},
		{RFC2396, base1808, "", "http://a/b/c/d;p?q"},
		// Draft §4 step 2a: "#" and "?" leave the reference entirely empty.
		{RFC1808, base1808, "#", base1808},
		{RFC1808, base1808, "?", base1808},
		{RFC1808, base1808, "g?", "http://a/b/c/g"},
		{RFC1808, base1808, "g;", "http://a/b/c/g"},
		// An empty net_loc keeps its "//".
		{RFC1808, "file:///etc/passwd", "group", "file:///etc/group"},
		{RFC3986, "file:///etc/passwd", "group", "file:///etc/group"},
	}
	for _, tt := range tests {
		got, err := Reference(tt.spec, tt.base, tt.ref)
		if assert.NoError(t, err) {
			assert.Equal(t, tt.out, got, "%v: %q against %q", tt.spec, tt.ref, tt.base)
		}
	}
}

// TestParamsTakeNoPartInPaths: the draft's §4 last paragraph. In RFC1808
// mode ";params" of the base never affect path resolution, while RFC 2396
// and RFC 3986 treat ";" as part of a segment.
func TestParamsTakeNoPartInPaths(t *testing.T) {
	tests := []struct {
		spec     Spec
		base     string
		ref, out string
	}{
		{RFC1808, "ftp://h/a/b;type=d", "c", "ftp://h/a/c"},
		{RFC1808, "ftp://h/a/b/;type=d", "c", "ftp://h/a/b/c"},
		{RFC1808, "http://a/b/c/d;p=1/2?q", "g", "http://a/b/c/g"},
		{RFC1808, "http://a/b/c/d;p=1/2?q", "", "http://a/b/c/d;p=1/2?q"},
		{RFC1808, base1808, "g;x=1/../y", "http://a/b/c/g;x=1/../y"},
		{RFC3986, "http://a/b/c/d;p=1/2?q", "g", "http://a/b/c/d;p=1/g"},
		{RFC2396, "http://a/b/c/d;p=1/2?q", "g", "http://a/b/c/d;p=1/g"},
	}
	for _, tt := range tests {
		got, err := Reference(tt.spec, tt.base, tt.ref)
		if assert.NoError(t, err) {
			assert.Equal(t, tt.out, got, "%v: %q against %q", tt.spec, tt.ref, tt.base)
		}
	}
}

// TestAuthorityWithoutPath: a base "http://a" has no path; the merge of
// RFC 3986 §5.2.3 gives "/" + reference, and the RFC1808 and RFC2396 modes
// do the same, since a net_loc must be followed by "/" before a path.
func TestAuthorityWithoutPath(t *testing.T) {
	for _, spec := range []Spec{RFC1808, RFC2396, RFC3986} {
		got, err := Reference(spec, "http://a", "g")
		if assert.NoError(t, err) {
			assert.Equal(t, "http://a/g", got, spec)
		}
		got, err = Reference(spec, "http://a", "?y")
		if assert.NoError(t, err) {
			want := "http://a?y"
			if spec == RFC2396 {
				want = "http://a/?y" // step 6 merges "/" with the empty path
			}
			assert.Equal(t, want, got, spec)
		}
	}
}

// TestRFC3986AbsoluteReferencesAreCleaned: §5.2.2 removes dot segments from
// a reference with a scheme too; RFC 1808 and RFC 2396 leave it as written.
func TestRFC3986AbsoluteReferencesAreCleaned(t *testing.T) {
	got, err := Reference(RFC3986, base3986, "http://x/./a/../b")
	require.NoError(t, err)
	assert.Equal(t, "http://x/b", got)
	for _, spec := range []Spec{RFC1808, RFC2396} {
		got, err := Reference(spec, base3986, "http://x/./a/../b")
		require.NoError(t, err)
		assert.Equal(t, "http://x/./a/../b", got, spec)
	}
}

func TestRemoveDotSegments(t *testing.T) {
	// RFC 3986 §5.2.4's two worked examples, and edge cases.
	tests := []struct{ in, out string }{
		{"/a/b/c/./../../g", "/a/g"},
		{"mid/content=5/../6", "mid/6"},
		{"/..", "/"},
		{"/.", "/"},
		{"..", ""},
		{".", ""},
		{"../a", "a"},
		{"./a", "a"},
		{"/../a", "/a"},
		{"/a/..", "/"},
		{"/a/../..//b", "//b"},
		{"a/../..", "/"},
		{"", ""},
		{"/a/b/", "/a/b/"},
	}
	for _, tt := range tests {
		p := []byte(tt.in)
		assert.Equal(t, tt.out, string(p[:removeDotSegments(p)]), "removeDotSegments(%q)", tt.in)
	}
}

func TestParseSpec(t *testing.T) {
	for _, s := range []Spec{RFC1808, RFC2396, RFC3986, WHATWG} {
		got, err := ParseSpec(s.String())
		require.NoError(t, err)
		assert.Equal(t, s, got)
	}
	got, err := ParseSpec("RFC3986")
	require.NoError(t, err)
	assert.Equal(t, RFC3986, got)
	_, err = ParseSpec("rfc822")
	assert.Error(t, err)
	assert.Equal(t, "Spec(0)", Spec(0).String())
}

func TestErrorMessage(t *testing.T) {
	_, err := Reference(RFC3986, "mailto:a@b", "x")
	assert.EqualError(t, err, `rfc3986 resolve "x" against "mailto:a@b": base URL cannot carry relative references`)
	_, err = NewResolver(RFC3986, "a/b", Options{})
	assert.EqualError(t, err, `rfc3986 parse base "a/b": base URL is not absolute`)
	long := strings.Repeat("x", 1000)
	_, err = Reference(RFC3986, "mailto:a@b", long)
	assert.EqualError(t, err, `rfc3986 resolve "`+long[:64]+`...`+long[:64]+`" against "mailto:a@b": base URL cannot carry relative references`)
	var rerr *Error
	require.ErrorAs(t, err, &rerr)
	assert.Equal(t, long, rerr.Ref, "the field keeps the whole input")
}

// TestNewResolverRecent: a Resolver made again for the same spec, base
// and Options is the one made before (a page's URL is parsed by the open
// step, which checks it, and again by its reader), never one
// for other arguments, and none is shared when a query encoding is set
// (its dynamic type need not be comparable).
func TestNewResolverRecent(t *testing.T) {
	const base = "https://recent.example/a/b.html"
	a, err := NewResolver(WHATWG, base, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := NewResolver(WHATWG, base, Options{}); b != a {
		t.Error("the same base parsed twice: not the Resolver made before")
	}
	for _, c := range []struct {
		spec Spec
		base string
		opts Options
	}{
		{RFC3986, base, Options{}},
		{WHATWG, base + "x", Options{}},
		{WHATWG, base, Options{BackwardCompatible: true}},
		{WHATWG, base, Options{QueryEncoding: charmap.Windows1252}},
	} {
		b, err := NewResolver(c.spec, c.base, c.opts)
		if err != nil {
			t.Fatal(err)
		}
		if b == a || b.Spec() != c.spec || b.Base() != c.base || b.opts != c.opts {
			t.Errorf("NewResolver(%v, %q, %+v) gave the Resolver of other arguments", c.spec, c.base, c.opts)
		}
		if c.opts.QueryEncoding != nil {
			if d, _ := NewResolver(c.spec, c.base, c.opts); d == b {
				t.Error("a Resolver with a query encoding was shared")
			}
		}
	}
	if _, err := NewResolver(WHATWG, "rel/ative", Options{}); err == nil {
		t.Error("a relative base was accepted")
	}
	if _, err := NewResolver(WHATWG, "rel/ative", Options{}); err == nil {
		t.Error("a relative base was accepted the second time")
	}
}
