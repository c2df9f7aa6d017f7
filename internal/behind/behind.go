// Package behind does output work a batch behind its producer, on a
// goroutine of its own: while one batch is being written (Writer: a
// buffer of bytes) or encoded and written (Queue: items), the producer
// fills the next. The command's output goes so (writing and encoding
// records is time its one worker would not parse), and so do the files
// package safewrite streams (its Writer.Behind: NewLazy), where writing
// a file overlaps with rewriting it.
//
// New's Writer's bytes, and where they are cut into writes, are those of
// a bufio.Writer of the same size: a full buffer is one write, and a
// write at least as long as the buffer, coming when nothing is buffered,
// goes out as it is. Only when a write fails is it noticed later than
// with bufio: at the next hand-off, Flush or Wait. A caller whose other
// output (standard error) must not show that it went on meanwhile writes
// it through Gate.
package behind

import (
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/relurl/relurl/internal/spare"
)

// pipe hands batches of T to a goroutine that drains them, in order:
// at most depth batches exist, the one being filled and those handed
// off (being drained or waiting for it).
type pipe[T any] struct {
	cur   []T               // being filled
	free  chan []T          // batches drained, to be filled again
	made  int               // batches made so far (at most depth)
	size  int               // a batch's capacity
	depth int               // the most batches there are
	todo  chan handedOff[T] // handed off, in order; nil until run
	// pool, when set, gives the batches and takes them back at close.
	pool *spare.Pool[[]T]
	// clear: drained batches are zeroed, so that what items point to
	// is not kept alive (Queue's; bytes point to nothing).
	clear bool
	// d does the work of a batch on the pipe's goroutine (its drain);
	// handed says whether the batch was handed off by the producer
	// without waiting for it (Write, a full Queue), else by Flush. It
	// returns the batch's first error, and whether the producer's
	// failing call had returned before it (late: see Gate).
	d drainer[T]
	// mu guards busy, err and late (Wait and Gate may run on other
	// goroutines); idle is signalled when busy falls to zero.
	mu   sync.Mutex
	idle sync.Cond
	busy int // batches handed off and not yet drained
	err  error
	late bool
	// fail is the first error the producer was told of: every later
	// call returns it, as bufio.Writer's do.
	fail error
}

// handedOff is a batch handed off, and how (see pipe.d).
type handedOff[T any] struct {
	items  []T
	handed bool
}

// A drainer does the work of the batches a pipe hands off: an
// interface, not a func, so that a Writer, its own drainer, costs no
// closure.
type drainer[T any] interface {
	drain(batch []T, handed bool) (late bool, err error)
}

func (p *pipe[T]) start(size, depth int, d drainer[T]) {
	p.prepare(size, depth)
	p.run(d)
}

// prepare makes the batch to fill; nothing else is made until run (a
// lazy Writer that never starts costs one allocation).
func (p *pipe[T]) prepare(size, depth int) {
	p.size, p.depth = size, depth
	p.cur, p.made = p.batch(), 1
	p.idle.L = &p.mu
}

// run starts the goroutine, which drains the batches with d.
func (p *pipe[T]) run(d drainer[T]) {
	p.d = d
	p.free = make(chan []T, p.depth-1)
	p.todo = make(chan handedOff[T], p.depth-1)
	go p.loop()
}

// running reports whether the goroutine was started.
func (p *pipe[T]) running() bool { return p.todo != nil }

// batch returns an empty batch: a kept one, else a new one.
func (p *pipe[T]) batch() []T {
	if p.pool != nil {
		if b, ok := p.pool.Get(); ok && cap(b) == p.size {
			return b[:0]
		}
	}
	return make([]T, 0, p.size)
}

// loop drains each batch handed to it, in order; after an error, none.
func (p *pipe[T]) loop() {
	for b := range p.todo {
		p.mu.Lock()
		failed := p.err != nil
		p.mu.Unlock()
		var late bool
		var err error
		if !failed {
			late, err = p.d.drain(b.items, b.handed)
		}
		if p.clear {
			clear(b.items) // what the items point to is not kept alive
		}
		// Free before it counts as drained (never blocks: at most
		// depth-1 batches are handed off): once Wait returns, every
		// batch drained is back, for close to give to the pool.
		p.free <- b.items[:0]
		p.mu.Lock()
		if err != nil {
			p.err, p.late = err, late
		}
		p.busy--
		if p.busy == 0 {
			p.idle.Broadcast()
		}
		p.mu.Unlock()
	}
}

