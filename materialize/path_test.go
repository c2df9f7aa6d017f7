package materialize

import (
	"strings"
	"testing"
	"time"

	"github.com/relurl/relurl/resolve"
)

// TestPlaceOf is the URL → file mapping, case by case (package doc;
// checking-and-archives.md §6.2).
func TestPlaceOf(t *testing.T) {
	for _, tc := range []struct{ url, ctype, want string }{
		{"http://example.test/", "text/html", "example.test/index.html"},
		{"http://example.test/a/", "text/html", "example.test/a/index.html"},
		{"http://example.test/a", "text/html", "example.test/a.html"},
		{"http://example.test/a.html", "text/html", "example.test/a.html"},
		{"http://example.test/a.HTM", "text/html", "example.test/a.HTM"},
		{"http://example.test/b.png", "image/png", "example.test/b.png"},
		{"http://example.test/b", "image/png", "example.test/b.png"},
		{"http://example.test/b", "", "example.test/b"},
		{"http://example.test/b.bin", "application/x-unknown", "example.test/b.bin"},
		{"http://example.test/style.php", "text/css", "example.test/style.php.css"},
		{"http://example.test/app.js?v=1", "application/javascript", "example.test/app.js;v=1.js"},
		{"http://example.test/search?q=x", "text/html", "example.test/search;q=x.html"},
		{"http://example.test/?q=x", "text/html", "example.test/index;q=x.html"},
		{"http://example.test/s?a/b:c*d", "text/html", "example.test/s;a%2Fb%3Ac%2Ad.html"},
		{"http://example.test:8080/x.txt", "text/plain", "example.test+8080/x.txt"},
		{"http://[::1]:8080/x.txt", "text/plain", "[%3A%3A1]+8080/x.txt"},
		{"http://example.test/a%20b/c%2Fd", "text/plain", "example.test/a b/c%2Fd.txt"},
		{"http://example.test/100%25;x", "text/plain", "example.test/100%25%3Bx.txt"},
		{"http://example.test/dot./sp%20", "text/plain", "example.test/dot%2E/sp%20.txt"},
		{"http://example.test/%2e%2e/x", "text/plain", "example.test/x.txt"}, // the URL parser removes dot segments
		{"http://example.test/a//b", "text/plain", "example.test/a/_/b.txt"},
		{"http://example.test/CON", "text/plain", "example.test/CON_.txt"},
		{"http://example.test/aux.txt", "text/plain", "example.test/aux_.txt"},
		{"http://example.test/com1/x", "text/plain", "example.test/com1_/x.txt"},
		{"http://example.test/console", "text/plain", "example.test/console.txt"},
		{"http://example.test/caf%C3%A9", "text/html", "example.test/café.html"},
		{"http://example.test/bad%FF", "text/html", "example.test/bad%FF.html"},
		{"cid:part1@x", "image/png", "_cid/part1@x.png"},
	} {
		u, err := resolve.ParseWebURL(tc.url, nil, resolve.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.url, err)
		}
		p := placeOf(u, tc.ctype)
		if got := strings.Join(append(p.dirs, p.name), "/"); got != tc.want {
			t.Errorf("%s (%s): %q, want %q", tc.url, tc.ctype, got, tc.want)
		}
	}
}

func TestShorten(t *testing.T) {
	long := strings.Repeat("é", 150) + ".html" // 305 bytes
	got := shorten(long, ".html")
	if len(got) > maxName || !strings.HasSuffix(got, ".html") || !strings.HasPrefix(got, "éé") || !strings.Contains(got, "~") {
		t.Errorf("shorten: %q (%d bytes)", got, len(got))
	}
	if other := shorten(strings.Repeat("é", 151)+".html", ".html"); other == got {
		t.Errorf("two long names shorten alike")
	}
	if got := shorten(strings.Repeat("a", 190)+"%2F"+strings.Repeat("b", 20), ""); strings.Contains(got[len(got)-16:], "%2~") || strings.HasSuffix(strings.Split(got, "~")[0], "%") {
		t.Errorf("cut inside an escape: %q", got)
	}
}

