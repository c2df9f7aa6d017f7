// Package modspec finds, as byte ranges of the source, the module
// specifiers and module-relative URLs of a JavaScript module (ECMAScript
// import and export declarations, import() calls; HTML §8.1.5 "resolve a
// module specifier") and the addresses and keys of an import map (HTML
// §8.1.5.3 "parse an import map string"). It decides nothing about bases
// or rewriting: package jsmodule (module files) and htmlrewrite (inline
// <script type=module> and <script type=importmap>) do, each its own way,
// on the ranges found here.
//
// The JavaScript goes through github.com/tdewolff/parse/v2/js's lexer,
// which returns tokens as subslices of the input (their byte offsets), so
// that strings, comments, regular expressions and templates that look
// like imports are never taken for them. A "/" is read as the start of a
// regular expression where an expression may start (after an operator,
// a punctuator other than ")", "]" and "}", or a keyword): the lexer
// alone cannot know, and this heuristic fails after the ")" of
// "if (...) /re/.test(x)".
package modspec

import (
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"

	"github.com/relurl/relurl/resolve"
)

// ErrBare is the error of a bare specifier: it names a module through an
// import map, not a URL.
var ErrBare = errors.New("a bare specifier, resolved only through an import map")

// Ref is one specifier or URL found in a module's source.
type Ref struct {
	Start, End int    // its string token, quotes included
	Text       string // decoded
	Quote      byte   // ', " or a backtick
	OK         bool   // its escapes decoded
	URL        bool   // new URL(x, import.meta.url): a URL, not a specifier
	Form       string // "import", "export", "import()", "import.meta.resolve" or "new URL"
}

// URLLike reports whether a specifier is relative URL-like (HTML "resolve
// a URL-like module specifier", steps 1-2).
func URLLike(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../")
}

// Absolute reports whether s is read as an absolute URL (it has a scheme).
func Absolute(s string) bool {
	_, abs := resolve.Scheme(s)
	return abs
}

// Bare reports whether the specifier s is neither URL-like nor absolute:
// a name only an import map gives meaning to.
func Bare(s string) bool {
	return !URLLike(s) && !Absolute(s)
}

// Mapped reports whether an import map key matches the bare specifier s:
// exactly, or as a prefix ending in "/" (HTML "resolve an imports match").
func Mapped(keys []string, s string) bool {
	for _, k := range keys {
		if k == s || strings.HasSuffix(k, "/") && strings.HasPrefix(s, k) {
			return true
		}
	}
	return false
}

