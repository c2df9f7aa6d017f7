package linkcheck

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/tree"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// TestIndicates follows the HTML Standard, "find a potential indicated
// element" and "the indicated part of the document": the raw fragment,
// then its percent-decoded UTF-8 form (whatwg/html PR #3111; WPT
// html/browsers/browsing-the-web/scroll-to-fragid), "" and "top" (ASCII
// case-insensitive, WPT scroll-to-top.html uses "#TOP") for the top; ids
// are case-sensitive; a text directive is cut off (URL Fragment Text
// Directives); svgView() is an SVG 2 view specification.
func TestIndicates(t *testing.T) {
	n := anchorSet{"intro": {}, "a%20b": {}, "a b": {}, "café": {}, "\ufffd": {}, "Case": {}, "x:~:y": {}}
	tests := []struct {
		frag string
		svg  bool
		want bool
	}{
		{"", false, true},
		{"intro", false, true},
		{"top", false, true},
		{"TOP", false, true},
		{"%74op", false, true}, // decoded, then "top"
		{"topx", false, false},
		{"a%20b", false, true},    // as written
		{"a%2520b", false, false}, // decodes to "a%20b"? no: to "a%20b" — see below
		{"caf%C3%A9", false, true},
		{"caf%c3%a9", false, true},
		{"café", false, true},
		{"%C2", false, true}, // a lone lead byte decodes to U+FFFD (WPT PR #8723)
		{"case", false, false},
		{"Case", false, true},
		{":~:text=hello", false, true},
		{"intro:~:text=x", false, true},
		{"nope:~:text=x", false, false},
		{"svgView(viewBox(0,0,1,1))", true, true},
		{"svgView(viewBox(0,0,1,1))", false, false},
		{"nope", false, false},
	}
	for _, tt := range tests {
		want := tt.want
		if tt.frag == "a%2520b" {
			want = true // "a%2520b" percent-decodes to "a%20b", an id of n
		}
		assert.Equal(t, want, n.indicates(tt.frag, tt.svg), "fragment %q", tt.frag)
	}
}

func TestPercentDecode(t *testing.T) {
	for in, want := range map[string]string{
		"abc": "abc", "a%20b": "a b", "%E2%82%AC": "€", "%zz": "%zz", "%4": "%4", "%": "%", "%C2": "\ufffd", "%41%42": "AB",
		// Encoding Standard UTF-8 decoder: one U+FFFD per maximal
		// subpart, the offending byte read again.
		"%E2%82A": "\ufffdA", "%FF%FF": "\ufffd\ufffd", "%ED%A0%80": "\ufffd\ufffd\ufffd", "%F0%9F%98": "\ufffd",
		"%C2%41": "\ufffdA", "%E0%80": "\ufffd\ufffd", "%F4%90%80%80": "\ufffd\ufffd\ufffd\ufffd", "%F0%9F%98%80": "😀",
	} {
		assert.Equal(t, want, percentDecode(in), "percentDecode(%q)", in)
	}
}

// TestCheckAnchors: same-page fragments are checked by Check; links into
// other files wait for Finish, which reads targets the walk did not (an
// SVG image) and forgets what it checked.
func TestCheckAnchors(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		"a.html":  `<p id=here></p><a href="#here">ok</a> <a href="#gone">x</a> <a href="b.html#there">ok</a> <a href="b.html#nope">x</a> <a href="i.svg#c">ok</a> <a href="i.svg#d">x</a>`,
		"b.html":  `<a name=there></a>`,
		"i.svg":   `<svg><circle id=c /></svg>`,
		"big.txt": ``,
	})
	c := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/"}
	check := func(rel string) []Finding {
		data := readFile(t, filepath.Join(dir, rel))
		got, err := c.Check(tree.File{Path: rel, Rel: rel, Kind: base.HTML}, data)
		require.NoError(t, err)
		return got
	}
	got := check("a.html")
	require.Len(t, got, 1)
	assert.Equal(t, MissingAnchor, got[0].Problem)
	assert.Equal(t, "#gone", got[0].Link)
	assert.Equal(t, "a.html#gone", got[0].Target)
	assert.Empty(t, check("b.html"))
	late := c.Finish()
	var links []string
	for _, f := range late {
		assert.Equal(t, MissingAnchor, f.Problem)
		assert.Equal(t, "a.html", f.File)
		links = append(links, f.Link)
	}
	assert.Equal(t, []string{"b.html#nope", "i.svg#d"}, links)
	assert.Empty(t, c.Finish(), "Finish forgets")

	// Checked twice (as --fix does), a file's links wait once.
	check("a.html")
	check("a.html")
	assert.Len(t, c.Finish(), 2)

	// NoAnchors: nothing about fragments.
	c2 := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/", NoAnchors: true}
	got, err := c2.Check(tree.File{Path: "a.html", Rel: "a.html", Kind: base.HTML}, readFile(t, filepath.Join(dir, "a.html")))
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.Empty(t, c2.Finish())
}

