// Package spare keeps a few buffers between the documents or files that
// use them in turn, so that a tree of small documents does not allocate
// (and collect) its large buffers once per document.
//
// A Pool is a bounded channel, not a sync.Pool: what it keeps does not
// depend on when the collector runs, and it never holds more than its
// capacity (one buffer per document read at once, as with relurl -j).
package spare

// Pool keeps at most its capacity of values of type T.
type Pool[T any] struct{ ch chan T }

// New returns a Pool keeping at most n values.
func New[T any](n int) *Pool[T] { return &Pool[T]{ch: make(chan T, n)} }

// Get returns a kept value and true, or the zero T and false when none is
// kept.
func (p *Pool[T]) Get() (T, bool) {
	select {
	case v := <-p.ch:
		return v, true
	default:
		var zero T
		return zero, false
	}
}

// Put keeps v for a later Get, unless the pool is full. The caller must
// not use v afterwards.
func (p *Pool[T]) Put(v T) {
	select {
	case p.ch <- v:
	default:
	}
}
