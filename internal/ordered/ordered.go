// Package ordered runs a command's per-file work on several goroutines and
// writes each file's output in input order, as it is produced: the output
// of the oldest unfinished file goes straight through, the others wait in
// bounded buffers (a worker whose item may buffer no more waits for its
// turn), so memory depends on the number of workers, not on the size of a
// file or of its output.
package ordered

import (
	"iter"
	"sync"
	"sync/atomic"

	"github.com/relurl/relurl/internal/spare"
)

// DefaultWindow is the output a file not yet at the head may buffer.
const DefaultWindow = 1 << 20

// Ahead is how many items may be started past the head: workers that
// finish small items go on to later ones while a large item holds the
// head, instead of waiting for it (a corpus's largest page takes
// twenty times an average one). What the items not at the head buffer
// is bounded in bytes as well (Run).
const Ahead = 64

// Out receives the output records in input order. Key is what the record
// is about (a URL, for a caller that prints each once), or "": the bytes
// of the records without a key that an item buffered come in order but
// in calls of any length (several records in one, a record in two).
type Out func(key string, record []byte) error

// budget is what the items of one Run that are not at the head may
// buffer together; its mutex guards every Sink's state, and its cond
// wakes the sinks waiting for room or for their turn.
type budget struct {
	mu         sync.Mutex
	cond       sync.Cond
	used, size int
}

func newBudget(size int) *budget {
	b := &budget{size: size}
	b.cond.L = &b.mu
	return b
}

// Sink is where a worker writes the output of one item. It is not safe
// for use by several goroutines.
type Sink struct {
	b *budget
	// head: output goes straight to out. Set once, under b.mu, after
	// the buffered records went out; read without the lock by the
	// sink's worker, whose records then skip the lock (with -j 2 every
	// link record of relurl links took the one lock of the run).
	head   atomic.Bool
	out    Out
	window int
	err    error // out's first error: the run stops

	chunks   []*chunk // the buffered records, in order
	buffered int      // their bytes
}

// A chunk holds buffered records, whole: each record that has a key, and
// each run of records without one as one, handed to Out in one call.
type chunk struct {
	b    []byte
	ends []int    // where each entry ends in b
	keys []string // each entry's key
}

// chunkSize is the size of a chunk; a longer record has a chunk of its own.
const chunkSize = 64 << 10

// spareChunks holds the chunks of the sinks that became the head, for the
// next ones: a bounded free list that, unlike a sync.Pool, the collector
// does not empty. With -j 2 about half the items buffer their output;
// growing a buffer for each of them was most of what relurl links -j 2
// allocated (52 of 91 MB on corpus B), and tripled its collections.
var spareChunks = spare.New[*chunk](64)

// add appends a record to the buffered ones. The bytes of records
// without a key fill the chunks in order, a record split where a chunk is
// full, so that what the chunks hold is what is buffered plus the rest of
// the last one; a record with a key stays whole (in a chunk of its own
// when it is longer than a chunk).
func (s *Sink) add(key string, record []byte) {
	s.buffered += len(record)
	if key != "" {
		s.last(len(record)).push(key, record)
		return
	}
	for len(record) > 0 {
		c := s.last(1)
		n := min(len(record), cap(c.b)-len(c.b))
		c.push("", record[:n])
		record = record[n:]
	}
}

// last returns the last chunk when it has room for n more bytes, else a
// new one.
func (s *Sink) last(n int) *chunk {
	if k := len(s.chunks); k > 0 && cap(s.chunks[k-1].b)-len(s.chunks[k-1].b) >= n {
		return s.chunks[k-1]
	}
	var c *chunk
	if n <= chunkSize {
		c, _ = spareChunks.Get()
	}
	if c == nil {
		c = &chunk{b: make([]byte, 0, max(chunkSize, n))}
	}
	s.chunks = append(s.chunks, c)
	return c
}

// push appends p to c, as an entry of its own or, without a key, to the
// run of key-less bytes before it.
func (c *chunk) push(key string, p []byte) {
	c.b = append(c.b, p...)
	if n := len(c.ends); key == "" && n > 0 && c.keys[n-1] == "" {
		c.ends[n-1] = len(c.b)
	} else {
		c.ends = append(c.ends, len(c.b))
		c.keys = append(c.keys, key)
	}
}

