// Package jsmodule finds the module specifiers and module-relative URLs
// of a JavaScript module (HTML Living Standard §8.1.5 "resolve a module
// specifier"; ECMAScript import and export declarations, import() calls),
// rewrites them byte-preserving, or extracts them with their positions.
//
// Read: static import ... from "x", side-effect import "x", export ...
// from "x" (also with import attributes), import("x") with a string
// literal or a template without substitutions, import.meta.resolve("x"),
// and new URL("x", import.meta.url). Specifiers that are URL-like (they
// start with "/", "./" or "../", or are absolute URLs) resolve against
// the module's URL (Options.Context: its response URL; for an inline
// module, the document base). Bare specifiers ("lodash", "utils.js") are
// not URLs: they resolve only through an import map, so they are reported
// (unresolved, ErrBare) only when Options.ImportMap maps them, and never
// rewritten.
//
// The source goes through github.com/tdewolff/parse/v2/js's lexer, which
// returns tokens as subslices of the input (their byte offsets), so that
// strings, comments, regular expressions and templates that look like
// imports are never taken for them. A "/" is read as the start of a
// regular expression where an expression may start (after an operator,
// a punctuator other than ")", "]" and "}", or a keyword): the lexer
// alone cannot know, and this heuristic fails after the ")" of
// "if (...) /re/.test(x)".
package jsmodule

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tdewolff/parse/v2"
	"github.com/tdewolff/parse/v2/js"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/linkref"
	"github.com/relurl/relurl/resolve"
)

// ErrBare is the error of a bare specifier: it names a module through an
// import map, not a URL.
var ErrBare = errors.New("jsmodule: a bare specifier, resolved only through an import map")

// Options control a rewrite or an extraction.
type Options struct {
	Spec    resolve.Spec
	Context base.Context // the module's URL (§3.3); its Spec defaults to Spec
	// ImportMap holds the specifier keys of the import maps in force: a
	// bare specifier is reported only when one of them matches it
	// (exactly, or as a prefix ending in "/").
	ImportMap []string
	Absolute  bool // also rewrite specifiers that are absolute URLs
	Map       func(htmlrewrite.Link) (string, bool)
	MaxSize   int // bound on the module held in memory; 0 is htmlrewrite.DefaultMaxToken
}

// ref is one specifier or URL found in the source.
type ref struct {
	s0, s1 int    // its string token, quotes included
	text   string // decoded
	quote  byte
	ok     bool // its escapes decoded
	url    bool // new URL(x, import.meta.url): a URL, not a specifier
	attr   string
}

// Rewrite copies the module src to dst with its URL-like specifiers in
// absolute form.
func Rewrite(dst io.Writer, src io.Reader, opts Options) (htmlrewrite.Stats, error) {
	data, refs, b, err := read(src, &opts)
	w := bufio.NewWriter(dst)
	st := htmlrewrite.Stats{Base: b}
	if err != nil && refs == nil {
		w.Write(data)
		if ferr := w.Flush(); ferr != nil {
			return st, ferr
		}
		return st, err
	}
	res, resErr := resolver(opts, b.URL)
	d := linkref.Decider{Absolute: opts.Absolute, Map: opts.Map}
	sp := linkref.Splicer{W: w, Src: data}
	lines := linkref.Lines{Src: data}
	for _, r := range refs {
		if !r.ok || !r.url && !urlLike(r.text) && !opts.Absolute {
			continue // bare specifiers are never rewritten
		}
		if !r.url && !urlLike(r.text) {
			if _, abs := resolve.Scheme(r.text); !abs {
				continue
			}
		}
		u, ok := d.Write(res, resErr, r.text, func(u string) htmlrewrite.Link { return r.link(u, nil, &lines) })
		if ok {
			sp.Replace(r.s0+1, r.s1-1, escape(u, r.quote))
		}
	}
	sp.Finish()
	d.Stats.Base = b
	if ferr := w.Flush(); ferr != nil {
		return d.Stats, ferr
	}
	return d.Stats, err // a lexing error: rewritten up to it, the rest as written
}

// Links calls fn for every specifier and module-relative URL of the
// module src, in order, and returns its base.
func Links(src io.Reader, opts Options, fn func(htmlrewrite.Link) error) (base.Result, error) {
	data, refs, b, err := read(src, &opts)
	if err != nil && refs == nil {
		return b, err
	}
	res, resErr := resolver(opts, b.URL)
	lines := linkref.Lines{Src: data}
	for _, r := range refs {
		var l htmlrewrite.Link
		switch {
		case !r.ok:
			l = r.link("", fmt.Errorf("jsmodule: bad escape in %q", r.text), &lines)
		case !r.url && !urlLike(r.text) && !isAbsolute(r.text):
			if !mapped(opts.ImportMap, r.text) {
				continue
			}
			l = r.link("", ErrBare, &lines)
		default:
			u, err := linkref.Resolve(res, resErr, r.text)
			l = r.link(u, err, &lines)
		}
		if err := fn(l); err != nil {
			return b, err
		}
	}
	return b, err
}

func (r ref) link(u string, err error, lines *linkref.Lines) htmlrewrite.Link {
	line, col := lines.Position(r.s0 + 1)
	k := htmlrewrite.Import
	if r.url {
		k = htmlrewrite.Resource
	}
	return htmlrewrite.Link{Raw: r.text, URL: u, Err: err, Attr: r.attr, Kind: k, Line: line, Column: col, Offset: int64(r.s0 + 1)}
}

