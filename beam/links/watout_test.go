package links

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/beam/internal/fixture"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/wat"
)

// watFixture writes the good WARC (a page, a redirect, a revisit, an
// image), the one with a corrupt gzip member and an HTML page into a new
// directory and returns the WARC files' paths, the page's and the
// corrupt record's offset.
func watFixture(t *testing.T) (warcs []string, html string, corruptAt int64) {
	t.Helper()
	in := t.TempDir()
	corruptAt, err := fixture.Write(in, filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return []string{filepath.Join(in, "good.warc.gz"), filepath.Join(in, "corrupt.warc.gz")}, filepath.Join(in, "page.html"), corruptAt
}

// cliWAT writes the WAT of `relurl links --format wat` for the WARC
// files and returns its path.
func cliWAT(t *testing.T, warcs []string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cli.warc.wat.gz")
	cmd := exec.Command(relurlCLI(t), append([]string{"links", "--format", "wat", "--on-error", "report", "-o", path}, warcs...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		// The corrupt record makes the command exit 1; its WAT is
		// written all the same.
		t.Logf("relurl links --format wat: %v: %s", err, stderr.String())
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("relurl links --format wat wrote no file: %v: %s", err, stderr.String())
	}
	return path
}

// watRecord is a record of a WAT file as far as two runs can agree on
// it: its WARC headers but the WARC-Record-ID (and a warcinfo's date),
// which are new on every run, and its block.
type watRecord struct {
	Type   string
	Header string
	Block  string
}

// readWAT reads the records of a WAT file with package archive's reader,
// each member alone: any damage fails the test.
func readWAT(t *testing.T, path string) []watRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []watRecord
	wr := archive.NewWARCReader(f)
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			return recs
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		block, err := io.ReadAll(rec.Block)
		if err != nil {
			t.Fatalf("%s: record at %d: %v", path, rec.Offset, err)
		}
		var h []string
		for _, fl := range rec.Header {
			if fl.Name == "WARC-Record-ID" || rec.Type == "warcinfo" && fl.Name == "WARC-Date" {
				continue
			}
			h = append(h, fl.Name+": "+fl.Value)
		}
		recs = append(recs, watRecord{Type: rec.Type, Header: strings.Join(h, "\n"), Block: string(block)})
	}
}

// watLinks returns the links package wat reads from a WAT file, as JSON
// without the metadata record's offset (which is the WAT file's own).
func watLinks(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	_, err = wat.Links(f, resolve.WHATWG, func(l link.Link) error {
		b, _ := json.Marshal(map[string]any{"raw": l.Raw, "url": l.URL, "err": fmt.Sprint(l.Err), "tag": l.Tag, "attr": l.Attr, "kind": l.Kind.String(),
			"rel": l.Rel, "target": l.Target, "base": l.Base.URL, "base_source": l.Base.Source.String()})
		out = append(out, string(b))
		return nil
	}, nil)
	if err != nil {
		t.Fatalf("wat.Links %s: %v", path, err)
	}
	return out
}

// TestWATOutput: Format "wat" writes WAT shards, each a warcinfo record
// then metadata records, whose metadata records are those relurl links
// --format wat writes for the same WARC files (the good one's page,
// redirect, revisit and image; the corrupt one's records but the
// damaged one), header for header and JSON for JSON, and whose links, as
// package wat reads them, are the command's WAT's. An HTML input is a
// dead letter, and the graphs are written from the same run.
func TestWATOutput(t *testing.T) {
	warcs, html, corruptAt := watFixture(t)
	out := filepath.Join(t.TempDir(), "out") + "/"
	job := Job{Inputs: append(slices.Clone(warcs), html), Output: out, Format: "wat", Graphs: []string{"host"}}
	res := runJob(t, job)
	shards := shardSet(t, OutputName(out, OutputLinks), WATShardName)

	var got []watRecord
	var gotLinks []string
	for _, sh := range shards {
		recs := readWAT(t, sh)
		if len(recs) == 0 || recs[0].Type != "warcinfo" || recs[0].Block != wat.Warcinfo {
			t.Errorf("%s does not start with relurl's warcinfo record: %+v", sh, recs)
		}
		for _, r := range recs[1:] {
			if r.Type != "metadata" {
				t.Errorf("%s: a %s record after the warcinfo", sh, r.Type)
			}
		}
		got = append(got, recs[1:]...)
		gotLinks = append(gotLinks, watLinks(t, sh)...)
	}
	ref := cliWAT(t, warcs)
	want := readWAT(t, ref)
	if len(want) == 0 || want[0].Type != "warcinfo" {
		t.Fatalf("the command's WAT does not start with a warcinfo record: %+v", want)
	}
	if len(got) != len(want)-1 {
		t.Errorf("%d metadata records, the command's WAT has %d", len(got), len(want)-1)
	}
	key := func(r watRecord) string { return r.Header + "\n\n" + r.Block }
	str := func(rs []watRecord) []string {
		var s []string
		for _, r := range rs {
			s = append(s, key(r))
		}
		return s
	}
	t.Logf("%d shards, %d metadata records, %d links", len(shards), len(got), len(gotLinks))
	if len(gotLinks) == 0 {
		t.Error("no links in the WAT shards")
	}
	sameMultiset(t, "metadata records vs relurl links --format wat", str(got), str(want[1:]))
	sameMultiset(t, "WAT links vs the command's WAT's", gotLinks, watLinks(t, ref))

	// The records the fixture holds are there, the damaged one is not.
	all := strings.Join(str(got), "\n")
	for _, target := range []string{"https://example.test/", "https://example.test/old", "https://mirror.example.test/deep/again", "https://example.test/img/logo.png", "https://a.example.test/one", "https://a.example.test/three"} {
		if !strings.Contains(all, "WARC-Target-URI: "+target+"\n") {
			t.Errorf("no metadata record of %s", target)
		}
	}
	if strings.Contains(all, "https://a.example.test/two") || strings.Contains(all, "lost-") {
		t.Error("a metadata record of the damaged record")
	}
	if !strings.Contains(all, `"Title":"t"`) {
		t.Error("no record with the page's title")
	}

	// The dead letters: the damaged record, and the HTML page, which is
	// not a WARC file.
	errs := readShards(t, OutputName(out, OutputErrors))
	if !slices.ContainsFunc(errs, func(e string) bool {
		return strings.Contains(e, `"file":"`+warcs[1]+`"`) && strings.Contains(e, fmt.Sprintf(`"offset":%d`, corruptAt))
	}) {
		t.Errorf("no dead letter of the damaged record: %q", errs)
	}
	if !slices.ContainsFunc(errs, func(e string) bool {
		return strings.Contains(e, `"file":"`+html+`"`) && strings.Contains(e, "not a WARC file")
	}) {
		t.Errorf("no dead letter of the HTML page: %q", errs)
	}
	if c := CountsOf(res.Metrics()); c.Files != 3 || c.FailedFiles != 1 || c.Links == 0 {
		t.Errorf("counters %+v", c)
	}
	if hosts := readShards(t, OutputName(out, OutputHosts)); !slices.Contains(hosts, `{"source":"example.test","target":"other.test","count":1}`) {
		t.Errorf("host graph %q", hosts)
	}
}

