package ordered

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

func count(n int) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i := range n {
			if !yield(i) {
				return
			}
		}
	}
}

// TestRunOrder: whatever the workers' speeds, the records come out in
// input order, each item's before its done.
func TestRunOrder(t *testing.T) {
	var out bytes.Buffer
	var doneOrder []int
	err := Run(4, 64, count(200), func(_ string, rec []byte) error {
		out.Write(rec)
		return nil
	}, func(i int, s *Sink) int {
		for j := range 10 {
			time.Sleep(time.Duration(rand.IntN(50)) * time.Microsecond)
			fmt.Fprintf(s, "%d.%d\n", i, j)
		}
		return i
	}, func(i, r int) error {
		if i != r {
			t.Errorf("item %d got result %d", i, r)
		}
		doneOrder = append(doneOrder, i)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	for i := range 200 {
		for j := range 10 {
			fmt.Fprintf(&want, "%d.%d\n", i, j)
		}
	}
	if out.String() != want.String() {
		t.Fatal("records out of order")
	}
	if !slices.IsSorted(doneOrder) || len(doneOrder) != 200 {
		t.Fatalf("done order %v", doneOrder)
	}
}

// TestRunBounded: an item that is not at the head holds at most its
// window (plus one record) before its worker waits: memory does not grow
// with its output while the head is slow.
func TestRunBounded(t *testing.T) {
	const window = 1024
	release := make(chan struct{})
	var written atomic.Int64
	go func() {
		// Let item 1 run against its window, then let item 0 finish.
		time.Sleep(200 * time.Millisecond)
		close(release)
	}()
	var peak int64
	err := Run(2, window, count(2), func(string, []byte) error { return nil },
		func(i int, s *Sink) int {
			if i == 0 {
				<-release
				peak = written.Load()
				return 0
			}
			rec := make([]byte, 100)
			for range 1000 {
				s.Record("", rec)
				written.Add(100)
			}
			return 1
		}, func(int, int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if peak > window+100 {
		t.Fatalf("item 1 buffered %d bytes while item 0 held the head (window %d)", peak, window)
	}
	if written.Load() != 100000 {
		t.Fatalf("item 1 wrote %d bytes in all", written.Load())
	}
}

// TestRunStops: an error of the output stops the run and is returned;
// no worker is left waiting.
func TestRunStops(t *testing.T) {
	boom := fmt.Errorf("boom")
	err := Run(3, 16, count(100), func(string, []byte) error { return boom },
		func(i int, s *Sink) int {
			for range 100 {
				if s.Record("", []byte("0123456789")) != nil {
					break
				}
			}
			return i
		}, func(int, int) error { return nil })
	if err != boom {
		t.Fatalf("err %v, want boom", err)
	}
}
