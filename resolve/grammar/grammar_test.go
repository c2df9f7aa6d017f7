package grammar

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNames(t *testing.T) {
	assert.Equal(t, []string{"rfc1738", "rfc1808", "rfc1808-draft", "rfc2396", "rfc3986"}, Names())
}

// Each grammar file parses and compiles, and its productions are the
// RFC's, word for word.
func TestProductionsAsWritten(t *testing.T) {
	tests := []struct {
		grammar, rule, text string
	}{
		// RFC 1738 §5
		{"rfc1738", "port", "port = digits"},
		{"rfc1738", "hostname", `hostname = *[ domainlabel "." ] toplabel`},
		{"rfc1738", "gopher+_string", "gopher+_string = *xchar"},
		{"rfc1738", "ftptype", `ftptype = "A" | "I" | "D" | "a" | "i" | "d"`},
		// RFC 1808 §2.2 and the draft's §2.2
		{"rfc1808", "unreserved", "unreserved = alpha | digit | safe | extra"},
		{"rfc1808-draft", "unreserved", "unreserved = alpha | digit | safe | extra | national"},
		{"rfc1808", "punctuation", `punctuation = "<" | ">" | "#" | "%" | <">`},
		{"rfc1808", "net_loc", `net_loc = *( pchar | ";" | "?" )`},
		// RFC 2396 Appendix A
		{"rfc2396", "port", "port = *digit"},
		{"rfc2396", "segment", `segment = *pchar *( ";" param )`},
		// RFC 3986 Appendix A
		{"rfc3986", "port", "port = *DIGIT"},
		{"rfc3986", "path-empty", "path-empty = 0<pchar>"},
		{"rfc3986", "dec-octet", `dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35`},
		{"rfc3986", "HEXDIG", `HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F"`},
	}
	for _, tt := range tests {
		g, err := lookup(tt.grammar)
		require.NoError(t, err)
		rs, _, err := g.compiled()
		require.NoError(t, err)
		r, ok := rs.lookup(tt.rule)
		require.True(t, ok, "%s has no rule %s", tt.grammar, tt.rule)
		assert.Equal(t, tt.text, r.text, "%s %s", tt.grammar, tt.rule)
	}
	// Every production of the seed texts, no more (RFC 3986's 36 with
	// the 3 core rules of RFC 5234).
	for name, n := range map[string]int{"rfc1738": 67, "rfc1808": 30, "rfc1808-draft": 30, "rfc2396": 40, "rfc3986": 39} {
		g, err := lookup(name)
		require.NoError(t, err)
		rs, _, err := g.compiled()
		require.NoError(t, err)
		assert.Len(t, rs.rules, n, name)
	}
}

