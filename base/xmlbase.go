package base

import (
	"fmt"

	"github.com/relurl/relurl/resolve"
)

// XMLBase returns the base URI of an element that carries xml:base=value,
// whose parent's base URI is parent: the draft's §3.1 (base within the
// content) for XML, as XML Base (Second Edition) §4.2 defines it and RFC
// 3986 §5.1.1 names it. The value is a reference resolved against the
// parent's base (§4.3: "the base URI of the element's parent" for the
// xml:base attribute itself), so relative values chain and an empty value
// gives the parent's base without its fragment (RFC 3986 §5.2.2). where
// says which element carries it, for Detail (e.g. "<entry> at line 4").
//
// A value that does not resolve (no parent base, an opaque parent) leaves
// the parent's base in place with a warning, so that a document's links
// still resolve as far as they can.
func (c *Context) XMLBase(parent Result, value, where string) Result {
	detail := "xml:base on " + where
	ignore := func(err error) Result {
		r := parent
		r.Warnings = append(append([]string(nil), parent.Warnings...), fmt.Sprintf("%s %q ignored: %v", detail, value, err))
		return r
	}
	r, err := resolve.NewResolver(c.Spec, parent.URL, c.Options)
	if err != nil {
		// No parent base: only an absolute value can stand (§3.4 below).
		if !absolute(value) {
			return ignore(err)
		}
		if r, err = resolve.NewResolver(c.Spec, value, c.Options); err != nil {
			return ignore(err)
		}
		u, err := r.Reference("")
		if err != nil {
			return ignore(err)
		}
		return Result{URL: u, Source: Embedded, Detail: detail}
	}
	u, err := r.Reference(value)
	if err != nil {
		return ignore(err)
	}
	return Result{URL: u, Source: Embedded, Detail: detail}
}