// Write writes p as one record with no key.
func (s *Sink) Write(p []byte) (int, error) {
	if err := s.Record("", p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Record writes one record. It waits while the item is not at the head
// and its buffer, or what all items not at the head buffer, is full. The
// record's bytes are not kept after it returns.
func (s *Sink) Record(key string, record []byte) error {
	if s.head.Load() {
		// Only this sink's worker writes to out while it is the head
		// (promote wrote its buffer before), so out runs unlocked and
		// the other workers buffer meanwhile.
		if s.err == nil {
			s.err = s.out(key, record)
		}
		return s.err
	}
	b := s.b
	b.mu.Lock()
	for !s.head.Load() && s.err == nil && (s.buffered >= s.window || b.used+len(record) > b.size && b.used > 0) {
		b.cond.Wait()
	}
	if s.err != nil {
		b.mu.Unlock()
		return s.err
	}
	if s.head.Load() {
		// Made the head while it waited.
		b.mu.Unlock()
		s.err = s.out(key, record)
		return s.err
	}
	s.add(key, record)
	b.used += len(record)
	b.mu.Unlock()
	return nil
}

// SetErr stops the run at err, as out returning it would, for a worker
// at the head that writes its output around out (linkout.Behind, with
// one worker): its error would otherwise be taken for the item's own.
// It returns the sink's first error.
func (s *Sink) SetErr(err error) error {
	if s.err == nil {
		s.err = err
	}
	return s.err
}

// promote makes s the head: its buffered records go out, and the later
// ones go straight through.
func (s *Sink) promote() error {
	b := s.b
	b.mu.Lock()
	// The buffered records are written without the run's lock, so that
	// the other workers go on buffering meanwhile (with the lock held, a
	// long backlog stopped them all); what the sink's own worker adds
	// in the meantime is written next, until nothing is left.
	for len(s.chunks) > 0 && s.err == nil {
		cs, n := s.chunks, 0
		for _, c := range cs {
			n += len(c.b)
		}
		s.chunks = nil
		b.mu.Unlock()
		err := writeChunks(s.out, cs)
		b.mu.Lock()
		if err != nil {
			s.err = err
		}
		s.buffered -= n
		b.used -= n
		putChunks(cs)
		b.cond.Broadcast()
	}
	b.used -= s.buffered
	s.release()
	// From the Store on, s.err is the worker's (Record's lock-free
	// path): read it before.
	err := s.err
	s.head.Store(true)
	b.cond.Broadcast()
	b.mu.Unlock()
	return err
}

// writeChunks writes the records of cs to out, stopping at its first
// error.
func writeChunks(out Out, cs []*chunk) error {
	for _, c := range cs {
		start := 0
		for i, end := range c.ends {
			if err := out(c.keys[i], c.b[start:end]); err != nil {
				return err
			}
			start = end
		}
	}
	return nil
}

// fail ends a sink that will never be the head.
func (s *Sink) fail(err error) {
	b := s.b
	b.mu.Lock()
	s.err = err
	b.used -= s.buffered
	s.release()
	b.cond.Broadcast()
	b.mu.Unlock()
}

// release drops s's buffered records, keeping its chunks for other sinks.
func (s *Sink) release() {
	putChunks(s.chunks)
	clear(s.chunks)
	s.chunks, s.buffered = s.chunks[:0], 0
}

// putChunks keeps the chunks of the usual size for other sinks.
func putChunks(cs []*chunk) {
	for _, c := range cs {
		if cap(c.b) == chunkSize {
			clear(c.keys)
			c.b, c.ends, c.keys = c.b[:0], c.ends[:0], c.keys[:0]
			spareChunks.Put(c)
		}
	}
}

// Run calls work for every item on up to workers goroutines, in input
// order of starting, each with its Sink, and after an item's work is done
// and its output written, calls done with its result, in input order.
// The output of the item at the head goes to out as work writes it; each
// other item buffers up to window bytes (0: DefaultWindow), and all of
// them together up to workers*window, before its worker waits; up to
// Ahead items are started past the head. Run stops at the first error of
// out or done and returns it.
//
// Each worker takes its next item from items itself, under a lock, so
// the iteration (a directory walk, which opens each file) runs on the
// worker that needs the item. With a goroutine of its own feeding the
// workers, that goroutine waited for a processor each time a worker
// finished (both were busy), and the worker waited for it.
func Run[T, R any](workers, window int, items iter.Seq[T], out Out, work func(T, *Sink) R, done func(T, R) error) error {
	if workers <= 1 {
		return runOne(items, out, work, done)
	}
	if window <= 0 {
		window = DefaultWindow
	}
	f := &feed[T, R]{
		order:  make(chan job[T, R], Ahead),
		room:   newBudget(workers * window),
		stop:   make(chan struct{}),
		out:    out,
		window: window,
	}
	f.next, f.stopItems = iter.Pull(items)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				j, ok := f.take()
				if !ok {
					return
				}
				j.res <- work(j.item, j.sink)
			}
		})
	}
	var err error
	for j := range f.order {
		if err != nil {
			j.sink.fail(errStopped)
			<-j.res
			continue
		}
		err = j.sink.promote()
		r := <-j.res
		if err == nil {
			err = j.sink.err
		}
		if err == nil {
			err = done(j.item, r)
		}
		if err != nil {
			close(f.stop)
		}
	}
	wg.Wait()
	return err
}

