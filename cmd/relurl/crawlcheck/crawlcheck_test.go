package crawlcheck

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// relurl is the command under test, built once by TestMain.
var relurl string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "crawlcheck")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	relurl = filepath.Join(dir, "relurl")
	if out, err := exec.Command("go", "build", "-o", relurl, "github.com/relurl/relurl/cmd/relurl").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build relurl: %v\n%s", err, out)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// page is an HTML page with what WAT has and what it lacks: a <base>, a
// srcset, CSS url() and @import, an SVG href, a form with an empty action.
const page = `<!DOCTYPE html><html><head><title>Page one</title>
<base href="/docs/">
<meta name="description" content="a test page">
<meta property="og:url" content="https://example.com/canonical">
<link rel="stylesheet" href="main.css">
<script src="app.js"></script>
<style>@import "print.css"; body { background: url(bg.png) }</style>
</head><body>
<a href="next.html" title="Next">next</a>
<img src="a.png" srcset="a-2x.png 2x, a-3x.png 3x" alt="A">
<div style="background-image: url('tile.gif')"></div>
<svg><a href="svg-link.html"><text>x</text></a></svg>
<form action=""><input type=submit></form>
<a href="https://other.example.org/x">out</a>
</body></html>`

// records are the generated crawl: a page, a redirect, a revisit of the
// page, a page with Link and Content-Location headers.
var records = []Record{
	{Target: "https://www.example.com/index.html", Header: []string{"Content-Type: text/html; charset=utf-8", `Link: </style.css>; rel=preload; as=style`}, Body: page},
	{Target: "https://www.example.com/old", Status: 301, Header: []string{"Location: /index.html"}},
	{Type: "revisit", Target: "https://www.example.com/index.html", Header: []string{"Content-Type: text/html; charset=utf-8"}, Refers: 0},
	{Target: "https://shop.example.net/p", Header: []string{"Content-Type: text/html", "Content-Location: /p/en", `Link: <https://cdn.example.org/x.js>; rel=preload; as=script`}, Body: `<a href="q">q</a><a href=//other.example.org/y>y</a>`},
}

// writeWARC writes the records as dir/name (.warc.gz) and returns its
// path and the records' ids.
func writeWARC(t *testing.T, dir, name string, recs []Record) (string, []string) {
	t.Helper()
	var b bytes.Buffer
	ids, err := WriteWARC(&b, recs, true)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p, ids
}

// corruptWARC is the records with the second one's gzip member damaged.
func corruptWARC(t *testing.T, dir string) string {
	t.Helper()
	var b bytes.Buffer
	for i, r := range records {
		var m bytes.Buffer
		if _, err := WriteWARC(&m, []Record{r}, true); err != nil {
			t.Fatal(err)
		}
		mb := m.Bytes()
		if i == 1 {
			for j := 20; j < len(mb)-10; j++ {
				mb[j] ^= 0x55 // the deflate data, not the header
			}
		}
		b.Write(mb)
	}
	p := filepath.Join(dir, "corrupt.warc.gz")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// run runs relurl with args and returns its standard output; a run that
// exits with a status not in ok fails the test.
func run(t *testing.T, ok []int, args ...string) []byte {
	t.Helper()
	cmd := exec.Command(relurl, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	code := 0
	if ee, isExit := err.(*exec.ExitError); isExit {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("relurl %s: %v", strings.Join(args, " "), err)
	}
	for _, c := range ok {
		if c == code {
			return out
		}
	}
	t.Fatalf("relurl %s: exit %d\n%s", strings.Join(args, " "), code, stderr.String())
	return nil
}

// jsonLines decodes JSON Lines into maps.
func jsonLines(t *testing.T, b []byte) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("%v: %s", err, sc.Bytes())
		}
		out = append(out, m)
	}
	return out
}

// key is a link record without what depends on the file it was read
// from (positions, the record's offset, the file's name).
func key(m map[string]any) string {
	s := func(k string) string { v, _ := m[k].(string); return v }
	rel, _ := json.Marshal(m["rel"])
	u := s("url")
	if u == "" {
		u = "error"
	}
	return strings.Join([]string{s("target"), s("raw"), u, s("tag"), s("attr"), s("kind"), string(rel), s("base"), s("base_source")}, "\t")
}

func keys(ms []map[string]any) []string {
	var ks []string
	for _, m := range ms {
		ks = append(ks, key(m))
	}
	sort.Strings(ks)
	return ks
}

// inputs are the generated WARC files: good, with a corrupt member.
func inputs(t *testing.T) (dir, good, corrupt string, ids []string) {
	dir = t.TempDir()
	good, ids = writeWARC(t, dir, "good.warc.gz", records)
	corrupt = corruptWARC(t, dir)
	return dir, good, corrupt, ids
}

