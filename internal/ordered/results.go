package ordered

import (
	"iter"
	"sync"
)

// Results runs work on each item of items with the given number of
// goroutines and calls emit with each item and its result in the order of
// items, so output stays deterministic however the work is scheduled.
// The results wait for their turn in a window of twice as many items as
// workers, which bounds memory. If emit returns an error, no further item
// is started and Results returns that error once the running work ends.
func Results[T, R any](workers int, items iter.Seq[T], work func(T) R, emit func(T, R) error) error {
	if workers < 1 {
		workers = 1
	}
	type job struct {
		item T
		out  chan R
	}
	var (
		jobs  = make(chan job)
		order = make(chan job, 2*workers)
		done  = make(chan struct{})
		wg    sync.WaitGroup
	)
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				j.out <- work(j.item)
			}
		})
	}
	go func() {
		defer close(order)
		defer close(jobs)
		for it := range items {
			j := job{it, make(chan R, 1)}
			select {
			case jobs <- j:
			case <-done:
				return
			}
			// Queued only once a worker has it, so every queued job
			// produces a result.
			select {
			case order <- j:
			case <-done:
				return
			}
		}
	}()
	var err error
	for j := range order {
		r := <-j.out
		if err = emit(j.item, r); err != nil {
			close(done)
			break
		}
	}
	if err != nil {
		for range order {
		}
	}
	wg.Wait()
	return err
}
