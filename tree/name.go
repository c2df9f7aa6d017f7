package tree

import (
	"encoding/hex"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DisplayName returns path as text outputs print it: as it is, unless it
// holds a control character (a newline would split a line of output, an
// escape sequence would drive the terminal) or bytes that are not UTF-8;
// then Go-quoted ("a\nb.html", "\xff.html"), as ls quotes such names.
func DisplayName(path string) string {
	if !utf8.ValidString(path) || strings.IndexFunc(path, unicode.IsControl) >= 0 {
		return strconv.Quote(path)
	}
	return path
}

// PercentEncoded is the value of the "file_encoding" field that comes with
// a "file" field JSONName had to escape.
const PercentEncoded = "percent"

// JSONName returns path as the JSON "file" fields carry it, losslessly:
// a path that is valid UTF-8 as it is (escaped reports false); otherwise
// each byte that is not part of a valid UTF-8 sequence, and each "%", as
// %XX (escaped reports true, and the output says so with
// "file_encoding":"percent"), so that percent-decoding gives the original
// bytes back. encoding/json would turn such bytes into U+FFFD, and the
// file could not be found again.
func JSONName(path string) (name string, escaped bool) {
	if utf8.ValidString(path) {
		return path, false
	}
	var b strings.Builder
	for i := 0; i < len(path); {
		r, n := utf8.DecodeRuneInString(path[i:])
		switch {
		case r == utf8.RuneError && n == 1, r == '%':
			b.WriteByte('%')
			b.WriteString(strings.ToUpper(hex.EncodeToString([]byte{path[i]})))
		default:
			b.WriteString(path[i : i+n])
		}
		i += n
	}
	return b.String(), true
}