// Wait waits until nothing is being drained and returns the first error.
// The batch being filled is not drained (Flush drains it).
func (p *pipe[T]) Wait() error {
	p.mu.Lock()
	for p.busy > 0 {
		p.idle.Wait()
	}
	err := p.err
	p.mu.Unlock()
	return err
}

// settle waits until every batch handed off is drained; it returns the
// first error.
func (p *pipe[T]) settle() error {
	if p.fail != nil {
		return p.fail
	}
	p.fail = p.Wait()
	return p.fail
}

// handOff gives the batch being filled to the goroutine and goes on with
// an empty one: a new one while fewer than depth exist, else the first
// drained (waiting for it). It returns the first error known when it
// hands off or once it has waited (a batch handed off after a failed
// one is not drained).
func (p *pipe[T]) handOff(handed bool) error {
	if p.fail != nil {
		return p.fail
	}
	p.mu.Lock()
	if p.fail = p.err; p.fail == nil {
		p.busy++
	}
	p.mu.Unlock()
	if p.fail != nil {
		return p.fail
	}
	p.todo <- handedOff[T]{p.cur, handed}
	select {
	case p.cur = <-p.free:
		return nil
	default:
	}
	if p.made < p.depth {
		p.cur = p.batch()
		p.made++
		return nil
	}
	p.cur = <-p.free
	p.mu.Lock()
	p.fail = p.err
	p.mu.Unlock()
	return p.fail
}

// flush hands off what is being filled and waits until it is drained.
func (p *pipe[T]) flush() error {
	if len(p.cur) > 0 {
		if err := p.handOff(false); err != nil {
			return err
		}
	}
	return p.settle()
}

// close flushes and ends the goroutine; with a pool, the batches the
// goroutine is done with go back to it.
func (p *pipe[T]) close() error {
	err := p.flush()
	if p.running() {
		close(p.todo)
	}
	if p.pool != nil {
		for len(p.free) > 0 {
			p.pool.Put(<-p.free)
		}
		p.pool.Put(p.cur[:0])
		p.cur = nil
	}
	return err
}

// failedLate says whether the error came from a batch whose producer's
// call returned before it failed.
func (p *pipe[T]) failedLate() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.late
}

// Writer writes to its underlying writer a buffer behind. It is not safe
// for concurrent use, apart from Wait and Gate's writes.
type Writer struct {
	w io.Writer
	pipe[byte]
	// lazy: a NewLazy Writer, which copies every write into its
	// buffers and starts its goroutine only once ahead is spent.
	lazy bool
	// ahead is how many more bytes the caller writes itself, a full
	// buffer at a time, before the goroutine takes over (NewLazy).
	ahead int
}

// New returns a Writer of w with two buffers of size bytes, and starts
// its writing goroutine; Close ends it.
func New(w io.Writer, size int) *Writer {
	b := &Writer{w: w}
	b.start(size, 2, b)
	return b
}

func (b *Writer) drain(p []byte, handed bool) (bool, error) {
	_, err := b.w.Write(p)
	return handed, err
}

// NewLazy returns a Writer of w for one of many files written in turn
// (package safewrite's streamed writes). Handing a buffer over costs two
// goroutine switches, and on a file system that only copies into the
// page cache (tmpfs; most writes of most file systems) that is as much
// as the write itself. So the caller writes the first ahead bytes itself,
// a full buffer at a time, as a bufio.Writer would, and only a larger
// file's rest goes behind, on a goroutine started then; and once writes
// of this process were slow (a file system that makes creating a file or
// writing a buffer expensive, a network file system, a loaded machine),
// every later lazy Writer hands off from its first byte, where the
// overlap pays. At most four buffers of size bytes exist (the one
// filled, three handed off); they come from, and go back to at Close, a
// pool the lazy Writers share. Every write is copied (none goes out as
// it is), and Discard drops what is buffered.
func NewLazy(w io.Writer, size, ahead int) *Writer {
	b := &Writer{w: w, lazy: true, ahead: ahead}
	b.pool = lazyBuffers
	b.prepare(size, lazyDepth)
	if writesSlow() {
		b.startLazy()
	}
	return b
}

