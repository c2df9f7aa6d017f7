package links

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl/beam/internal/fixture"
)

// TestParquetDuckDB reads the job's Parquet shards with DuckDB
// (@duckdb/node-api from npm, an independent reader): its rows are the
// rows of the job's JSON Lines links, field for field, on a good WARC and
// one with a damaged member. It skips when node or the package is
// missing (.ci/run installs them; NODE_PATH names their directory).
func TestParquetDuckDB(t *testing.T) {
	mods := nodeModules(t, "@duckdb/node-api")
	in := t.TempDir()
	corrupt, _ := fixture.CorruptWARC()
	for name, data := range map[string][]byte{"good.warc.gz": fixture.GoodWARC(), "corrupt.warc.gz": corrupt} {
		if err := os.WriteFile(filepath.Join(in, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(format string) string {
		dir := filepath.Join(t.TempDir(), "out") + "/"
		runJob(t, Job{Inputs: []string{filepath.Join(in, "*.warc.gz")}, Output: dir, Format: format})
		return OutputName(dir, OutputLinks)
	}
	decode := func(lines []string) []map[string]any {
		var ms []map[string]any
		for _, l := range lines {
			if l == "" {
				continue
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("%v: %s", err, l)
			}
			ms = append(ms, m)
		}
		// A row's place: its file, record, offset and value (numbers
		// as integers: DuckDB's JSON gives a BIGINT as a string).
		str := func(v any) string {
			if f, ok := v.(float64); ok {
				return fmt.Sprint(int64(f))
			}
			return fmt.Sprint(v)
		}
		slices.SortFunc(ms, func(a, b map[string]any) int {
			ka := strings.Join([]string{str(a["file"]), str(a["record"]), str(a["offset"]), str(a["raw"])}, "\x00")
			kb := strings.Join([]string{str(b["file"]), str(b["record"]), str(b["offset"]), str(b["raw"])}, "\x00")
			return strings.Compare(ka, kb)
		})
		return ms
	}
	want := decode(readShards(t, run("")))
	cmd := exec.Command("node", filepath.Join("testdata", "duckdb.mjs"), run("parquet")+"-*.parquet")
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node duckdb.mjs: %v\n%s", err, stderr.String())
	}
	got := decode(strings.Split(string(out), "\n"))
	if len(want) == 0 || len(got) != len(want) {
		t.Fatalf("DuckDB read %d rows, want %d", len(got), len(want))
	}
	for i := range want {
		for k, wv := range want[i] {
			gv := got[i][k]
			if f, isNum := wv.(float64); isNum {
				wv = fmt.Sprint(int64(f))
			}
			if fmt.Sprint(gv) != fmt.Sprint(wv) {
				t.Errorf("row %d %s: %v, want %v", i, k, gv, wv)
			}
		}
	}
}
