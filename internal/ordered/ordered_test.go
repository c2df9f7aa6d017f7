package ordered

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
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
// no worker is left waiting, and the items' iteration has ended.
func TestRunStops(t *testing.T) {
	boom := fmt.Errorf("boom")
	var ended atomic.Bool // the items' iteration ended: a walk closes what it holds
	items := func(yield func(int) bool) {
		defer ended.Store(true)
		count(100)(yield)
	}
	err := Run(3, 16, items, func(string, []byte) error { return boom },
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
	if !ended.Load() {
		t.Fatal("Run returned before the items' iteration ended")
	}
}

// TestRunAhead: while a long item holds the head, the other workers go
// on with later items (up to Ahead of them) instead of waiting for it,
// and what those buffer together stays within workers*window.
func TestRunAhead(t *testing.T) {
	const (
		workers = 2
		later   = 30 // items after the long one, all finished before it
		window  = 1000
	)
	var finished atomic.Int64
	var peak atomic.Int64
	var buffered atomic.Int64
	timeout := time.After(10 * time.Second)
	err := Run(workers, window, count(later+1), func(string, []byte) error { return nil },
		func(i int, s *Sink) int {
			if i == 0 {
				for finished.Load() < later {
					select {
					case <-timeout:
						t.Errorf("the long head item waited for 10 s: %d of %d later items done", finished.Load(), later)
						return 0
					default:
						time.Sleep(time.Millisecond)
					}
				}
				return 0
			}
			// A small item: its output fits, all of them together fit
			// workers*window.
			s.Record("", make([]byte, 50))
			n := buffered.Add(50)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
			finished.Add(1)
			return i
		}, func(int, int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if p := peak.Load(); p > workers*window {
		t.Fatalf("items not at the head buffered %d bytes, over %d", p, workers*window)
	}
}

// TestRunBudget: the items not at the head buffer at most workers*window
// bytes together: the workers wait when it is full, and the run goes on
// when the head moves.
func TestRunBudget(t *testing.T) {
	const (
		workers = 3
		window  = 1000
	)
	var mu sync.Mutex
	var got bytes.Buffer
	err := Run(workers, window, count(20), func(_ string, rec []byte) error {
		mu.Lock()
		got.Write(rec)
		mu.Unlock()
		return nil
	}, func(i int, s *Sink) int {
		for range 30 {
			s.Record("", []byte(fmt.Sprintf("%02d:%s\n", i, bytes.Repeat([]byte{'x'}, 90))))
			s.b.mu.Lock()
			used := s.b.used
			s.b.mu.Unlock()
			if used > workers*window {
				t.Errorf("buffered %d bytes together, over %d", used, workers*window)
			}
		}
		return i
	}, func(int, int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	for i := range 20 {
		for range 30 {
			fmt.Fprintf(&want, "%02d:%s\n", i, bytes.Repeat([]byte{'x'}, 90))
		}
	}
	if got.String() != want.String() {
		t.Fatal("records out of order")
	}
}

// TestRunOne: with one worker every item is worked on, written and done
// in the caller's goroutine, one after the other (no goroutine is
// started: the hand-offs between walker, worker and results were most of
// relurl -j 1's context switches); out's and done's errors stop it.
func TestRunOne(t *testing.T) {
	var out bytes.Buffer
	var log []string
	start := runtime.NumGoroutine()
	err := Run(1, 0, count(5), func(_ string, rec []byte) error {
		out.Write(rec)
		return nil
	}, func(i int, s *Sink) int {
		if n := runtime.NumGoroutine(); n != start {
			t.Errorf("item %d: %d goroutines, %d before Run", i, n, start)
		}
		log = append(log, fmt.Sprintf("work %d", i))
		fmt.Fprintf(s, "%d;", i)
		return i * 10
	}, func(i, r int) error {
		log = append(log, fmt.Sprintf("done %d=%d", i, r))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"work 0", "done 0=0", "work 1", "done 1=10", "work 2", "done 2=20", "work 3", "done 3=30", "work 4", "done 4=40"}
	if !slices.Equal(log, want) {
		t.Errorf("order %v, want %v", log, want)
	}
	if out.String() != "0;1;2;3;4;" {
		t.Errorf("output %q", out.String())
	}

	boom := fmt.Errorf("boom")
	worked := 0
	err = Run(1, 0, count(5), func(string, []byte) error { return nil }, func(i int, s *Sink) int {
		worked++
		return i
	}, func(i, _ int) error {
		if i == 1 {
			return boom
		}
		return nil
	})
	if err != boom || worked != 2 {
		t.Errorf("done's error: err %v after %d items, want boom after 2", err, worked)
	}
	worked = 0
	err = Run(1, 0, count(5), func(string, []byte) error { return boom }, func(i int, s *Sink) int {
		worked++
		s.Write([]byte("x"))
		return i
	}, func(int, int) error { return nil })
	if err != boom || worked != 1 {
		t.Errorf("out's error: err %v after %d items, want boom after 1", err, worked)
	}
}

// TestHeadRecordsWithoutLock: the sink at the head writes its records
// without the run's lock, which the sinks that buffer take (with -j 2
// every link record of relurl links took it, and the two workers
// contended for it): a head writes while another holds the lock.
func TestHeadRecordsWithoutLock(t *testing.T) {
	var out bytes.Buffer
	s := Direct(func(_ string, rec []byte) error {
		out.Write(rec)
		return nil
	})
	s.b.mu.Lock()
	done := make(chan error)
	go func() { done <- s.Record("", []byte("x")) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the head's Record waited for the run's lock")
	}
	s.b.mu.Unlock()
	if out.String() != "x" {
		t.Errorf("output %q", out.String())
	}
}

// bufferAll runs items 0..n with two workers where item 0 holds the head
// until every other item is done, so that items 1..n buffer all their
// records (each records records of size bytes, with key "k<i>" every
// keyEvery-th record, none when 0). It returns what out was called
// with and the bytes the run allocated.
// With keep false, out only counts the bytes (calls has one element,
// their number), so that allocated is the run's own.
func bufferAll(t *testing.T, n, records, size, keyEvery int, keep bool) (calls []string, keys []string, allocated uint64) {
	t.Helper()
	rest := make(chan struct{})
	var finished atomic.Int64
	recs := make([][]byte, n+1)
	for i := range recs {
		recs[i] = append(bytes.Repeat([]byte{'x'}, size-1), byte('a'+i%26))
	}
	total := 0
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := Run(2, 0, count(n+1), func(key string, r []byte) error {
		if keep {
			calls = append(calls, string(r))
			keys = append(keys, key)
		}
		total += len(r)
		return nil
	}, func(i int, s *Sink) int {
		if i == 0 {
			<-rest
			return 0
		}
		for j := range records {
			key := ""
			if keyEvery > 0 && j%keyEvery == 0 {
				key = "k"
			}
			s.Record(key, recs[i])
		}
		if finished.Add(1) == int64(n) {
			close(rest)
		}
		return i
	}, func(int, int) error { return nil })
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if !keep {
		calls = []string{fmt.Sprint(total)}
	}
	return calls, keys, after.TotalAlloc - before.TotalAlloc
}

// TestBufferedChunksReused: the records an item buffers while it is not
// at the head are kept in chunks that later items reuse, also after a
// collection (a sync.Pool is emptied by it), and are not indexed one by
// one: relurl links -j 2 allocated 52 of its 91 MB on corpus B growing
// the buffers, and their record indexes, of the items not at the head.
func TestBufferedChunksReused(t *testing.T) {
	const n, records, size = 20, 1000, 50    // 1 MB buffered, within the budget of two 1 MiB windows
	bufferAll(t, n, records, size, 0, false) // the chunks are made
	calls, _, allocated := bufferAll(t, n, records, size, 0, false)
	if want := fmt.Sprint(n * records * size); calls[0] != want {
		t.Fatalf("%s bytes written, want %s", calls[0], want)
	}
	t.Logf("%d bytes allocated for %d bytes buffered", allocated, n*records*size)
	if allocated > n*records*size/20 {
		t.Errorf("%d bytes allocated for %d bytes buffered by %d items; want at most 5 %%", allocated, n*records*size, n)
	}
}

// TestBufferedRecordsWithoutKey: the records an item buffered go to out
// whole and in order; those without a key in one call a chunk, those
// with a key each in a call of its own, with its key.
func TestBufferedRecordsWithoutKey(t *testing.T) {
	const n, records, size = 4, 3000, 50 // 150 KB an item: 3 chunks
	for _, keyEvery := range []int{0, 7} {
		calls, keys, _ := bufferAll(t, n, records, size, keyEvery, true)
		var want, got strings.Builder
		wantCalls := 0
		for i := 1; i <= n; i++ {
			for j := range records {
				want.WriteString(strings.Repeat("x", size-1))
				want.WriteByte(byte('a' + i%26))
				if keyEvery > 0 && j%keyEvery == 0 {
					wantCalls += 2
				}
			}
		}
		for i, c := range calls {
			got.WriteString(c)
			if keys[i] != "" && len(c) != size {
				t.Errorf("a record with key %q written with %d bytes, want %d", keys[i], len(c), size)
			}
		}
		if got.String() != want.String() {
			t.Fatalf("keyEvery %d: the records came out otherwise than written", keyEvery)
		}
		chunksPerItem := (records*size + chunkSize - 1) / chunkSize
		if keyEvery == 0 {
			wantCalls = n * chunksPerItem
		} else {
			wantCalls += n * chunksPerItem // at most: a run may end at a chunk's end too
		}
		if len(calls) > wantCalls {
			t.Errorf("keyEvery %d: %d calls of out for %d records, want at most %d", keyEvery, len(calls), n*records, wantCalls)
		}
	}
}

// TestPromoteWritesWithoutLock: while the records an item buffered are
// written (it has become the head), the other workers go on buffering:
// the run's lock is not held while out writes them.
func TestPromoteWritesWithoutLock(t *testing.T) {
	buffered := make(chan struct{}) // item 1 has buffered its record
	recorded := make(chan struct{}) // item 2 has buffered one too
	var blocked atomic.Bool
	err := Run(2, 0, count(3), func(key string, rec []byte) error {
		if string(rec) == "1" {
			// Item 1's backlog, written when it became the head.
			select {
			case <-recorded:
			case <-time.After(2 * time.Second):
				blocked.Store(true)
			}
		}
		return nil
	}, func(i int, s *Sink) int {
		switch i {
		case 0:
			<-buffered
		case 1:
			s.Record("", []byte("1"))
			close(buffered)
		case 2:
			s.Record("", []byte("2"))
			close(recorded)
		}
		return i
	}, func(int, int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if blocked.Load() {
		t.Fatal("an item not at the head could not buffer while the head's backlog was written")
	}
}

// TestBufferedHeldBytes: what an item not at the head holds is what it
// buffered, plus at most one chunk: records without a key fill the chunks
// whatever their sizes (one in a chunk of its own left most of each
// chunk empty for records a little over half a chunk), and come out in
// order; a record with a key stays whole.
func TestBufferedHeldBytes(t *testing.T) {
	var got bytes.Buffer
	var keyed []string
	s := &Sink{b: newBudget(1 << 30), window: 1 << 30, out: func(key string, rec []byte) error {
		if key != "" {
			keyed = append(keyed, key+"="+string(rec))
		}
		got.Write(rec)
		return nil
	}}
	var want bytes.Buffer
	for i := range 50 {
		rec := bytes.Repeat([]byte{byte('a' + i%26)}, 40000+i)
		if err := s.Record("", rec); err != nil {
			t.Fatal(err)
		}
		want.Write(rec)
	}
	if err := s.Record("k", []byte("whole")); err != nil {
		t.Fatal(err)
	}
	want.WriteString("whole")
	held := 0
	for _, c := range s.chunks {
		held += cap(c.b)
	}
	if held > s.buffered+chunkSize {
		t.Errorf("%d bytes held for %d buffered", held, s.buffered)
	}
	if err := s.promote(); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Error("the buffered bytes came out otherwise than written")
	}
	if len(keyed) != 1 || keyed[0] != "k=whole" {
		t.Errorf("keyed records %q, want [k=whole]", keyed)
	}
}

// TestRunTakesWhenFree: a worker takes its next item from the items
// itself when it is free, so no item is taken while every worker is
// busy. With a goroutine feeding the workers, that goroutine took the
// next item and waited, with it, for a worker; on two cores it then
// waited for a processor when a worker came free, and the worker for it.
func TestRunTakesWhenFree(t *testing.T) {
	const workers = 2
	var taken atomic.Int64
	items := func(yield func(int) bool) {
		for i := range 10 {
			taken.Store(int64(i + 1))
			if !yield(i) {
				return
			}
		}
	}
	started := make(chan int, workers)
	release := make(chan struct{})
	go func() {
		for range workers {
			<-started
		}
		// Time for a feeder to take the next item, were there one.
		time.Sleep(50 * time.Millisecond)
		if n := taken.Load(); n != workers {
			t.Errorf("%d items taken while the %d workers were busy with the first ones", n, workers)
		}
		close(release)
	}()
	var worked atomic.Int64
	err := Run(workers, 0, items, func(string, []byte) error { return nil },
		func(i int, s *Sink) int {
			if i < workers {
				started <- i
				<-release
			}
			worked.Add(1)
			return i
		}, func(int, int) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if worked.Load() != 10 {
		t.Errorf("%d items worked on, want 10", worked.Load())
	}
}
