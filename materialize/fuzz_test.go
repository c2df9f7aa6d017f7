package materialize

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/relurl/relurl/resolve"
)

// FuzzPlaceOf: whatever URL a capture claims, its place is a local path
// of portable names: no separator, control character or character Windows
// forbids, no "." or "..", no device name, valid UTF-8, at most maxName
// bytes (plus a "~N" suffix's room), never empty.
func FuzzPlaceOf(f *testing.F) {
	for _, s := range []string{
		"http://example.test/", "http://example.test/a/../../b?c=d#e", "http://../../x/y", "http://h/%2e%2e/%2F/%00",
		"http://h/con.txt", "http://h/a%20./b%20", "http://[::1]:81/x", "cid:a/b@c", "file:///etc/passwd",
		"http://h/" + strings.Repeat("%C3%A9", 200), "http://h/?" + strings.Repeat("q", 300), "http://h/a\\b:c*d?e|f",
	} {
		f.Add(s, "text/html")
	}
	f.Add("http://h/x", "image/png")
	f.Fuzz(func(t *testing.T, raw, ctype string) {
		u, err := resolve.ParseWebURL(raw, nil, resolve.Options{})
		if err != nil {
			return
		}
		p := placeOf(u, ctype)
		names := append(append([]string{}, p.dirs...), p.name)
		if !filepath.IsLocal(filepath.Join(names...)) {
			t.Fatalf("%q: not local: %q", raw, names)
		}
		for _, n := range names {
			if n == "" || n == "." || n == ".." || len(n) > maxName || !utf8.ValidString(n) ||
				strings.ContainsFunc(n, func(r rune) bool { return r < 0x20 || r == 0x7f || strings.ContainsRune(`/\\<>:"|?*`, r) }) ||
				strings.HasSuffix(n, ".") || strings.HasSuffix(n, " ") {
				t.Fatalf("%q: unportable name %q", raw, n)
			}
			stem, _, _ := strings.Cut(n, ".")
			if windowsReserved[strings.ToUpper(strings.TrimRight(stem, " "))] {
				t.Fatalf("%q: Windows device name %q", raw, n)
			}
		}
	})
}
