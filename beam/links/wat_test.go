package links

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
)

// TestWATInput: a WAT file (*.warc.wat.gz, as Common Crawl names them)
// gives the job the links relurl links --input-format wat gives, each a
// WARC record's; before, a WAT was read as a WARC with no response and
// gave none.
func TestWATInput(t *testing.T) {
	in := t.TempDir()
	if err := testkit.WriteKindArchives(in); err != nil {
		t.Fatal(err)
	}
	warc := filepath.Join(in, testkit.KindsWARCGz)
	watPath := filepath.Join(in, "kinds.warc.wat.gz")
	cmd := exec.Command(relurlCLI(t), "links", "--format", "wat", "-o", watPath, warc)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("relurl links --format wat: %v: %s", err, stderr.String())
	}
	cli := exec.Command(relurlCLI(t), "links", "--input-format", "wat", "--on-error", "report", watPath)
	out, err := cli.Output()
	if err != nil {
		t.Fatalf("relurl links --input-format wat: %v", err)
	}
	want := lines(out)
	if len(want) == 0 {
		t.Fatal("the WAT gives no links")
	}
	dir := filepath.Join(t.TempDir(), "out") + "/"
	runJob(t, Job{Inputs: []string{watPath}, Output: dir})
	sameMultiset(t, "WAT links vs relurl links --input-format wat", readShards(t, OutputName(dir, OutputLinks)), want)
	if errs := readShards(t, OutputName(dir, OutputErrors)); len(errs) > 0 {
		t.Errorf("dead letters: %q", errs)
	}
}
