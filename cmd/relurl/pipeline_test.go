package main

import (
	"bytes"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLinksPipelinedSameAsSequential: relurl links on a .warc.gz, a
// .warc.zst, a WAT and a .wat.gz, each a file and standard input
// (decompressed on a goroutine of its own when GOMAXPROCS > 1), writes
// the same links, status and messages as with GOMAXPROCS=1 (read in one
// goroutine), on a good file, one with damaged members and a cut one.
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
	zst := zstdWARC(t, nil, recs...)
	zstDamaged := bytes.Clone(zst)
	for _, at := range []int{len(zst) / 5, len(zst) / 2, len(zst) * 4 / 5} {
		zstDamaged[at] ^= 0x5a
	}
	dir := t.TempDir()
	// The same records as WAT, written by relurl, plain and gzip.
	good := filepath.Join(dir, "good.warc.gz")
	require.NoError(t, os.WriteFile(good, file, 0o644))
	wats := map[string][]byte{}
	for _, name := range []string{"good.wat", "good.wat.gz"} {
		_, errs, code := runRelurl(nil, "links", "--format", "wat", "-o", filepath.Join(dir, name), good)
		require.Equal(t, 0, code, errs)
		b, err := os.ReadFile(filepath.Join(dir, name))
		require.NoError(t, err)
		wats[name] = b
	}
	watGz := wats["good.wat.gz"]
	wats["cut.wat.gz"] = watGz[:len(watGz)*3/4]
	wats["damaged.wat.gz"] = bytes.Clone(watGz)
	wats["damaged.wat.gz"][len(watGz)/3] ^= 0x5a
	inputs := map[string][]byte{"good.warc.gz": file, "damaged.warc.gz": damaged, "cut.warc.gz": file[:len(file)-100],
		"good.warc.zst": zst, "damaged.warc.zst": zstDamaged, "cut.warc.zst": zst[:len(zst)-100]}
	maps.Copy(inputs, wats)
	for name, b := range inputs {
		path := filepath.Join(dir, "in-"+name)
		require.NoError(t, os.WriteFile(path, b, 0o644))
		var format []string
		if strings.Contains(name, ".wat") {
			format = []string{"--input-format", "wat"}
		}
		// A file, and standard input.
		for _, args := range [][]string{
			slices.Concat([]string{"links", "--status", "--on-error", "report"}, format, []string{path}),
			slices.Concat([]string{"links", "--status", "--on-error", "report"}, format, []string{"-"}),
		} {
			what := name + " " + args[len(args)-1]
			prev := runtime.GOMAXPROCS(1)
			seq, seqErr, seqCode := runRelurl(b, args...)
			runtime.GOMAXPROCS(max(prev, 2))
			pipe, pipeErr, pipeCode := runRelurl(b, args...)
			runtime.GOMAXPROCS(prev)
			assert.Equal(t, seq, pipe, what)
			assert.Equal(t, seqErr, pipeErr, what)
			assert.Equal(t, seqCode, pipeCode, what)
			assert.Greater(t, len(seq), 400, what)
			if !strings.HasPrefix(name, "good") {
				assert.Contains(t, strings.Join(seq, "\n"), `"status":"record-error"`, what)
			}
		}
	}
}

// TestLinksStdinPipelined: relurl links on a .warc.gz, a .warc.zst or a
// .wat.gz from standard input reads the input on a goroutine other than
// the one writing the links (decompression ahead of the parsing), when
// GOMAXPROCS > 1; the output is that of the file.
func TestLinksStdinPipelined(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	var recs []string
	for i := range 200 {
		recs = append(recs, page(fmt.Sprintf("r%d", i), -1, i%5*3000))
	}
	file, _ := members(recs...)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.warc.gz")
	require.NoError(t, os.WriteFile(good, file, 0o644))
	_, errs, code := runRelurl(nil, "links", "--format", "wat", "-o", filepath.Join(dir, "good.wat.gz"), good)
	require.Equal(t, 0, code, errs)
	wat, err := os.ReadFile(filepath.Join(dir, "good.wat.gz"))
	require.NoError(t, err)
	for name, in := range map[string]struct {
		data   []byte
		format string
	}{"warc.gz": {file, "auto"}, "warc.zst": {zstdWARC(t, nil, recs...), "auto"}, "wat.gz": {wat, "wat"}} {
		src := &goroutineReader{r: bytes.NewReader(in.data)}
		out := &outWriter{}
		fields := []string{"--fields", "url,record,target,line,column,offset,base,base_source"}
		code := run(slices.Concat([]string{"links", "--input-format", in.format}, fields, []string{"-"}), stdio{in: src, out: out, err: io.Discard})
		require.Equal(t, 0, code, name)
		readers := 0
		for g := range src.ids {
			if !out.ids[g] {
				readers++
			}
		}
		assert.Positive(t, readers, "%s: standard input read on a goroutine of its own", name)
		path := filepath.Join(dir, "in."+name)
		require.NoError(t, os.WriteFile(path, in.data, 0o644))
		want, _, _ := runRelurl(nil, slices.Concat([]string{"links", "--input-format", in.format}, fields, []string{path})...)
		assert.Equal(t, strings.Join(want, "\n")+"\n", out.buf.String(), name)
	}
}

// goroutineReader notes the goroutines that read it.
type goroutineReader struct {
	r   io.Reader
	mu  sync.Mutex
	ids map[string]bool
}

func (g *goroutineReader) Read(p []byte) (int, error) {
	g.mu.Lock()
	if g.ids == nil {
		g.ids = map[string]bool{}
	}
	g.ids[goroutineID()] = true
	g.mu.Unlock()
	return g.r.Read(p)
}

// outWriter keeps what is written and notes the goroutines that write it.
type outWriter struct {
	buf bytes.Buffer
	mu  sync.Mutex
	ids map[string]bool
}

func (g *outWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ids == nil {
		g.ids = map[string]bool{}
	}
	g.ids[goroutineID()] = true
	return g.buf.Write(p)
}