// A job is an item being worked on, with its sink and its result.
type job[T, R any] struct {
	item T
	sink *Sink
	res  chan R
}

// feed hands the items of one Run to its workers, in order.
type feed[T, R any] struct {
	mu        sync.Mutex // guards next, stopItems, ended, and the order of sends on order
	next      func() (T, bool)
	stopItems func()
	ended     bool
	order     chan job[T, R] // the jobs taken, in input order, for the results
	room      *budget
	stop      chan struct{} // closed when the run stops at an error
	out       Out
	window    int
}

// take returns the next job, queued for its result, or false when there
// is none: the items are over or the run stopped. Queued only once taken,
// every queued job produces a result.
func (f *feed[T, R]) take() (job[T, R], bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.ended {
		return job[T, R]{}, false
	}
	select {
	case <-f.stop:
		f.end()
		return job[T, R]{}, false
	default:
	}
	it, ok := f.next()
	if !ok {
		f.end()
		return job[T, R]{}, false
	}
	j := job[T, R]{it, &Sink{b: f.room, out: f.out, window: f.window}, make(chan R, 1)}
	// Under the lock, so that the jobs are queued in the order taken;
	// a full queue (Ahead items past the head) holds the other workers
	// here too, as it should.
	select {
	case f.order <- j:
		return j, true
	case <-f.stop:
		f.end()
		return job[T, R]{}, false
	}
}

// end stops the items and closes the queue, once, with f.mu held: no
// worker sends on it after.
func (f *feed[T, R]) end() {
	f.ended = true
	f.stopItems()
	close(f.order)
}

// runOne is Run with one worker: the items are worked on, and their
// output written, in the caller's goroutine, one after the other. With
// goroutines for the walk, the work and the results, each file took four
// hand-offs between them, each a wake-up of another thread (corpus B:
// 3,000 context switches and as many futex and nanosleep calls for 532
// files), for no overlap worth having: the walk is a few percent of the
// work.
func runOne[T, R any](items iter.Seq[T], out Out, work func(T, *Sink) R, done func(T, R) error) error {
	s := Direct(out) // at the head from the start, and for every item
	for it := range items {
		r := work(it, s)
		err := s.err
		if err == nil {
			err = done(it, r)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

type stopped struct{}

func (stopped) Error() string { return "ordered: stopped" }

var errStopped error = stopped{}

// Direct returns a sink at the head from the start: for output that is
// the only one, written straight to out.
func Direct(out Out) *Sink {
	s := &Sink{b: newBudget(0), out: out}
	s.head.Store(true)
	return s
}
