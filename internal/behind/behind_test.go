package behind

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"
)

// logWriter records every write it gets: its length and bytes.
type logWriter struct {
	mu     sync.Mutex
	sizes  []int
	data   bytes.Buffer
	failAt int   // fail the write that would take data past failAt bytes (0: never)
	err    error // the error it fails with
}

func (l *logWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.failAt > 0 && l.data.Len()+len(p) > l.failAt {
		n := l.failAt - l.data.Len()
		l.data.Write(p[:n])
		l.sizes = append(l.sizes, n)
		return n, l.err
	}
	l.sizes = append(l.sizes, len(p))
	l.data.Write(p)
	return len(p), nil
}

// pieces returns a reproducible sequence of writes: mostly records of
// tens to hundreds of bytes, some longer than the buffer.
func pieces(seed uint64, n, size int) [][]byte {
	r := rand.New(rand.NewPCG(seed, 1))
	var ps [][]byte
	for i := range n {
		k := r.IntN(300)
		if r.IntN(50) == 0 {
			k = size + r.IntN(2*size)
		}
		ps = append(ps, bytes.Repeat([]byte{byte('a' + i%26)}, k))
	}
	return ps
}

// TestSameWritesAsBufio: the bytes, and the writes they are cut into, are
// those of a bufio.Writer of the same size, Flushes included.
func TestSameWritesAsBufio(t *testing.T) {
	for seed := range uint64(20) {
		const size = 1 << 10
		ps := pieces(seed, 500, size)
		var want, got logWriter
		bw := bufio.NewWriterSize(&want, size)
		w := New(&got, size)
		for i, p := range ps {
			n1, err1 := bw.Write(p)
			n2, err2 := w.Write(p)
			if n1 != n2 || err1 != nil || err2 != nil {
				t.Fatalf("seed %d write %d: bufio (%d, %v), behind (%d, %v)", seed, i, n1, err1, n2, err2)
			}
			if i%97 == 0 {
				bw.Flush()
				if err := w.Flush(); err != nil {
					t.Fatal(err)
				}
			}
		}
		bw.Flush()
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(want.data.Bytes(), got.data.Bytes()) {
			t.Fatalf("seed %d: bytes differ", seed)
		}
		if fmt.Sprint(want.sizes) != fmt.Sprint(got.sizes) {
			t.Fatalf("seed %d: writes\n bufio  %v\n behind %v", seed, want.sizes, got.sizes)
		}
	}
}

// blockWriter blocks each write until released.
type blockWriter struct {
	started chan int
	release chan struct{}
	data    bytes.Buffer
}

func (b *blockWriter) Write(p []byte) (int, error) {
	b.started <- len(p)
	<-b.release
	return b.data.Write(p)
}

