package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/relurl/relurl/cmd/relurl/internal/progress"
)

// openPTY opens a pseudo-terminal: the program writes to tty, the test
// reads what a terminal would show from ptm. With /dev/ptmx and two ioctls
// (unlock, number), no dependency is needed.
func openPTY(t *testing.T) (ptm, tty *os.File) {
	t.Helper()
	ptm, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	fd := int(ptm.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		ptm.Close()
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		ptm.Close()
		t.Skipf("ptsname: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		ptm.Close()
		t.Skipf("open pts: %v", err)
	}
	// Raw output: "\n" stays "\n", as the program wrote it.
	if tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS); err == nil {
		tio.Oflag &^= unix.OPOST
		unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, tio)
	}
	return ptm, tty
}

// runOnTerminal runs relurl args with standard error (and, with both,
// standard output) on a pseudo-terminal and returns the bytes the terminal
// received, and standard output when it is not the terminal.
func runOnTerminal(t *testing.T, both bool, args ...string) (term, out string, code int) {
	t.Helper()
	ptm, tty := openPTY(t)
	defer ptm.Close()
	got := make(chan []byte)
	go func() {
		// Read until the terminal's last writer is gone (EIO).
		b, _ := io.ReadAll(ptm)
		got <- b
	}()
	var stdout bytes.Buffer
	s := stdio{in: strings.NewReader(""), out: &stdout, err: tty}
	if both {
		s.out = tty
	}
	code = run(args, s)
	tty.Close()
	return string(<-got), stdout.String(), code
}

// screen is what a terminal shows after out: "\r" goes back to the start
// of the line, ESC [ K clears the rest of it, "\n" ends it.
func screen(out string) []string {
	var lines []string
	var cur []byte
	col := 0
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '\r':
			col = 0
		case out[i] == '\n':
			lines = append(lines, string(cur))
			cur, col = nil, 0
		case strings.HasPrefix(out[i:], "\x1b[K"):
			cur = cur[:col]
			i += 2
		default:
			if col < len(cur) {
				cur[col] = out[i]
			} else {
				cur = append(cur, out[i])
			}
			col++
		}
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