// The example URLs each RFC gives validate under its own grammar.
func TestRFCExamples(t *testing.T) {
	// The draft's §5 and RFC 1808 §5: the base, and the references of
	// §5.1 Normal Examples and §5.2 Abnormal Examples, then the results.
	rfc1808 := []string{
		"http://a/b/c/d;p?q#f",
		// §5.1
		"g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "g?y/./x", "#s", "g#s",
		"g#s/./x", "g?y#s", ";x", "g;x", "g;x?y#s", ".", "./", "..", "../", "../g",
		"../..", "../../", "../../g",
		// §5.2
		"", "../../../g", "../../../../g", "/./g", "/../g", "g.", ".g", "g..", "..g",
		"./../g", "./g/.", "g/./h", "g/../h", "http:g", "http:",
		// the results
		"http://a/b/c/g", "http://a/b/c/g/", "http://a/g", "http://g", "http://a/b/c/d;p?y",
		"http://a/b/c/g?y", "http://a/b/c/g?y/./x", "http://a/b/c/d;p?q#s",
		"http://a/b/c/g#s", "http://a/b/c/g#s/./x", "http://a/b/c/g?y#s",
		"http://a/b/c/d;x", "http://a/b/c/g;x", "http://a/b/c/g;x?y#s", "http://a/b/c/",
		"http://a/b/", "http://a/", "http://a/../g", "http://a/../../g", "http://a/./g",
		"http://a/b/c/g.", "http://a/b/c/.g", "http://a/b/c/g..", "http://a/b/c/..g",
		"http://a/b/c/h",
		// §3.1's Base header and §5.3's colon advice
		"http://www.ics.uci.edu/Test/a/b/c", "./this:that",
		// the references section
		"ftp://ds.internic.net/rfc/rfc1630.txt", "http://www.ics.uci.edu/pub/ietf/html/",
	}
	// RFC 2396 Appendix C: base, C.1 and C.2 references; §1.3 examples.
	// C.1's "?y" is missing: see TestRFC2396QueryOnly.
	rfc2396 := []string{
		"http://a/b/c/d;p?q",
		"g:h", "g", "./g", "g/", "/g", "//g", "g?y", "#s", "g#s", "g?y#s", ";x",
		"g;x", "g;x?y#s", ".", "./", "..", "../", "../g", "../..", "../../", "../../g",
		"", "../../../g", "../../../../g", "/./g", "/../g", "g.", ".g", "g..", "..g",
		"./../g", "./g/.", "g/./h", "g/../h", "g;x=1/./y", "g;x=1/../y", "g?y/./x",
		"g?y/../x", "g#s/./x", "g#s/../x", "http:g",
		// §1.3
		"ftp://ftp.is.co.za/rfc/rfc1808.txt",
		"gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles",
		"http://www.math.uio.no/faq/compression-faq/part1.html",
		"mailto:mduerst@ifi.unizh.ch", "news:comp.infosystems.www.servers.unix",
		"telnet://melvyl.ucop.edu/",
	}
	// RFC 3986 §5.4: base, §5.4.1 and §5.4.2 references; §1.1.2, §3
	// and §6.2 examples.
	rfc3986 := []string{
		"http://a/b/c/d;p?q",
		"g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s", ";x",
		"g;x", "g;x?y#s", "", ".", "./", "..", "../", "../g", "../..", "../../", "../../g",
		"../../../g", "../../../../g", "/./g", "/../g", "g.", ".g", "g..", "..g",
		"./../g", "./g/.", "g/./h", "g/../h", "g;x=1/./y", "g;x=1/../y", "g?y/./x",
		"g?y/../x", "g#s/./x", "g#s/../x", "http:g",
		// §1.1.2
		"ftp://ftp.is.co.za/rfc/rfc1808.txt", "http://www.ietf.org/rfc/rfc2396.txt",
		"ldap://[2001:db8::7]/c=GB?objectClass?one", "mailto:John.Doe@example.com",
		"news:comp.infosystems.www.servers.unix", "tel:+1-816-555-1212",
		"telnet://192.0.2.16:80/", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
		// §3
		"foo://example.com:8042/over/there?name=ferret#nose", "urn:example:animal:ferret:nose",
		// §6.2.2, §6.2.3
		"example://a/b/c/%7Bfoo%7D", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
		"http://example.com", "http://example.com/", "http://example.com:/", "http://example.com:80/",
	}
	// RFC 1738: §1, §3.1 (ftp user and password), §3.2.2 (ftp url-path),
	// §3.10 (file), §3.11 (prospero).
	rfc1738 := []string{
		"http://www.acl.lanl.gov/URI/archive/uri-archive.index.html",
		"ftp://@host.com/", "ftp://host.com/", "ftp://foo:@host.com/",
		"ftp://myname@host.dom/%2Fetc/motd", "ftp://myname@host.dom/etc/motd",
		"ftp://myname@host.dom//etc/motd",
		"file://vms.host.edu/disk$user/my/notes/note12345.txt",
		"prospero://host.dom//pros/name",
	}
	examples := map[string][]string{
		"rfc1738": rfc1738, "rfc1808": rfc1808, "rfc1808-draft": rfc1808,
		"rfc2396": rfc2396, "rfc3986": rfc3986,
	}
	for name, urls := range examples {
		for _, u := range urls {
			assert.NoError(t, Validate(name, u), "%s %q", name, u)
		}
	}
}

// RFC 2396 Appendix C.1 resolves "?y", but its own BNF cannot produce it:
// relativeURI needs a net_path, abs_path or rel_path, and rel_segment is
// 1*( ... ). RFC 3986's relative-part allows it through path-empty. The
// grammar is checked as written.
func TestRFC2396QueryOnly(t *testing.T) {
	var e *Error
	require.ErrorAs(t, Validate("rfc2396", "?y"), &e)
	assert.Equal(t, 0, e.Offset)
	assert.NoError(t, Validate("rfc3986", "?y"))
	assert.NoError(t, Validate("rfc2396", "g?y"))
}

