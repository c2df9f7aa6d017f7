package htmlrewrite

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/relurl/relurl/resolve"
)

// cssURL is a URL found in CSS: the span of its text in the sheet, the
// URL that text means (escapes decoded), and how it is delimited: 0 for an
// unquoted url(), else the quote of a string.
type cssURL struct {
	u0, u1 int
	ref    string
	quote  byte
}

// cssURLs calls fn for every URL in the CSS text v, per CSS Syntax Level 3
// §4 tokenization, as far as URLs need: url() in both its forms, the
// string or url() after @import, and the strings of image-set() and
// -webkit-image-set(). Comments and other strings are skipped, and the
// URL of @namespace is not one (it names a namespace).
//
// It returns the end of the last ";", "{" or "}" of v that is a token of
// its own outside parentheses: where the scan's state is as at the start,
// so that the text after it scans alone as it would after the rest (0:
// none). A <style> sheet is cut there into pieces (cssCut).
func cssURLs(v string, fn func(cssURL)) (cut int) {
	var (
		atRule   string // the at-rule whose prelude we are in
		first    bool   // nothing but whitespace since the at-rule's name
		depth    int    // open parentheses
		imageSet int    // the depth inside image-set(); 0 when outside
	)
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case isSpace(c):
			i++
			continue
		case c == '/' && i+1 < len(v) && v[i+1] == '*':
			end := strings.Index(v[i+2:], "*/")
			if end < 0 {
				return cut
			}
			i += end + 4
			continue
		case c == '"' || c == '\'':
			j, u := cssString(v, i)
			// Only image-set()'s own strings: not type("image/avif").
			if imageSet > 0 && depth == imageSet || atRule == "import" && first {
				fn(u)
			}
			i = j
		case c == '\\' && (i+1 >= len(v) || v[i+1] == '\n'):
			i += 2
		case c == '@':
			j := cssName(v, i+1)
			atRule, first = strings.ToLower(v[i+1:j]), true
			i = j
			continue
		case c == ';' || c == '{' || c == '}':
			atRule = ""
			i++
			if depth == 0 {
				cut = i
			}
		case c == '(':
			depth++
			i++
		case c == ')':
			if depth == imageSet {
				imageSet = 0
			}
			if depth > 0 {
				depth--
			}
			i++
		case isNameStart(c) || c == '-' || c == '\\':
			j := cssName(v, i)
			if j == i {
				i++
				break
			}
			if j < len(v) && v[j] == '(' {
				// The name with its escapes decoded (§4.3.11 consume a
				// name): u\72 l( and \75 rl( are url( too.
				switch strings.ToLower(cssNameValue(v[i:j])) {
				case "url":
					k, u, ok := cssURLToken(v, j+1)
					if ok && !(atRule == "namespace") {
						fn(u)
					}
					i = k
					first = false
					continue
				case "image-set", "-webkit-image-set":
					depth++
					imageSet = depth
					j++
				}
			}
			i = j
		default:
			i++
		}
		first = false
	}
	return cut
}

// cssCut is where a <style> sheet's text read so far, data, may be cut
// (see cssURLs), for the tokenizer's SetStyleSplit.
func cssCut(data []byte) int {
	return cssURLs(unsafe.String(unsafe.SliceData(data), len(data)), func(cssURL) {})
}

// isNameStart reports whether c starts a CSS name (CSS Syntax §4.2
// "name-start code point": a letter, "_" or a non-ASCII byte). A table:
// cssName and cssURLs ask it of most bytes of a sheet.
func isNameStart(c byte) bool { return nameStartBytes[c] }

var nameStartBytes = func() (t [256]bool) {
	for c := range 256 {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_' || c >= 0x80
	}
	return t
}()

// cssNameValue decodes the escapes of a name.
func cssNameValue(n string) string {
	if strings.IndexByte(n, '\\') < 0 {
		return n
	}
	var b strings.Builder
	for i := 0; i < len(n); {
		if n[i] == '\\' {
			i = cssEscape(n, i, &b)
			continue
		}
		b.WriteByte(n[i])
		i++
	}
	return b.String()
}

// cssName returns the end of the name (ident code points and escapes)
// starting at i.
func cssName(v string, i int) int {
	for i < len(v) {
		c := v[i]
		switch {
		case isNameStart(c) || c == '-' || '0' <= c && c <= '9':
			i++
		case c == '\\' && i+1 < len(v) && v[i+1] != '\n':
			// A whole escape: hex digits and the white space after them.
			var b strings.Builder
			i = cssEscape(v, i, &b)
		default:
			return i
		}
	}
	return i
}

// cssString reads the string starting with the quote at v[i] (CSS Syntax
// §4.3.5) and returns the index after it and the URL it holds: its span
// runs to the closing quote, or to a newline or the end for a bad or
// unterminated string.
func cssString(v string, i int) (int, cssURL) {
	q := v[i]
	var b strings.Builder
	escaped := false
	j := i + 1
	for j < len(v) {
		c := v[j]
		if c == q || c == '\n' {
			break
		}
		if c == '\\' {
			if !escaped {
				escaped = true
				b.WriteString(v[i+1 : j])
			}
			j = cssEscape(v, j, &b)
			continue
		}
		if escaped {
			b.WriteByte(c)
		}
		j++
	}
	u := cssURL{u0: i + 1, u1: j, ref: cssRef(v[i+1:j], &b, escaped), quote: q}
	if j < len(v) && v[j] == q {
		j++
	}
	return j, u
}