// TestWritesBehind: while a full buffer is being written (here: blocked),
// the producer goes on filling the next one without waiting; with a
// bufio.Writer its Write would wait for the blocked write.
func TestWritesBehind(t *testing.T) {
	const size = 64
	b := &blockWriter{started: make(chan int, 4), release: make(chan struct{})}
	w := New(b, size)
	done := make(chan error, 1)
	go func() {
		// The first buffer fills and is handed off; the second fills
		// up to one byte short of a hand-off: no wait for the first.
		for range 2*size - 1 {
			if _, err := w.Write([]byte("x")); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	select {
	case n := <-b.started:
		if n != size {
			t.Fatalf("first write %d bytes, want %d", n, size)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the full buffer was not written")
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Write waited for the write behind")
	}
	// Nothing else was written meanwhile, and Wait waits for it.
	waited := make(chan error, 1)
	go func() { waited <- w.Wait() }()
	select {
	case <-waited:
		t.Fatal("Wait returned while a write was under way")
	case <-time.After(50 * time.Millisecond):
	}
	close(b.release)
	if err := <-waited; err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := b.data.Len(); got != 2*size-1 {
		t.Fatalf("wrote %d bytes, want %d", got, 2*size-1)
	}
}

// TestWriteError: a failed write is returned by the next hand-off, Flush,
// Wait and Close, and nothing is written after it: the bytes before the
// failure are bufio's.
func TestWriteError(t *testing.T) {
	errFull := errors.New("disk full")
	const size = 256
	ps := pieces(7, 400, size)
	var want logWriter
	want.failAt, want.err = 3000, errFull
	bw := bufio.NewWriterSize(&want, size)
	for _, p := range ps {
		if _, err := bw.Write(p); err != nil {
			break
		}
	}
	var got logWriter
	got.failAt, got.err = 3000, errFull
	w := New(&got, size)
	var err error
	for _, p := range ps {
		if _, err = w.Write(p); err != nil {
			break
		}
	}
	if !errors.Is(err, errFull) {
		t.Fatalf("Write returned %v, want %v", err, errFull)
	}
	for name, f := range map[string]func() error{"Flush": w.Flush, "Wait": w.Wait, "Err": w.Err} {
		if err := f(); !errors.Is(err, errFull) {
			t.Errorf("%s: %v, want %v", name, err, errFull)
		}
	}
	if err := w.Close(); !errors.Is(err, errFull) {
		t.Errorf("Close: %v", err)
	}
	if !bytes.Equal(want.data.Bytes(), got.data.Bytes()) || fmt.Sprint(want.sizes) != fmt.Sprint(got.sizes) {
		t.Fatalf("writes\n bufio  %v\n behind %v", want.sizes, got.sizes)
	}
}

// TestGate: a write through the gate comes after what was handed off
// before it (it waits for the write behind), and once a write behind has
// failed the gate drops what the producer writes while drop says so.
func TestGate(t *testing.T) {
	var mu sync.Mutex
	var events []string
	logged := func(what string) { mu.Lock(); events = append(events, what); mu.Unlock() }
	out := writerFunc(func(p []byte) (int, error) {
		time.Sleep(20 * time.Millisecond) // a slow write: the gate must wait for it
		logged("out " + string(p[:1]))
		return len(p), nil
	})
	errw := writerFunc(func(p []byte) (int, error) { logged("err " + string(p)); return len(p), nil })
	w := New(out, 4)
	g := w.Gate(errw, func() bool { return true })
	w.Write([]byte("aa"))
	w.Write([]byte("aab")) // "aaaa" handed off
	g.Write([]byte("1"))
	w.Flush()
	g.Write([]byte("2"))
	w.Close()
	if got, want := fmt.Sprint(events), "[out a err 1 out b err 2]"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}

	errFail := errors.New("fail")
	events = nil
	dropping := true
	bad := writerFunc(func(p []byte) (int, error) { return 0, errFail })
	w = New(bad, 4)
	g = w.Gate(errw, func() bool { return dropping })
	g.Write([]byte("before"))
	w.Write([]byte("aa"))
	w.Write([]byte("aab")) // the hand-off fails behind
	g.Write([]byte("dropped"))
	dropping = false
	g.Write([]byte("after"))
	if got, want := fmt.Sprint(events), "[err before err after]"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	if err := w.Close(); !errors.Is(err, errFail) {
		t.Fatalf("Close: %v", err)
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestQueue: items are drained in order, a batch behind; Flush waits for
// them; a Gate write first hands off the items filled in so far and
// comes after what they make; a failed drain stops the queue, and the
// producer gets its error from the next hand-off.
func TestQueue(t *testing.T) {
	var mu sync.Mutex
	var events []string
	logged := func(what string) { mu.Lock(); events = append(events, what); mu.Unlock() }
	errFail := errors.New("fail")
	q := NewQueue(3, 2, func(batch []int, handed bool) (bool, error) {
		for _, v := range batch {
			if v < 0 {
				return true, errFail
			}
			logged(fmt.Sprint(v))
		}
		return false, nil
	})
	g := q.Gate(writerFunc(func(p []byte) (int, error) { logged(string(p)); return len(p), nil }), func() bool { return true })
	for i := range 4 {
		p, err := q.Next()
		if err != nil || *p != 0 {
			t.Fatalf("Next: %v, %d", err, *p)
		}
		*p = i + 1
	}
	g.Write([]byte("stderr")) // 4 is handed off before it, and written
	p, _ := q.Next()
	*p = 5
	if err := q.Flush(); err != nil {
		t.Fatal(err)
	}
	if got, want := fmt.Sprint(events), "[1 2 3 4 stderr 5]"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
	events = nil
	for _, v := range []int{6, -1, 7, 8, 9, 10} {
		p, err := q.Next()
		if err != nil {
			if !errors.Is(err, errFail) {
				t.Fatal(err)
			}
			break
		}
		*p = v
	}
	g.Write([]byte("dropped"))
	if err := q.Close(); !errors.Is(err, errFail) {
		t.Fatalf("Close: %v", err)
	}
	if got, want := fmt.Sprint(events), "[6]"; got != want {
		t.Fatalf("events %s, want %s", got, want)
	}
}

// TestQueueDepth: the producer goes on filling while depth-1 batches
// wait to be drained, and waits at the depth-th.
func TestQueueDepth(t *testing.T) {
	for _, depth := range []int{2, 4} {
		release := make(chan struct{})
		q := NewQueue(1, depth, func(batch []int, handed bool) (bool, error) {
			<-release
			return false, nil
		})
		filled, done := make(chan int, 16), make(chan struct{})
		go func() {
			defer close(done)
			for i := range 10 {
				p, err := q.Next()
				if err != nil {
					return
				}
				*p = i
				filled <- i
			}
		}()
		for last, same := -1, 0; same < 5; { // settled: 100 ms without a new item
			time.Sleep(20 * time.Millisecond)
			if n := len(filled); n == last {
				same++
			} else {
				last, same = n, 0
			}
		}
		// Batches of one item: depth-1 handed off (one being drained,
		// waiting for release), the depth-th being filled, the next Next
		// waits.
		if got := len(filled); got != depth {
			t.Errorf("depth %d: %d items filled before the producer waited, want %d", depth, got, depth)
		}
		close(release)
		<-done // the producer is done with the queue
		if err := q.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
