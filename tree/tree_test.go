package tree

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestKindOf(t *testing.T) {
	tests := []struct {
		name string
		head string
		want base.Format
	}{
		// By extension.
		{"index.html", "", base.HTML},
		{"INDEX.HTM", "whatever", base.HTML},
		{"a.xhtml", "", base.HTML},
		// .xhtml whose root is XHTML's html: XML (application/xhtml+xml).
		{"a.xhtml", `<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head>`, base.XML},
		{"a.XHT", `<html xmlns="http://www.w3.org/1999/xhtml">`, base.XML},
		{"a.xhtml", `<!DOCTYPE html><html><head>`, base.HTML},
		{"a.shtml", "", base.HTML},
		{"page.mht", "", base.MHTML},
		{"page.MHTML", "", base.MHTML},
		{"crawl.warc", "", base.WARC},
		{"crawl.warc.gz", "\x1f\x8b", base.WARC},
		// A binary file named .html is not rewritten (MIME Sniffing §7.1:
		// a binary data byte); UTF-16 HTML has NULs and is still HTML.
		{"fake.html", "\x89PNG\r\n\x1a\n\x00\x00", base.Other},
		{"utf16.html", "\xff\xfe<\x00h\x00", base.HTML},
		// By content, WHATWG MIME Sniffing §7.1 "identifying a resource
		// with an unknown MIME type": the HTML signatures after white space.
		{"noext", "<!DOCTYPE html><p>", base.HTML},
		{"noext", "\n\t <html lang=en>", base.HTML},
		{"page.php", "<HEAD><title>", base.HTML},
		{"x.cgi", "<!-- comment --><p>", base.HTML},
		{"x.txt", "<p>", base.HTML},
		{"x", "<script>", base.HTML},
		{"x", "plain text", base.Other},
		// Stylesheets by extension; SVG, Atom and RSS by
		// extension or, as XML, by their root element (docs/formats.md §9).
		{"style.css", "body{}", base.CSS},
		{"icon.svg", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>", base.XML},
		{"icon.svg", "\x1f\x8b\x08\x00\x00", base.Other},
		{"feed", "<?xml version=\"1.0\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">", base.XML},
		{"feed.xml", "<?xml version=\"1.0\"?><rss version=\"2.0\">", base.XML},
		{"sitemap.xml", "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">", base.Other},
		{"img.png", "\x89PNG\r\n\x1a\n", base.Other},
		{"empty", "", base.Other},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, base.FormatOf(tt.name, []byte(tt.head)), "FormatOf(%q, %q)", tt.name, tt.head)
		})
	}
}

func TestKindString(t *testing.T) {
	assert.Equal(t, "other html mhtml warc", strings.Join([]string{base.Other.String(), base.HTML.String(), base.MHTML.String(), base.WARC.String()}, " "))
}

func TestWalk(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{
		"index.html":        "<p>",
		"b/page":            "<!doctype html>",
		"b/c/style.css":     "body{}",
		"a.mht":             "MIME-Version: 1.0",
		"z.warc.gz":         "\x1f\x8b",
		".relurl-1234.tmp":  "<p>half", // a temporary file of a killed run
		".git/index.html":   "<p>",     // not the site's
		"b/.svn/x.html":     "<p>",
		"b/c/deep/x y.html": "<p>",
	})
	require.NoError(t, os.Symlink("index.html", filepath.Join(dir, "link.html")))
	lone := filepath.Join(dir, "index.html")

	type row struct{ Rel, Kind, Root string }
	var got []row
	for f, err := range Walk([]string{dir, lone}) {
		require.NoError(t, err)
		got = append(got, row{f.Rel, f.Kind.String(), f.Root})
	}
	want := []row{
		{"a.mht", "mhtml", dir},
		{"b/c/deep/x y.html", "html", dir},
		{"b/c/style.css", "css", dir},
		{"b/page", "html", dir},
		{"index.html", "html", dir},
		{"z.warc.gz", "warc", dir},
		{"", "html", lone}, // a file named itself has no relative path
	}
	assert.Equal(t, want, got)
}

