// Package behind writes a command's output stream a buffer behind its
// producer, on a goroutine of its own: while one full buffer is being
// written, the producer fills the next. `relurl links -j 1` spent a tenth
// of its time in write(2) for its 29 MB of JSON Lines on corpus A (perf),
// time its one worker did not parse; rewrite's files go behind the same
// way (tree.Writer.Behind).
//
// The stream's bytes, and where they are cut into writes, are those of a
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

// Writer writes to its underlying writer a buffer behind. At most two
// buffers exist: the one being filled and the one being written. It is
// not safe for concurrent use, apart from Wait and Gate's writes.
type Writer struct {
	w   io.Writer
	buf []byte // being filled

	todo chan []byte // a full buffer for the writing goroutine
	back chan []byte // the buffer written, returned
	// mu guards err and busy (read by Gate's writers on other
	// goroutines); idle is signalled when busy turns false.
	mu   sync.Mutex
	idle sync.Cond
	busy bool
	err  error // the first write error
	// late: the failed write was handed off by Write, which returned
	// before it failed (see Gate).
	late bool
	// fail is the first write error the producer was told of: every
	// later call returns it, as bufio.Writer's do.
	fail error
	// fromWrite: the buffer being written was handed off by Write.
	fromWrite bool
	// spare is the second buffer, when not being written.
	spare []byte
}

// New returns a Writer of w with two buffers of size bytes, and starts
// its writing goroutine; Close ends it.
func New(w io.Writer, size int) *Writer {
	b := &Writer{
		w:     w,
		buf:   make([]byte, 0, size),
		spare: make([]byte, 0, size),
		todo:  make(chan []byte),
		back:  make(chan []byte, 1),
	}
	b.idle.L = &b.mu
	go b.loop()
	return b
}

// loop writes each buffer handed to it, in order.
func (b *Writer) loop() {
	for p := range b.todo {
		_, err := b.w.Write(p)
		b.mu.Lock()
		if err != nil && b.err == nil {
			b.err, b.late = err, b.fromWrite
		}
		b.busy = false
		b.idle.Broadcast()
		b.mu.Unlock()
		b.back <- p[:0]
	}
}

// Wait waits until nothing is being written and returns the first write
// error. The buffer being filled is not written (Flush writes it).
func (b *Writer) Wait() error {
	b.mu.Lock()
	for b.busy {
		b.idle.Wait()
	}
	err := b.err
	b.mu.Unlock()
	return err
}

// settle waits for the buffer being written and takes it back as the
// spare; it returns the first write error.
func (b *Writer) settle() error {
	if b.fail != nil {
		return b.fail
	}
	if b.spare == nil {
		b.spare = <-b.back
	}
	b.mu.Lock()
	b.fail = b.err
	b.mu.Unlock()
	return b.fail
}

// handOff gives the full buffer to the writing goroutine and goes on
// with the spare one; fromWrite says whether Write hands it off (and
// returns before it is written), else Flush (which waits for it).
func (b *Writer) handOff(fromWrite bool) error {
	if err := b.settle(); err != nil {
		return err
	}
	b.mu.Lock()
	b.busy, b.fromWrite = true, fromWrite
	b.mu.Unlock()
	b.todo <- b.buf
	b.buf, b.spare = b.spare, nil
	return nil
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
	for len(p) > cap(b.buf)-len(b.buf) {
		if len(b.buf) == 0 {
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
		k := copy(b.buf[len(b.buf):cap(b.buf)], p)
		b.buf = b.buf[:len(b.buf)+k]
		n += k
		p = p[k:]
		if err := b.handOff(true); err != nil {
			return n, err
		}
	}
	b.buf = append(b.buf, p...)
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
	if len(b.buf) > 0 {
		if err := b.handOff(false); err != nil {
			return err
		}
	}
	return b.settle()
}

// Close flushes the Writer and ends its goroutine; the Writer is not to
// be used after.
func (b *Writer) Close() error {
	err := b.Flush()
	close(b.todo)
	return err
}

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
	return gate{b, w, drop}
}

type gate struct {
	b    *Writer
	w    io.Writer
	drop func() bool
}

func (g gate) Write(p []byte) (int, error) {
	if g.b.Wait() != nil && g.b.failedLate() && g.drop() {
		return len(p), nil
	}
	return g.w.Write(p)
}

// failedLate says whether the write that failed was handed off by Write.
func (b *Writer) failedLate() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.late
}
