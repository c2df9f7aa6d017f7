package resolve

import (
	"strings"
	"testing"

	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/htmlindex"
)

// checkWebURL checks the invariants of a parsed URL: its components
// recompose its href (URL Standard §4.5), and parsing the href again gives
// the same href (the serializer's output is a fixed point of the parser).
func checkWebURL(t *testing.T, u *WebURL) {
	t.Helper()
	var b strings.Builder
	b.WriteString(u.Protocol())
	if u.hasHost {
		b.WriteString("//")
		if u.Username() != "" || u.Password() != "" {
			b.WriteString(u.Username())
			if u.Password() != "" {
				b.WriteString(":" + u.Password())
			}
			b.WriteString("@")
		}
		b.WriteString(u.Host())
	} else if strings.HasPrefix(u.Pathname(), "//") {
		b.WriteString("/.")
	}
	b.WriteString(u.Pathname())
	if u.queryStart >= 0 {
		b.WriteString(u.href[u.queryStart:u.queryEnd()])
	}
	if u.fragStart >= 0 {
		b.WriteString(u.href[u.fragStart:])
	}
	if b.String() != u.Href() {
		t.Fatalf("components of %q recompose to %q", u.Href(), b.String())
	}
	again, err := ParseWebURL(u.Href(), nil, Options{})
	if err != nil {
		t.Fatalf("parsing the href %q again: %v", u.Href(), err)
	}
	if again.Href() != u.Href() {
		t.Fatalf("href %q parses to %q", u.Href(), again.Href())
	}
}

var fuzzWebSeeds = []string{
	"", "http://example.com/a/b?c#d", "HTTP://EX%41MPLE.com:80/./a/../b/%2e%2E/c", " \thttp://a/\nb ", "\\\\x\\y",
	"http://[::ffff:1.2.3.4]/", "http://0x7f.1/", "http://user:pa:ss@h@x/", "file:///C|/x/../..", "file://localhost/",
	"sc://h/p?q#f", "sc:/.//p", "web+demo:/.//not-a-host/", "mailto:a b?c", "javascript:alert(1)", "http://münchen.de/ä?ü#ö",
	"//h/p", "/p", "?q", "#f", "../x", "g;x=1/../y", "data:,x", "http://a:65536/", "http://%zz/", "non-spec:/..//p",
}

// FuzzWHATWGParse: the parser never panics, and every URL it produces
// satisfies checkWebURL, parsed alone or against a base.
func FuzzWHATWGParse(f *testing.F) {
	for _, s := range fuzzWebSeeds {
		f.Add(s, "http://example.org/foo/bar")
		f.Add(s, "file:///tmp/mock/path")
		f.Add(s, "sc://x/y")
	}
	f.Fuzz(func(t *testing.T, input, base string) {
		u, err := ParseWebURL(input, nil, Options{})
		if err == nil {
			checkWebURL(t, u)
		}
		b, err := ParseWebURL(base, nil, Options{})
		if err != nil {
			return
		}
		u, err = ParseWebURL(input, b, Options{})
		if err == nil {
			checkWebURL(t, u)
		}
	})
}

// FuzzWHATWGFastPath: whenever a fast path of whatwg_fast.go answers, its
// answer is the parser's, byte for byte.
func FuzzWHATWGFastPath(f *testing.F) {
	f.Add("https://example.com/dir/", "/a/../b?c#d")
	for _, s := range fuzzWebSeeds {
		f.Add("https://example.com/dir/page.html?x=1#top", s)
		f.Add("http://a/b/c/d;p?q", s)
	}
	for _, s := range []string{"a/./b/../c", "%2e%2E/x", ".", "..", "./", "x/..", "/..", "//x.y/z", "http://x.y", "http://x.y:8080?q", "https://x:443/", "http://1.2.3.4/", "http://x.0x1/",
		"http://x.y/.", "http://x.y/a/%2E%2e", "http://x.y/..?q", "http://x.y/a/.#f", "http://x.y:65535/", "http://x.y:65536/", "http://x.y:080/", "http://x.y#f"} {
		f.Add("http://a/b/c/d;p?q", s)
	}
	f.Fuzz(func(t *testing.T, base, ref string) {
		for _, port := range []string{"80", "443"} {
			gotAt, gotOK := scanAuthorityAndRest(ref, port)
			if wantAt, wantOK := scanAuthorityAndRestBefore(ref, port); gotAt != wantAt || gotOK != wantOK {
				t.Fatalf("scanAuthorityAndRest(%q, %s) = %d, %v; before: %d, %v", ref, port, gotAt, gotOK, wantAt, wantOK)
			}
		}
		for _, opts := range []Options{{}, {QueryEncoding: charmap.Windows1252}} {
			b, err := parseWHATWGBase(base, opts)
			if err != nil {
				return
			}
			if got, ok := fastAbsolute(ref); ok {
				want, err := parseWeb(ref, nil, opts.QueryEncoding)
				if err != nil || got != want.href {
					t.Fatalf("fastAbsolute(%q) = %q; parser: %q, %v", ref, got, want.href, err)
				}
			}
			// AppendReference appends what Reference returns, fast
			// path or not.
			if want, err := b.reference(ref, opts); err == nil {
				if got, err := b.appendReference([]byte(base), ref, opts); err != nil || string(got) != base+want {
					t.Fatalf("appendReference(%q, %q) = %q, %v; want %q", base, ref, got, err, base+want)
				}
			}
			if !b.fast {
				return
			}
			if got, ok := b.fastReference(ref); ok {
				want, err := parseWeb(ref, &b.url, opts.QueryEncoding)
				if err != nil || got != want.href {
					t.Fatalf("fastReference(%q) against %q = %q; parser: %q, %v", ref, base, got, want.href, err)
				}
			}
		}
	})
}

// FuzzWHATWGQuery: encoding a query in any legacy encoding never panics,
// and its result is ASCII, as a URL's serialization is.
func FuzzWHATWGQuery(f *testing.F) {
	for _, s := range []string{"¥a‾\\", "ｱ日ā\x0e", "\ue5e5€", "纊ⅰ−", "q=caf\xe9"} {
		f.Add(s)
	}
	names := []string{"shift_jis", "euc-jp", "iso-2022-jp", "gbk", "gb18030", "big5", "euc-kr", "windows-1252", "utf-16le"}
	f.Fuzz(func(t *testing.T, s string) {
		s = strings.ToValidUTF8(s, "\uFFFD") // as parseWeb gives it
		for _, name := range names {
			enc, err := htmlindex.Get(name)
			if err != nil {
				t.Fatal(err)
			}
			got := appendQuery(nil, s, specialQuerySet, queryEncoding(enc, true, "http"))
			if !isASCII(string(got)) {
				t.Fatalf("%s %q: %q is not ASCII", name, s, got)
			}
		}
	})
}
