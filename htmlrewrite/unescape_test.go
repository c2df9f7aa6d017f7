package htmlrewrite

import (
	"testing"

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
