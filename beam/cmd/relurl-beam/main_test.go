package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/relurl/relurl/beam/internal/fixture"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/wat"
)

// build compiles a main package of the module or of the repository into
// dir.
func build(t *testing.T, dir, srcDir, pkg, name string) string {
	t.Helper()
	bin := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", bin, pkg)
	cmd.Dir = srcDir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s: %v\n%s", pkg, err, out)
	}
	return bin
}

type fileURL struct {
	File string `json:"file"`
	URL  string `json:"url"`
}

// fileURLs returns the (file, url) pairs of JSON link lines, sorted,
// leaving out lines without "url" (status lines, failed links).
func fileURLs(t *testing.T, data []byte) []fileURL {
	t.Helper()
	var out []fileURL
	for l := range bytes.SplitSeq(data, []byte("\n")) {
		if len(l) == 0 {
			continue
		}
		var r struct {
			fileURL
			Status string `json:"status"`
		}
		if err := json.Unmarshal(l, &r); err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		if r.Status == "" && r.URL != "" {
			out = append(out, r.fileURL)
		}
	}
	slices.SortFunc(out, func(a, b fileURL) int { return strings.Compare(a.File+"\n"+a.URL, b.File+"\n"+b.URL) })
	return out
}

var (
	builtMu sync.Mutex
	built   = map[string]string{} // binary name -> path
	binDir  string
)

// buildOnce builds the main package pkg under srcDir once for all the
// tests, into a directory TestMain removes.
func buildOnce(t *testing.T, srcDir, pkg, name string) string {
	t.Helper()
	builtMu.Lock()
	defer builtMu.Unlock()
	if bin, ok := built[name]; ok {
		return bin
	}
	if binDir == "" {
		dir, err := os.MkdirTemp("", "relurl-beam-test-")
		if err != nil {
			t.Fatal(err)
		}
		binDir = dir
	}
	bin := build(t, binDir, srcDir, pkg, name)
	built[name] = bin
	return bin
}

// relurlBeam is this command, built once for the tests.
func relurlBeam(t *testing.T) string { return buildOnce(t, ".", ".", "relurl-beam") }

// relurlCLI is the repository's relurl command, built once for the tests.
func relurlCLI(t *testing.T) string {
	return buildOnce(t, repoRoot(t), "./cmd/relurl", "relurl")
}

// repoRoot is the main module's directory.
func repoRoot(t *testing.T) string {
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// TestCommand is the proof: relurl-beam on prism over a good and
// a corrupt WARC exits 0, its links are relurl links --on-error report's
// (as a multiset of file and url), and its errors name the corrupt file.
func TestCommand(t *testing.T) {
	beamBin, cli, root := relurlBeam(t), relurlCLI(t), repoRoot(t)

	in := t.TempDir()
	corruptAt, err := fixture.Write(in, root)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out") + "/"
	cmd := exec.Command(beamBin, "--input", filepath.Join(in, "*.warc.gz"), "--output", out, "--graph", "host")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("relurl-beam: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "relurl-beam: 2 files, ") || !strings.Contains(stderr.String(), " records failed, 0 files failed") {
		t.Errorf("no summary line:\n%s", stderr.String())
	}
	read := func(set string) []byte {
		names, _ := filepath.Glob(out + set + "-*.jsonl")
		if len(names) == 0 {
			t.Fatalf("no %s shards in %s", set, out)
		}
		var all []byte
		for _, n := range names {
			data, err := os.ReadFile(n)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, data...)
		}
		return all
	}
	got := fileURLs(t, read("links"))

	good, corrupt := filepath.Join(in, "good.warc.gz"), filepath.Join(in, "corrupt.warc.gz")
	ref := exec.Command(cli, "links", "--on-error", "report", good, corrupt)
	ref.Stderr = &stderr
	refOut, err := ref.Output()
	if err != nil {
		t.Fatalf("relurl links --on-error report: %v\n%s", err, stderr.String())
	}
	want := fileURLs(t, refOut)
	if !slices.Equal(got, want) {
		t.Errorf("links differ from relurl links --on-error report:\ngot  %v\nwant %v", got, want)
	}
	if len(got) == 0 || !slices.ContainsFunc(got, func(f fileURL) bool { return f.File == corrupt }) {
		t.Errorf("no links of the corrupt file's good records: %v", got)
	}

	errs := string(read("errors"))
	if !strings.Contains(errs, `"file":"`+corrupt+`"`) || !strings.Contains(errs, `"offset":`+itoa(corruptAt)) {
		t.Errorf("errors do not name %s at %d:\n%s", corrupt, corruptAt, errs)
	}
	if hosts := string(read("hosts")); !strings.Contains(hosts, `{"source":"example.test","target":"other.test","count":1}`) {
		t.Errorf("host graph:\n%s", hosts)
	}
}

