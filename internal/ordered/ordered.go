// Package ordered runs a command's per-file work on several goroutines and
// writes each file's output in input order, as it is produced: the output
// of the oldest unfinished file goes straight through, the others wait in
// a bounded buffer (a worker whose buffer is full waits for its turn), so
// memory depends on the number of workers, not on the size of a file or
// of its output.
package ordered

import (
	"iter"
	"sync"
)

// DefaultWindow is the output a file not yet at the head may buffer.
const DefaultWindow = 1 << 20

// Out receives the output records in input order. Key is what the record
// is about (a URL, for a caller that prints each once), or "".
type Out func(key string, record []byte) error

// Sink is where a worker writes the output of one item. It is not safe
// for use by several goroutines.
type Sink struct {
	mu     sync.Mutex
	turn   sync.Cond // signalled when the sink becomes the head
	head   bool      // output goes straight to out
	out    Out
	window int
	err    error // out's first error: the run stops

	buf  []byte
	ends []int    // where each buffered record ends in buf
	keys []string // each buffered record's key
}

// Write writes p as one record with no key.
func (s *Sink) Write(p []byte) (int, error) {
	if err := s.Record("", p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Record writes one record. It waits while the item is not at the head
// and its buffer is full. The record's bytes are not kept after it
// returns.
func (s *Sink) Record(key string, record []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.head && s.err == nil && len(s.buf) >= s.window {
		s.turn.Wait()
	}
	if s.err != nil {
		return s.err
	}
	if s.head {
		s.err = s.out(key, record)
		return s.err
	}
	s.buf = append(s.buf, record...)
	s.ends = append(s.ends, len(s.buf))
	s.keys = append(s.keys, key)
	return nil
}

// promote makes s the head: its buffered records go out, and the later
// ones go straight through.
func (s *Sink) promote() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	start := 0
	for i, end := range s.ends {
		if s.err == nil {
			s.err = s.out(s.keys[i], s.buf[start:end])
		}
		start = end
	}
	s.buf, s.ends, s.keys = nil, nil, nil
	s.head = true
	s.turn.Broadcast()
	return s.err
}

// fail ends a sink that will never be the head.
func (s *Sink) fail(err error) {
	s.mu.Lock()
	s.err = err
	s.turn.Broadcast()
	s.mu.Unlock()
}

// Run calls work for every item on up to workers goroutines, in input
// order of starting, each with its Sink, and after an item's work is done
// and its output written, calls done with its result, in input order.
// The output of the item at the head goes to out as work writes it; each
// other item buffers up to window bytes (0: DefaultWindow) before its
// worker waits. Run stops at the first error of out or done and returns it.
func Run[T, R any](workers, window int, items iter.Seq[T], out Out, work func(T, *Sink) R, done func(T, R) error) error {
	if workers < 1 {
		workers = 1
	}
	if window <= 0 {
		window = DefaultWindow
	}
	type job struct {
		item T
		sink *Sink
		res  chan R
	}
	var (
		jobs  = make(chan job)
		order = make(chan job, workers)
		stop  = make(chan struct{})
		wg    sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				j.res <- work(j.item, j.sink)
			}
		})
	}
	go func() {
		defer close(order)
		defer close(jobs)
		for it := range items {
			s := &Sink{out: out, window: window}
			s.turn.L = &s.mu
			j := job{it, s, make(chan R, 1)}
			select {
			case jobs <- j:
			case <-stop:
				return
			}
			// Queued only once a worker has it, so every queued job
			// produces a result.
			select {
			case order <- j:
			case <-stop:
				j.sink.fail(errStopped)
				<-j.res
				return
			}
		}
	}()
	var err error
	for j := range order {
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
			close(stop)
		}
	}
	wg.Wait()
	return err
}

type stopped struct{}

func (stopped) Error() string { return "ordered: stopped" }

var errStopped error = stopped{}

// Direct returns a sink at the head from the start: for output that is
// the only one, written straight to out.
func Direct(out Out) *Sink {
	s := &Sink{out: out, head: true}
	s.turn.L = &s.mu
	return s
}