// Each error names the offset, the refused byte or the missing part, and
// the production in the RFC's words.
func TestErrors(t *testing.T) {
	tests := []struct {
		grammar, in string
		offset      int
		reason      string
	}{
		// RFC 3986 §3.2.3 port, §3.2.2 IP-literal, dec-octet, IPvFuture
		{"rfc3986", "http://[::1]:8x/", 14, `unexpected "x" in port = *DIGIT`},
		{"rfc3986", "http://[::1", 11, `missing "]" in IP-literal = "[" ( IPv6address / IPvFuture ) "]"`},
		{"rfc3986", "http://[1:2:3:4:5:6:7:8:9]", 23, `unexpected ":" in h16 = 1*4HEXDIG`},
		{"rfc3986", "http://[::1.2.3.4.5]", 17, `unexpected "." in dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35`},
		{"rfc3986", "http://[vz.x]", 9, `unexpected "z" in IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`},
		{"rfc3986", "http://[v1.]", 11, `unexpected "]" in IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )`},
		// §2.1 pct-encoded
		{"rfc3986", "%zz", 1, `unexpected "z" in pct-encoded = "%" HEXDIG HEXDIG`},
		{"rfc3986", "%4", 2, `missing HEXDIG in pct-encoded = "%" HEXDIG HEXDIG`},
		// §4.2: a first segment with a colon is a scheme, and a scheme begins with a letter
		{"rfc3986", "1a:b", 2, `unexpected ":" in segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )`},
		{"rfc3986", "http://a b/", 8, `unexpected " " in reg-name = *( unreserved / pct-encoded / sub-delims )`},
		{"rfc3986", "http://a/b c", 10, `unexpected " " in segment = *pchar`},
		{"rfc3986", "http://a/\x80", 9, `unexpected "\x80" in segment = *pchar`},
		{"rfc3986", "http://a/#f#g", 11, `unexpected "#" in fragment = *( pchar / "/" / "?" )`},
		// "a:8x" could still be userinfo until the "/" comes
		{"rfc3986", "http://a:8x/", 11, `unexpected "/" in userinfo = *( unreserved / pct-encoded / sub-delims / ":" )`},

		// RFC 2396 Appendix A
		{"rfc2396", "http://a/b c", 10, `unexpected " " in segment = *pchar *( ";" param )`},
		{"rfc2396", "http://a/%zz", 10, `unexpected "z" in escaped = "%" hex hex`},
		{"rfc2396", "#a#b", 2, `unexpected "#" in fragment = *uric`},
		{"rfc2396", "http://a/{x}", 9, `unexpected "{" in segment = *pchar *( ";" param )`},
		{"rfc2396", "http://[::1]/", 7, `unexpected "[" in hostname = *( domainlabel "." ) toplabel [ "." ]`}, // RFC 2732 came later
		{"rfc2396", "http:", 5, `missing hier_part in absoluteURI = scheme ":" ( hier_part | opaque_part )`},
		{"rfc2396", "1a:b", 2, `unexpected ":" in rel_segment = 1*( unreserved | escaped | ";" | "@" | "&" | "=" | "+" | "$" | "," )`},

		// RFC 1808 §2.2 and the draft's
		{"rfc1808", "http://a/{x}", 9, `unexpected "{" in rel_path = [ path ] [ ";" params ] [ "?" query ]`},
		{"rfc1808", "#a#b", 2, `unexpected "#" in fragment = *( uchar | reserved )`},
		{"rfc1808", "http://a/b c", 10, `unexpected " " in fsegment = 1*pchar`},
		{"rfc1808", "http://a/%zz", 10, `unexpected "z" in escape = "%" hex hex`},
		{"rfc1808-draft", "http://a/%zz", 10, `unexpected "z" in escape = "%" hex hex`},
		{"rfc1808-draft", "http://a/<x>", 9, `unexpected "<" in rel_path = [ path ] [ ";" params ] [ "?" query ]`},

		// RFC 1738 §5, read by scheme
		{"rfc1738", "http://a:8x/", 10, `unexpected "x" in digits = 1*digit`},
		{"rfc1738", "ftp://host/a;type=x", 18, `unexpected "x" in ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]`},
		{"rfc1738", "news:", 5, `missing grouppart in newsurl = "news:" grouppart`},
		{"rfc1738", "mailto:", 7, `missing encoded822addr in mailtourl = "mailto:" encoded822addr`},
		{"rfc1738", "http:", 5, `missing "/" in httpurl = "http://" hostport [ "/" hpath [ "?" search ]]`},
		{"rfc1738", "http://a/b#f", 10, `unexpected "#" in hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]`},
		{"rfc1738", "nntp://host/group/12x", 20, `unexpected "x" in digits = 1*digit`},
		{"rfc1738", "wais://host/db/type", 19, `missing "/" in waisdoc = "wais://" hostport "/" database "/" wtype "/" wpath`},
		{"rfc1738", "telnet://user:pw@host/x", 22, `unexpected "x" in telneturl = "telnet://" login [ "/" ]`},
		{"rfc1738", "x-y:a b", 5, `unexpected " " in schemepart = *xchar | ip-schemepart`},
		{"rfc1738", "", 0, `missing scheme in otherurl = genericurl`},
	}
	for _, tt := range tests {
		err := Validate(tt.grammar, tt.in)
		var e *Error
		require.ErrorAs(t, err, &e, "%s %q", tt.grammar, tt.in)
		assert.Equal(t, tt.grammar, e.Grammar)
		assert.Equal(t, tt.in, e.Input)
		assert.Equal(t, tt.offset, e.Offset, "%s %q", tt.grammar, tt.in)
		assert.Equal(t, tt.reason, e.Reason(), "%s %q", tt.grammar, tt.in)
		if tt.offset == len(tt.in) {
			assert.NotEmpty(t, e.Missing)
			// The missing part is an element of the production, so the
			// message reads against the RFC's text; a production that
			// only renames a rule names that rule's element instead.
			if e.Production != "otherurl = genericurl" {
				assert.Contains(t, e.Production, e.Missing, "%s %q", tt.grammar, tt.in)
			}
		} else {
			assert.Empty(t, e.Missing)
		}
	}
}

