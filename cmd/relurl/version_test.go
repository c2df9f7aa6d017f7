package main

import (
	"errors"
	"io/fs"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
)

// TestVersionOf: the module version of a released build; "(devel)" with
// the VCS revision (and +dirty) for a build from a checkout.
func TestVersionOf(t *testing.T) {
	settings := func(kv ...string) []debug.BuildSetting {
		var s []debug.BuildSetting
		for i := 0; i < len(kv); i += 2 {
			s = append(s, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return s
	}
	for _, tc := range []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"release", &debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "v0.3.0"},
			Settings: settings("vcs.revision", "abc", "vcs.modified", "false")}, "relurl v0.3.0 go1.26"},
		{"checkout", &debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs", "git", "vcs.revision", "0123abcd", "vcs.modified", "false")}, "relurl (devel) 0123abcd go1.26"},
		{"dirty checkout", &debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "(devel)"},
			Settings: settings("vcs.revision", "0123abcd", "vcs.modified", "true")}, "relurl (devel) 0123abcd+dirty go1.26"},
		{"go1.24 pseudo-version", &debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "v0.0.0-20261123154126-0123abcd0123"},
			Settings: settings("vcs.revision", "0123abcd0123ffff", "vcs.modified", "false")}, "relurl (devel) 0123abcd0123ffff go1.26"},
		{"go1.24 dirty pseudo-version", &debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "v1.2.4-0.20261123154126-0123abcd0123+dirty"},
			Settings: settings("vcs.revision", "0123abcd0123ffff", "vcs.modified", "true")}, "relurl (devel) 0123abcd0123ffff+dirty go1.26"},
		{"dirty release tag", &debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "v1.2.3+dirty"},
			Settings: settings("vcs.revision", "0123abcd0123ffff", "vcs.modified", "true")}, "relurl (devel) 0123abcd0123ffff+dirty go1.26"},
		{"no vcs", &debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "(devel)"}}, "relurl (devel) go1.26"},
		{"empty version", &debug.BuildInfo{GoVersion: "go1.26"}, "relurl (devel) go1.26"},
	} {
		if got := versionOf(tc.info, true); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if got := versionOf(nil, false); got != "relurl (unknown version)" {
		t.Errorf("no build info: %q", got)
	}
}

// TestVersionBuiltFromCheckout builds relurl in a fresh git repository
// holding this module's sources and runs its --version: "(devel)" and the
// commit's hash, then "+dirty" once a file is changed.
func TestVersionBuiltFromCheckout(t *testing.T) {
	if testing.Short() {
		t.Skip("builds relurl")
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	goCmd := filepath.Join(os.Getenv("GOROOT"), "bin", "go")
	if _, err := os.Stat(goCmd); err != nil {
		if goCmd, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command")
		}
	}
	dir := t.TempDir()
	copyModuleSources(t, "../..", dir)
	run := func(name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(),
			"GOFLAGS=-buildvcs=true", // a user's GOFLAGS=-buildvcs=false must not hide the revision
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.org",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.org",
			"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	run("git", "init", "-q")
	run("git", "add", ".")
	run("git", "commit", "-q", "-m", "snapshot")
	rev := run("git", "rev-parse", "HEAD")
	bin := filepath.Join(dir, "relurl.bin")
	run(goCmd, "build", "-trimpath", "-o", bin, "./cmd/relurl")
	got := run(bin, "--version")
	if want := regexp.MustCompile(`^relurl \(devel\) ` + rev + ` go\S+$`); !want.MatchString(got) {
		t.Errorf("--version of a checkout build: %q, want %s", got, want)
	}

	if err := os.WriteFile(filepath.Join(dir, "README.md"), []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(goCmd, "build", "-trimpath", "-o", bin, "./cmd/relurl")
	got = run(bin, "--version")
	if want := regexp.MustCompile(`^relurl \(devel\) ` + rev + `\+dirty go\S+$`); !want.MatchString(got) {
		t.Errorf("--version of a modified checkout: %q, want %s", got, want)
	}
}

// copyModuleSources copies what building cmd/relurl needs (go.mod,
// go.sum, the non-test Go files and embedded grammars) from src to dst.
func copyModuleSources(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		name := d.Name()
		if d.IsDir() {
			if rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "beam" || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		keep := rel == "go.mod" || rel == "go.sum" || rel == "README.md" ||
			strings.HasSuffix(name, ".go") && !strings.HasSuffix(name, "_test.go") ||
			strings.HasSuffix(name, ".bnf") || strings.HasSuffix(name, ".abnf")
		if !keep || !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		out := filepath.Join(dst, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNetworkMessage: a failed connection in the user's terms.
func TestNetworkMessage(t *testing.T) {
	wrap := func(err error) error {
		return &url.Error{Op: "Get", URL: "http://x.invalid/", Err: err}
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{wrap(&net.DNSError{Name: "x.invalid", Err: "no such host", IsNotFound: true}), "no such host x.invalid (check the name, or your DNS)"},
		{wrap(&net.DNSError{Name: "x.example", Err: "server misbehaving"}), "cannot look up x.example: server misbehaving"},
		{wrap(&net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 80},
			Err: &os.SyscallError{Syscall: "connect", Err: syscall.EHOSTUNREACH}}), "cannot connect to 192.0.2.1:80: no route to host"},
	} {
		got, ok := networkMessage(tc.err)
		if !ok || got != tc.want {
			t.Errorf("%v: %q, %v; want %q", tc.err, got, ok, tc.want)
		}
	}
	if _, ok := networkMessage(errors.New("other")); ok {
		t.Error("an error of another kind is not a network failure")
	}
}
