package resolve

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHostParserExamples runs the host parser examples of the URL
// Standard §3.5 ("host parsing" table), as the host of a special URL and,
// where the table says, of a non-special one.
func TestHostParserExamples(t *testing.T) {
	tests := []struct {
		input      string
		special    string // "" for failure
		nonSpecial string // "" for failure
	}{
		{"EXAMPLE.COM", "example.com", "EXAMPLE.COM"},
		{"example%2Ecom", "example.com", "example%2Ecom"},
		{"faß.ExAmPlE", "xn--fa-hia.example", "fa%C3%9F.ExAmPlE"},
		{"0", "0.0.0.0", "0"},
		{"%30", "0.0.0.0", "%30"},
		{"0x", "0.0.0.0", "0x"},
		{"0xffffffff", "255.255.255.255", "0xffffffff"},
		{"[0:0::1]", "[::1]", "[::1]"},
		{"[0:0::1%5D", "", ""},
		{"[0:0::%31]", "", ""},
		{"09", "", "09"},
		{"example.255", "", "example.255"},
		{"example^example", "", ""},
	}
	for _, tt := range tests {
		for _, c := range []struct{ scheme, want string }{{"https", tt.special}, {"sc", tt.nonSpecial}} {
			u, err := ParseWebURL(c.scheme+"://"+tt.input+"/", nil, Options{})
			if c.want == "" {
				assert.Error(t, err, "§3.5: %s host %q: got %v", c.scheme, tt.input, u)
				continue
			}
			if assert.NoError(t, err, "§3.5: %s host %q", c.scheme, tt.input) {
				assert.Equal(t, c.want, u.Hostname(), "§3.5: %s host %q", c.scheme, tt.input)
			}
		}
	}
}

// checkHostnames parses each in as the host of an http URL and checks
// its serialization, or that it fails when want is "".
func checkHostnames(t *testing.T, what string, tests []struct{ in, want string }) {
	t.Helper()
	for _, tt := range tests {
		u, err := ParseWebURL("http://"+tt.in+"/", nil, Options{})
		if tt.want == "" {
			assert.Error(t, err, "%s %q: got %v", what, tt.in, u)
			continue
		}
		if assert.NoError(t, err, "%s %q", what, tt.in) {
			assert.Equal(t, tt.want, u.Hostname(), "%s %q", what, tt.in)
		}
	}
}

// TestIPv4 covers the IPv4 parser (§3.5): decimal, octal and hex parts, the
// last part filling the remaining bytes, and the range checks.
func TestIPv4(t *testing.T) {
	tests := []struct{ in, want string }{
		{"127.0.0.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0x7F000001", "127.0.0.1"},
		{"1.2.3.4.", "1.2.3.4"},
		{"192.168.257", "192.168.1.1"},
		{"4294967295", "255.255.255.255"},
		{"4294967296", ""},
		{"1.2.3.4.5", ""},
		{"256.0.0.1", ""},
		{"1.2.3.256", ""},
		{"1.2.0x10000", ""},
		{"1.2.0xffff", "1.2.255.255"},
		{"08", ""},
		{"1..2", ""},
		{"foo.0x", ""},
		{"foo.09", ""},
	}
	checkHostnames(t, "IPv4", tests)
}

// TestIPv4Errors: the IPv4 parser's failures are named as the Standard
// orders its steps (§3.5): every part is parsed as a number before any is
// range-checked, and the count of parts comes first of all.
func TestIPv4Errors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{"256.foo.1", errIPv4NonNumericPart},
		{"256.1", errIPv4OutOfRange},
		{"1.2.3.4.5.", errIPv4TooManyParts},
		{strings.Repeat("1.", 1<<16) + "1", errIPv4TooManyParts},
	}
	for _, tt := range tests {
		_, err := ParseWebURL("http://"+tt.in+"/", nil, Options{})
		assert.ErrorIs(t, err, tt.want, "IPv4 %.20q", tt.in)
	}
}

// TestIPv6 covers the IPv6 parser and serializer (§3.5, §3.6): compression
// of the first longest run of zero pieces, lowercase hex, embedded IPv4,
// and the forms that fail.
func TestIPv6(t *testing.T) {
	tests := []struct{ in, want string }{
		{"[::1]", "[::1]"},
		{"[0:0:0:0:0:0:0:1]", "[::1]"},
		{"[::]", "[::]"},
		{"[1:0:0:2:0:0:0:3]", "[1:0:0:2::3]"},
		{"[1:0:0:2:0:0:3:4]", "[1::2:0:0:3:4]"},
		{"[1:0:2:3:4:5:6:7]", "[1:0:2:3:4:5:6:7]"},
		{"[2001:DB8::1]", "[2001:db8::1]"},
		{"[::FFFF:1.2.3.4]", "[::ffff:102:304]"},
		{"[::127.0.0.1]", "[::7f00:1]"},
		{"[fe80::1%25eth0]", ""},
		{"[1:2:3:4:5:6:7:8:9]", ""},
		{"[1::2::3]", ""},
		{"[:1]", ""},
		{"[1:]", ""},
		{"[::1.2.3]", ""},
		{"[::1.2.3.04]", ""},
		{"[::1.2.3.256]", ""},
		{"[12345::]", ""},
		{"[::1", ""},
	}
	checkHostnames(t, "IPv6", tests)
}

// TestDomainBound: Punycode costs time in the product of a label's
// length and its number of distinct code points, so a label that UTS #46
// would encode or decode and that is longer than maxIDNALabel bytes fails
// (once, a 64 KiB label of distinct CJK code points took 5 s). Labels are
// split where UTS #46 splits them, at "." and its three ideographic forms;
// a long domain of short labels, and an ASCII label of any length, still
// parse.
func TestDomainBound(t *testing.T) {
	distinct := func(n int) string { // n bytes of distinct CJK code points
		var b strings.Builder
		for r := rune(0x4E00); b.Len() < n; r++ {
			b.WriteRune(r)
		}
		return b.String()
	}
	long := distinct(maxIDNALabel + 3)
	for _, host := range []string{
		long,
		"a." + long + ".com",
		"ä.xn--" + strings.Repeat("a", maxIDNALabel),
		"ä.XN--" + strings.Repeat("a", maxIDNALabel),
		distinct(64 << 10),
	} {
		_, err := ParseWebURL("http://"+host+"/", nil, Options{})
		assert.ErrorIs(t, err, errLabelTooLong, "%.40q...", host)
	}
	short := distinct(maxIDNALabel - 3)
	for _, sep := range []string{".", "。", "．", "｡"} {
		host := strings.Repeat(short+sep, 300) + "com"
		u, err := ParseWebURL("http://"+host+"/", nil, Options{})
		if assert.NoError(t, err, "labels split at %q", sep) {
			assert.Equal(t, 301, strings.Count(u.Hostname(), ".")+1, "labels split at %q", sep)
		}
	}
	ascii := strings.Repeat("a", 1<<20)
	u, err := ParseWebURL("http://"+ascii+"/", nil, Options{})
	require.NoError(t, err)
	assert.Equal(t, ascii, u.Hostname())
	u, err = ParseWebURL("http://ä."+ascii[:64<<10]+"/", nil, Options{})
	require.NoError(t, err)
	assert.Equal(t, "xn--4ca."+ascii[:64<<10], u.Hostname())
}