func resolver(opts Options, u string) (*resolve.Resolver, error) {
	if u == "" {
		return nil, resolve.ErrNoBase
	}
	return resolve.NewResolver(opts.Context.Spec, u, opts.Context.Options)
}

// urlLike reports whether a specifier is relative URL-like (HTML "resolve
// a URL-like module specifier").
func urlLike(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "./") || strings.HasPrefix(s, "../")
}

func isAbsolute(s string) bool {
	_, abs := resolve.Scheme(s)
	return abs
}

// mapped reports whether an import map key matches the bare specifier s.
func mapped(keys []string, s string) bool {
	for _, k := range keys {
		if k == s || strings.HasSuffix(k, "/") && strings.HasPrefix(s, k) {
			return true
		}
	}
	return false
}

// escape writes u for a string delimited by quote (a backtick for a
// template): backslash, the quote and line terminators escaped.
func escape(u string, quote byte) string {
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
		case quote == '`' && c == '$' && i+1 < len(u) && u[i+1] == '{':
			b.WriteString(`\$`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func read(src io.Reader, opts *Options) ([]byte, []ref, base.Result, error) {
	if opts.Context.Spec == 0 {
		opts.Context.Spec = opts.Spec
	}
	b := opts.Context.Decide(base.Element{})
	data, err := linkref.ReadDocument(src, opts.MaxSize)
	if long := (*linkref.TooLongError)(nil); errors.As(err, &long) {
		err = fmt.Errorf("jsmodule: %w", err)
	}
	if err != nil {
		return data, nil, b, err
	}
	refs, err := scan(data)
	return data, refs, b, err
}

// token is a significant token with its span.
type token struct {
	tt   js.TokenType
	a, b int
	text []byte
}

// scan lexes the module and picks out the specifiers. A lexing error
// ends the scan: what was found before it is kept, and the error returned.
func scan(data []byte) ([]ref, error) {
	in := parse.NewInputBytes(data)
	l := js.NewLexer(in)
	var toks []token
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
			refs := pick(toks, data)
			if err != nil {
				err = fmt.Errorf("jsmodule: %v", err)
			}
			return refs, err
		}
		switch tt {
		case js.WhitespaceToken, js.LineTerminatorToken, js.CommentToken, js.CommentLineTerminatorToken:
			continue
		}
		end := in.Offset()
		toks = append(toks, token{tt, end - len(text), end, text})
		prev = tt
	}
}

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

// pick runs the state machine over the significant tokens.
func pick(toks []token, data []byte) []ref {
	var refs []ref
	str := func(i int) (ref, bool) {
		if i >= len(toks) {
			return ref{}, false
		}
		t := toks[i]
		if t.tt != js.StringToken && !(t.tt == js.TemplateToken && len(t.text) >= 2 && t.text[0] == '`') {
			return ref{}, false
		}
		r := ref{s0: t.a, s1: t.b, quote: t.text[0]}
		r.text, r.ok = decode(t.text[1 : len(t.text)-1])
		return r, true
	}
	is := func(i int, tt js.TokenType) bool { return i < len(toks) && toks[i].tt == tt }
	isIdent := func(i int, name string) bool { return i < len(toks) && string(toks[i].text) == name }
	for i := 0; i < len(toks); i++ {
		if i > 0 && (is(i-1, js.DotToken) || is(i-1, js.OptChainToken)) {
			continue // a property named import, export or new
		}
		switch toks[i].tt {
		case js.ImportToken:
			switch {
			case is(i+1, js.OpenParenToken):
				// import("x"), import(`x`)
				if r, ok := str(i + 2); ok && (is(i+3, js.CloseParenToken) || is(i+3, js.CommaToken)) {
					r.attr = "import()"
					refs = append(refs, r)
				}
			case is(i+1, js.DotToken):
				// import.meta.resolve("x")
				if isIdent(i+2, "meta") && is(i+3, js.DotToken) && isIdent(i+4, "resolve") && is(i+5, js.OpenParenToken) {
					if r, ok := str(i + 6); ok {
						r.attr = "import.meta.resolve"
						refs = append(refs, r)
					}
				}
			default:
				if r, ok := str(i + 1); ok {
					r.attr = "import"
					refs = append(refs, r)
					continue
				}
				if r, ok := fromClause(toks, i+1, str); ok {
					r.attr = "import"
					refs = append(refs, r)
				}
			}
		case js.ExportToken:
			if is(i+1, js.MulToken) || is(i+1, js.OpenBraceToken) {
				if r, ok := fromClause(toks, i+1, str); ok {
					r.attr = "export"
					refs = append(refs, r)
				}
			}
		case js.NewToken:
			// new URL("x", import.meta.url)
			if isIdent(i+1, "URL") && is(i+2, js.OpenParenToken) && is(i+4, js.CommaToken) &&
				is(i+5, js.ImportToken) && is(i+6, js.DotToken) && isIdent(i+7, "meta") && is(i+8, js.DotToken) &&
				isIdent(i+9, "url") && is(i+10, js.CloseParenToken) {
				if r, ok := str(i + 3); ok {
					r.url, r.attr = true, "new URL"
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
func fromClause(toks []token, i int, str func(int) (ref, bool)) (ref, bool) {
	const maxClause = 4096
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
			return ref{}, false
		}
	}
	return ref{}, false
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
