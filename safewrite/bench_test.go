package safewrite

import (
	"bytes"
	"fmt"
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
