// Package behind does a command's output work a batch behind its
// producer, on a goroutine of its own: while one batch is being written
// (Writer: a buffer of bytes) or encoded and written (Queue: items), the
// producer fills the next. `relurl links -j 1` spent a tenth of its time
// in write(2) for its 29 MB of JSON Lines on corpus A (perf) and an
// eighth of its instructions encoding them (callgrind), time its one
// worker did not parse; rewrite's files go behind the same way
// (safewrite.Writer.Behind).
//
// Writer's bytes, and where they are cut into writes, are those of a
// bufio.Writer of the same size: a full buffer is one write, and a write
// at least as long as the buffer, coming when nothing is buffered, goes
// out as it is. Only when a write fails is it noticed later than with
// bufio: at the next hand-off, Flush or Wait. A caller whose other output
// (standard error) must not show that it went on meanwhile writes it
// through Gate.
package behind

import (
	"io"
	"sync"
)

// pipe hands batches of T to a goroutine that drains them, in order:
// at most depth batches exist, the one being filled and those handed
// off (being drained or waiting for it).
type pipe[T any] struct {
	cur  []T               // being filled
	free chan []T          // batches drained, to be filled again
	made int               // batches made so far (at most depth)
	size int               // a batch's capacity
	todo chan handedOff[T] // handed off, in order
	// drain does the work of a batch on the pipe's goroutine; handed
	// says whether the batch was handed off by the producer without
	// waiting for it (Write, a full Queue), else by Flush. It returns
	// the batch's first error, and whether the producer's failing call
	// had returned before it (late: see Gate).
	drain func(batch []T, handed bool) (late bool, err error)
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

// handedOff is a batch handed off, and how (see pipe.drain).
type handedOff[T any] struct {
	items  []T
	handed bool
}

func (p *pipe[T]) start(size, depth int, drain func([]T, bool) (bool, error)) {
	p.size = size
	p.cur, p.made = make([]T, 0, size), 1
	p.free = make(chan []T, depth-1)
	p.todo = make(chan handedOff[T], depth-1)
	p.drain = drain
	p.idle.L = &p.mu
	go p.loop()
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
			late, err = p.drain(b.items, b.handed)
		}
		clear(b.items) // what the items point to is not kept alive
		p.mu.Lock()
		if err != nil {
			p.err, p.late = err, late
		}
		p.busy--
		if p.busy == 0 {
			p.idle.Broadcast()
		}
		p.mu.Unlock()
		p.free <- b.items[:0]
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
	if p.made < cap(p.free)+1 {
		p.cur = make([]T, 0, p.size)
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

// close flushes and ends the goroutine.
func (p *pipe[T]) close() error {
	err := p.flush()
	close(p.todo)
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
}

// New returns a Writer of w with two buffers of size bytes, and starts
// its writing goroutine; Close ends it.
func New(w io.Writer, size int) *Writer {
	b := &Writer{w: w}
	b.start(size, 2, func(p []byte, handed bool) (bool, error) {
		_, err := w.Write(p)
		return handed, err
	})
	return b
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
		if len(b.cur) == 0 {
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
func (b *Writer) Flush() error { return b.flush() }

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
}

// NewQueue returns a Queue of at most depth (at least 2) batches of size
// items, which drain does the work of (see Gate for late), and starts
// its goroutine; Close ends it. The producer waits only when depth
// batches exist: the one it fills and depth-1 handed off. Once drain
// fails, it is not called again, and the producer gets the error from a
// later hand-off (Next, Send, Flush).
func NewQueue[T any](size, depth int, drain func(batch []T, handed bool) (late bool, err error)) *Queue[T] {
	q := &Queue[T]{}
	q.start(size, max(2, depth), drain)
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
