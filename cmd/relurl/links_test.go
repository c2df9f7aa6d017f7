package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLinksFromListStreams: with --from-list -, the links of each listed
// file are written as soon as the file is done, before the next path
// arrives, so that the command works as a filter a caller talks to line by
// line (a coprocess, Hadoop Streaming, Spark's RDD.pipe).
func TestLinksFromListStreams(t *testing.T) {
	dir := t.TempDir()
	for name, page := range map[string]string{"a.html": `<a href="x.html">x</a>`, "b.html": `<a href="y.html">y</a>`} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(page), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- run([]string{"links", "--from-list", "-", "--list-root", dir, "--format", "text", "--base", "https://example.org/", "-j", "2"},
			stdio{in: inR, out: outW, err: io.Discard})
		outW.Close()
	}()
	out := bufio.NewReader(outR)
	for _, step := range []struct{ path, want string }{
		{"a.html", "https://example.org/x.html\n"},
		{"b.html", "https://example.org/y.html\n"},
	} {
		if _, err := io.WriteString(inW, step.path+"\n"); err != nil {
			t.Fatal(err)
		}
		line := make(chan string, 1)
		go func() {
			s, _ := out.ReadString('\n')
			line <- s
		}()
		select {
		case got := <-line:
			if got != step.want {
				t.Fatalf("after %s: got %q, want %q", step.path, got, step.want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("the links of %s did not come before the next path", step.path)
		}
	}
	inW.Close()
	if _, err := io.ReadAll(out); err != nil {
		t.Fatal(err)
	}
	if c := <-code; c != exitOK {
		t.Fatalf("exit %d", c)
	}
}
