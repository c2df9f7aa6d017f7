package tree

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
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
	pieces := func(data []byte) func(io.Writer) error {
		return func(dst io.Writer) error {
			for len(data) > 0 {
				n := min(len(data), 1000)
				if _, err := dst.Write(data[:n]); err != nil {
					return err
				}
				data = data[n:]
			}
			return nil
		}
	}
	for _, size := range []int{0, 1, 1000, streamBuffer - 1, streamBuffer, streamBuffer + 1, 3*streamBuffer + 17, 1 << 20} {
		data := oldContent(size)
		dir := t.TempDir()
		for _, w := range []Writer{{NoSync: true, Behind: true}, {NoSync: true, KeepSame: true, Behind: true}} {
			kept, err := w.WriteInStream(dir, "d/a.html", 0o644, pieces(data))
			require.NoError(t, err, size)
			got, _ := os.ReadFile(filepath.Join(dir, "d", "a.html"))
			assert.True(t, bytes.Equal(got, data), "size %d: content differs", size)
			assert.Equal(t, w.KeepSame, kept, "size %d", size)
		}
		// In place: the same content is no change, another one is.
		f := walked(t, dir, "d/a.html")
		changed, err := Writer{Behind: true}.UpdateStream(f, func(dst io.Writer, src io.Reader) error {
			_, err := io.Copy(dst, src)
			return err
		})
		require.NoError(t, err)
		assert.False(t, changed, "size %d: copied unchanged", size)
		changed, err = Writer{Behind: true}.UpdateStream(walked(t, dir, "d/a.html"), func(dst io.Writer, src io.Reader) error {
			return pieces(doubled(data))(dst)
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
		if err := pieces(oldContent(300 << 10))(dst); err != nil {
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
	defer b3.close()
	b3.Write(make([]byte, 2*streamBuffer))
	assert.EqualError(t, b3.Flush(), "disk full")
	_, err := b3.Write([]byte("x"))
	assert.EqualError(t, err, "disk full")
	assert.Equal(t, streamBuffer, <-fail.got)
	assert.Len(t, fail.got, 0, "written after the error")
}
