// Package htmlrewrite rewrites every URL-bearing attribute of an HTML
// stream to absolute form, or extracts the links, leaving every other byte
// as it was.
//
// CONTRACT STUB: the types and functions below are the seams other
// packages build against; the htmlrewrite issue fills them in (and may add
// to them, but keeps these signatures).
package htmlrewrite

import (
	"errors"
	"io"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/resolve"
)

// Options control a rewrite or an extraction.
type Options struct {
	Spec resolve.Spec // resolution rules; the zero value is an error
	// Context gives the layers below the document's own <base> (§3.2–3.4).
	Context base.Context
}

// Kind classifies a link by what following it does.
type Kind int

// Link kinds.
const (
	Navigation Kind = iota // a, area, form targets a user follows
	Resource               // embedded: img, script, link rel=stylesheet, ...
	Form                   // form action, button formaction
	Citation               // cite, longdesc
	Refresh                // meta http-equiv=refresh
	CSS                    // url() and @import in CSS
	Redirect               // an HTTP redirect (WARC)
)

// Link is one URL found in a document.
type Link struct {
	Raw    string // the value as written, character references decoded
	URL    string // the absolute URL; "" when Err is set
	Err    error
	Tag    string // lower-case element name
	Attr   string // lower-case attribute name
	Kind   Kind
	Rel    []string
	Line   int   // 1-based
	Column int   // 1-based, in bytes
	Offset int64 // byte offset of the value's first byte
}

// Stats reports what a rewrite did.
type Stats struct {
	Base      base.Result // the document's base and where it came from
	Links     int         // URL values seen
	Rewritten int         // values changed
	Failed    int         // values that could not be resolved (left as written)
}

var errNotYet = errors.New("htmlrewrite: not implemented yet")

// Rewrite copies the HTML document src to dst with every URL-bearing
// attribute in absolute form.
func Rewrite(dst io.Writer, src io.Reader, opts Options) (Stats, error) {
	return Stats{}, errNotYet
}

// Links calls fn for every link of the HTML document src, in document
// order. It stops at the first error fn returns and returns it.
func Links(src io.Reader, opts Options, fn func(Link) error) (base.Result, error) {
	return base.Result{}, errNotYet
}
