package safewrite

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/relurl/relurl/internal/testkit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// doubling writes each byte it reads from src twice to dst, 4 KiB at a
// time: the new content is longer than the old one, and written long
// before the old one is read to its end.
func doubling(dst io.Writer, src io.Reader) error {
	buf := make([]byte, 4<<10)
	out := make([]byte, 8<<10)
	for {
		n, err := src.Read(buf)
		for i, c := range buf[:n] {
			out[2*i], out[2*i+1] = c, c
		}
		if _, werr := dst.Write(out[:2*n]); werr != nil {
			return werr
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

func oldContent(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = 'a' + byte(i%23)
	}
	return b
}

func doubled(b []byte) []byte {
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, c, c)
	}
	return out
}

// TestUpdateStreamKeepHardLinksLonger: a file whose names stay together
// (KeepHardLinks) gets new content twice as long, streamed: written
// through the same inode, it must not overwrite old bytes before they are
// read (the new content goes to a temporary file first).
func TestUpdateStreamKeepHardLinksLonger(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("hard links are detected on Unix only")
	}
	dir := t.TempDir()
	old := oldContent(600 << 10) // well past any buffer
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.html"), old, 0o644))
	require.NoError(t, os.Link(filepath.Join(dir, "a.html"), filepath.Join(dir, "b.html")))
	before, _ := os.Stat(filepath.Join(dir, "a.html"))
	changed, err := Writer{HardLinks: KeepHardLinks}.UpdateStream(walkFile(t, dir, "a.html"), doubling)
	require.NoError(t, err)
	assert.True(t, changed)
	want := doubled(old)
	for _, name := range []string{"a.html", "b.html"} {
		got, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		assert.True(t, bytes.Equal(want, got), "%s: %d bytes, want the %d doubled", name, len(got), len(want))
	}
	after, _ := os.Stat(filepath.Join(dir, "a.html"))
	assert.True(t, os.SameFile(before, after), "same inode")
	assertNoTemp(t, dir)
}

// TestUpdateStreamUnchanged: a stream that writes back exactly the old
// content leaves the file untouched (same inode, same modification time,
// and no temporary file was even made: the directory's modification time
// stays too), whatever the hard-link mode; content that differs anywhere,
// or only in length, is written.
func TestUpdateStreamUnchanged(t *testing.T) {
	old := oldContent(200 << 10)
	mtime := time.Now().Add(-time.Hour).Truncate(time.Second)
	for _, tc := range []struct {
		name    string
		links   bool
		mode    HardLinks
		fn      func(io.Writer, io.Reader) error
		changed bool
		want    []byte
	}{
		{"same", false, SkipHardLinks, copyStream, false, old},
		{"same, hard links kept", true, KeepHardLinks, copyStream, false, old},
		{"same, hard links split", true, SplitHardLinks, copyStream, false, old},
		{"one byte differs", false, SkipHardLinks, flipAt(150 << 10), true, flipped(old, 150<<10)},
		{"one byte differs, hard links kept", true, KeepHardLinks, flipAt(150 << 10), true, flipped(old, 150<<10)},
		{"shorter", false, SkipHardLinks, cutAt(100 << 10), true, old[:100<<10]},
		{"longer", false, SkipHardLinks, func(dst io.Writer, src io.Reader) error {
			if err := copyStream(dst, src); err != nil {
				return err
			}
			_, err := io.WriteString(dst, "!")
			return err
		}, true, append(append([]byte{}, old...), '!')},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.links && runtime.GOOS == "windows" {
				t.Skip("hard links are detected on Unix only")
			}
			dir := t.TempDir()
			p := filepath.Join(dir, "a.html")
			require.NoError(t, os.WriteFile(p, old, 0o644))
			if tc.links {
				require.NoError(t, os.Link(p, filepath.Join(dir, "b.html")))
			}
			require.NoError(t, os.Chtimes(p, mtime, mtime))
			require.NoError(t, os.Chtimes(dir, mtime, mtime))
			before, err := os.Stat(p)
			require.NoError(t, err)
			changed, err := Writer{HardLinks: tc.mode}.UpdateStream(walkFile(t, dir, "a.html"), tc.fn)
			require.NoError(t, err)
			assert.Equal(t, tc.changed, changed)
			got, err := os.ReadFile(p)
			require.NoError(t, err)
			assert.True(t, bytes.Equal(tc.want, got), "content: %d bytes, want %d", len(got), len(tc.want))
			after, err := os.Stat(p)
			require.NoError(t, err)
			if !tc.changed {
				assert.True(t, os.SameFile(before, after), "the file was not replaced")
				assert.Equal(t, before.ModTime(), after.ModTime(), "modification time kept")
				d, err := os.Stat(dir)
				require.NoError(t, err)
				assert.Equal(t, mtime, d.ModTime(), "the directory was not written: no temporary file")
			}
			assertNoTemp(t, dir)
		})
	}
}

func copyStream(dst io.Writer, src io.Reader) error {
	_, err := io.Copy(dst, src)
	return err
}

// flipAt copies src to dst with the byte at off changed.
func flipAt(off int64) func(io.Writer, io.Reader) error {
	return func(dst io.Writer, src io.Reader) error {
		data, err := io.ReadAll(src)
		if err != nil {
			return err
		}
		_, err = dst.Write(flipped(data, off))
		return err
	}
}

