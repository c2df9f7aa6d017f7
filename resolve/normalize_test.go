package resolve

import (
	"go/ast"
	"go/parser"
	"go/token"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNormalizeRFC3986 runs the examples of RFC 3986 §6.2.2 and §6.2.3.
func TestNormalizeRFC3986(t *testing.T) {
	tests := []struct {
		section string
		in      string
		n       Normalization
		want    string
	}{
		// §6.2.2: "the following two URIs ... are equivalent".
		{"6.2.2", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d", SyntaxBased, "example://a/b/c/%7Bfoo%7D"},
		// §6.2.2.1: "HTTP://www.EXAMPLE.com/ is equivalent to
		// http://www.example.com/".
		{"6.2.2.1", "HTTP://www.EXAMPLE.com/", LowercaseScheme | LowercaseHost, "http://www.example.com/"},
		{"6.2.2.1", "HTTP://www.EXAMPLE.com/", LowercaseScheme, "http://www.EXAMPLE.com/"},
		{"6.2.2.1", "HTTP://www.EXAMPLE.com/", LowercaseHost, "HTTP://www.example.com/"},
		// §6.2.2.1: "%3a" and "%3A" are equivalent; uppercase is
		// normalized.
		{"6.2.2.1", "http://a/b%3ac", UppercaseEscapes, "http://a/b%3Ac"},
		// §6.2.2.1: the userinfo is case-sensitive; a host's escapes keep
		// uppercase hex.
		{"6.2.2.1", "http://User@EX%c3%a4MPLE.com/", LowercaseHost | UppercaseEscapes, "http://User@ex%C3%A4mple.com/"},
		// §6.2.2.2: "%41"-"%5A", "%61"-"%7A", "%30"-"%39", "%2D", "%2E",
		// "%5F" and "%7E" are decoded.
		{"6.2.2.2", "http://a/%41%5A%61%7A%30%39%2D%2E%5F%7E", DecodeUnreserved, "http://a/AZaz09-._~"},
		{"6.2.2.2", "http://a/%2F%3f%25", DecodeUnreserved, "http://a/%2F%3f%25"},
		{"6.2.2.2", "http://a/%2F%3f%25", DecodeUnreserved | UppercaseEscapes, "http://a/%2F%3F%25"},
		// §6.2.2.3: dot segments are removed by the §5.2.4 algorithm.
		{"6.2.2.3", "http://a/b/c/./../../g", RemoveDotSegments, "http://a/g"},
		{"6.2.2.3", "http://a/b/c/%2E%2E/g", SyntaxBased, "http://a/b/g"},
		// §6.2.3: "http://example.com", "http://example.com/",
		// "http://example.com:/" and "http://example.com:80/" are
		// equivalent; the normal form is the second.
		{"6.2.3", "http://example.com", SchemeBased, "http://example.com/"},
		{"6.2.3", "http://example.com/", SchemeBased, "http://example.com/"},
		{"6.2.3", "http://example.com:/", SchemeBased, "http://example.com/"},
		{"6.2.3", "http://example.com:80/", SchemeBased, "http://example.com/"},
		{"6.2.3", "https://example.com:443", SchemeBased, "https://example.com/"},
		{"6.2.3", "https://example.com:80/", SchemeBased, "https://example.com:80/"},
		// §6.2.3: "mailto:Joe@Example.COM" and "mailto:Joe@example.com"
		// are equivalent only by the mailto scheme's rules, which are not
		// applied.
		{"6.2.3", "mailto:Joe@Example.COM", SyntaxBased | SchemeBased, "mailto:Joe@Example.COM"},
		// §6.2.4 (protocol-based) is not applied: the trailing slash stays
		// as it is.
		{"6.2.4", "http://example.com/data", Crawler, "http://example.com/data"},
	}
	for _, tt := range tests {
		got, err := Normalize(tt.in, tt.n)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "RFC 3986 §%s: Normalize(%q, %b)", tt.section, tt.in, tt.n)
	}
}

// TestNormalizeCrawler is a table of the crawler flags, alone and in the
// Crawler set.
func TestNormalizeCrawler(t *testing.T) {
	tests := []struct {
		in   string
		n    Normalization
		want string
	}{
		{"http://a/b#top", RemoveFragment, "http://a/b"},
		{"http://a/b#", RemoveFragment, "http://a/b"},
		{"http://a/b?", RemoveEmptyQuery, "http://a/b"},
		{"http://a/b?#f", RemoveEmptyQuery, "http://a/b#f"},
		{"http://a/b?x", RemoveEmptyQuery, "http://a/b?x"},
		{"http://a/?b=2&a=1&&a=0", SortQuery, "http://a/?a=1&a=0&b=2"},
		{"http://a/?&", SortQuery, "http://a/?"},
		{"http://a/?&", SortQuery | RemoveEmptyQuery, "http://a/"},
		{"http://a/?z&y=1&x=", SortQuery, "http://a/?x=&y=1&z"},
		{"http://a/b/index.html?x", RemoveDirectoryIndex, "http://a/b/?x"},
		{"http://a/index.php", RemoveDirectoryIndex, "http://a/"},
		{"http://a/b/default.aspx", RemoveDirectoryIndex, "http://a/b/"},
		{"http://a/b/Index.html", RemoveDirectoryIndex, "http://a/b/Index.html"},
		{"http://a/b/index.html", Crawler, "http://a/b/index.html"},
		{"HTTP://Example.COM:80/a/./b/../%7Ec/?y=2&x=1#frag", Crawler, "http://example.com/a/~c/?x=1&y=2"},
		{"https://example.com:443?", Crawler, "https://example.com/"},
		{"https://[2001:DB8::1]:443/", Crawler, "https://[2001:db8::1]/"},
		{"http://u:P@A.b:8080/x/../", Crawler, "http://u:P@a.b:8080/"},
		{"file:///a/./b", Crawler, "file:///a/b"},
		{"x:/a/..//b", RemoveDotSegments, "x:/.//b"},
		// A "%" that does not begin an escape does not hide the letters
		// after it from LowercaseHost.
		{"http://A%GH.%Zb.COM%4/", LowercaseHost, "http://a%gh.%zb.com%4/"},
		{"http://A%4a%4B.COM/", LowercaseHost, "http://a%4a%4B.com/"},
	}
	for _, tt := range tests {
		got, err := Normalize(tt.in, tt.n)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "Normalize(%q, %b)", tt.in, tt.n)
	}
}

