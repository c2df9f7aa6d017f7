package resolve

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/htmlindex"
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

// TestEncodingStandardEncoders: queries in the legacy CJK encodings are
// encoded by the Encoding Standard's encoders, whose steps before the index
// lookup x/text's encoders lack. Each row names the step.
func TestEncodingStandardEncoders(t *testing.T) {
	tests := []struct{ encoding, query, want, step string }{
		{"shift_jis", "¥", `\`, "§13.3.2 step 2"},
		{"shift_jis", "‾", "~", "§13.3.2 step 3"},
		{"shift_jis", "\u0080", "%80", "§13.3.2 step 1"},
		{"shift_jis", "ｱ", "%B1", "§13.3.2 step 4"},
		{"shift_jis", "−", "%81|", "§13.3.2 step 5"},
		{"shift_jis", "纊", `%FA\`, "§13.3.2 step 6: index Shift_JIS pointer skips 8272 to 8835"},
		{"shift_jis", "ⅰ", "%FA@", "§13.3.2 step 6"},
		{"shift_jis", "日", "%93%FA", "§13.3.2 step 6"},
		{"euc-jp", "¥", `\`, "§13.2.2 step 2"},
		{"euc-jp", "‾", "~", "§13.2.2 step 3"},
		{"euc-jp", "ｱ", "%8E%B1", "§13.2.2 step 4"},
		{"euc-jp", "−", "%A1%DD", "§13.2.2 step 5"},
		{"euc-jp", "ÿ", "%26%23255%3B", "§13.2.2 step 6: index jis0208 only, no JIS X 0212"},
		{"euc-jp", "纊", "%F9%A1", "§13.2.2 step 7"},
		{"iso-2022-jp", "ｱ", "%1B$B%%22%1B(B", "§12.2.2 step 8: katakana index, then jis0208"},
		{"iso-2022-jp", "¥a", `%1B(J\a%1B(B`, "§12.2.2 steps 4 and 6: Roman"},
		{"iso-2022-jp", "‾\\", `%1B(J~%1B(B\`, "§12.2.2 step 5: U+005C leaves Roman"},
		{"iso-2022-jp", "日ā", "%1B$BF|%1B(B%26%23257%3B", "§12.2.2 step 9: back to ASCII before the error"},
		{"iso-2022-jp", "\x0e", "%26%2365533%3B", "§12.2.2 step 2"},
		{"gbk", "\ue5e5", "%26%2358853%3B", "§10.2.2 step 3"},
		{"gbk", "€", "%80", "§10.2.2 step 4"},
		{"gb18030", "\ue5e5", "%26%2358853%3B", "§10.2.2 step 3"},
		{"big5", "€", "%A3%E1", "§11.1.2"},
		{"windows-1252", "€ā", "%80%26%23257%3B", "§9.2 and percent-encode after encoding"},
	}
	for _, tt := range tests {
		enc, err := htmlindex.Get(tt.encoding)
		require.NoError(t, err)
		got := string(appendQuery(nil, tt.query, specialQuerySet, enc))
		assert.Equal(t, tt.want, got, "%s %q (%s)", tt.encoding, tt.query, tt.step)
	}
}
