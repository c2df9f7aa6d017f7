package materialize

import (
	"bytes"
	"strings"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/htmlrewrite"
)

// charsetTag is the element withCharset inserts.
func charsetTag(name string) string { return `<meta charset="` + name + `">` }

// withCharset keeps the encoding an HTTP header gave a page: from file://
// there is no header, so a page that does not declare the same encoding
// itself (a BOM, or a <meta> naming it) gets a <meta charset> that does
// (checking-and-archives.md §6.2.9). The encoding is charset, the one the
// open step decided and the page was read and rewritten in (not decided
// again from the rewritten bytes, whose first 1024 may hold another
// <meta> than the captured page's did). It goes right after a leading
// doctype, which must stay first (anything before it means quirks mode),
// else at the very start: either way within the 1024 bytes the prescan
// reads (HTML Standard §13.2.3.2), and ahead of any <meta> of the page.
func withCharset(doc []byte, ctype, charset string) []byte {
	_, params := archive.ParseMediaType(ctype)
	if params["charset"] == "" || hasBOM(doc) {
		return doc
	}
	switch charset {
	case "", "utf-16le", "utf-16be", "iso-2022-jp", "replacement":
		// Undecided, or not ASCII-compatible: a <meta> in ASCII
		// bytes would be no declaration there.
		return doc
	}
	prefix := doc[:min(len(doc), 1024)]
	if _, own, err := htmlrewrite.Encoding(prefix, ""); err == nil && own == charset && bytes.Contains(bytes.ToLower(prefix), []byte("charset")) {
		return doc
	}
	at := doctypeEnd(doc)
	out := make([]byte, 0, len(doc)+len(charset)+20)
	out = append(out, doc[:at]...)
	out = append(out, charsetTag(charset)...)
	return append(out, doc[at:]...)
}

func hasBOM(b []byte) bool {
	return bytes.HasPrefix(b, []byte{0xef, 0xbb, 0xbf}) || bytes.HasPrefix(b, []byte{0xfe, 0xff}) || bytes.HasPrefix(b, []byte{0xff, 0xfe})
}

// doctypeEnd returns the offset just after a doctype that starts the
// document (after white space), or 0.
func doctypeEnd(doc []byte) int {
	i := 0
	for i < len(doc) && strings.IndexByte(" \t\r\n\f", doc[i]) >= 0 {
		i++
	}
	if len(doc)-i < 9 || !strings.EqualFold(string(doc[i:i+9]), "<!doctype") {
		return 0
	}
	if j := bytes.IndexByte(doc[i:min(len(doc), i+1024)], '>'); j >= 0 {
		return i + j + 1
	}
	return 0
}
