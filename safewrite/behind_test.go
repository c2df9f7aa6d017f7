package safewrite

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriterBehind: with Behind, streamed writes give the same files as
// without: every size around the buffer's, written in pieces; a mirror
// already holding the content is kept; a write that fails leaves no file
// and no temporary file; an original updated in place is replaced only
// when changed.
func TestWriterBehind(t *testing.T) {
	for _, size := range []int{0, 1, 1000, streamBuffer - 1, streamBuffer, streamBuffer + 1, 3*streamBuffer + 17, 1 << 20} {
		data := oldContent(size)
		dir := t.TempDir()
		for _, w := range []Writer{{NoSync: true, Behind: true}, {NoSync: true, KeepSame: true, Behind: true}} {
			kept, err := w.WriteInStream(dir, "d/a.html", 0o644, inPieces(data))
			require.NoError(t, err, size)
			got, _ := os.ReadFile(filepath.Join(dir, "d", "a.html"))
			assert.True(t, bytes.Equal(got, data), "size %d: content differs", size)
			assert.Equal(t, w.KeepSame, kept, "size %d", size)
		}
		// In place: the same content is no change, another one is.
		f := walkFile(t, dir, "d/a.html")
		changed, err := Writer{Behind: true}.UpdateStream(f, func(dst io.Writer, src io.Reader) error {
			_, err := io.Copy(dst, src)
			return err
		})
		require.NoError(t, err)
		assert.False(t, changed, "size %d: copied unchanged", size)
		changed, err = Writer{Behind: true}.UpdateStream(walkFile(t, dir, "d/a.html"), func(dst io.Writer, src io.Reader) error {
			return inPieces(doubled(data))(dst)
		})
		require.NoError(t, err)
		assert.Equal(t, size > 0, changed, "size %d: doubled", size)
		got, _ := os.ReadFile(filepath.Join(dir, "d", "a.html"))
		assert.True(t, bytes.Equal(got, doubled(data)), "size %d: doubled content differs", size)
	}

	// A write that fails after 300 KB were handed over leaves nothing.
	dir := t.TempDir()
	boom := errors.New("boom")
	_, err := Writer{NoSync: true, Behind: true}.WriteInStream(dir, "b.html", 0o644, func(dst io.Writer) error {
		if err := inPieces(oldContent(300 << 10))(dst); err != nil {
			return err
		}
		return boom
	})
	assert.ErrorIs(t, err, boom)
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		assert.False(t, e.Name() == "b.html" || strings.HasPrefix(e.Name(), tempPrefix), "%s left", e.Name())
	}
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

