package tree

import (
	"io"
	"sync"

	"github.com/relurl/relurl/internal/spare"
)

// behind is a buffered writer that writes each full buffer to w on a
// goroutine of its own, in order, while the caller goes on filling the
// next one: with a spare core, the writing of a file (its system calls,
// the kernel's copy into the page cache) overlaps with the rewriting that
// produces it. At most behindDepth buffers wait or are being written, so
// what it holds is bounded; the first error of w is returned by the next
// Write and by Flush, and nothing is written after it.
type behind struct {
	w     io.Writer
	cur   []byte      // being filled
	queue chan []byte // to the goroutine, in order
	busy  sync.WaitGroup
	done  chan struct{}
	mu    sync.Mutex
	err   error
}

// behindDepth is how many full buffers may wait for the goroutine.
const behindDepth = 2

// behindBuffers are behind's buffers between files (see streamWriters).
var behindBuffers = spare.New[[]byte](2 * spareBuffers)

func newBehind(w io.Writer) *behind {
	b := &behind{w: w, cur: behindBuffer(), queue: make(chan []byte, behindDepth), done: make(chan struct{})}
	go b.run()
	return b
}

func behindBuffer() []byte {
	if p, ok := behindBuffers.Get(); ok {
		return p
	}
	return make([]byte, 0, streamBuffer)
}

func freeBehindBuffer(p []byte) {
	if cap(p) == streamBuffer {
		behindBuffers.Put(p[:0])
	}
}

func (b *behind) run() {
	defer close(b.done)
	for p := range b.queue {
		if b.failed() == nil {
			if _, err := b.w.Write(p); err != nil {
				b.mu.Lock()
				b.err = err
				b.mu.Unlock()
			}
		}
		freeBehindBuffer(p)
		b.busy.Done()
	}
}

func (b *behind) failed() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.err
}

// Write copies p into the buffer, handing each full one to the goroutine.
func (b *behind) Write(p []byte) (int, error) {
	if err := b.failed(); err != nil {
		return 0, err
	}
	n := len(p)
	for len(p) > 0 {
		k := copy(b.cur[len(b.cur):cap(b.cur)], p)
		b.cur, p = b.cur[:len(b.cur)+k], p[k:]
		if len(b.cur) == cap(b.cur) {
			b.send()
		}
	}
	return n, nil
}

// send hands the current buffer to the goroutine and takes a fresh one.
func (b *behind) send() {
	b.busy.Add(1)
	b.queue <- b.cur
	b.cur = behindBuffer()
}

// Flush writes what is buffered and waits until everything written so far
// is written, returning the first error.
func (b *behind) Flush() error {
	if len(b.cur) > 0 {
		b.send()
	}
	b.busy.Wait()
	return b.failed()
}

// discard drops what is buffered and waits for what was handed over
// (Rewind starts the output again).
func (b *behind) discard() error {
	b.cur = b.cur[:0]
	b.busy.Wait()
	return b.failed()
}

// close ends the goroutine; b is not used after it.
func (b *behind) close() {
	close(b.queue)
	<-b.done
	freeBehindBuffer(b.cur)
	b.cur = nil
}
