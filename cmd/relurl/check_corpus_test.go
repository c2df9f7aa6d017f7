package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// envCorpusB names the environment variable that holds corpus B's folder
// (530 pages of the Python 3.11 docs, built by
// testdata/bench/corpus-b.sh; its html/ tree is the site).
const envCorpusB = "RELURL_CORPUS_B"

// corpusB returns the root of corpus B's site, or skips.
func corpusB(tb testing.TB) string {
	tb.Helper()
	dir := os.Getenv(envCorpusB)
	if dir == "" {
		tb.Skipf("corpus B not found: set %s to the B folder that ../shared/bench/peers/corpus.sh prints", envCorpusB)
	}
	site := filepath.Join(dir, "html")
	if _, err := os.Stat(filepath.Join(site, "index.html")); err != nil {
		tb.Skipf("corpus B not found in %s=%q: %v", envCorpusB, dir, err)
	}
	return site
}

// TestCheckFixCorpusBMoved: the Python docs, copied to another path and
// about to move to another host and path: after check --fix, check lists
// nothing (exit 0); what was broken before the move (the corpus keeps
// only .html files, so its stylesheets and scripts are missing) is
// counted, not listed. checkmove.txtar holds the same property on a small
// tree in the repository.
func TestCheckFixCorpusBMoved(t *testing.T) {
	site := corpusB(t)
	moved := filepath.Join(t.TempDir(), "moved", "python")
	if err := os.MkdirAll(filepath.Dir(moved), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-r", site, moved).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v: %s", err, out)
	}
	args := []string{"check", "--url", "https://docs.python.org/", "--to", "https://mirror.example/python/", moved}
	var stderr strings.Builder
	if code := run(append([]string{"check", "--fix"}, args[1:]...), stdio{out: io.Discard, err: &stderr}); code != exitOK {
		t.Fatalf("check --fix: exit %d\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "fixed 1065 links in 530 files") {
		t.Errorf("check --fix: %s", stderr.String())
	}
	var out strings.Builder
	stderr.Reset()
	if code := run(args, stdio{out: &out, err: &stderr}); code != exitOK {
		t.Fatalf("check after --fix: exit %d\n%s%s", code, out.String(), stderr.String())
	}
	if out.Len() != 0 {
		t.Errorf("check after --fix listed:\n%s", out.String())
	}
	t.Log(strings.TrimSpace(stderr.String()))
}

// BenchmarkCheckCorpusB measures relurl check over corpus B (530 pages,
// 50.7 MB), with anchors (the default) and without.
//
//	RELURL_CORPUS_B=/tmp/relurl-corpus/B go test -run '^$' -bench CheckCorpusB -benchtime 3x ./cmd/relurl
func BenchmarkCheckCorpusB(b *testing.B) {
	site := corpusB(b)
	var size int64
	filepath.WalkDir(site, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if info, err := d.Info(); err == nil {
				size += info.Size()
			}
		}
		return nil
	})
	for _, anchors := range []string{"true", "false"} {
		b.Run("anchors="+anchors, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				code := run([]string{"check", "--anchors=" + anchors, "--url", "https://docs.python.org/", site}, stdio{out: io.Discard, err: io.Discard})
				if code != exitFailure {
					b.Fatalf("exit %d", code)
				}
			}
		})
	}
}
