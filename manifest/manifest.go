// Package manifest rewrites the URL members of a web app manifest (W3C
// Web Application Manifest; application/manifest+json, .webmanifest) to
// absolute form, or extracts them with their positions, leaving every
// other byte of the JSON as it was.
//
// Every URL member resolves against the manifest's own URL (Options.Context:
// the URL it was fetched from, in a WARC its record's WARC-Target-URI),
// except id, which resolves against the origin of start_url ("process the
// id member"). The members read: start_url, scope, id, icons[].src,
// screenshots[].src, shortcuts[].url, shortcuts[].icons[].src,
// protocol_handlers[].url (a %s template: kept as written by the WHATWG
// parser), share_target.action, file_handlers[].action,
// related_applications[].url, lock_screen.start_url and
// note_taking.new_note_url. Other members (name, sizes, type, purpose,
// protocol, theme_color, ...) are not URLs, wherever they are.
//
// JSON strings are decoded (\/, \u002e) to resolve and re-escaped on write.
// The manifest is held in memory (up to Options.MaxSize).
package manifest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/internal/linkref"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// Options control a rewrite or an extraction: the link.Document every
// reader takes, which is all a manifest needs. Of the Document, for a
// manifest: Context holds the manifest's URL (§3.3) and headers;
// ContentType is not read (a manifest is UTF-8 JSON); MaxSize bounds the
// manifest held in memory.
type Options struct {
	link.Document
}

// members are the URL members, by path ("[]" for any array element).
var members = map[string]bool{
	"start_url": true, "scope": true, "id": true,
	"icons[].src": true, "screenshots[].src": true,
	"shortcuts[].url": true, "shortcuts[].icons[].src": true,
	"protocol_handlers[].url": true, "share_target.action": true,
	"file_handlers[].action": true, "related_applications[].url": true,
	"lock_screen.start_url": true, "note_taking.new_note_url": true,
}

// value is a string member found in the manifest.
type value struct {
	path   string
	v0, v1 int    // the string's content in the source, quotes excluded
	text   string // decoded
	ok     bool   // the escapes decoded
}

// ErrSyntax is returned for a manifest that is not JSON: its links cannot
// be known, and it is not rewritten.
var ErrSyntax error = &Error{Op: "parse", Err: errors.New("not a JSON object")}

// Error records a failure of this package, in the manner of net/url's
// Error: the step that failed and why.
type Error struct {
	Op  string // "read" (a manifest over its bound), "parse", "decode" (a member's escapes)
	Err error
}

func (e *Error) Error() string { return "manifest: " + e.Err.Error() }