func TestErrorString(t *testing.T) {
	err := Validate("rfc3986", "http://[::1]:8x/")
	assert.EqualError(t, err, `rfc3986 validate "http://[::1]:8x/": offset 14: unexpected "x" in port = *DIGIT`)
	long := "http://a/" + strings.Repeat("b", 200) + " "
	err = Validate("RFC3986", long)
	assert.EqualError(t, err, `rfc3986 validate "http://a/`+strings.Repeat("b", 55)+`"..."`+strings.Repeat("b", 63)+` ": offset 209: unexpected " " in segment = *pchar`)
}

// RFC 1738 §2.1: "programs interpreting URLs should treat upper case
// letters as equivalent to lower case in scheme names"; quoted strings
// match either case in RFC 822 §3.4.7 and RFC 5234 §2.3.
func TestCaseInsensitiveLiterals(t *testing.T) {
	for _, tt := range []struct{ grammar, in string }{
		{"rfc1738", "HTTP://A/"},
		{"rfc1738", "FTP://host/a;TYPE=I"},
		{"rfc1738", "MailTo:a@b"},
		{"rfc3986", "http://[V1.x]/"},
	} {
		assert.NoError(t, Validate(tt.grammar, tt.in), tt.in)
	}
}

// RFC 1738: a URL is read by its scheme's own rule; only other schemes
// are otherurls.
func TestRFC1738ByScheme(t *testing.T) {
	for _, tt := range []struct {
		in    string
		valid bool
	}{
		{"http://a:8080/x?y", true},
		{"http:x", false},          // otherurl would take it
		{"x-http://a:port/", true}, // otherurl
		{"ftp://a/b;type=d", true}, // ftptype
		{"gopher://host/0sel%09search%09plus", true},
		{"news:*", true},
		{"news:comp.lang.go", true},
		{"news:123@host.example", true}, // article
		{"nntp://host/group/12", true},
		{"telnet://user:pw@host/", true},
		{"wais://host/db?query", true},
		{"wais://host/db/type/path", true},
		{"mailto:a@b", true},
		{"file://localhost/etc/motd", true},
		{"file:///etc/motd", true},
		{"prospero://host/a/b;f=v", true},
		{"http://1.2.3.4/", true},
		{"http://1.2.3/", false}, // neither hostnumber nor hostname
		{"http://a-/", false},    // a label cannot end with "-"
	} {
		err := Validate("rfc1738", tt.in)
		if tt.valid {
			assert.NoError(t, err, tt.in)
		} else {
			assert.Error(t, err, tt.in)
		}
	}
}

