package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLinksPipelinedSameAsSequential: relurl links on a .warc.gz file
// (inflated on a goroutine of its own when GOMAXPROCS > 1) writes the
// same links, status and messages as with GOMAXPROCS=1 (read in one
// goroutine), on a good file and on one with damaged members.
func TestLinksPipelinedSameAsSequential(t *testing.T) {
	var recs []string
	for i := range 300 {
		recs = append(recs, page(fmt.Sprintf("r%d", i), -1, i%7*1000))
	}
	file, offs := members(recs...)
	damaged := append([]byte(nil), file...)
	for _, i := range []int{17, 150, 151, 299} {
		damaged[offs[i]+30] ^= 0x5a
	}
	dir := t.TempDir()
	for name, b := range map[string][]byte{"good.warc.gz": file, "damaged.warc.gz": damaged, "cut.warc.gz": file[:len(file)-100]} {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, b, 0o644))
		args := []string{"links", "--status", "--on-error", "report", path}
		prev := runtime.GOMAXPROCS(1)
		seq, seqErr, seqCode := runRelurl(nil, args...)
		runtime.GOMAXPROCS(max(prev, 2))
		pipe, pipeErr, pipeCode := runRelurl(nil, args...)
		runtime.GOMAXPROCS(prev)
		assert.Equal(t, seq, pipe, name)
		assert.Equal(t, seqErr, pipeErr, name)
		assert.Equal(t, seqCode, pipeCode, name)
		assert.Greater(t, len(seq), 400, name)
		if name != "good.warc.gz" {
			assert.Contains(t, strings.Join(seq, "\n"), `"status":"record-error"`, name)
		}
	}
}
