package resolve

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPercentEncodeSets checks each set against the URL Standard's
// definitions (§1.3): which printable ASCII code points it holds, beyond
// the C0 controls and the code points above U+007E that all of them hold.
func TestPercentEncodeSets(t *testing.T) {
	tests := []struct {
		name string
		set  *encodeSet
		want string
	}{
		{"C0 control percent-encode set", c0ControlSet, ""},
		{"fragment percent-encode set", fragmentSet, " \"<>`"},
		{"query percent-encode set", querySet, " \"#<>"},
		{"special-query percent-encode set", specialQuerySet, " \"#'<>"},
		{"path percent-encode set", pathSet, " \"#<>?^`{}"},
		{"userinfo percent-encode set", userinfoSet, " \"#/:;<=>?@[\\]^`{|}"},
	}
	for _, tt := range tests {
		got := ""
		for c := 0x20; c < 0x7F; c++ {
			if tt.set[c] {
				got += string(rune(c))
			}
		}
		assert.Equal(t, tt.want, got, tt.name)
		for c := 0; c < 0x20; c++ {
			assert.True(t, tt.set[c], "%s holds C0 control %#x", tt.name, c)
		}
		for c := 0x7F; c < 0x100; c++ {
			assert.True(t, tt.set[c], "%s holds byte %#x", tt.name, c)
		}
	}
}

// TestAppendEncoded: "UTF-8 percent-encode" (§1.3) with uppercase hex,
// byte by byte for a code point's UTF-8 form.
func TestAppendEncoded(t *testing.T) {
	assert.Equal(t, "a%20b%E2%80%A0%00", string(appendEncoded(nil, "a b\u2020\x00", pathSet)))
	assert.Equal(t, "%", string(appendEncoded(nil, "%", userinfoSet)), `"%" is in no percent-encode set`)
}
