package links

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/parquet-go/parquet-go"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/linktable"
)

// TestParquetOutput: Format "parquet" writes Parquet shards whose rows,
// read back with parquet-go, are the rows of the job's JSON Lines links.
func TestParquetOutput(t *testing.T) {
	in := t.TempDir()
	if err := testkit.WriteKindArchives(in); err != nil {
		t.Fatal(err)
	}
	warc := filepath.Join(in, testkit.KindsWARCGz)
	run := func(format string) string {
		dir := filepath.Join(t.TempDir(), "out") + "/"
		runJob(t, Job{Inputs: []string{warc}, Output: dir, Format: format})
		return dir
	}
	lines := readShards(t, OutputName(run(""), OutputLinks))
	if len(lines) == 0 {
		t.Fatal("no links")
	}
	var buf bytes.Buffer
	tw := linktable.NewWriter(&buf)
	if _, err := tw.Write([]byte(strings.Join(lines, "\n") + "\n")); err != nil {
		t.Fatal(err)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	want, err := parquet.Read[linktable.Row](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	shards, _ := filepath.Glob(OutputName(run("parquet"), OutputLinks) + "-*.parquet")
	if len(shards) == 0 {
		t.Fatal("no Parquet shards")
	}
	var got []linktable.Row
	for _, f := range shards {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := parquet.Read[linktable.Row](bytes.NewReader(b), int64(len(b)))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got = append(got, rows...)
	}
	str := func(rows []linktable.Row) []string {
		var s []string
		for _, r := range rows {
			if len(r.Rel) == 0 {
				r.Rel = nil
			}
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			s = append(s, string(b))
		}
		slices.Sort(s)
		return s
	}
	if g, w := str(got), str(want); !slices.Equal(g, w) {
		t.Errorf("Parquet rows (%d) differ from the JSON Lines rows (%d)", len(g), len(w))
	}
}
