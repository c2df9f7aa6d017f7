package materialize

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestErrorResponses: a URL captured only as an HTTP error (a 404, a
// revisit of one, a stylesheet answered by an error page) is counted, not
// written, and absent from urls.jsonl; a URL with an error and a later
// 200 keeps the 200. ErrorPages writes them as kind "error".
func TestErrorResponses(t *testing.T) {
	in := []string{filepath.Join("..", "testdata", "mime", "errors.warc")}
	dir, sum := materialized(t, in, Options{})
	if sum.ErrorResponses != 3 || sum.Pages != 2 || sum.Problems != 0 {
		t.Errorf("summary %+v: want 3 error responses, 2 pages, 0 problems", sum)
	}
	urls := readURLs(t, dir)
	for _, u := range []string{"http://site.test/missing.html", "http://site.test/gone.css", "http://site.test/broken.html"} {
		if r, ok := urls[u]; ok {
			t.Errorf("%s written as %+v", u, r)
		}
	}
	if r := urls["http://site.test/flaky.html"]; r.Status != 200 || r.Kind != "page" {
		t.Errorf("flaky.html: %+v, want the 200", r)
	}

	dir, sum = materialized(t, in, Options{ErrorPages: true})
	urls = readURLs(t, dir)
	if sum.ErrorResponses != 3 || sum.Pages != 2 {
		t.Errorf("ErrorPages: summary %+v", sum)
	}
	for _, u := range []string{"http://site.test/missing.html", "http://site.test/broken.html"} {
		if r := urls[u]; r.Kind != "error" || r.Status != 404 {
			t.Errorf("ErrorPages: %s: %+v, want kind error, 404", u, r)
		}
	}
}

// TestForeignFiles: Run replaces neither an index.html nor a urls.jsonl
// it did not write, and writes nothing then; Force replaces them.
func TestForeignFiles(t *testing.T) {
	in := []string{filepath.Join("..", "testdata", "mime", "errors.warc")}
	for _, name := range []string{"index.html", "urls.jsonl"} {
		dir := t.TempDir()
		mine := []byte("<!DOCTYPE html><title>mine</title>\n")
		must(t, os.WriteFile(filepath.Join(dir, name), mine, 0o644))
		_, err := Run(in, Options{Dir: dir})
		if fe, ok := errors.AsType[*ForeignFileError](err); !ok || fe.Path != filepath.Join(dir, name) {
			t.Fatalf("%s: Run: %v, want a ForeignFileError", name, err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, name)); string(b) != string(mine) {
			t.Errorf("%s replaced", name)
		}
		if _, err := os.Stat(filepath.Join(dir, "site.test")); err == nil {
			t.Errorf("%s: the tree was written", name)
		}
		materialized(t, in, Options{Dir: dir, Force: true})
		// Its own files, from then on, are replaced without Force.
		materialized(t, in, Options{Dir: dir})
	}
	for _, tc := range []struct {
		head string
		own  bool
	}{
		{"", true},
		{`{"url":"u","file":"f","kind":"page","status":200}` + "\n", true},
		{`{"url":"u","file":"f"}` + "\n", false},
		{"url file kind\n", false},
		{"\n\nx", false},
	} {
		if got := ownURLsHead([]byte(tc.head)); got != tc.own {
			t.Errorf("ownURLsHead(%q) = %v", tc.head, got)
		}
	}
}

// TestDamagedRecordOnce: a record the WARC reader cuts (its Content-Length
// runs into the next record) and whose payload then fails to read is one
// problem, as relurl links --status counts one record error.
func TestDamagedRecordOnce(t *testing.T) {
	sum, problems := withProblems(t, []string{filepath.Join("..", "testdata", "mime", "damaged.warc")}, Options{Dir: t.TempDir()})
	if sum.Problems != 1 || len(problems) != 1 {
		t.Errorf("%d problems: %q; want 1", sum.Problems, problems)
	}
}