// Text is the error without the package's name, as a command shows it.
func (e *Error) Text() string { return errtext.Of(e.Err) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Rewrite copies the manifest src to dst with its URL members in absolute
// form. A manifest that is not JSON is copied unchanged with ErrSyntax.
func Rewrite(dst io.Writer, src io.Reader, opts Options) (link.Stats, error) {
	data, vals, b, err := read(src, &opts)
	w := bufio.NewWriter(dst)
	st := link.Stats{Base: b}
	if err != nil {
		w.Write(data)
		if long := (*linkref.TooLongError)(nil); errors.As(err, &long) {
			if cerr := long.CopyRest(w); cerr != nil {
				return st, cerr
			}
		}
		if ferr := w.Flush(); ferr != nil {
			return st, ferr
		}
		return st, err
	}
	d := linkref.Decider{Absolute: opts.Absolute, Fragments: opts.Fragments, Map: opts.Map}
	sp := linkref.Splicer{W: w, Src: data}
	lines := linkref.Lines{Src: data}
	each(vals, data, opts, b, func(v value, res *resolve.Resolver, resErr error) {
		if !v.ok {
			d.Stats.Links++
			d.Stats.Failed++
			return
		}
		u, ok := d.Write(res, resErr, v.text, func(u string) link.Link { return newLink(v, u, nil, &lines, b) })
		if ok {
			sp.Replace(v.v0, v.v1, quote(u))
		}
	})
	sp.Finish()
	d.Stats.Base = b
	return d.Stats, w.Flush()
}

// Links calls fn for every URL member of the manifest src, in order, and
// returns the manifest's base.
func Links(src io.Reader, opts Options, fn func(link.Link) error) (base.Result, error) {
	data, vals, b, err := read(src, &opts)
	if err != nil {
		return b, err
	}
	lines := linkref.Lines{Src: data}
	var ferr error
	each(vals, data, opts, b, func(v value, res *resolve.Resolver, resErr error) {
		if ferr != nil {
			return
		}
		if !v.ok {
			ferr = fn(newLink(v, "", &Error{Op: "decode", Err: fmt.Errorf("bad escape in %s", v.path)}, &lines, b))
			return
		}
		u, err := linkref.Resolve(res, resErr, link.Clean(v.text))
		ferr = fn(newLink(v, u, err, &lines, b))
	})
	return b, ferr
}

func newLink(v value, u string, err error, lines *linkref.Lines, b base.Result) link.Link {
	line, col := lines.Position(v.v0)
	return link.Link{Raw: v.text, URL: u, Err: err, Attr: v.path, Kind: link.Manifest,
		Line: line, Column: col, Offset: int64(v.v0), Base: b}
}

func read(src io.Reader, opts *Options) ([]byte, []value, base.Result, error) {
	b := opts.Context.Decide(base.Element{})
	data, err := linkref.ReadDocument(src, opts.MaxSize)
	if long := (*linkref.TooLongError)(nil); errors.As(err, &long) {
		err = &Error{Op: "read", Err: err}
	}
	if err != nil {
		return data, nil, b, err
	}
	p := parser{src: data}
	p.space()
	if p.i < len(data) && data[p.i] != '{' {
		return data, nil, b, ErrSyntax
	}
	if !p.value("") {
		if p.deep > 0 {
			// Not a syntax error: a limit of the reader's.
			l := linkref.Lines{Src: data}
			line, _ := l.Position(p.deep - 1)
			return data, nil, b, &link.IncompleteError{What: "a JSON value", Line: line, Offset: int64(p.deep - 1), Limit: maxDepth, Unit: "levels"}
		}
		return data, nil, b, ErrSyntax
	}
	p.space()
	if p.i != len(data) {
		return data, nil, b, ErrSyntax
	}
	return data, p.vals, b, nil
}

// each calls fn for the URL members with the resolver each resolves
// against: the manifest URL, or for id the origin of start_url.
func each(vals []value, data []byte, opts Options, b base.Result, fn func(value, *resolve.Resolver, error)) {
	res, resErr := newResolver(opts, b.URL)
	var idRes *resolve.Resolver
	idErr := resErr
	start := b.URL
	for _, v := range vals {
		if v.path == "start_url" && v.ok && res != nil {
			if ref := link.Clean(v.text); ref != "" {
				if u, err := res.Reference(ref); err == nil {
					start = u
				}
			}
			break
		}
	}
	if o := origin(start); o != "" {
		idRes, idErr = newResolver(opts, o)
	}
	for _, v := range vals {
		if !members[v.path] {
			continue
		}
		if v.path == "id" {
			fn(v, idRes, idErr)
			continue
		}
		fn(v, res, resErr)
	}
}

func newResolver(opts Options, u string) (*resolve.Resolver, error) {
	if u == "" {
		return nil, resolve.ErrNoBase
	}
	return resolve.NewResolver(opts.Context.Spec, u, opts.Context.Options)
}

// origin returns scheme://authority/ of an absolute hierarchical URL.
func origin(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return ""
	}
	j := strings.IndexAny(u[i+3:], "/?#")
	if j < 0 {
		return u + "/"
	}
	return u[:i+3+j] + "/"
}

