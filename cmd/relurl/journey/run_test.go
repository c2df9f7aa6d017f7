package journey

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// raceEnabled is set in a test binary built with -race: the journeys run
// real tools and a browser against the binary, whose races the plain
// build's own tests catch, so they run once, in the plain go test.
var raceEnabled bool

// journeys skips the test under -short and -race.
func journeys(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("-short: the journeys run real tools")
	}
	if raceEnabled {
		t.Skip("-race: the journeys run in the plain go test")
	}
}

// relurl is the path of the relurl binary the journeys run, built once by
// TestMain from this module.
var relurl string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "relurl-journey-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	relurl = filepath.Join(dir, "relurl")
	cmd := exec.Command("go", "build", "-o", relurl, "..")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build relurl: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}

// A result is what one command of a journey did.
type result struct {
	args           []string
	stdout, stderr string
	code           int
	wall           time.Duration
	rssKiB         int64 // peak resident set size
}

func (r result) String() string {
	return fmt.Sprintf("%s: exit %d, %v, peak RSS %d KiB", strings.Join(r.args, " "), r.code, r.wall.Round(time.Millisecond), r.rssKiB)
}

// execIn runs a program in dir (the current directory when ""), and
// returns its output, exit status, time and peak RSS; it fails the test
// only when the program cannot be started.
func execIn(t testing.TB, dir, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	res := result{args: append([]string{filepath.Base(name)}, args...), stdout: out.String(), stderr: errb.String(), wall: time.Since(start)}
	if cmd.ProcessState == nil {
		t.Fatalf("%s: %v", name, err)
	}
	res.code = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		res.rssKiB = ru.Maxrss
	}
	return res
}

// relurlIn runs the relurl binary in dir and logs what it did.
func relurlIn(t testing.TB, dir string, args ...string) result {
	t.Helper()
	res := execIn(t, dir, relurl, args...)
	t.Logf("%v", res)
	return res
}

// need skips the test when the program is not installed.
func need(t testing.TB, program, how string) string {
	t.Helper()
	p, err := exec.LookPath(program)
	if err != nil {
		t.Skipf("no %s (%s): skipped", program, how)
	}
	return p
}
