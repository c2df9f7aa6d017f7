package base

import (
	"strings"
	"testing"

	"golang.org/x/net/html/charset"
)

// TestEncoding: HTML Standard §13.2.3.1 (the layers, each named) and the
// §13.2.3.2 prescan's cases.
func TestEncoding(t *testing.T) {
	pad := strings.Repeat("a", 1019)
	cases := []struct {
		name, head, contentType string
		want, source            string
	}{
		{"utf-8 BOM", "\xef\xbb\xbf<meta charset=latin1>", "text/html; charset=koi8-r", "utf-8", ByBOM},
		{"utf-16le BOM", "\xff\xfe<\x00", "", "utf-16le", ByBOM},
		{"utf-16be BOM", "\xfe\xff\x00<", "", "utf-16be", ByBOM},
		{"Content-Type", "<meta charset=latin1>", "text/html; charset=koi8-r", "koi8-r", ByContentType},
		{"Content-Type unknown label", "<meta charset=latin1>", "text/html; charset=nonesuch", "windows-1252", ByMeta},
		{"meta charset", "<!DOCTYPE html><meta charset=\"ISO-8859-2\">", "", "iso-8859-2", ByMeta},
		{"meta charset label", "<meta charset=latin1>", "", "windows-1252", ByMeta},
		{"meta pragma", `<meta http-equiv="Content-Type" content="text/html; charset=euc-jp">`, "", "euc-jp", ByMeta},
		{"meta pragma after content", `<meta content="text/html; charset='shift_jis'" http-equiv=content-type>`, "", "shift_jis", ByMeta},
		// content without http-equiv=content-type does not decide.
		{"content without pragma", `<meta content="text/html; charset=euc-jp">`, "", "utf-8", ByDefault},
		// A label the Encoding Standard does not know: the next <meta>.
		{"unknown then known", `<meta charset=nonesuch><meta charset=koi8-u>`, "", "koi8-u", ByMeta},
		{"first wins", `<meta charset=koi8-u><meta charset=koi8-r>`, "", "koi8-u", ByMeta},
		// UTF-16 declared in ASCII bytes is UTF-8.
		{"utf-16 declared", `<meta charset=utf-16le>`, "", "utf-8", ByMeta},
		{"utf-8 declared", `<meta charset=utf-8>`, "", "utf-8", ByMeta},
		{"in a comment", `<!-- <meta charset=koi8-r> -->`, "", "utf-8", ByDefault},
		{"past 1024 bytes", strings.Repeat(" ", 1024) + `<meta charset=koi8-r>`, "", "utf-8", ByDefault},
		{"nothing, ASCII", "<p>plain", "", "utf-8", ByDefault},
		{"nothing, UTF-8", "<p>caf\u00e9</p>", "", "utf-8", ByDefault},
		// x/net's guess drops the last non-ASCII character, whole or not.
		{"nothing, last character UTF-8", "<p>caf\u00e9", "", "windows-1252", ByDefault},
		{"empty", "", "", "utf-8", ByDefault},
		// The bug fixed: no <meta> decided these (it said "<meta>").
		{"nothing, Latin-1", "<!DOCTYPE html><title>caf\xe9</title><p>no meta here", "", "windows-1252", ByDefault},
		{"nothing, UTF-8 split at 1020", pad + "\u00e9" + "xxxx", "", "utf-8", ByDefault},
	}
	for _, c := range cases {
		enc, name, source := Encoding([]byte(c.head), c.contentType)
		if name != c.want || source != c.source {
			t.Errorf("%s: Encoding = %q, %q; want %q, %q", c.name, name, source, c.want, c.source)
		}
		if (enc == nil) != (name == "utf-8") {
			t.Errorf("%s: encoding %v for %q", c.name, enc, name)
		}
	}
}

// FuzzDetermineEncoding: determineEncoding's name is x/net's
// charset.DetermineEncoding's, and <meta> is named exactly when
// DetermineEncoding is uncertain and the answer differs from its guess.
func FuzzDetermineEncoding(f *testing.F) {
	f.Add([]byte(`<meta charset=koi8-r>`), "")
	f.Add([]byte(`<meta http-equiv=content-type content="charset=utf-16">`), "text/html")
	f.Add([]byte("caf\xe9"), "text/html; charset=latin1")
	f.Add([]byte("\xef\xbb\xbf<p>"), "")
	// The prescan on internal/token (20l): character references and
	// newlines in values, names in upper case, duplicate attributes
	// (first wins, also past the tokenizer's 16 compared by name), <meta>
	// in raw text, comments and foreign content, a tag cut at byte 1024.
	for _, s := range prescanCases {
		f.Add([]byte(s), "")
	}
	f.Fuzz(func(t *testing.T, head []byte, contentType string) {
		_, want, certain := charset.DetermineEncoding(head, contentType)
		name, source := determineEncoding(head, contentType)
		if name != want {
			t.Fatalf("determineEncoding(%q, %q) = %q, DetermineEncoding %q", head, contentType, name, want)
		}
		if certain != (source == ByBOM || source == ByContentType) {
			t.Fatalf("determineEncoding(%q, %q) source %q, DetermineEncoding certain %v", head, contentType, source, certain)
		}
	})
}