// The draft's §2.2 puts national into unreserved; RFC 1808 §2.2 does not.
func TestDraftNational(t *testing.T) {
	for _, c := range `{}|\^~[]` + "`" {
		in := "http://a/b" + string(c) + "c"
		assert.NoError(t, Validate("rfc1808-draft", in), in)
		var e *Error
		require.ErrorAs(t, Validate("rfc1808", in), &e, in)
		assert.Equal(t, 10, e.Offset, in)
	}
}

func TestUnknownGrammar(t *testing.T) {
	err := Validate("rfc9999", "http://a/")
	assert.ErrorIs(t, err, ErrUnknownGrammar)
	assert.EqualError(t, err, `grammar: no such grammar "rfc9999" (want rfc1738, rfc1808, rfc1808-draft, rfc2396, rfc3986)`)
}

func TestTooLong(t *testing.T) {
	in := strings.Repeat("a", MaxLength+1)
	err := Validate("rfc3986", in)
	assert.ErrorIs(t, err, ErrTooLong)
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, MaxLength, e.Offset)
	assert.NoError(t, Validate("rfc3986", in[:MaxLength]))
}

// Hostile inputs take time linear in their length: nested repetitions
// (hostname, IPv6address, segment) cannot make the matcher backtrack.
func TestHostileInputs(t *testing.T) {
	inputs := []string{
		"http://" + strings.Repeat("a.", MaxLength/2-8),
		"http://[" + strings.Repeat("1:", MaxLength/2-8),
		"http://" + strings.Repeat("a-", MaxLength/2-8),
		strings.Repeat("%", MaxLength),
		strings.Repeat(";", MaxLength),
	}
	for _, name := range Names() {
		for _, in := range inputs {
			err := Validate(name, in)
			if err != nil {
				var e *Error
				require.ErrorAs(t, err, &e)
				assert.LessOrEqual(t, e.Offset, len(in))
			}
		}
	}
}

// Malformed grammar texts give errors, not panics.
func TestParseRulesErrors(t *testing.T) {
	tests := []struct {
		nt   notation
		text string
		err  string
	}{
		{bnf, `a = "x`, "unterminated string"},
		{bnf, `a = <x`, "unterminated <prose>"},
		{bnf, `a = ( "x"`, "unclosed group"},
		{bnf, `a = "x" )`, `unexpected ")"`},
		{bnf, `a = `, "empty alternative"},
		{bnf, `a = "x" | `, "empty alternative"},
		{bnf, `a = "x" a = "y"`, "defined twice"},
		{bnf, `= "x"`, "want a rule"},
		{bnf, `a = 99*"x"`, "bad repetition"},
		{bnf, `a = 3*2"x"`, "bad repetition"},
		{bnf, `a = "" `, "empty string"},
		{bnf, `a = <some prose>`, "is not a rule name"},
		{bnf, `a = "x" ! "y"`, `unexpected '!'`},
		{abnf, `a = %d65`, "unsupported value"},
		{abnf, `a = %x5A-41`, "bad range"},
		{abnf, `a = %xZZ`, "bad value"},
	}
	for _, tt := range tests {
		_, err := parseRules(tt.text, tt.nt)
		if assert.Error(t, err, tt.text) {
			assert.Contains(t, err.Error(), tt.err, tt.text)
		}
	}
	rs, err := parseRules(`a = b  b = a`, bnf)
	require.NoError(t, err)
	_, err = compile(rs, "a")
	assert.EqualError(t, err, "rule a is recursive")
	_, err = compile(rs, "c")
	assert.EqualError(t, err, `no rule "c"`)
	rs, err = parseRules(`a = b`, bnf)
	require.NoError(t, err)
	_, err = compile(rs, "a")
	assert.EqualError(t, err, `no rule "b"`)
}

func TestErrorUnwrap(t *testing.T) {
	err := Validate("rfc3986", " ")
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.Nil(t, errors.Unwrap(err))
}