// A directory named through a symbolic link is walked; links inside are not.
func TestWalkSymlinkRoot(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, filepath.Join(dir, "real"), map[string]string{"a.html": "<p>", "sub/b.html": "<p>"})
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink("real", link))
	var rels, paths []string
	for f, err := range Walk([]string{link}) {
		require.NoError(t, err)
		rels = append(rels, f.Rel)
		paths = append(paths, f.Path)
	}
	assert.Equal(t, []string{"a.html", "sub/b.html"}, rels)
	assert.Equal(t, []string{filepath.Join(link, "a.html"), filepath.Join(link, "sub", "b.html")}, paths)
}

func TestWalkErrors(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"a.html": "<p>", "locked/b.html": "<p>"})
	missing := filepath.Join(dir, "missing.html")
	var paths []string
	var errs []error
	for f, err := range Walk([]string{missing, dir}) {
		paths = append(paths, f.Path)
		errs = append(errs, err)
	}
	require.Len(t, errs, 3)
	assert.ErrorIs(t, errs[0], fs.ErrNotExist, "a missing file is reported")
	assert.Equal(t, missing, paths[0])
	assert.NoError(t, errs[1], "and the walk goes on")

	if os.Geteuid() == 0 {
		t.Log("running as root: an unreadable directory cannot be made")
		return
	}
	locked := filepath.Join(dir, "locked")
	require.NoError(t, os.Chmod(locked, 0))
	t.Cleanup(func() { os.Chmod(locked, 0o755) })
	errs = nil
	for _, err := range Walk([]string{dir}) {
		errs = append(errs, err)
	}
	require.Len(t, errs, 2)
	assert.ErrorIs(t, errs[1], fs.ErrPermission)
}

func TestWalkStops(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"a.html": "", "b.html": "", "c.html": ""})
	n := 0
	for range Walk([]string{dir, dir}) {
		n++
		if n == 2 {
			break
		}
	}
	assert.Equal(t, 2, n)
}

func TestMapperURL(t *testing.T) {
	tests := []struct {
		root, rel, want string
	}{
		// How a mirrored site maps: the root URL plus the relative path.
		{"https://example.org/", "index.html", "https://example.org/index.html"},
		{"https://example.org/site", "a/b.html", "https://example.org/site/a/b.html"},
		{"https://example.org/site/", "a/b.html", "https://example.org/site/a/b.html"},
		// Each segment percent-encoded (RFC 3986 §3.3 pchar).
		{"https://example.org/", "x y/a?b#c.html", "https://example.org/x%20y/a%3Fb%23c.html"},
		{"https://example.org/", "caf\u00e9.html", "https://example.org/caf%C3%A9.html"},
		// A file named on its own is its own tree: --base is its URL.
		{"https://example.org/page.html?q", "", "https://example.org/page.html?q"},
	}
	for _, tt := range tests {
		m, err := NewMapper(tt.root)
		require.NoError(t, err)
		got, err := m.URL(File{Rel: tt.rel})
		require.NoError(t, err)
		assert.Equal(t, tt.want, got, "root %q, file %q", tt.root, tt.rel)
	}
}

func TestMapperErrors(t *testing.T) {
	for _, root := range []string{"example.org/site", "/site/", "mailto:a@b", "http://[::1", "%"} {
		_, err := NewMapper(root)
		assert.Error(t, err, "NewMapper(%q)", root)
	}
	m, err := NewMapper("https://example.org/?q")
	require.NoError(t, err)
	_, err = m.URL(File{Rel: "a.html"})
	assert.ErrorContains(t, err, "query or fragment")
}

func TestMapperFileURL(t *testing.T) {
	dir := t.TempDir()
	var m Mapper
	got, err := m.URL(File{Path: filepath.Join(dir, "a b.html"), Rel: "a b.html"})
	require.NoError(t, err)
	assert.Equal(t, "file://"+filepath.ToSlash(dir)+"/a%20b.html", got)
	root, err := m.Root(dir)
	require.NoError(t, err)
	assert.Equal(t, "file://"+filepath.ToSlash(dir)+"/", root)
}

