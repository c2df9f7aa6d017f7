package links

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/beam/internal/fixture"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/link"
)

// TestMain runs the pipelines of these tests on prism, Beam's Go runner
// (ptest's default): the job service in this process, the workers
// loopback, each element encoded and decoded between stages as on a
// cluster.
// Prism's INFO log lines (job states, workers) are left out.
func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn})))
	ptest.Main(m)
}

// runJob builds job on a new pipeline and runs it on the direct runner,
// failing t on an error of either; it returns the run's result, for its
// metrics.
func runJob(t *testing.T, job Job) beam.PipelineResult {
	t.Helper()
	p, s := beam.NewPipelineWithRoot()
	if err := job.Build(s); err != nil {
		t.Fatal(err)
	}
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// readShards reads the lines of the shards of the output set prefix,
// checked as shardSet checks them.
func readShards(t *testing.T, prefix string) []string {
	t.Helper()
	var lines []string
	for _, name := range shardSet(t, prefix, ShardName) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		for l := range strings.SplitSeq(string(data), "\n") {
			if l != "" {
				lines = append(lines, l)
			}
		}
	}
	return lines
}

// shardSet returns the shards of the output set prefix, named by
// shardName, checking that they are a complete set (0 to n-1 of n) and
// that no temporary file is left.
func shardSet(t *testing.T, prefix string, shardName func(prefix string, i, n int) string) []string {
	t.Helper()
	names, _ := filepath.Glob(prefix + "-*")
	if len(names) == 0 {
		t.Fatalf("no shards %s-*", prefix)
	}
	var shards []string
	for i := range names {
		name := shardName(prefix, i, len(names))
		if !slices.Contains(names, name) {
			t.Fatalf("shards %q: no %s", names, name)
		}
		shards = append(shards, name)
	}
	if tmp, _ := filepath.Glob(prefix + ".tmp*"); len(tmp) > 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
	return shards
}

var (
	cliOnce sync.Once
	cliPath string
	cliErr  error
)

// relurlCLI builds cmd/relurl of the enclosing module.
func relurlCLI(t *testing.T) string {
	t.Helper()
	cliOnce.Do(func() {
		dir, err := os.MkdirTemp("", "relurl-cli-")
		if err != nil {
			cliErr = err
			return
		}
		cliPath = filepath.Join(dir, "relurl")
		cmd := exec.Command("go", "build", "-o", cliPath, "./cmd/relurl")
		cmd.Dir = filepath.Join("..", "..")
		if out, err := cmd.CombinedOutput(); err != nil {
			cliErr = errors.New(string(out))
		}
	})
	if cliErr != nil {
		t.Fatalf("build relurl: %v", cliErr)
	}
	return cliPath
}

// cliLinks returns the lines `relurl links --on-error report` prints for
// path.
func cliLinks(t *testing.T, path string) []string {
	t.Helper()
	cmd := exec.Command(relurlCLI(t), "links", "--on-error", "report", "-j", "1", path)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Logf("relurl links %s: %v: %s", path, err, stderr.String())
	}
	return lines(out)
}

// lines returns the non-empty lines of out.
func lines(out []byte) []string {
	var ls []string
	for l := range strings.SplitSeq(string(out), "\n") {
		if l != "" {
			ls = append(ls, l)
		}
	}
	return ls
}

// nodeModules returns the directory in NODE_PATH that holds the npm
// package pkg, or skips the test saying what is missing (.ci/run
// installs node and the packages).
func nodeModules(t *testing.T, pkg string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skipf("node not installed: %s is an npm package (.ci/run installs it)", pkg)
	}
	for _, dir := range filepath.SplitList(os.Getenv("NODE_PATH")) {
		if _, err := os.Stat(filepath.Join(dir, pkg, "package.json")); err == nil {
			return dir
		}
	}
	t.Skipf("%s not found in NODE_PATH (.ci/run installs it)", pkg)
	return ""
}

// sameMultiset reports the lines in one list and not the other, counting
// repeats.
func sameMultiset(t *testing.T, what string, got, want []string) {
	t.Helper()
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	if slices.Equal(g, w) {
		return
	}
	count := map[string]int{}
	for _, l := range g {
		count[l]++
	}
	for _, l := range w {
		count[l]--
	}
	for l, n := range count {
		switch {
		case n > 0:
			t.Errorf("%s: %d extra: %s", what, n, l)
		case n < 0:
			t.Errorf("%s: %d missing: %s", what, -n, l)
		}
	}
}

type fileURL struct {
	File   string `json:"file"`
	Record int64  `json:"record"`
	Target string `json:"target"`
	URL    string `json:"url"`
	Raw    string `json:"raw"`
}

