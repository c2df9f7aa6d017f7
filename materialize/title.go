package materialize

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// maxTitle bounds the bytes of a page read for its title, and the title.
const (
	maxTitleScan = 64 << 10
	maxTitle     = 200
)

// titleOf returns the text of a page's first <title> within its first
// 64 KiB, white space collapsed, at most 200 bytes; "" when there is none.
// It is for DIR/index.html only, so a page in an encoding other than
// UTF-8 may show mojibake there.
func titleOf(doc []byte) string {
	z := html.NewTokenizer(bytes.NewReader(doc[:min(len(doc), maxTitleScan)]))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return ""
		case html.StartTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "title":
				if z.Next() != html.TextToken {
					return ""
				}
				t := strings.Join(strings.Fields(string(z.Text())), " ")
				if len(t) > maxTitle {
					t = t[:maxTitle]
					for len(t) > 0 && !utf8.ValidString(t) {
						t = t[:len(t)-1]
					}
					t += "…"
				}
				return strings.ToValidUTF8(t, "\uFFFD")
			case "body", "svg":
				return ""
			}
		}
	}
}
