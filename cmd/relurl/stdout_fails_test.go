package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStdoutFails: a command whose standard output cannot be written (a
// full disk, a closed pipe's EIO) says so on stderr and exits 1, instead of
// exiting 0 with its output lost: --dry-run's lines, a --json summary,
// resolve's, relativize's and validate's lines and JSON Lines, whatever
// the amount written before the failure.
func TestStdoutFails(t *testing.T) {
	dir := t.TempDir()
	page := filepath.Join(dir, "p.html")
	if err := os.WriteFile(page, []byte(`<a href="x">x</a><img src="y.png">`), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		args  []string
		stdin string
	}{
		{"version", []string{"version"}, ""},
		{"help", []string{"help"}, ""},
		{"help links", []string{"help", "links"}, ""},
		{"links -h", []string{"links", "-h"}, ""},
		{"resolve -h", []string{"resolve", "-h"}, ""},
		{"resolve", []string{"resolve", "--base", "http://a/b/c", "g", "../h"}, ""},
		{"resolve --jsonl", []string{"resolve", "--jsonl"}, `{"base":"http://a/b","ref":"c"}` + "\n"},
		{"relativize", []string{"relativize", "--base", "http://a/b/c", "http://a/b/d"}, ""},
		{"validate", []string{"validate", "http://a b", "http://a/b"}, ""},
		{"validate --jsonl", []string{"validate", "--jsonl"}, `{"url":"http://a/b"}` + "\n"},
		{"base", []string{"base", page}, ""},
		{"links", []string{"links", dir}, ""},
		{"rewrite FILE", []string{"rewrite", page}, ""},
		{"rewrite --dry-run", []string{"rewrite", "--dry-run", dir}, ""},
		{"rewrite --dry-run -j 2", []string{"rewrite", "--dry-run", "-j", "2", dir}, ""},
		{"rewrite --json", []string{"rewrite", "--json", "-o", filepath.Join(t.TempDir(), "o"), dir}, ""},
		{"check", []string{"check", dir}, ""},
		{"check --json", []string{"check", "--json", dir}, ""},
		{"materialize --json", []string{"materialize", "--json", "-o", filepath.Join(t.TempDir(), "m"), "../../testdata/warc/example-digest.warc"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var full bytes.Buffer
			if code := run(c.args, stdio{in: strings.NewReader(c.stdin), out: &full, err: new(bytes.Buffer)}); code != exitOK && code != exitFailure {
				t.Fatalf("exit %d with a working stdout", code)
			}
			if full.Len() == 0 {
				t.Fatalf("writes nothing to stdout: not a case")
			}
			for _, limit := range []int{0, full.Len() - 1} {
				out := &failWriter{limit: limit}
				var errb bytes.Buffer
				code := run(c.args, stdio{in: strings.NewReader(c.stdin), out: out, err: &errb})
				if code != exitFailure || !strings.Contains(errb.String(), errOutFull.Error()) {
					t.Errorf("stdout failing after %d of %d bytes: exit %d, stderr %q; want exit 1 and the write error", limit, full.Len(), code, errb.String())
				}
			}
		})
	}
}