func TestSavedFrom(t *testing.T) {
	tests := []struct {
		head, want string
	}{
		{"<!DOCTYPE html>\n<!-- saved from url=(0022)https://example.org/a/ -->\n<html>", "https://example.org/a/"},
		{"<!-- saved from url=(0025)http://example.org/x.html -->", "http://example.org/x.html"},
		// One parser (base.SavedFrom) for every command; a
		// length field that does not fit the URL does not hide it, as in
		// "relurl base --saved-from".
		{"<!-- saved from url=(0029)https://www.example.com/a/b/ -->", "https://www.example.com/a/b/"},
		{"<!-- saved from url=(0099)https://example.org/ -->", "https://example.org/"},
		// After the first element it is not the browser's comment.
		{"<p><!-- saved from url=(0020)https://example.org/ -->", ""},
		// Internet Explorer's zone marker is not a location.
		{"<!-- saved from url=(0014)about:internet -->", ""},
		{"<!-- saved from url=(0004)a/b/ -->", ""},
		{"<html>", ""},
	}
	for _, tt := range tests {
		got, ok := SavedFrom([]byte(tt.head))
		assert.Equal(t, tt.want, got, "SavedFrom(%q)", tt.head)
		assert.Equal(t, tt.want != "", ok)
	}
	m := Mapper{SavedFrom: true}
	got, err := m.URL(File{Path: "x.html", Head: []byte(tests[0].head)})
	require.NoError(t, err)
	assert.Equal(t, "https://example.org/a/", got)
}

func TestInside(t *testing.T) {
	assert.True(t, Inside("a/b", "a"))
	assert.True(t, Inside("a", "a"))
	assert.True(t, Inside("a/./b/..", "a"))
	assert.False(t, Inside("ab", "a"))
	assert.False(t, Inside("..", "."))
	assert.False(t, Inside("b", "a"))
}

func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "a")
	require.NoError(t, os.WriteFile(p, []byte("12345"), 0o644))
	data, err := ReadFile(p, 5)
	require.NoError(t, err)
	assert.Equal(t, "12345", string(data))
	_, err = ReadFile(p, 4)
	assert.ErrorIs(t, err, ErrTooLarge)
}

func TestWalkList(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteTree(t, dir, map[string]string{"a/b.html": "<p>", "a/c/d.html": "<p>", "e.html": "<p>"})
	type row struct{ Path, Rel, Root string }
	var got []row
	for f, err := range WalkList(dir, slices.Values([]string{"./a/b.html", "a/c", "e.html", filepath.Join(dir, "e.html")})) {
		require.NoError(t, err)
		got = append(got, row{f.Path, f.Rel, f.Root})
	}
	assert.Equal(t, []row{
		{filepath.Join(dir, "a/b.html"), "a/b.html", dir},
		{filepath.Join(dir, "a/c/d.html"), "a/c/d.html", dir},
		{filepath.Join(dir, "e.html"), "e.html", dir},
		{filepath.Join(dir, "e.html"), "", filepath.Join(dir, "e.html")}, // absolute: a tree of its own
	}, got)

	// The default root is the current directory.
	t.Chdir(dir)
	got = nil
	for f, err := range WalkList("", slices.Values([]string{"e.html", "../x.html"})) {
		got = append(got, row{f.Path, f.Rel, f.Root})
		if f.Rel != "" {
			require.NoError(t, err)
		}
	}
	assert.Equal(t, []row{{"e.html", "e.html", "."}, {"../x.html", "", "../x.html"}}, got)

	m, err := NewMapper("https://example.org/mirror/")
	require.NoError(t, err)
	u, err := m.URL(File{Rel: "a/b.html"})
	require.NoError(t, err)
	assert.Equal(t, "https://example.org/mirror/a/b.html", u)
}