// progressTree writes n HTML files with one relative link each.
func progressTree(t *testing.T, n int) string {
	dir := filepath.Join(t.TempDir(), "site")
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("d%d", i%7), fmt.Sprintf("p%03d.html", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(`<a href="../x.html">x</a>`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// drawAlways makes the display draw at every file, so that every output
// line comes right after a drawing that must be taken away first.
func drawAlways(t *testing.T) {
	old := progress.Interval
	progress.Interval = 0
	t.Cleanup(func() { progress.Interval = old })
}

// TestProgressOnTerminal: rewrite, links, check and materialize draw their progress on
// a terminal — the count, then the total once the walk knows it — and
// take it away before every other line: the --dry-run report lines on the
// same terminal, the error of a missing input, the summary. What the
// terminal shows at the end is those lines and nothing of the display.
func TestProgressOnTerminal(t *testing.T) {
	drawAlways(t)
	const n = 300
	dir := progressTree(t, n)
	// One more page, whose <base> cannot be read: a warning line.
	if err := os.WriteFile(filepath.Join(dir, "warn.html"), []byte(`<base href="http://[bad/"><a href="x.html">x</a>`), 0o644); err != nil {
		t.Fatal(err)
	}
	warning := regexp.MustCompile(`^relurl: (rewrite|links|check): ` + regexp.QuoteMeta(filepath.Join(dir, "warn.html")) + `: warning: <base href> at line 1 ignored: .*`)
	missing := filepath.Join(t.TempDir(), "missing.html")
	frame := regexp.MustCompile(`\r(rewrite|links|check|materialize) (?:( *\d+)% )?\((\d+)/(\d+|\?)(, [0-9.]+ files/s)?(, ETA \w+)?\)\x1b\[K`)
	for _, tc := range []struct {
		name  string
		args  []string
		both  bool
		total string
		lines []*regexp.Regexp // each line the terminal shows matches one, in order of first match
		count int              // lines on the terminal
	}{
		{"rewrite --dry-run", []string{"rewrite", "--dry-run", "-j", "2", dir, missing}, true, fmt.Sprint(n + 2),
			[]*regexp.Regexp{regexp.MustCompile(`^` + regexp.QuoteMeta(dir) + `/(d\d/p\d{3}|warn)\.html: would rewrite 1 of 1 links$`),
				warning,
				regexp.MustCompile(`^relurl: rewrite: ` + regexp.QuoteMeta(missing) + `: no such file or directory$`),
				regexp.MustCompile(`^relurl: rewrite: 301 files read, 301 changed, 301 links rewritten, 0 links failed, 1 file failed, 1 warning$`)},
			n + 4},
		{"links", []string{"links", "--format", "text", "--base", "https://example.org/", dir}, true, fmt.Sprint(n + 1),
			[]*regexp.Regexp{regexp.MustCompile(`^https://example\.org/x\.html$`), warning}, n + 2},
		{"check", []string{"check", dir}, false, fmt.Sprint(n + 1),
			[]*regexp.Regexp{regexp.MustCompile(`^relurl: check: .*`), warning}, -1},
		// materialize knows its total from the first file written.
		{"materialize", []string{"materialize", "-o", filepath.Join(t.TempDir(), "out"), "../../testdata/warc/example.warc.gz"}, false, "",
			[]*regexp.Regexp{regexp.MustCompile(`^relurl: materialize: 1 page, .*`)}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			term, _, _ := runOnTerminal(t, tc.both, tc.args...)
			frames := frame.FindAllStringSubmatch(term, -1)
			if len(frames) == 0 {
				t.Fatalf("no progress drawn; the terminal got %q", head(term))
			}
			withTotal := 0
			for _, f := range frames {
				if f[4] == tc.total || tc.total == "" && f[4] != "?" {
					withTotal++
				} else if f[4] != "?" {
					t.Errorf("frame %q: total %s, want %s or ?", f[0], f[4], tc.total)
				}
			}
			if withTotal == 0 {
				t.Errorf("no frame with the total %s among %d", tc.total, len(frames))
			}
			shown := screen(term)
			if tc.count >= 0 && len(shown) != tc.count {
				t.Errorf("the terminal shows %d lines, want %d:\n%s", len(shown), tc.count, head(strings.Join(shown, "\n")))
			}
			for _, l := range shown {
				ok := false
				for _, re := range tc.lines {
					ok = ok || re.MatchString(l)
				}
				if !ok {
					t.Errorf("line glued to the display or unexpected: %q", l)
				}
			}
		})
	}
}

// TestProgressNotOnTerminal: with standard error a file or a pipe, nothing
// of the display is written: only the lines.
func TestProgressNotOnTerminal(t *testing.T) {
	drawAlways(t)
	dir := progressTree(t, 50)
	for _, args := range [][]string{
		{"rewrite", "--dry-run", dir},
		{"links", "--format", "text", dir},
		{"check", dir},
	} {
		errFile, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
		if err != nil {
			t.Fatal(err)
		}
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		piped := make(chan []byte)
		go func() { b, _ := io.ReadAll(r); piped <- b }()
		var out bytes.Buffer
		run(args, stdio{in: strings.NewReader(""), out: &out, err: errFile})
		run(args, stdio{in: strings.NewReader(""), out: &out, err: w})
		w.Close()
		fromPipe := <-piped
		errFile.Close()
		fromFile, _ := os.ReadFile(errFile.Name())
		for what, b := range map[string][]byte{"file": fromFile, "pipe": fromPipe} {
			if bytes.ContainsAny(b, "\r\x1b") {
				t.Errorf("%s: stderr as a %s got the display: %q", args[0], what, head(string(b)))
			}
		}
		if bytes.ContainsAny(out.Bytes(), "\r\x1b") {
			t.Errorf("%s: stdout got the display", args[0])
		}
	}
}

func head(s string) string {
	if len(s) > 600 {
		return s[:600] + "..."
	}
	return s
}