// libraryWARC returns what the library's one call (extract.File) gives
// for a WARC file, as (file, record, target, url, raw) lines, and its
// records read.
func libraryWARC(t *testing.T, path string) ([]string, extract.Result) {
	t.Helper()
	var lines []string
	o := extract.Options{RecordError: func(*archive.RecordError) error { return nil }}
	res, err := extract.File(path, o, func(l link.Link) error {
		b, _ := json.Marshal(fileURL{path, l.Record, l.Target, l.URL, l.Raw})
		lines = append(lines, string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return lines, res
}

func asFileURL(t *testing.T, lines []string, file string) []string {
	t.Helper()
	var out []string
	for _, l := range lines {
		var r fileURL
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatal(err)
		}
		if r.File == file {
			b, _ := json.Marshal(r)
			out = append(out, string(b))
		}
	}
	return out
}

// TestPipeline runs the whole job on prism over a good WARC (redirect,
// revisit), a WARC with a corrupt gzip member, an HTML file and an MHTML
// file, and checks its links against relurl links and the library, its
// dead letters and its counters.
func TestPipeline(t *testing.T) {
	in := t.TempDir()
	corruptAt, err := fixture.Write(in, filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out") + "/"
	job := Job{
		Inputs: []string{filepath.Join(in, "*.warc.gz"), filepath.Join(in, "*.ht*"), filepath.Join(in, "saved.mht")},
		Output: out, Graphs: []string{"host", "page"},
	}
	res := runJob(t, job)
	got := readShards(t, OutputName(out, OutputLinks))

	good, corrupt := filepath.Join(in, "good.warc.gz"), filepath.Join(in, "corrupt.warc.gz")
	html, mht := filepath.Join(in, "page.html"), filepath.Join(in, "saved.mht")

	// Every field as relurl links writes it, line for line, the corrupt
	// file's good records included.
	var want []string
	for _, f := range []string{good, corrupt, html, mht} {
		want = append(want, cliLinks(t, f)...)
	}
	sameMultiset(t, "links vs relurl links --on-error report", got, want)
	for _, kind := range []string{`"kind":"redirect"`, `"target":"https://mirror.example.test/deep/again"`, `"part":`, `"base_source":"embedded"`} {
		if !slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, kind) }) {
			t.Errorf("no link with %s", kind)
		}
	}

	// Both WARCs against the library, which goes on past the damaged
	// record.
	var records int64
	for _, f := range []string{good, corrupt} {
		lib, st := libraryWARC(t, f)
		records += st.Records
		sameMultiset(t, "links of "+filepath.Base(f)+" vs extract.File", asFileURL(t, got, f), lib)
	}
	if !slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, "https://b.example.test/") }) {
		t.Error("the record after the corrupt one gave no links")
	}
	if slices.ContainsFunc(got, func(l string) bool { return strings.Contains(l, "lost-") }) {
		t.Error("links of the corrupt record were emitted")
	}

	// The dead letters name the corrupt record (the reader may report
	// more than one problem in it: a damaged header, then the checksum).
	errs := readShards(t, OutputName(out, OutputErrors))
	if len(errs) == 0 {
		t.Fatal("no dead letter")
	}
	for _, e := range errs {
		var f struct {
			File   string
			Offset *int64
			Error  string
		}
		if err := json.Unmarshal([]byte(e), &f); err != nil {
			t.Fatal(err)
		}
		if f.File != corrupt || f.Offset == nil || *f.Offset != corruptAt || f.Error == "" {
			t.Errorf("dead letter %s: want file %s, offset %d", e, corrupt, corruptAt)
		}
	}
	if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, "corrupt compressed data") }) {
		t.Errorf("no dead letter says the member is corrupt: %q", errs)
	}

	// The counters.
	c := CountsOf(res.Metrics())
	mhtLinks := cliLinks(t, mht)
	parts := map[string]bool{}
	for _, l := range mhtLinks {
		var r struct{ Part string }
		json.Unmarshal([]byte(l), &r)
		parts[r.Part] = true
	}
	want4 := Counts{Files: 4, Records: records + 1 + int64(len(parts)), Links: int64(len(got)), FailedRecords: int64(len(errs)), FailedFiles: 0}
	if c != want4 {
		t.Errorf("counters %+v, want %+v", c, want4)
	}
	if len(mhtLinks) == 0 {
		t.Error("the MHTML fixture has no links")
	}

	// The graphs.
	hosts := readShards(t, OutputName(out, OutputHosts))
	for _, e := range []string{
		`{"source":"example.test","target":"other.test","count":1}`,
		`{"source":"example.test","target":"example.test","count":5}`,
		`{"source":"mirror.example.test","target":"other.test","count":1}`,
		`{"source":"a.example.test","target":"b.example.test","count":1}`,
	} {
		if !slices.Contains(hosts, e) {
			t.Errorf("host graph %q has no %s", hosts, e)
		}
	}
	pages := readShards(t, OutputName(out, OutputPages))
	if len(pages) != len(slices.Compact(slices.Sorted(slices.Values(pages)))) {
		t.Errorf("page graph has duplicates: %q", pages)
	}
	for _, e := range []string{
		`{"source":"https://example.test/old","target":"https://example.test/new/","kind":"redirect"}`,
		`{"source":"https://mirror.example.test/deep/again","target":"https://mirror.example.test/deep/about/","kind":"navigation"}`,
	} {
		if !slices.Contains(pages, e) {
			t.Errorf("page graph has no %s", e)
		}
	}
}