// TestWATOutputEmpty: with no WARC record to describe, the one shard
// written is a WAT file of its warcinfo record alone.
func TestWATOutputEmpty(t *testing.T) {
	_, html, _ := watFixture(t)
	out := filepath.Join(t.TempDir(), "out") + "/"
	runJob(t, Job{Inputs: []string{html}, Output: out, Format: "wat"})
	shards := shardSet(t, OutputName(out, OutputLinks), WATShardName)
	if recs := readWAT(t, shards[0]); len(shards) != 1 || len(recs) != 1 || recs[0].Type != "warcinfo" || recs[0].Block != wat.Warcinfo {
		t.Errorf("shards %q, records %+v: want one shard of a warcinfo record", shards, recs)
	}
}

// TestWATOutputRefused: Format "wat" refuses WAT inputs (Options.WAT),
// some fields only, and inputs other than local files, before the
// pipeline runs.
func TestWATOutputRefused(t *testing.T) {
	for name, j := range map[string]Job{
		"wat in":   {Inputs: []string{"x.warc.gz"}, Options: Options{WAT: true}},
		"fields":   {Inputs: []string{"x.warc.gz"}, Fields: []string{"url"}},
		"gs input": {Inputs: []string{"a.warc.gz", "gs://bucket/*.warc.gz"}},
	} {
		j.Output, j.Format = "out/", "wat"
		_, s := beam.NewPipelineWithRoot()
		if err := j.Build(s); err == nil {
			t.Errorf("%s: built", name)
		}
	}
	_, s := beam.NewPipelineWithRoot()
	if err := (Job{Inputs: []string{"x.warc.gz"}, Output: "out/", Format: "wat", Fields: Fields}).Build(s); err != nil {
		t.Errorf("every field: %v", err)
	}
}

// TestWATOutputWarcio reads the job's WAT shards with warcio.js
// (webrecorder's WARC reader, from npm, through the main module's
// crawlcheck script): every record of every shard parses, each shard is
// a warcinfo record then metadata records whose JSON parses, and the
// metadata records (type, target, Refers-To, title, base, the links a
// port of cc-pyspark extracts) are those warcio reads from relurl links
// --format wat's file. It skips when node or warcio is missing (.ci/run
// installs them; NODE_PATH names their directory).
func TestWATOutputWarcio(t *testing.T) {
	mods := nodeModules(t, "warcio")
	script := filepath.Join("..", "..", "cmd", "relurl", "crawlcheck", "testdata", "watread.mjs")
	warcio := func(path string) []string {
		cmd := exec.Command("node", script, path)
		cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("node watread.mjs %s: %v\n%s", path, err, stderr.String())
		}
		return lines(out)
	}
	warcs, _, _ := watFixture(t)
	out := filepath.Join(t.TempDir(), "out") + "/"
	runJob(t, Job{Inputs: warcs, Output: out, Format: "wat"})
	metadata := func(lines []string, what string) []string {
		if len(lines) == 0 || !strings.Contains(lines[0], `"type":"warcinfo"`) {
			t.Errorf("%s: warcio's first record is not a warcinfo: %q", what, lines)
			return nil
		}
		for _, l := range lines[1:] {
			if !strings.Contains(l, `"type":"metadata"`) || !strings.Contains(l, `"json":true`) {
				t.Errorf("%s: warcio read %s", what, l)
			}
		}
		return lines[1:]
	}
	var got []string
	for _, sh := range shardSet(t, OutputName(out, OutputLinks), WATShardName) {
		got = append(got, metadata(warcio(sh), sh)...)
	}
	want := metadata(warcio(cliWAT(t, warcs)), "relurl links --format wat")
	if len(want) == 0 {
		t.Fatal("warcio read no metadata record of the command's WAT")
	}
	sameMultiset(t, "warcio's records vs the command's WAT's", got, want)
}