// TestWATRoundTrip: the links relurl reads from its own WAT of a WARC
// file are the links it reads from the WARC file, for a good file and one
// with a damaged record (whose WAT lacks that record, as its links do).
func TestWATRoundTrip(t *testing.T) {
	dir, good, corrupt, _ := inputs(t)
	for _, in := range []string{good, corrupt} {
		ok := []int{0}
		if in == corrupt {
			ok = []int{1}
		}
		want := jsonLines(t, run(t, ok, "links", in))
		wat := filepath.Join(dir, filepath.Base(in)+".wat.gz")
		run(t, ok, "links", "--format", "wat", "-o", wat, in)
		got := jsonLines(t, run(t, []int{0}, "links", "--input-format", "wat", wat))
		if g, w := keys(got), keys(want); strings.Join(g, "\n") != strings.Join(w, "\n") {
			t.Errorf("%s: links of the WAT differ from the WARC's:\n got %q\nwant %q", filepath.Base(in), g, w)
		}
		// Standard input, plain (not gzip): the same links.
		plain := filepath.Join(dir, filepath.Base(in)+".wat")
		run(t, ok, "links", "--format", "wat", "-o", plain, in)
		cmd := exec.Command(relurl, "links", "--input-format", "wat", "-")
		f, err := os.Open(plain)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Stdin = f
		out, err := cmd.Output()
		f.Close()
		if err != nil {
			t.Fatalf("stdin: %v", err)
		}
		if g, w := keys(jsonLines(t, out)), keys(want); strings.Join(g, "\n") != strings.Join(w, "\n") {
			t.Errorf("%s: links of the plain WAT on stdin differ", filepath.Base(in))
		}
	}
}

// TestWATDamaged: a WAT with a damaged member and a record whose JSON does
// not parse: both reported as record errors, the other records' links
// read.
func TestWATDamaged(t *testing.T) {
	dir, good, _, _ := inputs(t)
	wat := filepath.Join(dir, "good.wat.gz")
	run(t, []int{0}, "links", "--format", "wat", "-o", wat, good)
	b, err := os.ReadFile(wat)
	if err != nil {
		t.Fatal(err)
	}
	// The members: warcinfo, then one per record; damage the second
	// record's (the redirect's) and append one of bad JSON.
	members := splitMembers(t, b)
	if len(members) != 1+len(records) {
		t.Fatalf("%d gzip members, want %d", len(members), 1+len(records))
	}
	for j := 20; j < len(members[2])-10; j++ {
		members[2][j] ^= 0x55
	}
	var bad bytes.Buffer
	zw := gzip.NewWriter(&bad)
	fmt.Fprintf(zw, "WARC/1.0\r\nWARC-Type: metadata\r\nWARC-Target-URI: https://bad.example/\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{bad}\r\n\r\n")
	zw.Close()
	damaged := filepath.Join(dir, "damaged.wat.gz")
	if err := os.WriteFile(damaged, append(bytes.Join(members, nil), bad.Bytes()...), 0o644); err != nil {
		t.Fatal(err)
	}
	out := run(t, []int{1}, "links", "--input-format", "wat", "--status", damaged)
	var recErrs, links int
	for _, m := range jsonLines(t, out) {
		switch m["status"] {
		case "record-error":
			recErrs++
		case nil:
			links++
		}
	}
	if recErrs != 2 || links == 0 {
		t.Errorf("%d record errors, %d links; want 2 and some:\n%s", recErrs, links, out)
	}
}

// splitMembers splits a file of gzip members.
func splitMembers(t *testing.T, b []byte) [][]byte {
	t.Helper()
	var ms [][]byte
	r := bytes.NewReader(b)
	for r.Len() > 0 {
		start := len(b) - r.Len()
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false)
		if _, err := zr.Read(make([]byte, 1<<20)); err != nil && err.Error() != "EOF" {
			_ = err
		}
		for {
			if _, err := zr.Read(make([]byte, 1<<16)); err != nil {
				break
			}
		}
		ms = append(ms, append([]byte(nil), b[start:len(b)-r.Len()]...))
	}
	return ms
}

// nodeModules returns the directory of the npm packages the tests use,
// or skips the test saying what is missing.
func nodeModules(t *testing.T, pkgs ...string) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node not installed: the independent readers are npm packages (.ci/run installs them)")
	}
	for _, dir := range filepath.SplitList(os.Getenv("NODE_PATH")) {
		all := true
		for _, p := range pkgs {
			if _, err := os.Stat(filepath.Join(dir, p, "package.json")); err != nil {
				all = false
			}
		}
		if all {
			return dir
		}
	}
	t.Skipf("npm packages %s not found in NODE_PATH (.ci/run installs them)", strings.Join(pkgs, ", "))
	return ""
}

// node runs a script of testdata with NODE_PATH set to dir.
func node(t *testing.T, dir, script string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("node", append([]string{filepath.Join("testdata", script)}, args...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+dir)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, stderr.String())
	}
	return out
}

