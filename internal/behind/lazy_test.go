package behind

import (
	"bytes"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const lazySize = 64 << 10

// content returns n bytes that differ from place to place.
func content(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + i%23 + i/4099%3)
	}
	return b
}

// blockingWriter blocks each Write until release, counting what it got.
type blockingWriter struct {
	release chan struct{}
	got     chan int
	err     error
}

func (w *blockingWriter) Write(p []byte) (int, error) {
	<-w.release
	w.got <- len(p)
	return len(p), w.err
}

// TestLazyOverlaps: the caller does not wait for the file while it
// writes: a full buffer is handed over and Write returns while the
// underlying write is still blocked; what is written keeps its order;
// Flush waits for all of it; the first error is returned by a later
// Write and by Flush, and nothing is written after it.
func TestLazyOverlaps(t *testing.T) {
	w := &blockingWriter{release: make(chan struct{}), got: make(chan int, 16)}
	b := NewLazy(w, lazySize, 0) // behind from the first byte
	defer b.Close()
	returned := make(chan struct{})
	go func() {
		b.Write(make([]byte, lazySize)) // one full buffer: handed over
		b.Write(make([]byte, 10))
		close(returned)
	}()
	select {
	case <-returned:
	case <-time.After(5 * time.Second):
		t.Fatal("Write waited for the blocked underlying write")
	}
	close(w.release)
	require.NoError(t, b.Flush())
	assert.Equal(t, lazySize, <-w.got)
	assert.Equal(t, 10, <-w.got)

	for _, ahead := range []int{0, 1, 2 * lazySize} {
		var out bytes.Buffer
		b2 := NewLazy(&out, lazySize, ahead)
		data := content(5*lazySize + 123)
		for p := data; len(p) > 0; p = p[min(len(p), 777):] {
			b2.Write(p[:min(len(p), 777)])
		}
		require.NoError(t, b2.Flush())
		require.NoError(t, b2.Close())
		assert.True(t, bytes.Equal(out.Bytes(), data), "ahead %d: order or content lost", ahead)
	}

	fail := &blockingWriter{release: make(chan struct{}), got: make(chan int, 16), err: errors.New("disk full")}
	close(fail.release)
	b3 := NewLazy(fail, lazySize, 0)
	defer b3.Close()
	b3.Write(make([]byte, 2*lazySize))
	assert.EqualError(t, b3.Flush(), "disk full")
	_, err := b3.Write([]byte("x"))
	assert.EqualError(t, err, "disk full")
	assert.Equal(t, lazySize, <-fail.got)
	assert.Len(t, fail.got, 0, "written after the error")
}

// TestLazyDiscard: Discard drops what is buffered and waits for what was
// handed over; what is written after it follows what was handed over.
func TestLazyDiscard(t *testing.T) {
	var out bytes.Buffer
	b := NewLazy(&out, lazySize, 0)
	b.Write(content(lazySize + 10)) // one buffer handed over, 10 bytes kept
	require.NoError(t, b.Discard())
	assert.Equal(t, lazySize, out.Len(), "what was handed over is written")
	b.Write([]byte("after"))
	require.NoError(t, b.Flush())
	require.NoError(t, b.Close())
	assert.Equal(t, append(content(lazySize), "after"...), out.Bytes())
}

// countStarts counts the lazy goroutines started until the test ends,
// with writes taken as fast (or slow) as given.
func countStarts(t *testing.T, slow bool) *atomic.Int64 {
	var n atomic.Int64
	testHookStart = func() { n.Add(1) }
	was := slowWrites.Load()
	slowWrites.Store(0)
	if slow {
		slowWrites.Store(slowAfter)
	}
	t.Cleanup(func() { testHookStart = nil; slowWrites.Store(was) })
	return &n
}

// lazyWrite writes data through a new lazy Writer, as one file.
func lazyWrite(t *testing.T, data []byte) []byte {
	var out bytes.Buffer
	b := NewLazy(&out, lazySize, 4*lazySize)
	_, err := b.Write(data)
	require.NoError(t, err)
	require.NoError(t, b.Flush())
	require.NoError(t, b.Close())
	return out.Bytes()
}

// TestLazySmallFilesNoGoroutine: while writes are fast, a file up to
// ahead bytes is written by the caller, with no goroutine started for it
// (a hand-off per buffer cost more than the write on tmpfs); a larger
// one's rest goes behind, and both come out whole.
func TestLazySmallFilesNoGoroutine(t *testing.T) {
	starts := countStarts(t, false)
	was := slowWrite
	slowWrite = time.Hour
	t.Cleanup(func() { slowWrite = was })
	for _, size := range []int{0, 1, 1000, lazySize, 4*lazySize - 1, 4 * lazySize} {
		data := content(size)
		assert.True(t, bytes.Equal(lazyWrite(t, data), data), "size %d: content differs", size)
	}
	assert.Zero(t, starts.Load(), "goroutines started for small files")

	data := content(4*lazySize + lazySize + 1)
	assert.True(t, bytes.Equal(lazyWrite(t, data), data), "large file's content differs")
	assert.Equal(t, int64(1), starts.Load(), "a large file's rest goes behind")
}

// TestLazyAfterSlowWrite: once writes were slow (slowAfter of them),
// every later lazy Writer hands off from its first byte.
func TestLazyAfterSlowWrite(t *testing.T) {
	starts := countStarts(t, false)
	was := slowWrite
	slowWrite = 0 // every write is slow
	t.Cleanup(func() { slowWrite = was })
	for range slowAfter {
		assert.Equal(t, content(1000), lazyWrite(t, content(1000)))
	}
	assert.Zero(t, starts.Load(), "small files are written by the caller until writes are slow")
	assert.True(t, writesSlow(), "their writes were slow")
	for range 2 {
		assert.Equal(t, content(1000), lazyWrite(t, content(1000)))
	}
	assert.Equal(t, int64(2), starts.Load(), "later files go behind")
}
