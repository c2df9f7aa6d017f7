package safewrite

import (
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/relurl/relurl/internal/spare"
)

// behind is a buffered writer that writes each full buffer to w on a
// goroutine of its own, in order, while the caller goes on filling the
// next one: with a spare core, the writing of a file (its system calls,
// the kernel's copy into the page cache) overlaps with the rewriting that
// produces it. At most behindDepth buffers wait or are being written, so
// what it holds is bounded; the first error of w is returned by the next
// Write and by Flush, and nothing is written after it.
//
// Handing a buffer over costs two goroutine switches, and on a file
// system that only copies into the page cache (tmpfs; most writes of
// most file systems) that is as much as the write itself: a page of
// typical size written behind cost more CPU and more time than written
// at once (relurl rewrite -j 1 on tmpfs: +20 % CPU, +10 % wall). So the
// first behindAfter bytes of a file are written by the caller, as a
// bufio.Writer would, and only a larger file's rest goes behind; and once
// writes of this process were slow (slowWrite: a file system that makes
// creating a file or writing a buffer expensive, ext4 allocating inodes
// after a mass deletion, a network file system, a loaded machine), every
// later file goes behind from its first byte, where the overlap pays.
type behind struct {
	w   io.Writer
	cur []byte // being filled
	// ahead is how many more bytes the caller writes itself before
	// the goroutine takes over.
	ahead int
	queue chan []byte // to the goroutine, in order; nil until it starts
	busy  sync.WaitGroup
	done  chan struct{}
	mu    sync.Mutex
	err   error
}

// behindDepth is how many full buffers may wait for the goroutine.
const behindDepth = 2

// behindBuffers are behind's buffers between files (see streamWriters).
var behindBuffers = spare.New[[]byte](2 * spareBuffers)

// behindAfter is how many bytes of a file the caller writes itself
// before a goroutine takes over, while writes are fast.
const behindAfter = 4 * streamBuffer

// slowWrite is the time above which a write (with the file's creation,
// for the first) makes writes slow (writesSlow): on tmpfs a 64 KiB buffer
// takes 10–30 µs; on ext4 after the deletion of a tree, creating a file
// took 0.8 ms on average.
var slowWrite = 500 * time.Microsecond

// testHookBehindStart, set by tests, is told of each goroutine started.
var testHookBehindStart func()

// slowWrites counts the slow writes of this process; from slowWrites
// of them on (one could be a hiccup) every file is written behind from
// its start.
var slowWrites atomic.Int32

const slowAfter = 3

// writesSlow reports whether writes are slow (slowWrites).
func writesSlow() bool { return slowWrites.Load() >= slowAfter }

func newBehind(w io.Writer) *behind {
	b := &behind{w: w, cur: behindBuffer(), ahead: behindAfter}
	if writesSlow() {
		b.start()
	}
	return b
}

// started reports whether the goroutine runs.
func (b *behind) started() bool { return b.queue != nil }

func (b *behind) start() {
	if testHookBehindStart != nil {
		testHookBehindStart()
	}
	b.queue, b.done = make(chan []byte, behindDepth), make(chan struct{})
	go b.run()
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

// send hands the current buffer to the goroutine and takes a fresh one;
// before the goroutine takes over, it writes the buffer itself.
func (b *behind) send() {
	if !b.started() {
		if b.ahead > 0 {
			b.writeAhead()
			return
		}
		b.start()
	}
	b.busy.Add(1)
	b.queue <- b.cur
	b.cur = behindBuffer()
}

// writeAhead writes the buffer on the caller, noting a slow write.
func (b *behind) writeAhead() {
	b.ahead -= len(b.cur)
	if b.failed() == nil {
		t := time.Now()
		if _, err := b.w.Write(b.cur); err != nil {
			b.mu.Lock()
			b.err = err
			b.mu.Unlock()
		}
		if time.Since(t) > slowWrite {
			slowWrites.Add(1)
		}
	}
	b.cur = b.cur[:0]
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
	if b.started() {
		close(b.queue)
		<-b.done
	}
	freeBehindBuffer(b.cur)
	b.cur = nil
}
