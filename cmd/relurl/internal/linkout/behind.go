package linkout

import (
	"bufio"
	"io"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/behind"
	"github.com/relurl/relurl/internal/lazyurl"
	"github.com/relurl/relurl/link"
)

// Behind encodes the link records of a run with one worker, and writes
// them to its writer, on a goroutine of its own (package behind): the
// worker hands each record over as it is (Writer.Link with
// Mode.Behind), a batch at a time, and goes on reading the document
// while the previous batch is encoded and written. On corpus A the
// records' encoding was an eighth of relurl links' instructions and their
// write(2) a tenth of its time.
//
// The bytes, and the writes they are cut into, are those of a
// bufio.Writer of 64 KiB on w written in the worker; so is what stderr
// shows through Gate (see behind.Writer.Gate). Behind is for an Out that
// does not look at the keys (Out without unique): the records go out in
// order, whatever their key.
type Behind struct {
	q *behind.Queue[queued]
	// held is what the links of the batch being filled hold (their
	// strings): a batch goes at behindBytes, so that the behindDepth
	// batches hold at most about that many times as much, whatever the
	// links' length.
	held int
	w    *bufio.Writer // the goroutine's
	line []byte        // the goroutine's
}

// queued is one entry of the queue: a link, a record made by the worker
// (raw), or a flush of w.
type queued struct {
	link  link.Link
	kind  base.Format
	w     *Writer // the link's writer (nil: raw or flush)
	raw   []byte  // a record the worker made (a status line)
	flush bool
}

// behindBatch is the number of records handed over at a time: each
// hand-off wakes the goroutine (a futex wake and a context switch), so
// fewer, larger hand-offs; docs/performance.md has the measurement.
const behindBatch = 1024

// behindDepth is the number of batches that may exist at once: the one
// the worker fills and those handed off. A page's links go to the queue
// in a burst when its pass ends (htmlrewrite holds them until no <base>
// can change them), faster than they are encoded: with two batches the
// worker waits for the goroutine (docs/performance.md).
const behindDepth = 4

// NewBehind returns the Behind of w and starts its goroutine; Close ends
// it.
func NewBehind(w io.Writer) *Behind {
	b := &Behind{w: bufio.NewWriterSize(w, 64<<10)}
	b.q = behind.NewQueue(behindBatch, behindDepth, b.drain)
	return b
}

// onEncode, when set (tests), is called for each record encoded.
var onEncode func()

// drain encodes and writes a batch, on the goroutine. A failed write of a
// record is late (the worker's call that made it has returned; without
// Behind it would have failed), a failed flush is not (Flush waits).
func (b *Behind) drain(batch []queued, _ bool) (bool, error) {
	for i := range batch {
		it := &batch[i]
		var err error
		switch {
		case it.flush:
			if err := b.w.Flush(); err != nil {
				return false, err
			}
			continue
		case it.raw != nil:
			_, err = b.w.Write(it.raw)
		default:
			err = b.link(it)
		}
		if err != nil {
			return true, err
		}
	}
	return false, nil
}

// behindBytes bounds what the links of one batch hold.
var behindBytes = 1 << 20

// next returns the next entry to fill in.
func (b *Behind) next() (*queued, error) {
	it, err := b.q.Next()
	if err == nil && b.q.Filled() == 1 {
		b.held = 0 // a new batch
	}
	return it, err
}

// filled counts what the link l, just filled in, holds, and hands the
// batch off when the links hold behindBytes.
func (b *Behind) filled(l *link.Link) error {
	b.held += len(l.Raw) + len(l.URL) + len(l.Part) + len(l.TargetPart) + len(l.Target)
	if b.held < behindBytes {
		return nil
	}
	b.held = 0
	return b.q.Send()
}

// Write queues p as one record made by the caller (a status line).
func (b *Behind) Write(p []byte) (int, error) {
	it, err := b.q.Next()
	if err != nil {
		return 0, err
	}
	it.raw = append([]byte(nil), p...)
	return len(p), nil
}

// Flush writes what was queued and waits until it is written.
func (b *Behind) Flush() error {
	it, err := b.q.Next()
	if err != nil {
		return err
	}
	it.flush = true
	return b.q.Flush()
}

// Close flushes and ends the goroutine.
func (b *Behind) Close() error {
	err := b.Flush()
	if cerr := b.q.Close(); err == nil {
		err = cerr
	}
	return err
}

// Gate returns the writer of w for the worker's other output (stderr):
// see behind.Queue.Gate.
func (b *Behind) Gate(w io.Writer, drop func() bool) io.Writer { return b.q.Gate(w, drop) }

// link encodes and writes the record of a queued link, as Writer.Link
// and Writer.add do without Behind.
func (b *Behind) link(it *queued) error {
	lazyurl.Resolve(&it.link) // here, off the worker (lazyurl.DeferIn)
	e := it.w
	if e.mode.text {
		if it.link.URL == "" {
			return nil
		}
		b.line = append(append(b.line[:0], it.link.URL...), '\n')
		_, err := b.w.Write(b.line)
		return err
	}
	if onEncode != nil {
		onEncode()
	}
	r := &e.rec
	l := &it.link
	record(r, l, e.name, e.nameEncoding, &e.mode)
	r.cache = &e.cache
	switch it.kind {
	case base.MHTML:
		r.Part, r.TargetPart = &l.Part, l.TargetPart
	case base.WARC:
		r.Record, r.Target = &l.Record, l.Target
	}
	if r.Rel == nil {
		r.Rel = []string{}
	}
	b.line = e.mode.format.append(b.line[:0], r)
	_, err := b.w.Write(b.line)
	return err
}