// TestBehindOverlaps: the caller does not wait for the file while it
// writes: a full buffer is handed over and Write returns while the
// underlying write is still blocked; what is written keeps its order;
// Flush waits for all of it; the first error is returned by the next
// Write and by Flush, and nothing is written after it.
func TestBehindOverlaps(t *testing.T) {
	w := &blockingWriter{release: make(chan struct{}), got: make(chan int, 16)}
	b := newBehind(w)
	b.ahead = 0 // behind from the first byte
	defer b.close()
	returned := make(chan struct{})
	go func() {
		b.Write(make([]byte, streamBuffer)) // one full buffer: handed over
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
	assert.Equal(t, streamBuffer, <-w.got)
	assert.Equal(t, 10, <-w.got)

	var out bytes.Buffer
	b2 := newBehind(&out)
	data := oldContent(5*streamBuffer + 123)
	for p := data; len(p) > 0; p = p[min(len(p), 777):] {
		b2.Write(p[:min(len(p), 777)])
	}
	require.NoError(t, b2.Flush())
	b2.close()
	assert.True(t, bytes.Equal(out.Bytes(), data), "order or content lost")

	fail := &blockingWriter{release: make(chan struct{}), got: make(chan int, 16), err: errors.New("disk full")}
	close(fail.release)
	b3 := newBehind(fail)
	b3.ahead = 0
	defer b3.close()
	b3.Write(make([]byte, 2*streamBuffer))
	assert.EqualError(t, b3.Flush(), "disk full")
	_, err := b3.Write([]byte("x"))
	assert.EqualError(t, err, "disk full")
	assert.Equal(t, streamBuffer, <-fail.got)
	assert.Len(t, fail.got, 0, "written after the error")
}

// countBehindStarts counts the writer goroutines started until the test
// ends, with writes taken as fast (or slow) as given.
func countBehindStarts(t *testing.T, slow bool) *atomic.Int64 {
	var n atomic.Int64
	testHookBehindStart = func() { n.Add(1) }
	was := slowWrites.Load()
	slowWrites.Store(0)
	if slow {
		slowWrites.Store(slowAfter)
	}
	t.Cleanup(func() { testHookBehindStart = nil; slowWrites.Store(was) })
	return &n
}

// TestBehindSmallFilesNoGoroutine: while writes are fast, a file up to
// behindAfter bytes is written by the caller, with no goroutine started
// for it (a hand-off per buffer cost more than the write on tmpfs); a
// larger one's rest goes behind, and both come out whole.
func TestBehindSmallFilesNoGoroutine(t *testing.T) {
	starts := countBehindStarts(t, false)
	was := slowWrite
	slowWrite = time.Hour
	t.Cleanup(func() { slowWrite = was })
	dir := t.TempDir()
	w := Writer{NoSync: true, KeepSame: true, Behind: true}
	for i, size := range []int{0, 1, 1000, streamBuffer, behindAfter - 1, behindAfter} {
		data := oldContent(size)
		name := fmt.Sprintf("s%d.html", i)
		_, err := w.WriteInStream(dir, name, 0o644, func(dst io.Writer) error {
			_, err := dst.Write(data)
			return err
		})
		require.NoError(t, err)
		got, _ := os.ReadFile(filepath.Join(dir, name))
		assert.True(t, bytes.Equal(got, data), "size %d: content differs", size)
	}
	assert.Zero(t, starts.Load(), "goroutines started for small files")

	data := oldContent(behindAfter + streamBuffer + 1)
	_, err := w.WriteInStream(dir, "large.html", 0o644, func(dst io.Writer) error {
		_, err := dst.Write(data)
		return err
	})
	require.NoError(t, err)
	got, _ := os.ReadFile(filepath.Join(dir, "large.html"))
	assert.True(t, bytes.Equal(got, data), "large file's content differs")
	assert.Equal(t, int64(1), starts.Load(), "a large file's rest goes behind")
}

// TestBehindAfterSlowWrite: once writes were slow (slowAfter of them),
// every later file is written behind from its first byte.
func TestBehindAfterSlowWrite(t *testing.T) {
	starts := countBehindStarts(t, false)
	was := slowWrite
	slowWrite = 0 // every write is slow
	t.Cleanup(func() { slowWrite = was })
	dir := t.TempDir()
	w := Writer{NoSync: true, Behind: true}
	write := func(name string) {
		_, err := w.WriteInStream(dir, name, 0o644, func(dst io.Writer) error {
			_, err := dst.Write(oldContent(1000))
			return err
		})
		require.NoError(t, err)
	}
	names := []string{"a.html", "b.html", "c.html", "d.html", "e.html"}
	for _, n := range names[:slowAfter] {
		write(n)
	}
	assert.Zero(t, starts.Load(), "small files are written by the caller until writes are slow")
	assert.True(t, writesSlow(), "their writes were slow")
	for _, n := range names[slowAfter:] {
		write(n)
	}
	assert.Equal(t, int64(len(names)-slowAfter), starts.Load(), "later files go behind")
	for _, n := range names {
		got, _ := os.ReadFile(filepath.Join(dir, n))
		assert.Equal(t, oldContent(1000), got, n)
	}
}
