package treerewrite

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/stretchr/testify/require"
)

// TestSyscallsPerFile counts, with strace, the system calls that
// mirroring a tree (as relurl rewrite -o does: walk, open as the walk
// found it, rewrite into a temporary file beside the mirror's, rename)
// makes per file: a tree of 5 pages and one of 45, the difference
// divided by 40, so that start-up and the runtime's own calls drop out.
// Each bound is the count after the cut that made it, one more than
// before failed it: no getpid/geteuid/getegid per file (a temporary
// file's name, the owner check); no epoll_ctl, lseek or second fstat
// (the walk opens the file, relative to its directory, and hands its
// descriptor to the rewriter, which reads it with pread); one
// newfstatat (the walk's lstat is its descriptor's fstat; a new file is
// renamed with RENAME_NOREPLACE, not after a check for a link); three
// reads of a small page (read or pread64: no read past the size for the
// head, the end found once); two openat and two close (the file, by the
// walk, and the temporary file: the directories of the source and of the
// mirror stay open while the run is in them), at the top of the tree or
// one directory deep.
// Skipped without strace.
func TestSyscallsPerFile(t *testing.T) {
	if dir := os.Getenv("RELURL_TREE_SYSCALLS_MIRROR"); dir != "" {
		mirrorForStrace(t, dir)
		return
	}
	strace, err := exec.LookPath("strace")
	if err != nil {
		t.Skip("strace not installed")
	}
	if testing.Short() {
		t.Skip("short")
	}
	count := func(n int, flat bool) map[string]int {
		dir := t.TempDir()
		in := filepath.Join(dir, "in")
		for i := range n {
			sub := fmt.Sprintf("d%d", i%3)
			if flat {
				sub = ""
			}
			p := filepath.Join(in, sub, fmt.Sprintf("p%02d.html", i))
			require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
			page := fmt.Sprintf(`<!DOCTYPE html><title>%d</title><a href="../d0/p00.html">a</a><img src="/x.png">`, i)
			require.NoError(t, os.WriteFile(p, []byte(page), 0o644))
		}
		out := filepath.Join(dir, "strace.txt")
		cmd := exec.Command(strace, "-f", "-c", "-o", out, os.Args[0], "-test.run", "^TestSyscallsPerFile$", "-test.count", "1")
		// No preemption signals: each costs the runtime a getpid and a
		// tgkill, as many as the load makes.
		cmd.Env = append(os.Environ(), "RELURL_TREE_SYSCALLS_MIRROR="+dir, "GODEBUG=asyncpreemptoff=1")
		b, err := cmd.CombinedOutput()
		if err != nil {
			t.Skipf("strace cannot trace here: %v: %s", err, b)
		}
		return straceCounts(t, out)
	}
	for _, flat := range []bool{false, true} {
		few, many := count(5, flat), count(45, flat)
		per := func(name string) float64 { return float64(many[name]-few[name]) / 40 }
		var all []string
		for name := range many {
			if p := per(name); p >= 0.5 {
				all = append(all, fmt.Sprintf("%s %.2f", name, p))
			}
		}
		t.Logf("system calls per file (flat %v): %s", flat, strings.Join(all, ", "))
		for _, c := range bounds(flat) {
			p := 0.0
			for name := range strings.SplitSeq(c.name, "+") {
				p += per(name)
			}
			if p > c.max {
				t.Errorf("flat %v: %s: %.2f per file, want at most %.1f", flat, c.name, p, c.max)
			}
		}
	}
}

type bound struct {
	name string
	max  float64
}

// bounds are TestSyscallsPerFile's, for pages one directory deep or at
// the top of the tree (flat): the same since the walk opens each file
// relative to its directory, held open while the walk is in it, and the
// mirror's directories stay open while files are written into them.
func bounds(flat bool) []bound {
	return []bound{
		// Half a call of slack: a call a file is a call a file.
		{"getpid", 0.5}, {"geteuid", 0.5}, {"getegid", 0.5},
		// The walk's descriptor goes to the rewriter: no *os.File, so
		// no poller registration, no lseek, no second fstat.
		{"epoll_ctl", 0.5}, {"lseek", 0.5}, {"fstat", 1.5},
		// No lstat by the walk (the fstat of the descriptor it opened)
		// and no check for a link before the rename of a new file
		// (renameat2 RENAME_NOREPLACE: nothing, so no link, there).
		{"newfstatat", 0.5},
		// A page smaller than the head: the head's read (none past
		// the size fstat told), the pass's and the one that finds the
		// end (asked once, though the reader asks twice).
		{"read+pread64", 3.5},
		// The file, once, by the walk (relative to its directory, held
		// open); the temporary file.
		{"openat", 2.5}, {"close", 2.5},
	}
}

// mirrorForStrace mirrors dir/in into dir/out as relurl rewrite -o -j 1
// does (the helper process TestSyscallsPerFile traces).
func mirrorForStrace(t *testing.T, dir string) {
	m, err := tree.NewMapper("https://example.org/site/")
	require.NoError(t, err)
	r := &Rewriter{
		Mapper: m,
		Options: func(docURL string) extract.Options {
			return extract.Options{HTML: htmlrewrite.Options{
				Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: docURL}},
			}}
		},
		Mirror:      filepath.Join(dir, "out"),
		Writer:      safewrite.Writer{NoSync: true, KeepSame: true, Behind: true},
		OnePerPlace: true, // one walk
	}
	for res := range r.All(tree.Walk([]string{filepath.Join(dir, "in")}), 1) {
		require.NoError(t, res.Err)
		require.True(t, res.Changed, res.File.Path)
	}
}

// straceCounts reads the calls column of strace -c's table.
func straceCounts(t *testing.T, path string) map[string]int {
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	counts := map[string]int{}
	s := bufio.NewScanner(f)
	for s.Scan() {
		fields := strings.Fields(s.Text())
		if len(fields) < 5 || fields[len(fields)-1] == "total" {
			continue
		}
		if n, err := strconv.Atoi(fields[3]); err == nil {
			counts[fields[len(fields)-1]] = n
		}
	}
	return counts
}
