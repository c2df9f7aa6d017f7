package htmlrewrite

import (
	"bytes"
	"strings"
	"testing"

	"github.com/relurl/relurl/link"
	"github.com/stretchr/testify/assert"
)

// TestUnescape checks the decoder against the tokenizer's own
// attribute-mode decoding, notes §5.2's table among the values.
func TestUnescape(t *testing.T) {
	var refs references
	for _, v := range []string{
		"?a=1&copy=2", "&notit;", "?x&amp=1", "a&ampb", "a&amp;b", "&lt;&gt;&quot;&apos;",
		"&#38;&#x26;&#X26;", "&#0;", "&#x110000;", "&#xD800;", "&#128;", "&#x9F;", "&#150",
		"&#12345678;", "&#;", "&#x;", "a\r\nb\rc", "nul\x00x", "&amp", "&", "&#", "&#x41;&#65;",
		"&copy;", "&NotANamedRef;", "x&#x20;y", "?a=1&lid=2&lpos=3", "a & b", "&=", "&&", "&copy=",
		"&amp=", "&#=", "&x", "&lid", "&copy", "&c;=", "?q=&r=", "&1=2", "&An-angler", "&copyx",
		"&notin;&notinx", "&#65x", "&#x41g", "&NotEqualTilde;", "&acE;", "&#x0A;&#13;",
	} {
		assert.Equal(t, tokenizerUnescape([]byte(v)), refs.unescape([]byte(v)), "%q", v)
	}
}

// FuzzUnescape: the decoder agrees with the tokenizer's attribute-mode
// decoding on any value, and maps every decoded byte inside the value.
func FuzzUnescape(f *testing.F) {
	for _, v := range []string{"?a=1&copy=2", "&#x41g&#65x&notin;&notinx", "a\r\nb\rc\x00&amp", "&NotEqualTilde;&acE;"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		var refs references
		want, got := tokenizerUnescape([]byte(v)), refs.unescape([]byte(v))
		if got != want {
			t.Fatalf("%q: %q, tokenizer %q", v, got, want)
		}
		s := &scanner{}
		m, ok := s.offsets([]byte(v), false)
		if !ok || len(m) != len(got)+1 || m[len(got)] != int32(len(v)) {
			t.Fatalf("%q: offsets %v for %q", v, m, got)
		}
		for i := 1; i < len(m); i++ {
			if m[i] < m[i-1] {
				t.Fatalf("%q: offsets %v go back", v, m)
			}
		}
		// A value read as written decodes to itself, and one that
		// decodes to itself without a NUL or CR is read as written.
		if s.asWritten([]byte(v)) != (got == v && !strings.ContainsAny(v, "\x00\r")) {
			t.Fatalf("%q: asWritten %v, decoded %q", v, s.asWritten([]byte(v)), got)
		}
	})
}

// TestAsWritten: values whose only "&"s start no reference the decoder
// replaces are read as written (without a copy or an offset map); any
// reference, CR or NUL is decoded.
func TestAsWritten(t *testing.T) {
	s := &scanner{special: &specialUTF8}
	for v, want := range map[string]bool{
		"a.html": true, "?a=1&b=2": true, "?a=1&lid=2&lpos=3": true, "a & b": true, "&": true, "&#": true,
		"&#;": true, "&=": true, "&&": true, "&copy=2": true, "?q=&r=": true, "&1=2": true,
		"&amp;": false, "?a=1&amp;b=2": false, "&copy": false, "&copy;": false, "&#65;": false, "&amp": false,
		"&amp=": true, "a\r\nb": false, "nul\x00": false, "?a=1&b=2&amp;c=3": false, "&lid": true, "&lt": false,
	} {
		if got := s.asWritten([]byte(v)); got != want {
			t.Errorf("asWritten(%q) = %v, want %v", v, got, want)
		}
		if want && s.refs.unescape([]byte(v)) != v {
			t.Errorf("%q is read as written but decodes to %q", v, s.refs.unescape([]byte(v)))
		}
	}
	legacy := &scanner{special: &specialLegacy}
	if legacy.asWritten([]byte("?a=1&b=\xe9")) {
		t.Error("a legacy value with a byte over 0x7F is read as written")
	}
}

// TestPlain: plain finds the bytes that need decoding wherever they
// stand, in short values (a table) and long ones (vector search), for
// each kind of document.
func TestPlain(t *testing.T) {
	for _, special := range []*[256]bool{&specialUTF8, &specialLegacy, &specialUTF16} {
		s := &scanner{special: special}
		for _, n := range []int{1, 63, 64, 65, 200} {
			for _, c := range []byte{'&', '\r', 0, 0x80, 0xED, 'a'} {
				for at := 0; at < n; at++ {
					v := bytes.Repeat([]byte("x"), n)
					v[at] = c
					if got, want := s.plain(v), !special[c]; got != want {
						t.Fatalf("%p: %q at %d of %d: plain %v", special, c, at, n, got)
					}
				}
			}
		}
	}
}

// TestClean: a value clean calls clean is plain and has no tab, LF or CR,
// wherever the byte that spoils it stands; a printable ASCII value
// without "&" is clean, in UTF-8 and legacy documents (a UTF-16
// document's values are never taken as clean).
func TestClean(t *testing.T) {
	for _, special := range []*[256]bool{&specialUTF8, &specialLegacy, &specialUTF16} {
		s := &scanner{special: special}
		for _, n := range []int{1, 7, 8, 9, 16, 63, 64, 65, 130} {
			v := bytes.Repeat([]byte("a/b.c?d=e"), n)[:n]
			if got := s.clean(v); got != (special != &specialUTF16) {
				t.Fatalf("%p: clean(%q) = %v", special, v, got)
			}
			for c := range 256 {
				for _, at := range []int{0, n / 2, n - 1} {
					w := bytes.Clone(v)
					w[at] = byte(c)
					if s.clean(w) && (!s.plain(w) || hasTabOrNewline(string(w))) {
						t.Fatalf("%p: clean(%q), but plain %v", special, w, s.plain(w))
					}
				}
			}
		}
	}
}

// TestCleanCSSEscape: a style value whose raw bytes are clean can still
// hold a tab or newline through a CSS escape ("\9 ", "\A "): the URL
// read from it loses them, as from one written with them.
func TestCleanCSSEscape(t *testing.T) {
	doc := `<div style="background:url(a\9 b.png)"><p style="background:url(x\A y.png)"><a href="c d.html">`
	var urls []string
	if _, err := Links(strings.NewReader(doc), testOptions(), func(l link.Link) error {
		urls = append(urls, l.URL)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	want := []string{"ab.png", "xy.png", "c d.html"}
	if len(urls) != len(want) {
		t.Fatalf("links %q, want %d", urls, len(want))
	}
	for i, w := range want {
		if !strings.HasSuffix(urls[i], "/"+w) {
			t.Errorf("link %d: %q, want it to end in %q", i, urls[i], "/"+w)
		}
	}
}
