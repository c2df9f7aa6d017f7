package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/linkcheck"
)

// documentedFields reads docs/output.md: for each "<!-- object: NAME -->"
// line, the fields named (in backquotes) in the first column of the table
// that follows it.
func documentedFields(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile("../../docs/output.md")
	if err != nil {
		t.Fatal(err)
	}
	marker := regexp.MustCompile(`^<!-- object: (\S+) -->$`)
	quoted := regexp.MustCompile("`([^`]+)`")
	objects := map[string][]string{}
	var current string
	for line := range strings.SplitSeq(string(data), "\n") {
		if m := marker.FindStringSubmatch(line); m != nil {
			current = m[1]
			objects[current] = nil
			continue
		}
		if current == "" {
			continue
		}
		if !strings.HasPrefix(line, "|") {
			if len(objects[current]) > 0 || strings.TrimSpace(line) != "" {
				current = "" // the table is over
			}
			continue
		}
		first := strings.Split(line, "|")[1]
		if strings.TrimSpace(first) == "field" || strings.HasPrefix(strings.TrimSpace(first), "---") {
			continue
		}
		for _, m := range quoted.FindAllStringSubmatch(first, -1) {
			objects[current] = append(objects[current], m[1])
		}
	}
	return objects
}

// contractFixtures writes, under dir, inputs that make every documented
// field appear: a tree with links that fail, climb out, are missing or
// absolute, a <template>, a name that is not UTF-8; an MHTML archive whose
// page links to its other part; a WARC with a stretch of bytes that starts
// no record.
func contractFixtures(t *testing.T, dir string) {
	t.Helper()
	write := func(name, content string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("site/index.html", `<a href="http://example.org/b.html" rel="next">b</a> <a href="//[bad/x">x</a>
<a href="gone.html">gone</a> <template><img src="t.png"></template> <a href="b.html">b</a>`)
	write("site/b.html", `<p>no links</p>`)
	write("site/bad\xff.html", `<a href="missing.html">m</a>`)
	write("page.html", "<svg><base href=\"/svg/\"></svg>\n<a href=\"x.html\">x</a>")
	write("archive.mht", "MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"b\"\r\n\r\n"+
		"--b\r\nContent-Type: text/html\r\nContent-Location: http://example.org/page.html\r\n\r\n"+
		"<img src=\"pic.png\"> <a href=\"elsewhere.html\">e</a>\r\n"+
		"--b\r\nContent-Type: image/png\r\nContent-Location: http://example.org/pic.png\r\n\r\nPNG\r\n--b--\r\n")
	rec := func(uri, body string) string {
		http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + body
		return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: " + uri +
			"\r\nContent-Length: " + strconv.Itoa(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
	}
	write("crawl.warc", rec("http://x.example/a", `<a href="b">b</a>`)+"junk that starts no record\r\n"+
		rec("http://x.example/c", `<a href="d">d</a>`))
}

// TestOutputContract runs every subcommand that prints JSON on fixtures
// that produce every field, and compares the keys of the objects printed
// with the fields docs/output.md lists for them: nothing printed is
// undocumented, nothing documented is never printed.
func TestOutputContract(t *testing.T) {
	documented := documentedFields(t)
	dir := t.TempDir()
	contractFixtures(t, dir)
	at := func(name string) string { return filepath.Join(dir, name) }

	printed := map[string]map[string]bool{}
	values := map[string]map[string]bool{} // OBJECT.FIELD -> the values printed
	collect := func(object string, data []byte) {
		t.Helper()
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Bytes()
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			var obj map[string]json.RawMessage
			if err := json.Unmarshal(line, &obj); err != nil {
				t.Errorf("%s: not a JSON object: %q", object, line)
				continue
			}
			name := object
			if _, ok := obj["status"]; ok && object == "links" {
				name = "links-status"
			}
			if printed[name] == nil {
				printed[name] = map[string]bool{}
			}
			for k, raw := range obj {
				printed[name][k] = true
				if enumerated[name+"."+k] {
					var v string
					if json.Unmarshal(raw, &v) == nil {
						if values[name+"."+k] == nil {
							values[name+"."+k] = map[string]bool{}
						}
						values[name+"."+k][v] = true
					}
				}
			}
		}
	}
	// exec runs relurl and collects its standard output (or, with
	// fromErr, its standard error) as the object's JSON Lines.
	exec := func(object string, stdin string, fromErr bool, args ...string) {
		t.Helper()
		var out, errb bytes.Buffer
		run(args, stdio{in: strings.NewReader(stdin), out: &out, err: &errb})
		if fromErr {
			collect(object, errb.Bytes())
		} else {
			collect(object, out.Bytes())
		}
	}

	exec("resolve", `{"base":"http://a/b/c","ref":"g"}`+"\n"+`{"base":"mailto:a@b","ref":"x"}`+"\n", false, "resolve", "--jsonl")
	exec("validate", "http://a/b\nhttp://[::1\n", false, "validate", "--jsonl")
	damaged, err := filepath.Abs("../../testdata/mime/damaged.warc")
	if err != nil {
		t.Fatal(err)
	}
	exec("base", "", false, "base", "--base", "http://example.org/dir/page.html", at("page.html"))
	exec("links", "", false, "links", "--status", "--on-error", "report", "--base", "http://example.org/", "--list-root", "/",
		at("site"), at("archive.mht"), at("crawl.warc"), at("nosuch.html"), damaged)
	// fetch --links prints link records too: only documented fields.
	srv := httptest.NewServer(testSite())
	defer srv.Close()
	var fetched bytes.Buffer
	run([]string{"fetch", "--links", srv.URL + "/linked/page"}, stdio{in: strings.NewReader(""), out: &fetched, err: &bytes.Buffer{}})
	if fetched.Len() == 0 {
		t.Error("fetch --links printed nothing")
	}
	collect("fetch-links", fetched.Bytes())
	for k := range printed["fetch-links"] {
		if !slices.Contains(documented["links"], k) {
			t.Errorf("fetch --links: field %q printed but not documented in docs/output.md (links)", k)
		}
	}
	delete(printed, "fetch-links")
	exec("rewrite", "", false, "rewrite", "--json", "--base", "http://example.org/", "-o", at("mirror"), at("site"))
	exec("rewrite", "", false, "rewrite", "--json", "--base", "http://example.org/", "-o", at("mirror"), at("site"))
	exec("rewrite", "<a href=x>x</a>", true, "rewrite", "--json", "--base", "http://example.org/", "-")
	exec("check", "", false, "check", "--json", "--base", "http://example.org/", "--to", "http://example.com/new/", "--all", at("site"))
	// A baseline, then a new finding: baseline_state.
	var sarif bytes.Buffer
	run([]string{"check", "--format", "sarif", "--base", "http://example.org/", at("site")}, stdio{in: strings.NewReader(""), out: &sarif, err: &bytes.Buffer{}})
	if err := os.WriteFile(at("baseline.sarif"), sarif.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(at("site/new.html"), []byte(`<a href="/b.html">b</a>`), 0o644); err != nil {
		t.Fatal(err)
	}
	exec("check", "", false, "check", "--json", "--base", "http://example.org/", "--baseline", at("baseline.sarif"), at("site"))
	exec("check-unique", "", false, "check", "--json", "--unique", "--base", "http://example.org/", at("site"))
	warc, err := filepath.Abs("../../testdata/mime/redirects.warc")
	if err != nil {
		t.Fatal(err)
	}
	exec("materialize", "", false, "materialize", "--json", "-o", at("tree"), warc)
	urls, err := os.ReadFile(at("tree/urls.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	collect("materialize-urls", urls)

	checkValues(t, values)

	for object, fields := range documented {
		got := printed[object]
		if got == nil {
			t.Errorf("%s: documented, but no run of the test printed it", object)
			continue
		}
		for _, f := range fields {
			if !got[f] {
				t.Errorf("%s: field %q documented but never printed", object, f)
			}
		}
		for k := range got {
			if !slices.Contains(fields, k) {
				t.Errorf("%s: field %q printed but not documented in docs/output.md", object, k)
			}
		}
	}
	for object := range printed {
		if _, ok := documented[object]; !ok {
			t.Errorf("%s: printed but docs/output.md has no table for it", object)
		}
	}
}

// enumerated names the fields whose values docs/output.md lists, as
// OBJECT.FIELD.
var enumerated = map[string]bool{
	"base.base_source":      true,
	"links.base_source":     true,
	"links.kind":            true,
	"links-status.status":   true,
	"check.problem":         true,
	"materialize-urls.kind": true,
}

// documentedValues returns the values docs/output.md lists for a field:
// the backquoted words of the meaning column of the field's row in the
// object's table, before any " — " and outside parentheses.
func documentedValues(t *testing.T, object, field string) []string {
	t.Helper()
	data, err := os.ReadFile("../../docs/output.md")
	if err != nil {
		t.Fatal(err)
	}
	in := false
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.HasPrefix(line, "<!-- object: ") {
			in = line == "<!-- object: "+object+" -->"
			continue
		}
		if !in || !strings.HasPrefix(line, "| `"+field+"` |") {
			continue
		}
		cols := strings.Split(line, " | ")
		meaning := cols[len(cols)-1]
		meaning, _, _ = strings.Cut(meaning, " — ")
		meaning = regexp.MustCompile(`\([^()]*\)`).ReplaceAllString(meaning, "")
		var out []string
		for _, m := range regexp.MustCompile("`([a-z-]+)`").FindAllStringSubmatch(meaning, -1) {
			out = append(out, m[1])
		}
		return out
	}
	t.Fatalf("docs/output.md: no row for %s in the table of %s", field, object)
	return nil
}

// checkValues compares the values docs/output.md lists for each enumerated
// field with the values relurl printed in TestOutputContract's runs (each
// printed value is documented) and with the values the code can give
// (each is documented, and nothing else is): the kinds of link, the base's
// layers, check's problems.
func checkValues(t *testing.T, printed map[string]map[string]bool) {
	t.Helper()
	var kinds, problems, sources []string
	for _, k := range link.Kinds() {
		kinds = append(kinds, k.String())
	}
	for _, p := range linkcheck.Problems() {
		problems = append(problems, p.String())
	}
	for _, s := range []base.Source{base.Embedded, base.Header, base.Retrieval, base.Composite, base.Default} {
		sources = append(sources, s.String())
	}
	code := map[string][]string{
		"base.base_source":  sources,
		"links.base_source": sources,
		"links.kind":        kinds,
		"check.problem":     problems,
		// Every status is printed by the runs: the damaged WARC's
		// record-error, the missing file's error, the others' ok.
		"links-status.status": {"ok", "error", "record-error"},
	}
	for name := range enumerated {
		object, field, _ := strings.Cut(name, ".")
		doc := documentedValues(t, object, field)
		for v := range printed[name] {
			if !slices.Contains(doc, v) {
				t.Errorf("%s: %s %q printed but not among docs/output.md's values %v", object, field, v, doc)
			}
		}
		want, ok := code[name]
		if !ok {
			continue
		}
		for _, v := range want {
			if !slices.Contains(doc, v) {
				t.Errorf("%s: %s %q can be printed but docs/output.md does not list it", object, field, v)
			}
		}
		for _, v := range doc {
			if !slices.Contains(want, v) {
				t.Errorf("%s: docs/output.md lists %s %q, which relurl never prints", object, field, v)
			}
		}
		if name == "links-status.status" && len(printed[name]) != len(want) {
			t.Errorf("links --status: printed %v, want each of %v", printed[name], want)
		}
	}
}
