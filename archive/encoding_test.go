package archive

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeQP: RFC 2045 §6.7 rules, and the leniency real archives need.
func TestDecodeQP(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"rule 2: literal", "abc xyz", "abc xyz"},
		{"rule 1: =XX", "a=3Db=20c", "a=b c"},
		{"rule 1: lower-case hex", "a=3db", "a=b"},
		{"rule 5: soft line break CRLF", "<a href=3D\"x.c=\r\nss\">", `<a href="x.css">`},
		{"rule 5: soft line break LF", "ab=\ncd", "abcd"},
		{"rule 4: hard line breaks kept CRLF", "a\r\nb", "a\r\nb"},
		{"rule 4: hard line breaks kept LF", "a\nb\n", "a\nb\n"},
		{"rule 3: trailing whitespace dropped", "a  \r\nb\t\r\n", "a\r\nb\r\n"},
		{"soft break after trailing whitespace", "a= \r\nb", "ab"},
		{"§6.7 note: bare = kept", `<img src="x">`, `<img src="x">`},
		{"bad hex kept", "=ZZ=4", "=ZZ=4"},
		{"final soft break", "abc=", "abc"},
		{"8-bit bytes", "=F0=9F=98=89", "\xf0\x9f\x98\x89"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, string(decodeQP([]byte(tt.in))), tt.name)
	}
}

// TestEncodeQP: RFC 2045 §6.7: "=", controls and 8-bit octets as =XX,
// whitespace before a line end encoded, soft breaks so that no line
// exceeds 76 characters, no =XX split, hard line breaks as in the input.
func TestEncodeQP(t *testing.T) {
	tests := []struct {
		name, in, eol, want string
	}{
		{"plain", "abc", "\r\n", "abc"},
		{"equals", `href="a"`, "\r\n", `href=3D"a"`},
		{"trailing space", "a \r\nb\t", "\r\n", "a=20\r\nb=09"},
		{"inner space", "a b", "\r\n", "a b"},
		{"8-bit", "caf\xc3\xa9", "\n", "caf=C3=A9"},
		{"lone CR", "a\rb", "\r\n", "a=0Db"},
		{"LF hard break", "a\nb", "\r\n", "a\nb"},
		{"76 exactly", strings.Repeat("x", 76), "\r\n", strings.Repeat("x", 76)},
		{"77 wraps", strings.Repeat("x", 77), "\r\n", strings.Repeat("x", 75) + "=\r\nxx"},
		{"escape not split", strings.Repeat("x", 74) + "=", "\n", strings.Repeat("x", 74) + "=\n=3D"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, string(encodeQP([]byte(tt.in), tt.eol)), tt.name)
	}
}

// TestQPRoundTrip: decoding what the encoder writes gives the input
// back, and every line stays within 76 characters.
func TestQPRoundTrip(t *testing.T) {
	inputs := []string{
		"",
		strings.Repeat("<a href=\"http://example.com/a/very/long/path\">link</a> ", 20),
		"line one  \r\nline two\t\r\n\r\nend",
		"\x00\x01\xff=\r\n=\n",
		strings.Repeat("é", 100),
	}
	for _, in := range inputs {
		for _, eol := range []string{"\r\n", "\n"} {
			enc := encodeQP([]byte(in), eol)
			assert.Equal(t, in, string(decodeQP(enc)))
			for _, line := range strings.Split(string(enc), "\n") {
				assert.LessOrEqual(t, len(strings.TrimSuffix(line, "\r")), maxLine, line)
			}
		}
	}
}

// TestBase64: RFC 4648 §10 test vectors, decoding past line breaks and
// junk (RFC 2045 §6.8), missing padding, and 76-column lines.
func TestBase64(t *testing.T) {
	vectors := [][2]string{{"", ""}, {"f", "Zg=="}, {"fo", "Zm8="}, {"foo", "Zm9v"}, {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"}}
	for _, v := range vectors {
		assert.Equal(t, v[1], string(encodeBase64([]byte(v[0]), "\r\n")))
		got, err := decodeBase64([]byte(v[1]))
		require.NoError(t, err)
		assert.Equal(t, v[0], string(got))
	}
	got, err := decodeBase64([]byte("Zm9v\r\nYmFy\r\n"))
	require.NoError(t, err)
	assert.Equal(t, "foobar", string(got))
	got, err = decodeBase64([]byte("Zm9vYg"))
	require.NoError(t, err)
	assert.Equal(t, "foob", string(got))
	got, err = decodeBase64([]byte("Zm9v*YmFy!"))
	require.NoError(t, err)
	assert.Equal(t, "foobar", string(got))

	long := bytes.Repeat([]byte{0xfb}, 200)
	enc := encodeBase64(long, "\n")
	lines := strings.Split(string(enc), "\n")
	assert.Len(t, lines, 4)
	assert.Len(t, lines[0], 76)
	back, err := decodeBase64(enc)
	require.NoError(t, err)
	assert.Equal(t, long, back)
}

// TestEncodeBody: re-encoding follows the original's line ends and its
// final line break; identity encodings pass through.
func TestEncodeBody(t *testing.T) {
	assert.Equal(t, "a=3Db\r\n", string(encodeBody(QuotedPrintable, []byte("a=b\r\n"), []byte("x\r\n"))))
	assert.Equal(t, "YQ==\n", string(encodeBody(Base64, []byte("a"), []byte("eA==\n"))))
	assert.Equal(t, "YQ==", string(encodeBody(Base64, []byte("a"), []byte("eA=="))))
	assert.Equal(t, "a\xff", string(encodeBody(Binary, []byte("a\xff"), nil)))
	// A body that ended in a soft line break (no final newline decoded)
	// ends in one again: a hard break would add bytes to the content.
	assert.Equal(t, "ab=\r\n", string(encodeBody(QuotedPrintable, []byte("ab"), []byte("a=\r\nb=\r\n"))))
	assert.Equal(t, "ab", string(decodeQP(encodeBody(QuotedPrintable, []byte("ab"), []byte("x=\n")))))
	long := strings.Repeat("x", maxLine)
	assert.Equal(t, long[1:]+"=\nx=\n", string(encodeBody(QuotedPrintable, []byte(long), []byte("x=\n"))), "no line over 76")
	assert.Equal(t, "\n", lineEnd([]byte("a\nb\n")))
	assert.Equal(t, "\r\n", lineEnd([]byte("a\nb\r\n")))
	assert.Equal(t, "\r\n", lineEnd([]byte("ab")))
}