// Escape writes u for the content of a string delimited by quote (a
// backtick for a template): backslash, the quote and line terminators
// escaped; with html, also "<" (as \x3C), so that the text cannot end or
// open the HTML <script> element it stands in.
func Escape(u string, quote byte, html bool) string {
	var b strings.Builder
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c == '\\' || c == quote:
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '<' && html:
			b.WriteString(`\x3C`)
		case quote == '`' && c == '$' && i+1 < len(u) && u[i+1] == '{':
			b.WriteString(`\$`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// token is a significant token with its span.
type token struct {
	tt   js.TokenType
	a, b int
	text []byte
}

// Scan lexes the module and picks out the specifiers, in order. A lexing
// error ends the scan: what was found before it is kept, and the lexer's
// error returned.
//
// The significant tokens are held in a window of at most window tokens
// (a match looks one token back and at most ahead tokens forward), so
// memory does not grow with the module's length.
func Scan(data []byte) ([]Ref, error) {
	in := parse.NewInputBytes(data)
	l := js.NewLexer(in)
	var toks []token
	var refs []Ref
	start := 0 // the first token not yet picked from
	prev := js.ErrorToken
	for {
		tt, text := l.Next()
		if (tt == js.DivToken || tt == js.DivEqToken) && regexpMayStart(prev, toks) {
			tt, text = l.RegExp()
		}
		if tt == js.ErrorToken {
			err := l.Err()
			if err == io.EOF {
				err = nil
			}
			refs = pick(refs, toks, start, len(toks))
			return refs, err
		}
		switch tt {
		case js.WhitespaceToken, js.LineTerminatorToken, js.CommentToken, js.CommentLineTerminatorToken:
			continue
		}
		end := in.Offset()
		toks = append(toks, token{tt, end - len(text), end, text})
		prev = tt
		if len(toks) >= window {
			// Pick from the tokens whose matches are wholly held, and
			// keep the rest with the one token before them.
			n := len(toks) - ahead
			refs = pick(refs, toks, start, n)
			toks = toks[:copy(toks, toks[n-1:])]
			start = 1
		}
	}
}

// maxClause bounds the tokens of an import or export clause; ahead is
// how far a match looks forward; window is how many tokens Scan holds
// (a variable for tests).
const (
	maxClause = 4096
	ahead     = maxClause + 16
)

var window = 4 * ahead

// regexpMayStart reports whether a "/" after prev starts an expression.
func regexpMayStart(prev js.TokenType, toks []token) bool {
	switch prev {
	case js.ErrorToken:
		return true
	case js.CloseParenToken, js.CloseBracketToken, js.CloseBraceToken,
		js.StringToken, js.TemplateToken, js.TemplateEndToken, js.RegExpToken,
		js.ThisToken, js.SuperToken, js.NullToken, js.TrueToken, js.FalseToken,
		js.IncrToken, js.DecrToken:
		return false
	}
	if js.IsNumeric(prev) {
		return false
	}
	if js.IsIdentifier(prev) || js.IsIdentifierName(prev) && !js.IsReservedWord(prev) {
		return false
	}
	return true
}

// pick runs the state machine over the significant tokens, for the
// matches that start at toks[from:to], and appends them to refs.
func pick(refs []Ref, toks []token, from, to int) []Ref {
	str := func(i int) (Ref, bool) {
		if i >= len(toks) {
			return Ref{}, false
		}
		t := toks[i]
		if t.tt != js.StringToken && !(t.tt == js.TemplateToken && len(t.text) >= 2 && t.text[0] == '`') {
			return Ref{}, false
		}
		r := Ref{Start: t.a, End: t.b, Quote: t.text[0]}
		r.Text, r.OK = decode(t.text[1 : len(t.text)-1])
		return r, true
	}
	is := func(i int, tt js.TokenType) bool { return i < len(toks) && toks[i].tt == tt }
	isIdent := func(i int, name string) bool { return i < len(toks) && string(toks[i].text) == name }
	for i := from; i < to; i++ {
		if i > 0 && (is(i-1, js.DotToken) || is(i-1, js.OptChainToken)) {
			continue // a property named import, export or new
		}
		switch toks[i].tt {
		case js.ImportToken:
			switch {
			case is(i+1, js.OpenParenToken):
				// import("x"), import(`x`)
				if r, ok := str(i + 2); ok && (is(i+3, js.CloseParenToken) || is(i+3, js.CommaToken)) {
					r.Form = "import()"
					refs = append(refs, r)
				}
			case is(i+1, js.DotToken):
				// import.meta.resolve("x")
				if isIdent(i+2, "meta") && is(i+3, js.DotToken) && isIdent(i+4, "resolve") && is(i+5, js.OpenParenToken) {
					if r, ok := str(i + 6); ok {
						r.Form = "import.meta.resolve"
						refs = append(refs, r)
					}
				}
			default:
				if r, ok := str(i + 1); ok {
					r.Form = "import"
					refs = append(refs, r)
					continue
				}
				if r, ok := fromClause(toks, i+1, str); ok {
					r.Form = "import"
					refs = append(refs, r)
				}
			}
		case js.ExportToken:
			if is(i+1, js.MulToken) || is(i+1, js.OpenBraceToken) {
				if r, ok := fromClause(toks, i+1, str); ok {
					r.Form = "export"
					refs = append(refs, r)
				}
			}
		case js.NewToken:
			// new URL("x", import.meta.url)
			if isIdent(i+1, "URL") && is(i+2, js.OpenParenToken) && is(i+4, js.CommaToken) &&
				is(i+5, js.ImportToken) && is(i+6, js.DotToken) && isIdent(i+7, "meta") && is(i+8, js.DotToken) &&
				isIdent(i+9, "url") && is(i+10, js.CloseParenToken) {
				if r, ok := str(i + 3); ok {
					r.URL, r.Form = true, "new URL"
					refs = append(refs, r)
				}
			}
		}
	}
	return refs
}

// fromClause finds the string after "from" in an import or export clause
// starting at i: it ends at the first string, ";" or keyword that cannot
// be in a clause.
func fromClause(toks []token, i int, str func(int) (Ref, bool)) (Ref, bool) {
	for j := i; j < len(toks) && j < i+maxClause; j++ {
		t := toks[j]
		switch {
		case t.tt == js.StringToken:
			if j > i && string(toks[j-1].text) == "from" {
				return str(j)
			}
			if j > i && toks[j-1].tt == js.AsToken {
				continue // export { "a" as "b" }: string names
			}
			continue
		case t.tt == js.SemicolonToken, t.tt == js.OpenParenToken, t.tt == js.EqToken:
			return Ref{}, false
		}
	}
	return Ref{}, false
}

// decode decodes a string literal's escapes (ECMAScript §12.9.4).
func decode(s []byte) (string, bool) {
	if !strings.ContainsRune(string(s), '\\') {
		return string(s), true
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case '0':
			b.WriteByte(0)
		case '\n':
		case '\r':
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case 'x':
			if i+2 >= len(s) {
				return "", false
			}
			n, err := strconv.ParseUint(string(s[i+1:i+3]), 16, 8)
			if err != nil {
				return "", false
			}
			b.WriteRune(rune(n))
			i += 2
		case 'u':
			var hex string
			if i+1 < len(s) && s[i+1] == '{' {
				j := strings.IndexByte(string(s[i:]), '}')
				if j < 0 {
					return "", false
				}
				hex, i = string(s[i+2:i+j]), i+j
			} else {
				if i+4 >= len(s) {
					return "", false
				}
				hex, i = string(s[i+1:i+5]), i+4
			}
			n, err := strconv.ParseUint(hex, 16, 32)
			if err != nil || n > utf8.MaxRune {
				return "", false
			}
			b.WriteRune(rune(n))
		default:
			b.WriteByte(e)
		}
	}
	return b.String(), true
}
