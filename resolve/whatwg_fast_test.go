package resolve

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
)

// fastAbsoluteInputs are the inputs TestFastAbsoluteAgrees tries besides
// WPT's urltestdata.json and corpus A's references: every spelling of a
// dot segment, hosts that end or almost end in a number, ports at and past
// their bounds, and the bytes that end a host, a path or a query.
var fastAbsoluteInputs = func() []string {
	var in []string
	hosts := []string{"x.y", "a", "x.y.", ".", "x..y", "-", "x-.y", "1.2.3.4", "x.1", "x.0x", "x.0x1f", "x.0xg", "x.0xf.",
		"x.1.", "x.ab", "x.fa", "x.g", "x.de", "0x", "x.09", "x.9z", "X.y", "x_y", "x%41", "xn--d-eka.de"}
	ports := []string{"", ":", ":0", ":01", ":1", ":80", ":443", ":8080", ":65535", ":65536", ":99999", ":123456", ":8x"}
	rests := []string{"", "/", "//", "/a", "/a/", "/a/b.c", "/.", "/..", "/./", "/../", "/a/.", "/a/..", "/%2e", "/%2E",
		"/.%2e", "/%2e.", "/%2e%2E", "/%2e%2e/", "/.a", "/..a", "/...", "/%2e%2e%2e", "/%2f", "/%", "/a%", "/.x/..",
		"/a b", "/a\\b", "/a\"b", "/a^b", "/a`b", "/a{b", "/é", "/a\x7f", "?", "?q", "?q#f", "#", "#f", "#f#g",
		"/a?q", "/a?q=1&r=%20", "/a?q b", "/a?q'", "/a?q#", "/a?q#f g", "/a#f", "/a#f`", "/a#f?g", "/a?#", "/..?q", "/.#f"}
	for _, scheme := range []string{"http://", "https://", "HTTP://", "ftp://", "http:/", "http:"} {
		for _, h := range hosts {
			for _, p := range ports {
				for _, r := range rests {
					in = append(in, scheme+h+p+r)
				}
			}
		}
	}
	return in
}()

// TestFastAbsoluteAgrees holds fastAbsolute, and fastReference's
// scheme-relative path (both on scanAuthorityAndRest), to the basic URL
// parser's answers, and scanAuthorityAndRest to the version before it
// went a segment at a time (scanAuthorityAndRestBefore: the same inputs
// take the fast path, with the same "/" added), over the hand-made inputs
// above, every input and href of WPT's urltestdata.json, and (when
// RELURL_CORPUS_A is set) every reference of corpus A.
func TestFastAbsoluteAgrees(t *testing.T) {
	inputs := append([]string(nil), fastAbsoluteInputs...)
	for _, raw := range loadWPT(t, "urltestdata.json") {
		var c wptCase
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, c.Input, c.Href)
	}
	check := func(t *testing.T, inputs []string) {
		base, err := parseWHATWGBase("https://example.com/dir/page?x#y", Options{})
		if err != nil {
			t.Fatal(err)
		}
		fast := 0
		for _, s := range inputs {
			for _, rest := range []string{s, strings.TrimPrefix(s, "http://"), strings.TrimPrefix(s, "https://")} {
				for _, port := range []string{"80", "443"} {
					gotAt, gotOK := scanAuthorityAndRest(rest, port)
					wantAt, wantOK := scanAuthorityAndRestBefore(rest, port)
					if gotAt != wantAt || gotOK != wantOK {
						t.Fatalf("scanAuthorityAndRest(%q, %s) = %d, %v; before: %d, %v", rest, port, gotAt, gotOK, wantAt, wantOK)
					}
				}
			}
			if got, ok := fastAbsolute(s); ok {
				fast++
				want, err := parseWeb(s, nil, nil)
				if err != nil || got != want.href {
					t.Fatalf("fastAbsolute(%q) = %q; parser: %q, %v", s, got, want.href, err)
				}
			}
			if i := strings.Index(s, "//"); i >= 0 {
				ref := s[i:]
				if got, ok := base.fastReference(ref); ok {
					want, err := parseWeb(ref, &base.url, nil)
					if err != nil || got != want.href {
						t.Fatalf("fastReference(%q) = %q; parser: %q, %v", ref, got, want.href, err)
					}
				}
			}
		}
		t.Logf("%d inputs, %d taken by fastAbsolute", len(inputs), fast)
		if fast == 0 {
			t.Fatal("no input took the fast path")
		}
	}
	t.Run("tables", func(t *testing.T) { check(t, inputs) })
	t.Run("corpusA", func(t *testing.T) {
		var refs []string
		for _, r := range testkit.RefsA(t) {
			refs = append(refs, r.Ref)
		}
		check(t, refs)
	})
}

// scanAuthorityAndRestBefore is scanAuthorityAndRest as it was before it
// went a segment at a time (a byte at a time, the host's bytes tested by
// comparisons, plainQueryFragment by strings.IndexByte and allPlain): kept
// to hold the faster one to its answers.
func scanAuthorityAndRestBefore(rest, defPort string) (slashAt int, ok bool) {
	h := 0
	for h < len(rest) {
		c := rest[h]
		if !('a' <= c && c <= 'z' || isDigit(c) || c == '-' || c == '.') {
			break
		}
		h++
	}
	if h == 0 || endsInNumber(rest[:h]) {
		return -1, false
	}
	if h < len(rest) && rest[h] == ':' {
		p := h + 1
		for p < len(rest) && isDigit(rest[p]) {
			p++
		}
		port := rest[h+1 : p]
		if port == "" || port[0] == '0' || len(port) > 5 || port == defPort || len(port) == 5 && port > "65535" {
			return -1, false
		}
		h = p
	}
	if h == len(rest) || rest[h] == '?' || rest[h] == '#' {
		slashAt = h
	} else if rest[h] != '/' {
		return -1, false
	} else {
		slashAt = -1
	}
	// The path, in one pass: plain bytes, and no segment that is "." or
	// ".." in any of their spellings.
	i := h
	for seg := h + 1; ; i++ {
		if i < len(rest) && pathPlain[rest[i]] {
			continue
		}
		if i < len(rest) && rest[i] != '/' && rest[i] != '?' && rest[i] != '#' {
			return -1, false
		}
		if s := rest[min(seg, i):i]; isSingleDotSegment(s) || isDoubleDotSegment(s) {
			return -1, false
		}
		if i == len(rest) || rest[i] != '/' {
			break
		}
		seg = i + 1
	}
	if !plainQueryFragmentBefore(rest[i:]) {
		return -1, false
	}
	return slashAt, true
}
func plainQueryFragmentBefore(s string) bool {
	q, f := s, ""
	if i := strings.IndexByte(s, '#'); i >= 0 {
		q, f = s[:i], s[i+1:]
	}
	if q != "" && (q[0] != '?' || !allPlain(q[1:], queryPlain)) {
		return false
	}
	return allPlain(f, fragmentPlain)
}
