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
// The source goes through github.com/tdewolff/parse/v2/js's lexer (see
// internal/modspec, shared with htmlrewrite's inline module scripts), so
// that strings, comments, regular expressions and templates that look
// like imports are never taken for them.
package jsmodule

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/internal/linkref"
	"github.com/relurl/relurl/internal/modspec"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// ErrBare is the error of a bare specifier: it names a module through an
// import map, not a URL.
var ErrBare = modspec.ErrBare

// Options control a rewrite or an extraction: the link.Document every
// reader takes, and the import maps in force. Of the Document, for a
// module: Context holds the module's URL (§3.3); Absolute also rewrites
// specifiers that are absolute URLs; ContentType and Fragments are not
// read (a module is UTF-8, and a specifier is no fragment); MaxSize
// bounds the module held in memory.
type Options struct {
	link.Document

	// ImportMap holds the specifier keys of the import maps in force: a
	// bare specifier is reported only when one of them matches it
	// (exactly, or as a prefix ending in "/").
	ImportMap []string
}

// ref is one specifier or URL found in the source.
type ref modspec.Ref

// Rewrite copies the module src to dst with its URL-like specifiers in
// absolute form.
func Rewrite(dst io.Writer, src io.Reader, opts Options) (link.Stats, error) {
	data, refs, b, err := read(src, &opts)
	w := bufio.NewWriter(dst)
	st := link.Stats{Base: b}
	if err != nil && refs == nil {
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
	res, resErr := resolver(opts, b.URL)
	d := linkref.Decider{Absolute: opts.Absolute, Map: opts.Map}
	sp := linkref.Splicer{W: w, Src: data}
	lines := linkref.Lines{Src: data}
	for _, r := range refs {
		if !r.OK || !r.URL && !modspec.URLLike(r.Text) && !opts.Absolute {
			continue // bare specifiers are never rewritten
		}
		if !r.URL && modspec.Bare(r.Text) {
			continue
		}
		u, ok := d.Write(res, resErr, r.Text, func(u string) link.Link { return r.link(u, nil, &lines, b) })
		if ok {
			sp.Replace(r.Start+1, r.End-1, modspec.Escape(u, r.Quote, false))
		}
	}
	sp.Finish()
	d.Stats.Base = b
	if ferr := w.Flush(); ferr != nil {
		return d.Stats, ferr
	}
	return d.Stats, err // a lexing error: rewritten up to it, the rest as written
}

// Error records a failure of this package, in the manner of net/url's
// Error: the step that failed and why.
type Error struct {
	Op  string // "read" (a module over its bound), "scan", "decode" (a specifier's escapes)
	Err error
}

func (e *Error) Error() string { return "jsmodule: " + e.Err.Error() }

// Text is the error without the package's name, as a command shows it.
func (e *Error) Text() string { return errtext.Of(e.Err) }

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// Links calls fn for every specifier and module-relative URL of the
// module src, in order, and returns its base.
func Links(src io.Reader, opts Options, fn func(link.Link) error) (base.Result, error) {
	data, refs, b, err := read(src, &opts)
	if err != nil && refs == nil {
		return b, err
	}
	res, resErr := resolver(opts, b.URL)
	lines := linkref.Lines{Src: data}
	for _, r := range refs {
		var l link.Link
		switch {
		case !r.OK:
			l = r.link("", &Error{Op: "decode", Err: fmt.Errorf("bad escape in %q", r.Text)}, &lines, b)
		case !r.URL && modspec.Bare(r.Text):
			if !modspec.Mapped(opts.ImportMap, r.Text) {
				continue
			}
			l = r.link("", ErrBare, &lines, b)
		default:
			u, err := linkref.Resolve(res, resErr, r.Text)
			l = r.link(u, err, &lines, b)
		}
		if err := fn(l); err != nil {
			return b, err
		}
	}
	return b, err
}

func (r ref) link(u string, err error, lines *linkref.Lines, b base.Result) link.Link {
	line, col := lines.Position(r.Start + 1)
	k := link.Import
	if r.URL {
		k = link.Resource
	}
	return link.Link{Raw: r.Text, URL: u, Err: err, Attr: r.Form, Kind: k, Line: line, Column: col, Offset: int64(r.Start + 1), Base: b}
}

func resolver(opts Options, u string) (*resolve.Resolver, error) {
	if u == "" {
		return nil, resolve.ErrNoBase
	}
	return resolve.NewResolver(opts.Context.Spec, u, opts.Context.Options)
}

func read(src io.Reader, opts *Options) ([]byte, []ref, base.Result, error) {
	b := opts.Context.Decide(base.Element{})
	data, err := linkref.ReadDocument(src, opts.MaxSize)
	if long := (*linkref.TooLongError)(nil); errors.As(err, &long) {
		err = &Error{Op: "read", Err: err}
	}
	if err != nil {
		return data, nil, b, err
	}
	found, err := modspec.Scan(data)
	refs := make([]ref, len(found))
	for i, r := range found {
		refs[i] = ref(r)
	}
	if err != nil {
		err = &Error{Op: "scan", Err: err}
	}
	return data, refs, b, err
}