// TestReaders: a kind of document plugs its links and anchors into Check.
func TestReaders(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"s.css": `x`, "a.html": `<p id=p>`})
	const other base.Format = 99
	c := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/", Readers: map[base.Format]Reader{
		other: func(f tree.File, u string, data []byte) (Document, error) {
			assert.Equal(t, "https://example.org/s.css", u)
			mk := func(raw string) link.Link {
				v, err := resolve.Reference(resolve.WHATWG, u, raw)
				require.NoError(t, err)
				return link.Link{Raw: raw, URL: v, Line: 1, Column: 1}
			}
			return Document{Base: u, Links: []link.Link{mk("gone.png"), mk("a.html#q"), mk("#self")}, Anchors: []string{"self"}, HasAnchors: true}, nil
		},
	}}
	got, err := c.Check(tree.File{Path: "s.css", Rel: "s.css", Kind: other}, []byte("x"))
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.Equal(t, Missing, got[0].Problem)
	late := c.Finish()
	require.Len(t, late, 1)
	assert.Equal(t, "a.html#q", late[0].Link)
}

// TestCaseMismatch: matched byte for byte against the directory listing;
// only another case matching is case-mismatch, and the fix keeps the
// link's form.
func TestCaseMismatch(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"Docs/Guide.html": "", "img/a.png": "", "about.html": "", "caf\u00e9.html": "", "Cafe\u0301s/x.html": ""})
	c := &Checker{Spec: resolve.RFC3986, Dir: dir, Root: "https://example.org/"}
	const doc = "https://example.org/index.html"
	for raw, want := range map[string]string{
		"docs/guide.html#x": "Docs/Guide.html#x",
		"IMG/A.PNG":         "img/a.png",
		"About.html?q":      "about.html?q",
		"Docs/Guide.html":   "",
		"docs/nothere.html": "missing",
		// APFS and NTFS also ignore Unicode normalization: NFD for NFC.
		"cafe%CC%81.html":   "caf%C3%A9.html",
		"caf%C3%A9s/x.html": "Cafe%CC%81s/x.html",
	} {
		got := c.Analyze("index.html", doc, doc, []link.Link{testLink(t, resolve.RFC3986, doc, "a", "href", raw, 0)})
		switch want {
		case "":
			assert.Empty(t, got, raw)
		case "missing":
			require.Len(t, got, 1, raw)
			assert.Equal(t, Missing, got[0].Problem, raw)
		default:
			require.Len(t, got, 1, raw)
			assert.Equal(t, CaseMismatch, got[0].Problem, raw)
			assert.Equal(t, want, got[0].Relative, raw)
		}
	}
}

// TestRedirectFiles: the two redirect file formats, as their docs define
// them (Netlify "Redirects and rewrites", Cloudflare Pages "Redirects",
// Apache mod_alias).
func TestRedirectFiles(t *testing.T) {
	nr, warns := parseNetlifyRedirects("# comment\n/a /b\n/c/* /d/:splat 302!\n/p/:id /q/:id 200\n/x /y 301 Country=de\nhttps://h/x /y\n/z /w 404 # trailing\n/"+strings.Repeat("x", 5000)+" /y\r\n", "_redirects")
	require.Len(t, nr, 4)
	assert.Equal(t, []string{
		"_redirects line 5: a rule with conditions: not modelled",
		"_redirects line 6: a source that is not a path (https://h/x): rule not modelled",
		"_redirects line 8: longer than 4096 bytes: skipped",
	}, warns)
	assert.Equal(t, redirect{line: 2, from: "/a", to: "/b", status: 301, re: nr[0].re}, nr[0])
	assert.True(t, nr[1].force)
	assert.Equal(t, 302, nr[1].status)
	for _, tt := range []struct {
		rule     int
		path, to string
		ok       bool
	}{
		{0, "/a", "/b", true}, {0, "/a/", "/b", true}, {0, "/ab", "", false},
		{1, "/c/x/y.html", "/d/x/y.html", true}, {1, "/c/", "/d/", true},
		{2, "/p/7", "/q/7", true}, {2, "/p/7/8", "", false},
		{3, "/z", "/w", true},
	} {
		to, ok := nr[tt.rule].match(tt.path)
		assert.Equal(t, tt.ok, ok, "rule %d, %s", tt.rule, tt.path)
		assert.Equal(t, tt.to, to, "rule %d, %s", tt.rule, tt.path)
	}
	ar, warns := parseHtaccess("Redirect /old https://example.org/new\nredirect 301 /a/ /b/\nRedirectMatch permanent ^/img/(.*)\\.gif$ /img/$1.png\nRedirect gone /g\nRedirectPermanent /p /q\nRedirectTemp /t /u\nRedirect 301 /nourl\nRewriteRule ^x$ y\nRedirectMatch 302 ( /bad\n", ".htaccess")
	require.Len(t, ar, 6)
	assert.Equal(t, []string{
		".htaccess line 9: RedirectMatch pattern: error parsing regexp: missing closing ): `(`",
		".htaccess: 1 RewriteRule lines: mod_rewrite is not modelled",
	}, warns)
	for _, tt := range []struct {
		rule     int
		path, to string
		ok       bool
		status   int
	}{
		{0, "/old", "https://example.org/new", true, 302},
		{0, "/old/x.html", "https://example.org/new/x.html", true, 302},
		{0, "/older", "", false, 302}, // whole segments only
		{1, "/a/x", "/b/x", true, 301},
		{2, "/img/cat.gif", "/img/cat.png", true, 301},
		{2, "/img/cat.jpg", "", false, 301},
		{3, "/g", "", true, 410},
		{4, "/p", "/q", true, 301},
		{5, "/t", "/u", true, 302},
	} {
		to, ok := ar[tt.rule].match(tt.path)
		assert.Equal(t, tt.ok, ok, "rule %d, %s", tt.rule, tt.path)
		assert.Equal(t, tt.to, to, "rule %d, %s", tt.rule, tt.path)
		assert.Equal(t, tt.status, ar[tt.rule].status, "rule %d", tt.rule)
	}
}

