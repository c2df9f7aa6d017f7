package base

import (
	"os"
	"strings"
	"testing"

	"golang.org/x/net/html/charset"

	"github.com/relurl/relurl/internal/testkit"
)

// heads returns the first 1024 bytes of each page of corpus A, what
// Encoding is given for each (DecideHTML's head[:1024]).
func heads(tb testing.TB) [][]byte {
	pages := testkit.PagesA(tb)
	hs := make([][]byte, len(pages))
	for i, p := range pages {
		hs[i] = p.Data[:min(len(p.Data), 1024)]
	}
	return hs
}

// BenchmarkEncoding decides the encoding of every page of corpus A from
// its first 1024 bytes, against x/net's charset.DetermineEncoding in the
// same run.
//
//	RELURL_CORPUS_A=/tmp/relurl-corpus/A go test -run '^$' -bench Encoding ./base/
func BenchmarkEncoding(b *testing.B) {
	hs := heads(b)
	var size int64
	for _, h := range hs {
		size += int64(len(h))
	}
	b.Run("Encoding", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size)
		for b.Loop() {
			for _, h := range hs {
				Encoding(h, "")
			}
		}
	})
	b.Run("charset.DetermineEncoding", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(size)
		for b.Loop() {
			for _, h := range hs {
				charset.DetermineEncoding(h, "")
			}
		}
	})
}

// TestEncodingAllocs: deciding a page's encoding from its first 1024 bytes
// allocates nothing, whatever its head holds (the prescan's tokenizer, its
// buffer and the attribute work are kept between calls). The heads are
// the cases of §13.2.3.2 the prescan meets: a <meta charset>, a pragma, a
// long head with comments, scripts and many attributes before the <meta>,
// none at all, and a tag cut at byte 1024.
func TestEncodingAllocs(t *testing.T) {
	long := `<!DOCTYPE html><html lang="en" class="no-js"><head><!-- ` + strings.Repeat("c", 200) + ` -->` +
		`<script>var a = "<meta charset=koi8-r>";</script>` +
		`<link rel="stylesheet" href="/a.css" media="all" data-x="1" data-y="2" data-z="3" title="t">` +
		`<title>` + strings.Repeat("t", 100) + `</title>` +
		`<meta name="viewport" content="width=device-width, initial-scale=1">` +
		`<meta http-equiv="Content-Type" content="text/html; charset=Shift_JIS">`
	heads := []string{
		`<!DOCTYPE html><html><head><meta charset="utf-8"><title>x</title>`,
		`<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">`,
		long,
		`<!DOCTYPE html><html><head><title>no declaration</title></head><body><p>text`,
		strings.Repeat(" ", 1000) + `<meta name="description" content="cut here`,
	}
	for _, h := range heads {
		head := []byte(h)
		Encoding(head, "") // the first call fills what is kept
		if n := testing.AllocsPerRun(100, func() { Encoding(head, "") }); n != 0 {
			t.Errorf("Encoding(%.40q...) allocates %v times a call, want 0", h, n)
		}
	}
}