func flipped(b []byte, off int64) []byte {
	out := append([]byte{}, b...)
	out[off] ^= 0x20
	return out
}

// cutAt copies the first n bytes of src to dst.
func cutAt(n int64) func(io.Writer, io.Reader) error {
	return func(dst io.Writer, src io.Reader) error {
		_, err := io.CopyN(dst, src, n)
		return err
	}
}

// TestWriteInStream: a mirror write streamed. A new file is made; a file
// that already holds the content with the same permission bits is kept
// (KeepSame: untouched, said so); a different content or mode is
// replaced; a failing stream writes nothing; a link planted in the mirror
// is not written through.
func TestWriteInStream(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	content := oldContent(150 << 10)
	w := Writer{NoSync: true, KeepSame: true}
	kept, err := w.WriteInStream(dir, "d/a.html", 0o640, inPieces(content))
	require.NoError(t, err)
	assert.False(t, kept)
	p := filepath.Join(dir, "d", "a.html")
	got, _ := os.ReadFile(p)
	assert.True(t, bytes.Equal(content, got))
	info, _ := os.Stat(p)
	assert.Equal(t, fs.FileMode(0o640), info.Mode().Perm())

	mtime := time.Now().Add(-time.Hour).Truncate(time.Second)
	require.NoError(t, os.Chtimes(p, mtime, mtime))
	require.NoError(t, os.Chtimes(filepath.Dir(p), mtime, mtime))
	before, _ := os.Stat(p)
	kept, err = w.WriteInStream(dir, "d/a.html", 0o640, inPieces(content))
	require.NoError(t, err)
	assert.True(t, kept, "up to date")
	after, _ := os.Stat(p)
	assert.True(t, os.SameFile(before, after))
	assert.Equal(t, mtime, after.ModTime())
	dinfo, _ := os.Stat(filepath.Dir(p))
	assert.Equal(t, mtime, dinfo.ModTime(), "no temporary file was made")

	// Without KeepSame, or with another mode, or other content: replaced.
	for _, tc := range []struct {
		name string
		w    Writer
		perm fs.FileMode
		data []byte
	}{
		{"no KeepSame", Writer{NoSync: true}, 0o640, content},
		{"mode", w, 0o644, content},
		{"content", w, 0o644, flipped(content, 149<<10)},
		{"prefix", w, 0o644, content[:1000]},
	} {
		before, _ := os.Stat(p)
		kept, err := tc.w.WriteInStream(dir, "d/a.html", tc.perm, inPieces(tc.data))
		require.NoError(t, err, tc.name)
		assert.False(t, kept, tc.name)
		after, _ := os.Stat(p)
		assert.False(t, os.SameFile(before, after), "%s: replaced", tc.name)
		assert.Equal(t, tc.perm, after.Mode().Perm(), tc.name)
		got, _ := os.ReadFile(p)
		assert.True(t, bytes.Equal(tc.data, got), tc.name)
	}

	boom := errors.New("boom")
	_, err = w.WriteInStream(dir, "d/b.html", 0o644, func(dst io.Writer) error {
		dst.Write(content)
		return boom
	})
	assert.ErrorIs(t, err, boom)
	assert.NoFileExists(t, filepath.Join(dir, "d", "b.html"))

	testkit.WriteTree(t, outside, map[string]string{"a.html": "outside"})
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "l")))
	require.NoError(t, os.Symlink(filepath.Join(outside, "a.html"), filepath.Join(dir, "d", "l.html")))
	_, err = w.WriteInStream(dir, "l/a.html", 0o644, inPieces(content))
	assert.ErrorIs(t, err, ErrSymlink)
	_, err = w.WriteInStream(dir, "d/l.html", 0o644, inPieces([]byte("outside")))
	assert.ErrorIs(t, err, ErrSymlink)
	data, _ := os.ReadFile(filepath.Join(outside, "a.html"))
	assert.Equal(t, "outside", string(data))
	assertNoTemp(t, dir)
	assertNoTemp(t, outside)
}

// TestStreamBuffersReused: writing file after file reuses the stream's
// buffers (a 64 KiB writer and, with KeepSame over an existing file, a
// 64 KiB comparison buffer) instead of allocating them per file: a tree
// of small pages allocated two per page.
func TestStreamBuffersReused(t *testing.T) {
	dir := t.TempDir()
	w := Writer{NoSync: true, KeepSame: true}
	page := bytes.Repeat([]byte("<p>page</p>\n"), 100)
	write := func(i int) {
		rel := filepath.Join("d", string(rune('a'+i%26))+".html")
		if _, err := w.WriteInStream(dir, rel, 0o644, func(dst io.Writer) error {
			_, err := dst.Write(page)
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 26 {
		write(i) // made; the next round compares with them
	}
	const files = 100
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for i := range files {
		write(i)
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / files; per > 32<<10 {
		t.Errorf("%d bytes allocated per file written, want < 32 KiB (the 64 KiB buffers reused)", per)
	}
}

// inPieces returns a stream that writes data in writes of 1000 bytes.
func inPieces(data []byte) func(io.Writer) error {
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
