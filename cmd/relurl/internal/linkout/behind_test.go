package linkout

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/harvest"
	"github.com/relurl/relurl/internal/lazyref"
	"github.com/relurl/relurl/internal/lazyurl"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/resolve"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// writeLinks writes n links of each kind of input, with a status line
// after each kind, through m (with or without m.Behind) to out.
func writeLinks(t *testing.T, m Mode, out *bytes.Buffer, n int) {
	var w flushOut = nopFlusher{out}
	if m.Behind != nil {
		w = m.Behind
	}
	o := Out(w, false, nil)
	for _, k := range []base.Format{base.HTML, base.MHTML, base.WARC} {
		lw := NewWriter(ordered.Direct(o), "d/f"+k.String()+".html", m)
		for i := range n {
			l := testLink(strings.Repeat("x", i%50) + ".html")
			l.Part, l.TargetPart = "part"+strings.Repeat("p", i%7), "t.html"
			l.Record, l.Target = int64(i*100), "https://t.example/"+strings.Repeat("r", i%5)
			if i%10 == 3 {
				l.URL, l.Err = "", pkgError("bad URL")
			}
			if i%4 == 1 {
				l.Rel = []string{"next", "me"}
			}
			require.NoError(t, lw.Link(k, l))
		}
		st := lw.Result(harvest.Result{}).Status
		require.NoError(t, m.Finish(o, &st))
		if k == base.MHTML {
			require.NoError(t, w.Flush())
		}
	}
	require.NoError(t, w.Flush())
}

type flushOut interface {
	Write([]byte) (int, error)
	Flush() error
}

type nopFlusher struct{ *bytes.Buffer }

func (nopFlusher) Flush() error { return nil }

// TestBehindAsWriter: the records a Behind encodes and writes are those
// the worker writes without it, in every format, with MHTML parts and
// WARC records (whose fields point into the queue's entries), errors,
// rel tokens, status lines and flushes.
func TestBehindAsWriter(t *testing.T) {
	for _, tc := range []struct{ format, fields string }{
		{"jsonl", ""}, {"text", ""}, {"tsv", ""}, {"jsonl", "url,part,record,target,rel,error"}, {"tsv", "raw,file,part,record"},
	} {
		m, err := NewMode(tc.format, tc.fields)
		require.NoError(t, err)
		m.Status = true
		var want, got bytes.Buffer
		writeLinks(t, m, &want, 2000)
		b := NewBehind(&got)
		m.Behind = b
		writeLinks(t, m, &got, 2000)
		require.NoError(t, b.Close())
		assert.Equal(t, want.String(), got.String(), "%s %s", tc.format, tc.fields)
	}
}

// TestBehindEncodes: with Behind, the records are encoded on its
// goroutine, not on the worker's.
func TestBehindEncodes(t *testing.T) {
	var mu sync.Mutex
	where := map[string]int{}
	onEncode = func() {
		b := make([]byte, 64)
		b = b[:runtime.Stack(b, false)]
		id, _, _ := strings.Cut(string(b), " [")
		mu.Lock()
		where[id]++
		mu.Unlock()
	}
	defer func() { onEncode = nil }()
	m, _ := NewMode("jsonl", "")
	var out bytes.Buffer
	b := NewBehind(&out)
	m.Behind = b
	writeLinks(t, m, &out, 1000)
	require.NoError(t, b.Close())
	self := make([]byte, 64)
	self = self[:runtime.Stack(self, false)]
	id, _, _ := strings.Cut(string(self), " [")
	if where[id] != 0 || len(where) != 1 {
		t.Fatalf("encoded on %v; the worker is %s", where, id)
	}
	for _, n := range where {
		assert.Equal(t, 3000, n)
	}
}

