// Package lazyurl leaves a link's URL to be resolved later, by whoever
// reads the link last: relurl links -j 1 encodes and writes its records
// on a goroutine of its own (linkout.Behind), which has time to spare,
// while resolving every link's URL was an eighth of the worker's
// instructions, the one that reads the documents, and the worker does
// not look at the URL when no filter does.
//
// DeferIn, given an *htmlrewrite.Options and a *lazyref.Refs, makes the
// pass hand each link resolved against a resolver of its own with an
// empty URL, a nil Err and, in an unexported field of link.Link, the
// *lazyref.Ref that Resolve turns into the URL and error resolving would
// have given at once. The fields it reaches are unexported: only relurl's
// own packages, through this internal one, can set or read them.
package lazyurl

import (
	"unsafe"

	"github.com/relurl/relurl/internal/lazyref"
	"github.com/relurl/relurl/link"
)

// DeferIn sets the links of the HTML reader's options opts (an
// *htmlrewrite.Options) to be resolved through refs, or at once when refs
// is nil. Package htmlrewrite sets it when it is loaded: it is the one
// that can reach the field.
var DeferIn func(opts any, refs *lazyref.Refs)

// field returns the address of a link's pending Ref, where package link
// says it lies (lazyref.Offset).
func field(l *link.Link) **lazyref.Ref {
	return (**lazyref.Ref)(unsafe.Add(unsafe.Pointer(l), lazyref.Offset))
}

// Defer leaves the URL of l, which the reader filled with an empty URL
// and no error, to r.
func Defer(l *link.Link, r *lazyref.Ref) { *field(l) = r }

// Resolve resolves the URL of l if it was left for later: URL and Err
// are then what the pass would have given. Any other link is left as it
// is. Resolvers are immutable: any goroutine may call it.
func Resolve(l *link.Link) {
	p := field(l)
	if r := *p; r != nil {
		l.URL, l.Err = r.URL(l.Raw)
		*p = nil
	}
}

// Deferred reports whether l's URL is left for Resolve.
func Deferred(l *link.Link) bool { return *field(l) != nil }