// TestHostProfiles: slorber/trailing-slash-guide's tree (file.html,
// folder/index.html, both.html + both/index.html) on each host.
func TestHostProfiles(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"file.html": "", "folder/index.html": "", "both.html": "", "both/index.html": "", "bare/x.png": ""})
	paths := []string{"file", "file/", "file.html", "folder", "folder/", "both", "both/", "bare/", "", "nothere"}
	want := map[string]string{ // "1" served, "0" missing, per path above
		"file":             "0011111110",
		"github-pages":     "1011111000",
		"netlify":          "1111111000",
		"cloudflare-pages": "1111111000",
		"apache":           "0011111000",
		"nginx":            "0011111000",
		"s3":               "0011111000",
	}
	require.ElementsMatch(t, HostNames(), keys(want))
	for name, w := range want {
		h, err := HostProfile(name)
		require.NoError(t, err)
		c := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/", Host: h}
		require.NoError(t, c.Prepare())
		var got strings.Builder
		for _, p := range paths {
			if c.lookup(p).ok {
				got.WriteByte('1')
			} else {
				got.WriteByte('0')
			}
		}
		assert.Equal(t, w, got.String(), "host %s over %q", name, paths)
	}
	_, err := HostProfile("iis")
	assert.ErrorContains(t, err, `no such host profile "iis"`)
}

func keys(m map[string]string) []string {
	var k []string
	for n := range m {
		k = append(k, n)
	}
	return k
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// TestFinishUnreadable: a target whose anchors cannot be read leaves its
// fragment links unchecked, and says so.
func TestFinishUnreadable(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"a.html": `<a href="big.svg#x">x</a>`, "big.svg": `<svg id=y>` + strings.Repeat(" ", 100)})
	c := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/", MaxSize: 10}
	got, err := c.Check(tree.File{Path: "a.html", Rel: "a.html", Kind: base.HTML}, readFile(t, filepath.Join(dir, "a.html")))
	require.NoError(t, err)
	assert.Empty(t, got)
	assert.Empty(t, c.Finish())
	w := c.Warnings()
	require.Len(t, w, 1)
	assert.Contains(t, w[0], "fragments into big.svg not checked: ")
	assert.Contains(t, w[0], "file too large")
}

// TestCollisions: names one on APFS and NTFS (case folding, NFC) are
// reported by Finish once, on the later name in byte order, in the
// directories the check listed.
func TestCollisions(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"a.html": `<a href="sub/x.png">x</a>`, "A.html": "", "sub/x.png": "", "sub/X.PNG": "", "sub/Straße.png": "", "sub/STRASSE.png": "", "sub/Kelvin\u212a.png": "", "sub/kelvink.png": "", "other/b.png": "", "other/B.png": ""})
	c := &Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/"}
	_, err := c.Check(tree.File{Path: filepath.Join(dir, "a.html"), Rel: "a.html", Kind: base.HTML}, readFile(t, filepath.Join(dir, "a.html")))
	require.NoError(t, err)
	var got []string
	for _, f := range c.Finish() {
		assert.Equal(t, CaseCollision, f.Problem)
		rel, err := filepath.Rel(dir, f.File)
		require.NoError(t, err)
		got = append(got, filepath.ToSlash(rel)+" ~ "+f.Target)
	}
	// "other" holds no checked file and no target: not listed. Simple
	// folding, as NTFS: "ß" is not "SS"; the Kelvin sign is "k".
	assert.Equal(t, []string{"a.html ~ A.html", "sub/kelvink.png ~ sub/Kelvin\u212a.png", "sub/x.png ~ sub/X.PNG"}, got)
	assert.Empty(t, c.Finish(), "reported once")
}