// TestExtractFailures reads files that are not documents, cannot be
// opened, or are cut short, without Beam: each is one dead letter.
func TestExtractFailures(t *testing.T) {
	for _, tc := range []struct {
		name, path, data string
		want             string
	}{
		{"binary", "x.bin", "\x00\x01\x02", "not a document relurl reads"},
		{"empty warc", "x.warc", "", "empty"},
		{"not warc", "x.warc.gz", "hello, world\n", "not a WARC"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var fails []Failure
			st := extractFile(tc.path, int64(len(tc.data)), strings.NewReader(tc.data), Options{}, func(Link) {}, func(f Failure) { fails = append(fails, f) })
			if !st.failed || len(fails) != 1 || !strings.Contains(fails[0].Error, tc.want) || fails[0].File != tc.path {
				t.Errorf("failures %+v (stats %+v), want one containing %q", fails, st, tc.want)
			}
		})
	}
}

// TestNonUTF8Name: a file name that is not UTF-8 is percent-encoded in
// links and dead letters, with "file_encoding":"percent", as relurl links
// writes it (tree.JSONName).
func TestNonUTF8Name(t *testing.T) {
	var links []Link
	var fails []Failure
	extractFile("caf\xe9%.html", -1, strings.NewReader(`<a href="https://a.test/">`), Options{}, func(l Link) { links = append(links, l) }, func(f Failure) { fails = append(fails, f) })
	if len(links) != 1 || len(fails) != 0 {
		t.Fatalf("links %+v, failures %+v", links, fails)
	}
	if got := string(links[0].AppendJSON(nil, []string{"file", "file_encoding"})); got != `{"file":"caf%E9%25.html","file_encoding":"percent"}`+"\n" {
		t.Errorf("got %s", got)
	}
	extractFile("x\xff.bin", 1, strings.NewReader("\x00"), Options{}, func(Link) {}, func(f Failure) { fails = append(fails, f) })
	if len(fails) != 1 || string(fails[0].AppendJSON(nil)) != `{"file":"x%FF.bin","file_encoding":"percent","error":"not a document relurl reads, by name and content (HTML, MHTML, WARC, CSS, SVG, XHTML, Atom, RSS, a web app manifest or a JS module; --input-format names the kind of a stream)"}`+"\n" {
		t.Errorf("failures %+v", fails)
	}
}

// TestFields checks --fields: order, absence, page, and the errors.
func TestFields(t *testing.T) {
	fs, err := ParseFields("url,page,record")
	if err != nil {
		t.Fatal(err)
	}
	l := Link{URL: "https://a.test/?x=1&y=<2>", Page: "https://p.test/"}
	if got, want := string(l.AppendJSON(nil, fs)), `{"url":"https://a.test/?x=1&y=<2>","page":"https://p.test/"}`+"\n"; got != want {
		t.Errorf("got %s want %s", got, want)
	}
	l.HasRecord = true
	if got, want := string(l.AppendJSON(nil, fs)), `{"url":"https://a.test/?x=1&y=<2>","page":"https://p.test/","record":0}`+"\n"; got != want {
		t.Errorf("got %s want %s", got, want)
	}
	for _, bad := range []string{"nope", "url,url"} {
		if _, err := ParseFields(bad); err == nil {
			t.Errorf("ParseFields(%q) succeeded", bad)
		}
	}
}

// TestEmptyOutput: an output set with no lines is still written, as one
// empty shard, so a reader can tell "nothing" from "not written". A
// directory the glob matches is skipped, not a failure.
func TestEmptyOutput(t *testing.T) {
	in := t.TempDir()
	if err := os.WriteFile(filepath.Join(in, "a.html"), []byte(`<a href="https://a.test/">a</a>`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(in, "sub.html"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "run")
	res := runJob(t, Job{Inputs: []string{filepath.Join(in, "*.html")}, Output: out})
	if c := CountsOf(res.Metrics()); c != (Counts{Files: 1, Records: 1, Links: 1}) {
		t.Errorf("counters %+v", c)
	}
	if got := readShards(t, OutputName(out, OutputLinks)); len(got) != 1 {
		t.Errorf("links %q", got)
	}
	data, err := os.ReadFile(ShardName(OutputName(out, OutputErrors), 0, 1))
	if err != nil || len(data) != 0 {
		t.Errorf("errors shard: %q, %v; want it empty", data, err)
	}
}