// TestBehindWriteError: a write that fails behind stops the worker at its
// next hand-off through its sink (the run stops, as at out's error), and
// nothing is written after it.
func TestBehindWriteError(t *testing.T) {
	errFull := errors.New("full")
	n := 0
	b := NewBehind(writerFunc(func(p []byte) (int, error) {
		n++
		return 0, errFull
	}))
	m, _ := NewMode("jsonl", "")
	m.Behind = b
	sink := ordered.Direct(Out(b, false, nil))
	lw := NewWriter(sink, "f.html", m)
	var err error
	for i := 0; i < 100000 && err == nil; i++ {
		err = lw.Link(base.HTML, testLink("a.html"))
	}
	require.ErrorIs(t, err, errFull)
	require.ErrorIs(t, sink.Record("", []byte("x")), errFull, "the sink has the error: the run stops")
	require.ErrorIs(t, b.Close(), errFull)
	assert.Equal(t, 1, n, "one write, the failed one")
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestBehindBounded: what the queue holds is bounded in bytes, not only
// in links: with its writer stuck, the worker waits once the links
// queued hold about behindDepth times behindBytes (here 100 KiB each:
// about 40), not after behindDepth batches of links of any length
// (4,096).
func TestBehindBounded(t *testing.T) {
	release := make(chan struct{})
	b := NewBehind(writerFunc(func(p []byte) (int, error) { <-release; return len(p), nil }))
	m, _ := NewMode("jsonl", "")
	m.Behind = b
	lw := NewWriter(ordered.Direct(Out(b, false, nil)), "f.html", m)
	long := testLink(strings.Repeat("x", 100<<10))
	var mu sync.Mutex
	taken, stop := 0, false
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 3000 {
			if err := lw.Link(base.HTML, long); err != nil {
				return
			}
			mu.Lock()
			taken++
			s := stop
			mu.Unlock()
			if s {
				return
			}
		}
	}()
	last := -1
	for {
		time.Sleep(100 * time.Millisecond)
		mu.Lock()
		n := taken
		mu.Unlock()
		if n == last {
			break
		}
		last = n
	}
	mu.Lock()
	stop = true
	mu.Unlock()
	close(release)
	<-done
	require.NoError(t, b.Close())
	if max := behindDepth*behindBytes/(100<<10) + 2*behindDepth; last > max {
		t.Fatalf("the worker queued %d links of 100 KiB before it waited, want at most %d", last, max)
	}
}

// TestBehindResolves: a link whose URL was left for later
// (lazyurl.DeferIn) is resolved where its record is made, on
// Behind's goroutine or in the worker's Writer: the records are those of
// the links resolved at once, in every format.
func TestBehindResolves(t *testing.T) {
	res, err := resolve.NewResolver(resolve.WHATWG, "https://b.example/d/", resolve.Options{})
	require.NoError(t, err)
	refs := []string{"x.html", "../y?q", "https://o.example/", "http://[bad", ""}
	write := func(m Mode, out *bytes.Buffer, deferred bool) {
		var w flushOut = nopFlusher{out}
		if m.Behind != nil {
			w = m.Behind
		}
		o := Out(w, false, nil)
		lw := NewWriter(ordered.Direct(o), "f.html", m)
		var lazy lazyref.Refs
		for i := range 3000 {
			ref := refs[i%len(refs)]
			l := testLink(ref)
			l.Raw = ref
			if deferred {
				l.URL, l.Err = "", nil
				lazyurl.Defer(&l, lazy.New(res, 0, len(ref)))
			} else {
				l.URL, l.Err = res.Reference(ref)
			}
			require.NoError(t, lw.LinkRef(base.HTML, &l))
		}
		st := lw.Result(harvest.Result{}).Status
		require.NoError(t, m.Finish(o, &st))
		require.NoError(t, w.Flush())
	}
	for _, format := range []string{"jsonl", "text", "tsv"} {
		m, err := NewMode(format, "")
		require.NoError(t, err)
		m.Status = true
		var want, worker, behind bytes.Buffer
		write(m, &want, false)
		write(m, &worker, true)
		b := NewBehind(&behind)
		m.Behind = b
		write(m, &behind, true)
		require.NoError(t, b.Close())
		assert.Equal(t, want.String(), worker.String(), "%s: resolved by the worker's Writer", format)
		assert.Equal(t, want.String(), behind.String(), "%s: resolved behind", format)
	}
}
