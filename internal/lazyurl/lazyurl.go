// Package lazyurl leaves a link's URL to be resolved later, by whoever
// reads the link last: relurl links -j 1 encodes and writes its records
// on a goroutine of its own (linkout.Behind), which has time to spare,
// while resolving every link's URL was an eighth of the worker's
// instructions, the one that reads the documents (corpus A: 67 M of
// 690 M), and the worker does not look at the URL when no filter does.
//
// DeferIn, given an *htmlrewrite.Options and a *Refs, makes the pass hand
// each link resolved against a resolver of its own with an empty URL and,
// in Link.Err, the *Ref that Resolve turns into the URL and error
// resolving would have given at once. The field it sets is unexported:
// only relurl's own packages, through this internal one, can set it.
package lazyurl

import (
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// DeferIn sets the links of the HTML reader's options opts (an
// *htmlrewrite.Options) to be resolved through refs, or at once when refs
// is nil. Package htmlrewrite sets it when it is loaded: it is the one
// that can reach the field.
var DeferIn func(opts any, refs *Refs)

// Ref is a link's URL not resolved yet: the resolver, and where the
// reference stands in the link's Raw. It stands in Link.Err until
// Resolve. It holds no string: a link's strings go when the link goes,
// whatever Refs made after it are still in use.
type Ref struct {
	res  *resolve.Resolver
	i, n int
}

func (r *Ref) Error() string { return "relurl: a link's URL not resolved yet" }

// refsChunk is the number of Refs made at a time.
const refsChunk = 64

// Refs hands out the Refs of one worker's links, from shared chunks: an
// allocation per 64 links, not one per link. New is for one goroutine;
// a Ref it returned is never written again, and may be read (Resolve)
// by any goroutine the link is handed to.
type Refs struct {
	chunk []Ref
}

// New returns the Ref of the reference Raw[i:i+n] of a link, to be
// resolved against res.
func (k *Refs) New(res *resolve.Resolver, i, n int) *Ref {
	if len(k.chunk) == cap(k.chunk) {
		k.chunk = make([]Ref, 0, refsChunk)
	}
	k.chunk = append(k.chunk, Ref{res, i, n})
	return &k.chunk[len(k.chunk)-1]
}

// Resolve resolves the URL of l if it was left for later (its Err is a
// *Ref): URL and Err are then what the pass would have given. Any other
// link is left as it is. Resolvers are immutable: any goroutine may call
// it.
func Resolve(l *link.Link) {
	if r, ok := l.Err.(*Ref); ok {
		l.URL, l.Err = r.res.Reference(l.Raw[r.i : r.i+r.n])
	}
}

// Deferred reports whether l's URL is left for Resolve.
func Deferred(l *link.Link) bool {
	_, ok := l.Err.(*Ref)
	return ok
}
