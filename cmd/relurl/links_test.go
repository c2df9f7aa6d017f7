package main

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
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

// TestLinksStdinStreams: "relurl links -" writes a link while its standard
// input is still open, once the document's base is settled: here by the
// <base href> at its start, the links before and after the producer's
// pause both resolved against it.
func TestLinksStdinStreams(t *testing.T) {
	for _, format := range []string{"text", "jsonl"} {
		t.Run(format, func(t *testing.T) {
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			code := make(chan int, 1)
			go func() {
				code <- run([]string{"links", "--format", format, "-"}, stdio{in: inR, out: outW, err: io.Discard})
				outW.Close()
			}()
			out := bufio.NewReader(outR)
			readLine := func() chan string {
				line := make(chan string, 1)
				go func() {
					s, _ := out.ReadString('\n')
					line <- s
				}()
				return line
			}
			// More than the 1024 bytes the encoding is decided from.
			head := `<!doctype html><head><base href="https://cdn.example/app/"></head><a href="first.html">1</a>` + strings.Repeat("<p>filler</p>", 100)
			go io.WriteString(inW, head)
			select {
			case got := <-readLine():
				if !strings.Contains(got, "https://cdn.example/app/first.html") {
					t.Fatalf("first line %q, want the first link against the <base>", got)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("no link while standard input is open")
			}
			line := readLine()
			io.WriteString(inW, `<a href="second.html">2</a>`)
			inW.Close()
			if got := <-line; !strings.Contains(got, "https://cdn.example/app/second.html") {
				t.Fatalf("second line %q", got)
			}
			if c := <-code; c != 0 {
				t.Fatalf("exit status %d", c)
			}
		})
	}
}

// TestLinksStdinSpool: a stream whose <base href> comes after the
// look-ahead is spooled (not held in memory) and every link, the ones
// before the element too, resolves against it, as browsers resolve them;
// the spool leaves no file behind.
func TestLinksStdinSpool(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	doc := `<a href="early.html">e</a>` + strings.Repeat("<p>"+strings.Repeat("x", 1000)+"</p>\n", 2000) +
		`<base href="https://late.example/dir/"><a href="late.html">l</a>`
	var out, errb strings.Builder
	c := run([]string{"links", "--format", "text", "-"}, stdio{in: strings.NewReader(doc), out: &out, err: &errb})
	if c != 0 {
		t.Fatalf("exit %d: %s", c, errb.String())
	}
	want := "https://late.example/dir/early.html\nhttps://late.example/dir/late.html\n"
	if out.String() != want {
		t.Fatalf("got %q, want %q (stderr %q)", out.String(), want, errb.String())
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("spool left behind: %v", left)
	}
}