// lazyDepth is how many buffers a lazy Writer has: the one filled and
// three handed off, being written or waiting.
const lazyDepth = 4

// lazyBuffers are the lazy Writers' buffers between files.
var lazyBuffers = spare.New[[]byte](16)

// slowWrite is the time above which a write the caller made (with the
// file's creation, for the first) counts as slow: far above a copy of a
// buffer into the page cache, below what creating a file costs where
// that is expensive.
var slowWrite = 500 * time.Microsecond

// slowWrites counts the slow writes of this process; from slowAfter of
// them on (one could be a hiccup) every lazy Writer hands off from its
// first byte.
var slowWrites atomic.Int32

const slowAfter = 3

// writesSlow reports whether writes are slow (slowWrites).
func writesSlow() bool { return slowWrites.Load() >= slowAfter }

// testHookStart, set by tests, is told of each lazy goroutine started.
var testHookStart func()

func (b *Writer) startLazy() {
	if testHookStart != nil {
		testHookStart()
	}
	b.run(b)
}

// writeAhead writes the full buffer on the caller (a lazy Writer before
// its goroutine starts), noting a slow write.
func (b *Writer) writeAhead() error {
	b.ahead -= len(b.cur)
	t := time.Now()
	_, err := b.w.Write(b.cur)
	if time.Since(t) > slowWrite {
		slowWrites.Add(1)
	}
	b.cur = b.cur[:0]
	if err != nil {
		b.mu.Lock()
		b.err, b.fail = err, err
		b.mu.Unlock()
	}
	return err
}

// send gives the full (or, from Flush, last) buffer of a lazy Writer
// away: written by the caller while ahead lasts, else handed off.
func (b *Writer) send(handed bool) error {
	if !b.running() {
		if b.ahead > 0 {
			return b.writeAhead()
		}
		b.startLazy()
	}
	return b.handOff(handed)
}

// Write buffers p, handing each buffer that fills to the writing
// goroutine. It returns the first error of an earlier write, with what
// of p it took, when it hands a buffer off (as bufio.Writer returns an
// error when it flushes).
func (b *Writer) Write(p []byte) (int, error) {
	if b.fail != nil {
		return 0, b.fail
	}
	n := 0
	for len(p) > cap(b.cur)-len(b.cur) {
		if len(b.cur) == 0 && !b.lazy {
			// As bufio: a long write into an empty buffer goes out as
			// it is, without a copy, and so not behind (the caller
			// may reuse p when Write returns).
			if err := b.settle(); err != nil {
				return n, err
			}
			m, err := b.w.Write(p)
			n += m
			if err != nil {
				b.mu.Lock()
				b.err, b.fail = err, err
				b.mu.Unlock()
				return n, err
			}
			return n, nil
		}
		k := copy(b.cur[len(b.cur):cap(b.cur)], p)
		b.cur = b.cur[:len(b.cur)+k]
		n += k
		p = p[k:]
		if b.lazy {
			if err := b.send(true); err != nil {
				return n, err
			}
			continue
		}
		if err := b.handOff(true); err != nil {
			return n, err
		}
	}
	b.cur = append(b.cur, p...)
	return n + len(p), nil
}

// Err returns the first write error noticed so far, without waiting.
func (b *Writer) Err() error {
	b.mu.Lock()
	err := b.err
	b.mu.Unlock()
	return err
}

// Flush writes what is buffered and waits until it is written.
func (b *Writer) Flush() error {
	if b.lazy && b.fail == nil && len(b.cur) > 0 {
		if err := b.send(false); err != nil {
			return err
		}
	}
	return b.flush()
}

// Discard drops what is buffered, and waits until what was handed off
// is written, returning the first error (a caller starting its output
// again: safewrite's Rewind).
func (b *Writer) Discard() error {
	b.cur = b.cur[:0]
	return b.settle()
}