// TestWATWarcio reads relurl's WAT with warcio.js: every record parses,
// there is one metadata record per response and revisit record of the
// WARC file, each referring to its record's WARC-Record-ID with its
// target, and its JSON parses; the links a port of cc-pyspark's
// wat_extract_links.py extracts are relurl's links, apart from the
// differences named below.
func TestWATWarcio(t *testing.T) {
	mods := nodeModules(t, "warcio")
	dir, good, _, ids := inputs(t)
	wat := filepath.Join(dir, "good.wat.gz")
	run(t, []int{0}, "links", "--format", "wat", "-o", wat, good)
	recs := jsonLines(t, node(t, mods, "watread.mjs", wat))
	if len(recs) != 1+len(records) || recs[0]["type"] != "warcinfo" {
		t.Fatalf("warcio read %d records (first %v), want warcinfo and %d metadata", len(recs), recs[0]["type"], len(records))
	}
	relurlLinks := map[string]map[string]bool{} // target -> URLs
	for _, m := range jsonLines(t, run(t, []int{0}, "links", good)) {
		tg, _ := m["target"].(string)
		u, _ := m["url"].(string)
		if relurlLinks[tg] == nil {
			relurlLinks[tg] = map[string]bool{}
		}
		relurlLinks[tg][u] = true
	}
	for i, r := range recs[1:] {
		if r["type"] != "metadata" || r["contentType"] != "application/json" || r["json"] != true {
			t.Errorf("record %d: %v", i+1, r)
		}
		if r["refersTo"] != ids[i] || r["target"] != records[i].Target {
			t.Errorf("record %d refers to %v (%v), want %s (%s)", i+1, r["refersTo"], r["target"], ids[i], records[i].Target)
		}
		links, _ := r["links"].([]any)
		for _, l := range links {
			l := l.(map[string]any)
			u, _ := l["url"].(string)
			tg := records[i].Target
			if relurlLinks[tg][u] {
				continue
			}
			// The named differences: cc-pyspark takes <meta> og:/twitter:
			// URLs and any absolute meta content as links (relurl: only a
			// refresh), and Content-Location as a link (relurl: a base
			// layer, no link); HTML's form submission takes an empty
			// action as the document's URL, not the base.
			if l["from"] == "meta" || (l["from"] == "header" && strings.HasSuffix(u, "/p/en")) || (l["path"] == "FORM@/action" && l["raw"] == "") {
				continue
			}
			t.Errorf("record %d (%s): cc-pyspark's link %v is not relurl's", i+1, tg, l)
		}
	}
	// cc-pyspark reads the page's links, base and title where relurl
	// wrote them: the first record's title, and the base relurl decided.
	if recs[1]["title"] != "Page one" {
		t.Errorf("title %v", recs[1]["title"])
	}
	if b, _ := recs[1]["base"].(map[string]any); b["url"] != "https://www.example.com/docs/" || b["source"] != "embedded" {
		t.Errorf("Relurl-Base %v", recs[1]["base"])
	}
}

// TestParquetDuckDB reads relurl's Parquet table with DuckDB: its rows
// are the JSON Lines records, field for field, with integer columns.
func TestParquetDuckDB(t *testing.T) {
	mods := nodeModules(t, "@duckdb/node-api")
	dir, good, corrupt, _ := inputs(t)
	for _, in := range []string{good, corrupt} {
		ok := []int{0}
		if in == corrupt {
			ok = []int{1}
		}
		want := jsonLines(t, run(t, ok, "links", in))
		pq := filepath.Join(dir, filepath.Base(in)+".parquet")
		run(t, ok, "links", "--format", "parquet", "-o", pq, in)
		got := jsonLines(t, node(t, mods, "parquet.mjs", pq))
		if len(got) != len(want) {
			t.Fatalf("%s: %d rows, want %d", filepath.Base(in), len(got), len(want))
		}
		for i := range want {
			for k, wv := range want[i] {
				gv := got[i][k]
				if f, isNum := wv.(float64); isNum {
					wv = fmt.Sprint(int64(f)) // DuckDB's JSON gives BIGINT as a string
				}
				if fmt.Sprint(gv) != fmt.Sprint(wv) {
					t.Errorf("%s row %d %s: %v, want %v", filepath.Base(in), i, k, gv, wv)
				}
			}
		}
	}
}

// TestOutputDevice: -o to a device writes in place and leaves it a
// device; to a regular file, the file is replaced whole.
func TestOutputDevice(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("uses /dev/null")
	}
	_, good, _, _ := inputs(t)
	fi, err := os.Stat(os.DevNull)
	if err != nil || fi.Mode().IsRegular() {
		t.Skip("no /dev/null device")
	}
	run(t, []int{0}, "links", "--format", "parquet", "-o", os.DevNull, good)
	if fi, err := os.Stat(os.DevNull); err != nil || fi.Mode().IsRegular() {
		t.Fatalf("/dev/null is no longer a device: %v %v", fi.Mode(), err)
	}
}
