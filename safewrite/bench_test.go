package safewrite

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkWriter measures what writing one mirrored document costs the
// file system (TMPDIR decides which): 256 files of 96 KiB, the size of
// an average page of corpus A, without fsync as "relurl rewrite -o"
// writes them. "new" makes files that do not exist yet, "replace" writes
// the same content over them again (a temporary file and a rename each),
// and "keep" is what a Writer with KeepSame does then (a read each).
func BenchmarkWriter(b *testing.B) {
	data := bytes.Repeat([]byte("<a href=\"https://example.org/x\">x</a>\n"), 96<<10/38)
	const files = 256
	for _, bench := range []struct {
		name  string
		w     Writer
		fresh bool
	}{
		{"new", Writer{NoSync: true}, true},
		{"replace", Writer{NoSync: true}, false},
		{"keep", Writer{NoSync: true, KeepSame: true}, false},
	} {
		b.Run(bench.name, func(b *testing.B) {
			dir := b.TempDir()
			path := func(round, i int) string {
				if bench.fresh {
					return filepath.Join(dir, fmt.Sprintf("r%d-%d.html", round, i))
				}
				return filepath.Join(dir, fmt.Sprintf("%d.html", i))
			}
			if !bench.fresh {
				for i := range files {
					if err := os.WriteFile(path(0, i), data, 0o644); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.SetBytes(files * int64(len(data)))
			for round := 0; b.Loop(); round++ {
				for i := range files {
					if err := bench.w.WriteFile(path(round, i), data, 0o644); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkWriteInStream measures a streamed write with Behind (and
// without, for comparison) of 64 files, written in 4 KiB pieces as a
// rewriter writes: "small" files (96 KiB, an average page) are written by
// the caller while writes are fast; "large" ones (1 MiB) go behind after
// their first 256 KiB.
func BenchmarkWriteInStream(b *testing.B) {
	const files = 64
	for _, size := range []struct {
		name string
		n    int
	}{{"small", 96 << 10}, {"large", 1 << 20}} {
		data := bytes.Repeat([]byte("<a href=\"https://example.org/x\">x</a>\n"), size.n/38)
		for _, behind := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/behind=%v", size.name, behind), func(b *testing.B) {
				dir := b.TempDir()
				w := Writer{NoSync: true, Behind: behind}
				write := func(dst io.Writer) error {
					for p := data; len(p) > 0; p = p[min(len(p), 4096):] {
						if _, err := dst.Write(p[:min(len(p), 4096)]); err != nil {
							return err
						}
					}
					return nil
				}
				b.SetBytes(files * int64(len(data)))
				b.ReportAllocs()
				for b.Loop() {
					for i := range files {
						if _, err := w.WriteInStream(dir, fmt.Sprintf("%d.html", i), 0o644, write); err != nil {
							b.Fatal(err)
						}
					}
				}
			})
		}
	}
}