func TestRelRef(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"h/index.html", "h/a.html", "a.html"},
		{"h/a/b.html", "h/c.png", "../c.png"},
		{"h/index.html", "g/x.js", "../g/x.js"},
		{"h/index.html", "h/search;q=%3F.html", "search;q=%253F.html"},
		{"h/index.html", "h/a:b.html", "a%3Ab.html"},
		{"h/index.html", "h/x#y?z.html", "x%23y%3Fz.html"},
		{"h/a.html", "h/a.html", "a.html"},
	} {
		if got := relRef(tc.from, tc.to); got != tc.want {
			t.Errorf("relRef(%q, %q) = %q, want %q", tc.from, tc.to, got, tc.want)
		}
	}
}

func TestParseTimestamp(t *testing.T) {
	for in, want := range map[string]string{
		"2026":                 "2026-01-01T00:00:00Z",
		"202602":               "2026-02-01T00:00:00Z",
		"20260203040506":       "2026-02-03T04:05:06Z",
		"2026-02-03T04:05:06Z": "2026-02-03T04:05:06Z",
	} {
		got, err := ParseTimestamp(in)
		if err != nil || got.UTC().Format(time.RFC3339) != want {
			t.Errorf("%s: %v %v, want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "26", "2026020", "yesterday", "20261301"} {
		if _, err := ParseTimestamp(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestWithCharset: a page whose Content-Type named its encoding gets a
// <meta charset> naming the encoding the open step read it in (cs),
// unless it declares that one itself in its first 1024 bytes.
func TestWithCharset(t *testing.T) {
	for _, tc := range []struct{ doc, ctype, cs, want string }{
		{"<!DOCTYPE html><p>é", "text/html; charset=utf-8", "utf-8", `<!DOCTYPE html><meta charset="utf-8"><p>é`},
		{"\n<!doctype html>\n<html>", "text/html; charset=shift_jis", "shift_jis", "\n<!doctype html><meta charset=\"shift_jis\">\n<html>"},
		{"<html><p>x", "text/html; charset=iso-8859-2", "iso-8859-2", `<meta charset="iso-8859-2"><html><p>x`},
		{`<!DOCTYPE html><meta charset="utf-8"><p>x`, "text/html; charset=utf-8", "utf-8", `<!DOCTYPE html><meta charset="utf-8"><p>x`},
		{`<meta charset="windows-1252"><p>x`, "text/html; charset=utf-8", "utf-8", `<meta charset="utf-8"><meta charset="windows-1252"><p>x`},
		{"<p>x", "text/html", "utf-8", "<p>x"},
		{"\xef\xbb\xbf<p>x", "text/html; charset=iso-8859-2", "utf-8", "\xef\xbb\xbf<p>x"},
		// The label means nothing: the page was read in what its own
		// first 1024 bytes said when captured (here nothing: UTF-8),
		// not in the <meta> the rewrite brought into them.
		{`<meta charset="koi8-r"><p>x`, "text/html; charset=x-nonsense", "utf-8", `<meta charset="utf-8"><meta charset="koi8-r"><p>x`},
		{`<meta charset="koi8-r"><p>x`, "text/html; charset=x-nonsense", "koi8-r", `<meta charset="koi8-r"><p>x`},
		// Not ASCII-compatible: no <meta> written in ASCII.
		{"<\x00p\x00", "text/html; charset=utf-16le", "utf-16le", "<\x00p\x00"},
	} {
		if got := string(withCharset([]byte(tc.doc), tc.ctype, tc.cs)); got != tc.want {
			t.Errorf("%q (%s, %s): %q, want %q", tc.doc, tc.ctype, tc.cs, got, tc.want)
		}
	}
}

func TestTitleOf(t *testing.T) {
	for doc, want := range map[string]string{
		"<!DOCTYPE html><title>  A &amp;\n B </title>": "A & B",
		"<p>no title</p>":                    "",
		"<body><title>late</title>":          "",
		"<title>" + strings.Repeat("é", 150): strings.Repeat("é", 100) + "…",
		"<svg><title>icon</title></svg>":     "",
	} {
		if got := titleOf([]byte(doc)); got != want {
			t.Errorf("%q: %q, want %q", doc, got, want)
		}
	}
}
