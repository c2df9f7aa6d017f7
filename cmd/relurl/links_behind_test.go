package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// linksTree writes a tree of n pages of links pages each; every third
// page is too large for --max-size 20000 (an error on stderr), every
// fifth has a <base href> that is not a URL (a warning).
func linksTree(t *testing.T, n, links int) string {
	dir := t.TempDir()
	for i := range n {
		var b strings.Builder
		b.WriteString("<!DOCTYPE html><title>t</title>\n")
		if i%5 == 0 {
			b.WriteString(`<base href="http://[::1">` + "\n")
		}
		for j := range links {
			fmt.Fprintf(&b, "<p><a href=\"p%d-%d.html\">x</a></p>\n", i, j)
			switch j % 5 {
			case 1: // absolute, as written or not in its serialized form
				fmt.Fprintf(&b, "<img src=\"https://cdn.example/i/%d.png\" srcset=\"HTTPS://CDN.example/./i/%d.png 2x, s.png 3x\">\n", j, j)
			case 2: // a style attribute, a reference decoded, rel tokens
				fmt.Fprintf(&b, "<div style=\"background:url('b%d.png')\"></div><link rel=\"Stylesheet preload\" href=\"s&amp;%d.css\">\n", j, j)
			case 3: // tabs and spaces taken out; a reference that cannot resolve
				fmt.Fprintf(&b, "<a href=\" q%d\t.html \">y</a><a href=\"http://[x%d\">z</a>\n", j, j)
			}
		}
		if i%3 == 0 {
			b.WriteString("<!--" + strings.Repeat("x", 20000) + "-->")
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.html", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// failWriter takes limit bytes and fails every write after.
type failWriter struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int
}

var errOutFull = errors.New("out of space")

func (f *failWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.buf.Len()+len(p) > f.limit {
		n := f.limit - f.buf.Len()
		f.buf.Write(p[:n])
		return n, errOutFull
	}
	return f.buf.Write(p)
}

// TestLinksBehindAsBufio: `relurl links -j 1` with a free core writes its
// records behind (package behind); what it writes to stdout and stderr,
// and its exit status, are what the bufio path (one core) gives, for
// every format and a stdout that fails after any number of bytes: the
// lines on stderr of documents read after the failed write (which the run
// notices later) do not show.
func TestLinksBehindAsBufio(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs two CPUs for the write-behind path")
	}
	dir := linksTree(t, 40, 60)
	runWith := func(procs int, args []string, limit int) (string, string, int) {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		out := &failWriter{limit: limit}
		var errb bytes.Buffer
		code := run(args, stdio{out: out, err: &errb})
		return out.buf.String(), errb.String(), code
	}
	// A sheet's links too; and filters, which read the URLs on the worker.
	if err := os.WriteFile(filepath.Join(dir, "s.css"), []byte("a{b:url(c.png)}\n@import 'https://x.example/i.css';\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, extra := range [][]string{nil, {"--status"}, {"--format", "text"}, {"--format", "tsv", "--status"}, {"--counters", "hadoop"}, {"--unique"},
		{"--internal"}, {"--scheme", "https", "--format", "tsv"}} {
		args := append([]string{"links", "-j", "1", "--max-size", "20000", "--base", "https://example.org/"}, extra...)
		args = append(args, dir)
		full, _, _ := runWith(1, args, 1<<30)
		for _, limit := range []int{0, 1, 5000, 65535, 65536, 65537, 100000, 200000, 300001, len(full) - 1, len(full), 1 << 30} {
			wantOut, wantErr, wantCode := runWith(1, args, limit)
			gotOut, gotErr, gotCode := runWith(2, args, limit)
			if gotOut != wantOut || gotErr != wantErr || gotCode != wantCode {
				t.Fatalf("%v, stdout failing after %d bytes: behind (%d bytes, exit %d, stderr\n%s) differs from bufio (%d bytes, exit %d, stderr\n%s)",
					extra, limit, len(gotOut), gotCode, gotErr, len(wantOut), wantCode, wantErr)
			}
		}
	}
}

// goroutineWriter records on which goroutines it was written to.
type goroutineWriter struct {
	mu  sync.Mutex
	ids map[string]bool
}

func goroutineID() string {
	b := make([]byte, 64)
	b = b[:runtime.Stack(b, false)]
	id, _, _ := strings.Cut(string(b), " [")
	return id
}

func (g *goroutineWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	g.ids[goroutineID()] = true
	g.mu.Unlock()
	return len(p), nil
}

// TestLinksWritesBehind: with -j 1 and a free core, the records are
// written on another goroutine than the one reading the documents; with
// one core, on the same.
func TestLinksWritesBehind(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("needs two CPUs for the write-behind path")
	}
	dir := linksTree(t, 10, 200)
	for _, procs := range []int{1, 2} {
		old := runtime.GOMAXPROCS(procs)
		g := &goroutineWriter{ids: map[string]bool{}}
		code := run([]string{"links", "-j", "1", "--base", "https://example.org/", dir}, stdio{out: g, err: &bytes.Buffer{}})
		runtime.GOMAXPROCS(old)
		if code != exitOK {
			t.Fatalf("exit %d", code)
		}
		self := goroutineID()
		if len(g.ids) != 1 || g.ids[self] != (procs == 1) {
			t.Errorf("GOMAXPROCS %d: written on %v; the test's goroutine is %s", procs, g.ids, self)
		}
	}
}

// TestLinksLastWriteFails: a write error on the last buffered records
// (the whole output of a small tree fits one buffer) fails the run with
// the error on stderr, on the bufio path and behind, as a write error in
// the middle of the output does; it used to exit 0 with nothing said.
func TestLinksLastWriteFails(t *testing.T) {
	dir := linksTree(t, 3, 2)
	for _, procs := range []int{1, 2} {
		for _, extra := range [][]string{nil, {"--unique"}, {"--status"}} {
			old := runtime.GOMAXPROCS(procs)
			out := &failWriter{limit: 10}
			var errb bytes.Buffer
			args := append(append([]string{"links", "-j", "1", "--base", "https://example.org/"}, extra...), dir)
			code := run(args, stdio{out: out, err: &errb})
			runtime.GOMAXPROCS(old)
			if code != exitFailure || !strings.Contains(errb.String(), "links: "+errOutFull.Error()) {
				t.Errorf("GOMAXPROCS %d, %q: exit %d, stderr %q; want exit %d and %q", procs, extra, code, errb.String(), exitFailure, errOutFull)
			}
		}
	}
}