func itoa(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestUsage: bad flags exit 2 before any pipeline runs.
func TestUsage(t *testing.T) {
	bin := relurlBeam(t)
	for _, args := range [][]string{
		{},
		{"--input", "x"},
		{"--input", "x", "--output", "o/", "--graph", "web"},
		{"--input", "x", "--output", "o/", "--fields", "nope"},
		{"--input", "x", "--output", "o/", "--spec", "rfc9999"},
		{"--input", "x", "--output", "o/", "--format", "warc"},
		{"--input", "x.warc.wat.gz", "--output", "o/", "--format", "wat", "--input-format", "wat"},
		{"--input", "x.warc.gz", "--output", "o/", "--format", "wat", "--fields", "url"},
		{"--input", "gs://bucket/*.warc.gz", "--output", "o/", "--format", "wat"},
	} {
		err := exec.Command(bin, args...).Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("relurl-beam %q: %v, want exit status 2", args, err)
		}
	}
}

// TestFormatWAT: relurl-beam --format wat over a good and a corrupt WARC
// exits 0 and writes WAT shards whose metadata records, as package wat's
// reader reads them, give the links of relurl links --format wat's file.
func TestFormatWAT(t *testing.T) {
	beamBin, cli, root := relurlBeam(t), relurlCLI(t), repoRoot(t)
	in := t.TempDir()
	if _, err := fixture.Write(in, root); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out") + "/"
	cmd := exec.Command(beamBin, "--input", filepath.Join(in, "*.warc.gz"), "--output", out, "--format", "wat")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("relurl-beam --format wat: %v\n%s", err, stderr.String())
	}
	shards, _ := filepath.Glob(out + "links-*-of-*.wat.gz")
	if len(shards) == 0 {
		t.Fatalf("no WAT shards in %s", out)
	}
	var got []string
	for _, sh := range shards {
		got = append(got, watLinks(t, sh)...)
	}
	ref := filepath.Join(t.TempDir(), "ref.warc.wat.gz")
	refCmd := exec.Command(cli, "links", "--format", "wat", "--on-error", "report", "-o", ref, filepath.Join(in, "good.warc.gz"), filepath.Join(in, "corrupt.warc.gz"))
	refCmd.Run() // exits 1 for the corrupt record; the file is written
	want := watLinks(t, ref)
	slices.Sort(got)
	slices.Sort(want)
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("links of the WAT shards differ from relurl links --format wat's:\ngot  %q\nwant %q", got, want)
	}
}

// watLinks returns the links package wat reads from a WAT file: target,
// kind and URL.
func watLinks(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	if _, err := wat.Links(f, resolve.WHATWG, func(l link.Link) error {
		out = append(out, l.Target+" "+l.Kind.String()+" "+l.URL)
		return nil
	}, nil); err != nil {
		t.Fatalf("wat.Links %s: %v", path, err)
	}
	return out
}

// TestPortable submits the job the way Flink and Spark take it: --runner
// universal to a job service endpoint (Beam's Job API over gRPC), here
// prism's standalone job server, with the workers in this process
// (LOOPBACK).
func TestPortable(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts a job server")
	}
	bins := t.TempDir()
	prism := build(t, bins, ".", "github.com/apache/beam/sdks/v2/go/cmd/prism", "prism")
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	server := exec.Command(prism, "--job_port", strconv.Itoa(port), "--serve_http=false")
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		server.Process.Kill()
		server.Wait()
	}()
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	in := t.TempDir()
	if _, err := fixture.Write(in, root); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out") + "/"
	endpoint := "127.0.0.1:" + strconv.Itoa(port)
	tmp := t.TempDir()
	var stderr bytes.Buffer
	for try := 0; ; try++ { // until the server listens
		stderr.Reset()
		cmd := exec.Command(relurlBeam(t), "--runner", "universal", "--endpoint", endpoint, "--environment_type", "LOOPBACK",
			"--input", filepath.Join(in, "*.warc.gz"), "--output", out)
		cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
		cmd.Stderr = &stderr
		if err = cmd.Run(); err == nil || try == 20 {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("relurl-beam --runner universal: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "relurl-beam: 2 files, ") {
		t.Errorf("no summary line:\n%s", stderr.String())
	}
	if names, _ := filepath.Glob(out + "links-*.jsonl"); len(names) == 0 {
		t.Errorf("no link shards in %s", out)
	}
	// Beam's LOOPBACK run leaves a beamloopbackworker-* file in TMPDIR
	// unless relurl-beam gives the run a private one (privateTemp).
	if left, _ := os.ReadDir(tmp); len(left) > 0 {
		t.Errorf("the run left %d files in TMPDIR, e.g. %s", len(left), left[0].Name())
	}
}