// quote escapes a URL for a JSON string (RFC 8259 §7).
func quote(u string) string {
	q := strconv.Quote(u) // Go's escapes are JSON's for ASCII text
	if strings.ContainsAny(u, "\x7f") || !isASCIIPrintable(u) {
		var b strings.Builder
		for _, r := range u {
			switch {
			case r == '"' || r == '\\':
				b.WriteByte('\\')
				b.WriteRune(r)
			case r < 0x20:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	return q[1 : len(q)-1]
}

func isASCIIPrintable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// parser is a JSON reader (RFC 8259) that keeps the position and path of
// every string value.
type parser struct {
	src   []byte
	i     int
	vals  []value
	depth int
	deep  int // where a value went past maxDepth, +1; 0 when none did
}

const maxDepth = 512

func (p *parser) space() {
	for p.i < len(p.src) && (p.src[p.i] == ' ' || p.src[p.i] == '\t' || p.src[p.i] == '\n' || p.src[p.i] == '\r') {
		p.i++
	}
}

func (p *parser) value(path string) bool {
	p.space()
	if p.i >= len(p.src) {
		return false
	}
	switch c := p.src[p.i]; {
	case c == '{':
		if p.depth++; p.depth > maxDepth {
			p.deep = p.i + 1
			return false
		}
		defer func() { p.depth-- }()
		p.i++
		p.space()
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.i++
			return true
		}
		for {
			p.space()
			k0, k1, key, ok := p.str()
			_ = k0
			_ = k1
			if !ok {
				return false
			}
			p.space()
			if p.i >= len(p.src) || p.src[p.i] != ':' {
				return false
			}
			p.i++
			sub := key
			if path != "" {
				sub = path + "." + key
			}
			if !p.value(sub) {
				return false
			}
			p.space()
			if p.i >= len(p.src) {
				return false
			}
			if p.src[p.i] == '}' {
				p.i++
				return true
			}
			if p.src[p.i] != ',' {
				return false
			}
			p.i++
		}
	case c == '[':
		if p.depth++; p.depth > maxDepth {
			p.deep = p.i + 1
			return false
		}
		defer func() { p.depth-- }()
		p.i++
		p.space()
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.i++
			return true
		}
		for {
			if !p.value(path + "[]") {
				return false
			}
			p.space()
			if p.i >= len(p.src) {
				return false
			}
			if p.src[p.i] == ']' {
				p.i++
				return true
			}
			if p.src[p.i] != ',' {
				return false
			}
			p.i++
		}
	case c == '"':
		v0, v1, text, ok := p.str()
		if v1 < 0 {
			return false
		}
		p.vals = append(p.vals, value{path: path, v0: v0, v1: v1, text: text, ok: ok})
		return true
	default:
		j := p.i
		for j < len(p.src) && strings.IndexByte(",]} \t\r\n", p.src[j]) < 0 {
			j++
		}
		if j == p.i {
			return false
		}
		p.i = j
		return true
	}
}

// str reads a string at p.i: its content's span, decoded text, and false
// for a bad escape (v1 < 0 when unterminated).
func (p *parser) str() (int, int, string, bool) {
	if p.i >= len(p.src) || p.src[p.i] != '"' {
		return 0, -1, "", false
	}
	v0 := p.i + 1
	var b strings.Builder
	ok := true
	i := v0
	for i < len(p.src) {
		c := p.src[i]
		switch {
		case c == '"':
			p.i = i + 1
			return v0, i, b.String(), ok
		case c == '\\' && i+1 < len(p.src):
			e := p.src[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, n := p.u16(i)
				if n == 0 {
					ok = false
					continue
				}
				i += n
				b.WriteRune(r)
			default:
				ok = false
			}
			continue
		}
		b.WriteByte(c)
		i++
	}
	return v0, -1, "", false
}

// u16 decodes XXXX (and a following \uXXXX low surrogate) at i.
func (p *parser) u16(i int) (rune, int) {
	hex := func(i int) (rune, bool) {
		if i+4 > len(p.src) {
			return 0, false
		}
		n, err := strconv.ParseUint(string(p.src[i:i+4]), 16, 32)
		return rune(n), err == nil
	}
	r, ok := hex(i)
	if !ok {
		return 0, 0
	}
	if utf16.IsSurrogate(r) {
		if i+10 <= len(p.src) && p.src[i+4] == '\\' && p.src[i+5] == 'u' {
			if r2, ok := hex(i + 6); ok {
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					return d, 10
				}
			}
		}
		return utf8.RuneError, 4
	}
	return r, 4
}
