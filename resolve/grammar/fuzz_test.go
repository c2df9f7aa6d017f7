package grammar

import (
	"errors"
	"strings"
	"testing"
)

// FuzzValidate checks, for any input and grammar, that Validate returns
// nil or a *Error whose offset is in range, and that the input up to the
// offset is a viable start: it matches, or runs out only at its end.
func FuzzValidate(f *testing.F) {
	for _, s := range []string{
		"http://a/b/c/d;p?q#f", "http://[::1]:8x/", "http://[v1.x]/", "%zz", "g;x=1/../y",
		"ftp://myname@host.dom/%2Fetc/motd;type=a", "gopher://host/0sel%09search", "news:*",
		"http://a/{b}", "mailto:a@b", "wais://host/db/t/p", "", "?", "#",
	} {
		for i := range Names() {
			f.Add(uint8(i), s)
		}
	}
	names := Names()
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		name := names[int(which)%len(names)]
		err := Validate(name, s)
		if err == nil {
			if name == "rfc1808" {
				if err := Validate("rfc1808-draft", s); err != nil {
					t.Fatalf("rfc1808 accepts %q but the draft, a superset, does not: %v", s, err)
				}
			}
			return
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Validate(%s, %q) = %v, not a *Error", name, s, err)
		}
		if errors.Is(err, ErrTooLong) {
			return
		}
		if e.Offset < 0 || e.Offset > len(s) || e.Production == "" || e.Reason() == "" {
			t.Fatalf("Validate(%s, %q): bad error %#v", name, s, e)
		}
		if e.Offset < len(s) && !strings.HasPrefix(e.Reason(), "unexpected ") {
			t.Fatalf("Validate(%s, %q): %v", name, s, e)
		}
		prefix := s[:e.Offset]
		if err := Validate(name, prefix); err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Offset != len(prefix) {
				t.Fatalf("Validate(%s, %q) fails at %d, but its prefix %q fails at %v", name, s, e.Offset, prefix, err)
			}
		}
	})
}

// FuzzParseRules checks that any grammar text gives rules or an error,
// and that compiling a small one ends without a panic.
func FuzzParseRules(f *testing.F) {
	for _, g := range grammars {
		f.Add(g.text, g.nt == abnf)
	}
	f.Add(`a = 2*3( "x" / %x30-39 ) [ b ] b = 0<a>`, true)
	f.Add(`a = 1*[ "x" | b ] b = *( "y" )`, false)
	f.Fuzz(func(t *testing.T, text string, isABNF bool) {
		nt := bnf
		if isABNF {
			nt = abnf
		}
		rs, err := parseRules(text, nt)
		if err != nil || len(text) > 200 {
			return
		}
		for _, r := range rs.rules {
			r.text = strings.TrimSpace(r.text)
			if r.text == "" {
				t.Fatalf("rule %s has no text", r.name)
			}
		}
		if len(rs.rules) > 0 {
			if m, err := compile(rs, rs.rules[0].name); err == nil {
				m.run("x0%", new(matcher))
			}
		}
	})
}
