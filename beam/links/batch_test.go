package links

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl/beam/internal/fixture"
)

// TestBatcher: a batch holds the links of one record (or MHTML part) and
// at most batchSize of them, in the order they came.
func TestBatcher(t *testing.T) {
	var got []Batch
	b := batcher{emit: func(x Batch) { got = append(got, x) }}
	var in []Link
	for i := range batchSize + 10 {
		in = append(in, Link{Record: 0, Line: i})
	}
	in = append(in, Link{Record: 500}, Link{Record: 500}, Link{Record: 900, Part: "a"}, Link{Record: 900, Part: "b"})
	for _, l := range in {
		b.add(l)
	}
	b.flush()
	var sizes []int
	var flat []Link
	for _, x := range got {
		sizes = append(sizes, len(x.Links))
		flat = append(flat, x.Links...)
	}
	if want := []int{batchSize, 10, 2, 1, 1}; !slices.Equal(sizes, want) {
		t.Errorf("batch sizes %v, want %v", sizes, want)
	}
	if !slices.EqualFunc(flat, in, func(a, b Link) bool { return a.Record == b.Record && a.Part == b.Part && a.Line == b.Line }) {
		t.Error("batches do not hold the links in order")
	}
}

// TestBatchedOutput: the job's links output (batched) is the lines the
// extraction gives link by link, on a good WARC, a WARC with a damaged
// member, and a record with more links than one batch holds.
func TestBatchedOutput(t *testing.T) {
	in := t.TempDir()
	corrupt, _ := fixture.CorruptWARC()
	var big bytes.Buffer
	for i := range 2*batchSize + 7 {
		fmt.Fprintf(&big, "<a href=\"/p%d\">%d</a>\n", i, i)
	}
	files := map[string][]byte{
		"good.warc.gz":    fixture.GoodWARC(),
		"corrupt.warc.gz": corrupt,
		"big.html":        big.Bytes(),
	}
	var want []string
	for name, data := range files {
		path := filepath.Join(in, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		extractFile(path, int64(len(data)), bytes.NewReader(data), Options{}, func(l Link) {
			want = append(want, strings.TrimSuffix(string(l.AppendJSON(nil, nil)), "\n"))
		}, func(Failure) {})
	}
	out := filepath.Join(t.TempDir(), "run")
	runJob(t, Job{Inputs: []string{filepath.Join(in, "*")}, Output: out})
	got := readShards(t, OutputName(out, OutputLinks))
	if len(want) < 2*batchSize {
		t.Fatalf("only %d links extracted", len(want))
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("batched output: %d lines, link by link: %d, or they differ", len(got), len(want))
	}
}