// Close flushes the Writer and ends its goroutine; the Writer is not to
// be used after.
func (b *Writer) Close() error { return b.close() }

// Gate returns a writer of w for the producer's other output: each write
// waits until nothing is being written behind (so what was handed off
// before it is out before it), and is dropped, reported as done, when a
// buffer that Write handed off failed and drop returns true. With a
// bufio.Writer that Write would have returned the error, and a producer
// that stops at its first write error would have written nothing more;
// here the error comes later, and Gate keeps what the producer wrote
// meanwhile from showing. (A Flush waits for its write: what follows a
// failed Flush shows, as with bufio.)
func (b *Writer) Gate(w io.Writer, drop func() bool) io.Writer {
	return gate{&b.pipe, nil, w, drop}
}

// gate is a Gate: before a write, before hands off what is being filled
// (a Queue's items: what they make is written where it would have been
// without the queue), then the gate waits.
type gate struct {
	p interface {
		Wait() error
		failedLate() bool
	}
	before func()
	w      io.Writer
	drop   func() bool
}

func (g gate) Write(p []byte) (int, error) {
	if g.before != nil {
		g.before()
	}
	if g.p.Wait() != nil && g.p.failedLate() && g.drop() {
		return len(p), nil
	}
	return g.w.Write(p)
}

// Queue hands items to a function on a goroutine of its own, a batch
// behind: the producer fills a batch of items (Next), which goes to the
// goroutine when full, and the producer fills the next meanwhile. It is
// not safe for concurrent use, apart from Wait and Gate's writes.
type Queue[T any] struct {
	pipe[T]
	work func(batch []T, handed bool) (late bool, err error)
}

func (q *Queue[T]) drain(batch []T, handed bool) (bool, error) { return q.work(batch, handed) }

// NewQueue returns a Queue of at most depth (at least 2) batches of size
// items, which drain does the work of (see Gate for late), and starts
// its goroutine; Close ends it. The producer waits only when depth
// batches exist: the one it fills and depth-1 handed off. Once drain
// fails, it is not called again, and the producer gets the error from a
// later hand-off (Next, Send, Flush).
func NewQueue[T any](size, depth int, drain func(batch []T, handed bool) (late bool, err error)) *Queue[T] {
	q := &Queue[T]{work: drain}
	q.clear = true
	q.start(size, max(2, depth), q)
	return q
}

// Next returns the next item of the batch, zero, for the caller to fill
// in; a full batch is handed off first.
func (q *Queue[T]) Next() (*T, error) {
	if q.fail != nil {
		return nil, q.fail
	}
	if len(q.cur) == cap(q.cur) {
		if err := q.handOff(true); err != nil {
			return nil, err
		}
	}
	q.cur = q.cur[:len(q.cur)+1]
	return &q.cur[len(q.cur)-1], nil
}

// Flush hands off the items filled in so far and waits until they are
// done.
func (q *Queue[T]) Flush() error { return q.flush() }

// Send hands off the items filled in so far, as Next does with a full
// batch (waiting only for the batch before): for a producer that bounds
// a batch by what its items hold, not only by their number.
func (q *Queue[T]) Send() error {
	if q.fail != nil {
		return q.fail
	}
	if len(q.cur) == 0 {
		return nil
	}
	return q.handOff(true)
}

// Filled is the number of items filled in since the last hand-off.
func (q *Queue[T]) Filled() int { return len(q.cur) }

// Close flushes the Queue and ends its goroutine; the Queue is not to be
// used after.
func (q *Queue[T]) Close() error { return q.close() }

// Gate is Writer.Gate for a queue: each write first hands off the items
// filled in so far (not waiting for an item to be written where a full
// batch would be), then waits for them.
func (q *Queue[T]) Gate(w io.Writer, drop func() bool) io.Writer {
	return gate{&q.pipe, q.handOffPartial, w, drop}
}

// handOffPartial hands off what is being filled, as Next does with a
// full batch.
func (q *Queue[T]) handOffPartial() {
	if len(q.cur) > 0 {
		q.handOff(true) // an error: Wait has it
	}
}
