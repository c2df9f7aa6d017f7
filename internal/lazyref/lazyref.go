// Package lazyref holds a link's URL not resolved yet: the resolver, and
// where the reference stands in the link's Raw (package lazyurl says who
// leaves it for later, and why). Package link keeps it in an unexported
// field of link.Link and hands the way to that field to package lazyurl
// (Offset): no exported name of the module shows it, and Link.Err is only
// ever a real error.
package lazyref

import "github.com/relurl/relurl/resolve"

// Ref is a link's URL not resolved yet. It holds no string: a link's
// strings go when the link goes, whatever Refs made after it are still
// in use.
type Ref struct {
	res  *resolve.Resolver
	i, n int
}

// URL returns what resolving the reference raw[i:i+n] of the link's Raw
// gives: the URL and error the reader would have given at once.
func (r *Ref) URL(raw string) (string, error) {
	return r.res.Reference(raw[r.i : r.i+r.n])
}

// refsChunk is the number of Refs made at a time.
const refsChunk = 64

// Refs hands out the Refs of one worker's links, from shared chunks: an
// allocation per 64 links, not one per link. New is for one goroutine;
// a Ref it returned is never written again, and may be read by any
// goroutine the link is handed to.
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

// Offset is set by package link when it is loaded: where, in a
// link.Link, its unexported *Ref field lies. Package lazyurl reaches the
// field through it; a function handed up instead would make every Link
// whose address it is given escape to the heap (an allocation a link).
var Offset uintptr