// TestNormalizeWHATWG: resolving in the WHATWG mode and then normalizing
// for a crawler gives one URL for the spellings of one link.
func TestNormalizeWHATWG(t *testing.T) {
	r, err := NewResolver(WHATWG, "https://example.com/dir/page.html?x=1#top", Options{})
	require.NoError(t, err)
	for _, ref := range []string{
		"other.html?b=2&a=1",
		" ./other.html?a=1&b=2#x",
		"HTTPS://EXAMPLE.COM:443/dir/sub/../other.html?b=2&a=1",
		"\\dir\\%6Fther.html?a=1&b=2",
		"//example.com/dir/\nother.html?b=2&&a=1#",
	} {
		abs, err := r.Reference(ref)
		require.NoError(t, err, ref)
		got, err := Normalize(abs, Crawler)
		require.NoError(t, err, ref)
		assert.Equal(t, "https://example.com/dir/other.html?a=1&b=2", got, "%q → %q", ref, abs)
	}
}

func TestNormalizeErrors(t *testing.T) {
	_, err := Normalize("/a/b", Crawler)
	assert.ErrorIs(t, err, ErrNotAbsolute)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "normalize", e.Op)
}

// FuzzNormalize: normalizing twice gives what normalizing once gives, for
// every set of normalizations, and Normalize never panics.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{
		"eXAMPLE://a/./b/../b/%63/%7bfoo%7d", "HTTP://Example.COM:80/a/./b/../%7Ec/?y=2&x=1#frag", "http://a/?&&b&a",
		"x:/a/..//b", "http://[::1]:080", "http://a/%2E%2e/index.html", "http://EX%41MPLE.com/", "mailto:Joe@Example.COM",
	} {
		f.Add(s, uint32(Crawler))
		f.Add(s, uint32(Crawler|RemoveDirectoryIndex))
		f.Add(s, uint32(RemoveDotSegments))
	}
	f.Fuzz(func(t *testing.T, s string, flags uint32) {
		n := Normalization(flags)
		once, err := Normalize(s, n)
		if err != nil {
			return
		}
		twice, err := Normalize(once, n)
		if err != nil {
			t.Fatalf("Normalize(%q, %b) = %q, which fails: %v", s, n, once, err)
		}
		if once != twice {
			t.Fatalf("Normalize(%q, %b) = %q, then %q", s, n, once, twice)
		}
	})
}

// TestNormalizeDocExamples runs the before → after example in the doc
// comment of each Normalization, with that normalization alone, so that
// the documentation cannot drift from what Normalize does.
func TestNormalizeDocExamples(t *testing.T) {
	flags := map[string]Normalization{
		"DecodeUnreserved": DecodeUnreserved, "UppercaseEscapes": UppercaseEscapes,
		"LowercaseScheme": LowercaseScheme, "LowercaseHost": LowercaseHost,
		"RemoveDefaultPort": RemoveDefaultPort, "RemoveDotSegments": RemoveDotSegments,
		"RemoveDirectoryIndex": RemoveDirectoryIndex, "AddRootPath": AddRootPath,
		"SortQuery": SortQuery, "RemoveEmptyQuery": RemoveEmptyQuery, "RemoveFragment": RemoveFragment,
	}
	f, err := parser.ParseFile(token.NewFileSet(), "normalize.go", nil, parser.ParseComments)
	require.NoError(t, err)
	examples := 0
	for _, decl := range f.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			n, ok := flags[vs.Names[0].Name]
			if !ok || vs.Doc == nil {
				continue
			}
			for _, line := range strings.Split(vs.Doc.Text(), "\n") {
				before, after, ok := strings.Cut(strings.TrimSpace(line), " → ")
				if !ok {
					continue
				}
				got, err := Normalize(before, n)
				if assert.NoError(t, err, line) {
					assert.Equal(t, after, got, "%s: %s", vs.Names[0].Name, line)
				}
				delete(flags, vs.Names[0].Name)
				examples++
			}
		}
	}
	assert.Empty(t, flags, "normalizations without a documented example")
	assert.GreaterOrEqual(t, examples, 12)
}