// cssEscape decodes the escape at v[j] ("\" then hex digits and one
// optional whitespace, or an escaped newline, or any one character) into b
// and returns the index after it (CSS Syntax §4.3.7).
func cssEscape(v string, j int, b *strings.Builder) int {
	j++
	if j >= len(v) {
		return j
	}
	if v[j] == '\n' {
		return j + 1
	}
	h := j
	for h < len(v) && h-j < 6 && isHex(v[h]) {
		h++
	}
	if h > j {
		n, _ := strconv.ParseUint(v[j:h], 16, 32)
		r := rune(n)
		if r == 0 || r > utf8.MaxRune || 0xD800 <= r && r <= 0xDFFF {
			r = utf8.RuneError
		}
		b.WriteRune(r)
		if h < len(v) && isSpace(v[h]) {
			h++
			if v[h-1] == '\r' && h < len(v) && v[h] == '\n' {
				h++
			}
		}
		return h
	}
	_, size := utf8.DecodeRuneInString(v[j:])
	b.WriteString(v[j : j+size])
	return j + size
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// cssURLToken reads what follows "url(" at i: a string (a function whose
// argument is a URL) or an unquoted url token (CSS Syntax §4.3.6). It
// returns the index after the closing parenthesis, or ok false for a bad
// url, which is left alone.
func cssURLToken(v string, i int) (int, cssURL, bool) {
	for i < len(v) && isSpace(v[i]) {
		i++
	}
	if i < len(v) && (v[i] == '"' || v[i] == '\'') {
		j, u := cssString(v, i)
		if u.u1 >= len(v) || v[u.u1] != u.quote {
			return j, cssURL{}, false
		}
		k := j
		for k < len(v) && isSpace(v[k]) {
			k++
		}
		if k < len(v) && v[k] == ')' {
			k++
		}
		return k, u, true
	}
	u0 := i
	var b strings.Builder
	escaped := false
	for i < len(v) {
		c := v[i]
		switch {
		case c == ')':
			return i + 1, cssURL{u0, i, cssRef(v[u0:i], &b, escaped), 0}, true
		case isSpace(c):
			u1 := i
			for i < len(v) && isSpace(v[i]) {
				i++
			}
			if i < len(v) && v[i] == ')' {
				return i + 1, cssURL{u0, u1, cssRef(v[u0:u1], &b, escaped), 0}, true
			}
			return i, cssURL{}, false
		case c == '"' || c == '\'' || c == '(' || c < 0x20 || c == 0x7f:
			return i, cssURL{}, false
		case c == '\\':
			if i+1 >= len(v) || v[i+1] == '\n' {
				return i, cssURL{}, false
			}
			if !escaped {
				escaped = true
				b.WriteString(v[u0:i])
			}
			i = cssEscape(v, i, &b)
			continue
		}
		if escaped {
			b.WriteByte(c)
		}
		i++
	}
	return i, cssURL{}, false
}

func cssRef(raw string, b *strings.Builder, escaped bool) string {
	if escaped {
		return b.String()
	}
	return raw
}

// cssQuote returns u written for its place in CSS: inside a string
// delimited by quote, or as an unquoted url() when quote is 0.
func cssQuote(u string, quote byte) string {
	special := func(c byte) bool {
		if quote != 0 {
			return c == quote || c == '\\' || c == '\n' || c == '\r' || c == '\f'
		}
		return c == '"' || c == '\'' || c == '(' || c == ')' || c == '\\' || isSpace(c) || c < 0x20 || c == 0x7f
	}
	n := 0
	for i := 0; i < len(u); i++ {
		if special(u[i]) {
			n++
		}
	}
	if n == 0 {
		return u
	}
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case !special(c):
			b.WriteByte(c)
		case c < 0x20 || c == 0x7f || c == ' ':
			b.WriteString("\\" + strconv.FormatUint(uint64(c), 16) + " ")
		default:
			b.WriteByte('\\')
			b.WriteByte(c)
		}
	}
	return b.String()
}

// css handles the CSS text v (a style attribute's value, or a <style>
// sheet when sheet). Fragment-only url(#id) is never made absolute: CSS
// Values 4 §4.5.1 makes it local to the document whatever the base.
func (s *scanner) css(v string, res *resolve.Resolver, at *site, sheet bool) {
	cssURLs(v, func(u cssURL) {
		ref := clean(u.ref)
		if strings.HasPrefix(ref, "#") || ref == "" {
			return
		}
		n := len(s.subs)
		decoded := u.ref
		if decoded == v[u.u0:u.u1] {
			s.ref(v, u.u0, u.u1, res, at, false, cssSafe(u.quote, sheet))
		} else {
			// Escapes: resolve the decoded URL; the span is the whole token.
			old, pos, exact, clean := s.subs, at.pos, at.exact, at.clean
			if exact {
				at.pos, at.exact = at.pos+u.u0, false
			}
			at.clean = false // an escape may stand for a tab or newline
			s.ref(decoded, 0, len(decoded), res, at, false, cssSafe(u.quote, sheet))
			at.pos, at.exact, at.clean = pos, exact, clean
			if len(s.subs) > n {
				s.subs = append(old[:n], sub{u.u0, u.u1, s.subs[n].repl})
			}
		}
		if len(s.subs) > n {
			c := &s.subs[n]
			// The trimmed span keeps the whitespace around the URL.
			c.repl = cssQuote(c.repl, u.quote)
		}
	})
}

// cssSafe rejects a URL that could end a <style> element early.
func cssSafe(quote byte, sheet bool) func(string) bool {
	if !sheet {
		return nil
	}
	return func(u string) bool { return !strings.Contains(u, "<") }
}
