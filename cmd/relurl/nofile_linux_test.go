//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// nofileSpare is how many descriptors beyond those open at its start a run
// with one worker may count on: relurl links -j 1 and rewrite -j 1 -o of a
// tree need no more than this, whatever the tree's size. A walk or mirror
// that holds descriptors between files must
// stay within what the process may open, or let them go when it cannot.
const nofileSpare = 8

// TestFewDescriptors runs links -j 1 and rewrite -j 1 -o over a tree of
// folders in a child process whose descriptor limit leaves it nofileSpare
// descriptors: every file must still be read and written (exit 0, no
// "too many open files").
func TestFewDescriptors(t *testing.T) {
	if dir := os.Getenv("RELURL_NOFILE_TREE"); dir != "" {
		fewDescriptorsChild(dir)
		return
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	for d := 0; d < 6; d++ {
		sub := filepath.Join(in, fmt.Sprintf("d%d", d), "e")
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 8; i++ {
			page := fmt.Sprintf(`<a href="p%d.html">x</a><img src="../i%d.png">`, i, d)
			for _, p := range []string{filepath.Join(sub, fmt.Sprintf("p%d.html", i)), filepath.Join(in, fmt.Sprintf("d%d", d), fmt.Sprintf("q%d.html", i))} {
				if err := os.WriteFile(p, []byte(page), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFewDescriptors$", "-test.count=1")
	cmd.Env = append(os.Environ(), "RELURL_NOFILE_TREE="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil || bytes.Contains(out, []byte("too many open files")) {
		t.Fatalf("with %d spare descriptors: %v\n%s", nofileSpare, err, out)
	}
}

// fewDescriptorsChild lowers this process's descriptor limit and runs the
// commands; it exits 1 when one fails.
func fewDescriptorsChild(dir string) {
	fds, _ := os.ReadDir("/proc/self/fd")
	limit := uint64(len(fds) + nofileSpare)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &syscall.Rlimit{Cur: limit, Max: limit}); err != nil {
		fmt.Println("setrlimit:", err)
		os.Exit(1)
	}
	in := filepath.Join(dir, "in")
	status := 0
	for i, args := range [][]string{
		{"links", "-j", "1", "--format", "text", "--base", "https://t.example/", in},
		{"rewrite", "-j", "1", "--base", "https://t.example/", "-o", filepath.Join(dir, "out"), in},
	} {
		var stdout, stderr bytes.Buffer
		if st := run(args, stdio{in: strings.NewReader(""), out: &stdout, err: &stderr}); st != 0 || strings.Contains(stderr.String(), "too many open files") {
			fmt.Printf("relurl %s (limit %d): exit %d\n%s", strings.Join(args, " "), limit, st, stderr.String())
			status = 1
		}
		if i == 0 && strings.Count(stdout.String(), "\n") != 6*16*2 {
			fmt.Println("links: " + strconv.Itoa(strings.Count(stdout.String(), "\n")) + " links, want 192")
			status = 1
		}
	}
	os.Exit(status)
}
