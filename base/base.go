// Package base establishes the base URL of a document by the layers of
// the relative-URL draft's §3 (RFC 1808 §3), and says which layer decided.
//
// CONTRACT STUB: the types and functions below are the seams other
// packages build against; the base issue fills them in (and may add to
// them, but keeps these signatures).
package base

import (
	"io"
	"net/textproto"

	"github.com/relurl/relurl/resolve"
)

// Source names the §3 layer that decided a base URL.
type Source int

// The layers, innermost first.
const (
	Default   Source = iota // §3.4: no base; relative references cannot be resolved
	Embedded                // §3.1: in the content (HTML <base href>)
	Header                  // §3.2: Base, Content-Base or Content-Location header
	Retrieval               // §3.3: the URL the document was retrieved from (after redirects)
	Composite               // §3.3: the base of the enclosing multipart/* or message/* entity
)

// String returns "default", "embedded", "header", "retrieval" or "composite".
func (s Source) String() string {
	switch s {
	case Embedded:
		return "embedded"
	case Header:
		return "header"
	case Retrieval:
		return "retrieval"
	case Composite:
		return "composite"
	}
	return "default"
}

// Result is a base URL and its provenance.
type Result struct {
	URL      string   // the base URL; "" when Source is Default
	Source   Source   // the layer that decided
	Detail   string   // why, e.g. "<base href> at line 12"
	Warnings []string // layers that were present but ignored, and why
}

// Context holds what lies outside the document: the layers below §3.1.
type Context struct {
	Spec resolve.Spec // how relative header values and <base href> are resolved

	Header textproto.MIMEHeader // message headers (§3.2); nil when none
	// ContentLocation makes Content-Location count for an HTTP response
	// (browsers ignore it there); MIME parts always honour it (RFC 2557).
	ContentLocation bool
	HeaderOf        string // where Header comes from, for Detail (e.g. "part 3")

	Retrieval string  // §3.3: the retrieval URL, after redirects
	Enclosing *Result // §3.3: the base of the enclosing composite entity, if any

	Strict bool // §3.1 per the draft's appendix: only a BASE in HEAD with an absolute HREF
}

// Element is the <base> element a scan found.
type Element struct {
	Found  bool
	Href   string // the attribute value, with character references decoded
	Line   int    // 1-based
	Column int    // 1-based, in bytes
	Offset int64  // byte offset of the "<" of the tag
}

// ScanHTML finds the <base href> that decides an HTML document's base
// (browser semantics, or the draft's appendix when strict) without
// building a DOM. It reads r to the end at most, holding no more than a
// token at a time.
func ScanHTML(r io.Reader, strict bool) (Element, []string, error) {
	return Element{}, nil, nil
}

// Fallback returns the base from the layers below the content:
// headers (§3.2), then retrieval URL or enclosing entity (§3.3), then the
// default (§3.4).
func (c *Context) Fallback() Result {
	switch {
	case c.Retrieval != "":
		return Result{URL: c.Retrieval, Source: Retrieval, Detail: "retrieval URL"}
	case c.Enclosing != nil:
		return Result{URL: c.Enclosing.URL, Source: Composite, Detail: "base of enclosing entity"}
	}
	return Result{Source: Default, Detail: "default"}
}

// Decide returns the base of a document whose scan found e: the embedded
// base (§3.1) resolved against the fallback when e is usable, else the
// fallback.
func (c *Context) Decide(e Element) Result {
	fb := c.Fallback()
	if !e.Found {
		return fb
	}
	r, err := resolve.NewResolver(c.Spec, fb.URL, resolve.Options{})
	if err != nil {
		return fb
	}
	u, err := r.Reference(e.Href)
	if err != nil {
		return fb
	}
	return Result{URL: u, Source: Embedded, Detail: "<base href>"}
}