// prescanCases are heads where the prescan on internal/token could part
// from x/net's (FuzzDetermineEncoding's seeds, TestPrescanAgrees).
var prescanCases = []string{
	`<meta charset="&#107;oi8-r">`,
	`<meta charset=koi8&#45;r>`,
	`<meta charset="koi8-r&quot;">`,
	`<meta http-equiv="Content&#45;Type" content="text/html; charset=koi8-r">`,
	`<meta http-equiv=content-type content="text/html; charset=&quot;koi8-r&quot;">`,
	`<meta http-equiv=content-type content="text/html; charset=&apos;koi8-r&apos;">`,
	`<meta http-equiv=content-type content="text/html; charset&equals;koi8-r">`,
	`<meta http-equiv=content-type content="charset=koi8-r&notit">`,
	`<meta http-equiv=content-type content="charset=koi8-r&amp">`,
	`<meta charset=koi8-r&amp=x>`,
	`<meta property="og:url" content="https://e.example/?a=1&amp;b=2">`,
	`<meta content="text/html; charset=koi8-r&amp;x" http-equiv=content-type>`,
	`<meta content="text/html; &#99;harset=koi8-r" http-equiv=content-type>`,
	`<meta content="text/html; &#99;harset=koi8-r">`,
	`<meta content="text/html; &#99;harset=koi8-r" charset=koi8-u>`,
	`<meta charset=koi8-u content="text/html; &#99;harset=koi8-r">`,
	`<meta charset=nonesuch content="text/html; &#99;harset=koi8-r">`,
	`<meta charset=nonesuch content="text/html; &#99;harset=koi8-r" http-equiv=content-type>`,
	`<meta content="&#99;harset=koi8-r" charset=nonesuch http-equiv="content&#45;type">`,
	`<meta content="charset=utf-16&amp;" charset=nonesuch>`,
	`<meta http-equiv=refresh content="0; url=/?a&amp;b"><meta charset=koi8-r>`,
	"<meta http-equiv=content-type content=\"text/html;\r\ncharset=koi8-r\">",
	"<meta http-equiv=content-type content=\"charset\r=\rkoi8-r\">",
	"<meta charset=\"koi8-r\r\">",
	"<meta charset=\"\rkoi8-r\">",
	`<META CHARSET="KOI8-R">`,
	`<MeTa HTTP-EQUIV="CONTENT-TYPE" CONTENT="TEXT/HTML; CHARSET=EUC-JP">`,
	`<meta charset=nonesuch charset=koi8-r>`,
	`<meta charset=koi8-r CHARSET=koi8-u>`,
	`<meta content="charset=koi8-r" content="charset=koi8-u" http-equiv=content-type>`,
	`<meta content="charset=nonesuch" http-equiv=content-type content="charset=koi8-u">`,
	`<meta content="charset=" http-equiv=content-type charset=koi8-u>`,
	`<meta charset="" content="charset=koi8-u" http-equiv=content-type>`,
	`<meta charset=nonesuch content="charset=koi8-u" http-equiv=content-type>`,
	`<meta ` + strings.Repeat(`a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11 l=12 m=13 n=14 o=15 p=16 q=17 `, 1) + `CHARSET=koi8-u charset=koi8-r>`,
	`<meta/charset=koi8-r>`,
	`<meta charset=koi8-r/>`,
	`<meta charset='koi8-r>`,
	`<meta charset=koi8-r`,
	`<meta	charset = " koi8-r ">`,
	`<script><meta charset=koi8-r></script><meta charset=koi8-u>`,
	`<title><meta charset=koi8-r></title>`,
	`<textarea><meta charset=koi8-r>`,
	`<noscript><meta charset=koi8-r></noscript>`,
	`<plaintext><meta charset=koi8-r>`,
	`<script><!--<script><meta charset=koi8-r></script>--></script><meta charset=koi8-u>`,
	`<svg><![CDATA[<meta charset=koi8-r>]]></svg>`,
	`<!--><meta charset=koi8-r>`,
	`<!---><meta charset=koi8-r>-->`,
	`<!DOCTYPE <meta charset=koi8-r>>`,
	`<?xml <meta charset=koi8-r>?>`,
	`</x <meta charset=koi8-r>><meta charset=koi8-u>`,
	`<metax charset=koi8-r><meta charset=koi8-u>`,
	"<meta\x00 charset=koi8-r><meta charset=koi8-u>",
	"<meta charset=koi8-r\x00>",
	"<meta http-equiv=content-type content=\"charset=utf-16be\">",
	"<meta charset=UTF-16>",
	strings.Repeat("x", 1010) + `<meta charset=koi8-r>`,
	strings.Repeat("x", 900) + `<meta content="` + strings.Repeat("y", 200) + `">`,
	`<a b="` + strings.Repeat("y", 700) + `"><meta charset=koi8-r>`,
}

// TestPrescanAgrees: determineEncoding names the encoding x/net's
// charset.DetermineEncoding does on prescanCases, and (with
// RELURL_CORPUS_A) on every page of corpus A read from its start and from
// every 61st byte of its first 4 KiB, so that tags, comments and raw text
// are cut at every kind of place.
func TestPrescanAgrees(t *testing.T) {
	check := func(head []byte) {
		t.Helper()
		_, want, _ := charset.DetermineEncoding(head, "")
		if name, _ := determineEncoding(head, ""); name != want {
			t.Errorf("determineEncoding(%.80q) = %q, DetermineEncoding %q", head, name, want)
		}
	}
	for _, s := range prescanCases {
		check([]byte(s))
	}
	if os.Getenv("RELURL_CORPUS_A") == "" {
		return
	}
	for _, p := range testkit.PagesA(t) {
		for i := 0; i < min(len(p.Data), 4096); i += 61 {
			check(p.Data[i:])
		}
	}
}

// TestIsASCIIBytes: the word-at-a-time isASCIIBytes agrees with a loop
// over the bytes for every length up to 100 and every place of a high
// byte (0x80 and 0xFF).
func TestIsASCIIBytes(t *testing.T) {
	byByte := func(b []byte) bool {
		for _, c := range b {
			if c >= 0x80 {
				return false
			}
		}
		return true
	}
	for n := 0; n <= 100; n++ {
		b := []byte(strings.Repeat("\x7f", n))
		if !isASCIIBytes(b) {
			t.Fatalf("isASCIIBytes(%d bytes of 0x7F) = false", n)
		}
		for i := range b {
			for _, c := range []byte{0x80, 0xff} {
				b[i] = c
				if got, want := isASCIIBytes(b), byByte(b); got != want {
					t.Fatalf("isASCIIBytes(%d bytes, %#x at %d) = %v, want %v", n, c, i, got, want)
				}
				b[i] = 0x7f
			}
		}
	}
}
