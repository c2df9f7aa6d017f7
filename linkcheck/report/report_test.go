package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"strings"
	"testing"

	"github.com/relurl/relurl/linkcheck"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// findings has one finding of every problem, with the characters each
// format must escape: "%", ":", ",", a newline, a space in the path,
// and a line of non-ASCII text before the link.
func findings() []linkcheck.Finding {
	var fs []linkcheck.Finding
	for i, p := range linkcheck.Problems() {
		fs = append(fs, linkcheck.Finding{File: "site/a b/index.html", Line: i + 1, Column: 10, Column16: 8, Link: "team%20b.html,x:y", URL: "https://example.org/site/a%20b/team%20b.html,x:y",
			Problem: p, Reason: "no file a b/team b.html,x:y in the tree\nsecond line\r", Relative: "", Offset: int64(100 + i)})
	}
	fs[0].Relative = "team%20b.html"
	return fs
}

func write(t *testing.T, format string, o Options, fs []linkcheck.Finding, files ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := New(format, &b, o)
	require.NoError(t, err)
	for _, f := range files {
		w.File(f)
	}
	var fp Fingerprints
	for _, f := range fs {
		rf := Finding{Finding: f, Fingerprint: fp.Next(f)}
		if o.Baseline != nil {
			rf.BaselineState = o.Baseline.State(rf.Fingerprint)
		}
		require.NoError(t, w.Finding(rf))
	}
	require.NoError(t, w.Close())
	return b.Bytes()
}

// sarifSchema compiles the OASIS SARIF 2.1.0 JSON schema (errata 01,
// vendored in testdata/sarif with its licence).
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("../../testdata/sarif/sarif-schema-2.1.0.json")
	require.NoError(t, err)
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	require.NoError(t, c.AddResource("sarif-schema-2.1.0.json", doc))
	s, err := c.Compile("sarif-schema-2.1.0.json")
	require.NoError(t, err)
	return s
}

func validate(t *testing.T, s *jsonschema.Schema, out []byte) map[string]any {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	require.NoError(t, err)
	require.NoError(t, s.Validate(doc), "%s", out)
	var m map[string]any
	require.NoError(t, json.Unmarshal(out, &m))
	return m
}

// TestSARIF: the log is valid under the SARIF 2.1.0 schema and has what
// GitHub code scanning requires ("SARIF support for code scanning"):
// $schema, driver name and rules with id, shortDescription,
// fullDescription and help; results with ruleId, message, a relative
// artifactLocation, a region and partialFingerprints.
func TestSARIF(t *testing.T) {
	s := sarifSchema(t)
	// The schema rejects what is not SARIF: the check has teeth.
	doc, _ := jsonschema.UnmarshalJSON(strings.NewReader(`{"version":"2.1.0","runs":[{"tool":{"driver":{}}}]}`))
	require.Error(t, s.Validate(doc))

	out := write(t, "sarif", Options{Name: "site"}, findings())
	m := validate(t, s, out)
	assert.Equal(t, SchemaURI, m["$schema"])
	run := m["runs"].([]any)[0].(map[string]any)
	driver := run["tool"].(map[string]any)["driver"].(map[string]any)
	assert.Equal(t, "relurl", driver["name"])
	rules := driver["rules"].([]any)
	require.Len(t, rules, len(linkcheck.Problems()))
	for i, r := range rules {
		r := r.(map[string]any)
		assert.Equal(t, linkcheck.Problems()[i].String(), r["id"])
		for _, k := range []string{"shortDescription", "fullDescription", "help"} {
			text := r[k].(map[string]any)["text"].(string)
			assert.NotEmpty(t, text, "%s of %s", k, r["id"])
			assert.LessOrEqual(t, len(text), 1024)
		}
	}
	results := run["results"].([]any)
	require.Len(t, results, len(linkcheck.Problems()))
	seen := map[string]bool{}
	for i, r := range results {
		r := r.(map[string]any)
		assert.Equal(t, linkcheck.Problems()[i].String(), r["ruleId"])
		assert.Equal(t, float64(i), r["ruleIndex"])
		assert.NotEmpty(t, r["message"].(map[string]any)["text"])
		loc := r["locations"].([]any)[0].(map[string]any)["physicalLocation"].(map[string]any)
		assert.Equal(t, "site/a%20b/index.html", loc["artifactLocation"].(map[string]any)["uri"])
		region := loc["region"].(map[string]any)
		assert.Equal(t, float64(i+1), region["startLine"])
		assert.Equal(t, float64(8), region["startColumn"], "UTF-16 columns")
		assert.Equal(t, float64(8+len("team%20b.html,x:y")), region["endColumn"])
		fp := r["partialFingerprints"].(map[string]any)[FingerprintKey].(string)
		assert.Len(t, fp, 32)
		assert.False(t, seen[fp], "fingerprints differ")
		seen[fp] = true
	}
	assert.Equal(t, "relurl-check/site/", run["automationDetails"].(map[string]any)["id"])

	// No findings: still a valid log, with an empty results array.
	m = validate(t, s, write(t, "sarif", Options{}, nil))
	assert.Equal(t, []any{}, m["runs"].([]any)[0].(map[string]any)["results"])
}

func TestCategory(t *testing.T) {
	for name, want := range map[string]string{"site": "relurl-check/site/", "./site/": "relurl-check/site/", ".": "relurl-check/", "": "relurl-check/", "/srv/www": "relurl-check/srv/www/", "a/../b": "relurl-check/b/"} {
		assert.Equal(t, want, category(name), "category(%q)", name)
	}
}

// TestBaseline: against a baseline, findings are "unchanged" or "new"
// (SARIF §3.27.24), vanished ones are listed "absent", and the log stays
// valid.
func TestBaseline(t *testing.T) {
	s := sarifSchema(t)
	fs := findings()
	old := write(t, "sarif", Options{}, fs[:3])
	b, err := ReadBaseline(bytes.NewReader(old))
	require.NoError(t, err)
	assert.Equal(t, 3, b.Len())
	// The second and third remain, the first is gone, the fourth is new;
	// the lines moved, which must not matter.
	now := append([]linkcheck.Finding{}, fs[1:4]...)
	for i := range now {
		now[i].Line += 10
	}
	m := validate(t, s, write(t, "sarif", Options{Baseline: b}, now))
	var states []string
	for _, r := range m["runs"].([]any)[0].(map[string]any)["results"].([]any) {
		r := r.(map[string]any)
		states = append(states, r["ruleId"].(string)+" "+r["baselineState"].(string))
	}
	assert.Equal(t, []string{"root-relative unchanged", "climbs-out unchanged", "missing new", "absolute absent"}, states)
	assert.Equal(t, 1, b.Absent())

	_, err = ReadBaseline(strings.NewReader(`{"version":"2.0.0","runs":[]}`))
	assert.ErrorContains(t, err, "2.1.0")
	_, err = ReadBaseline(strings.NewReader(`not json`))
	assert.Error(t, err)
}

// TestFingerprints: the n-th occurrence of one rule, file and link gets
// its own fingerprint; the line does not count.
func TestFingerprints(t *testing.T) {
	f := linkcheck.Finding{File: "a.html", Link: "x.html", Problem: linkcheck.Missing, Line: 1}
	var p, q Fingerprints
	a, b := p.Next(f), p.Next(f)
	assert.NotEqual(t, a, b)
	f.Line = 7
	assert.Equal(t, a, q.Next(f))
	assert.Equal(t, b, q.Next(f))
}

// TestJUnit: the report parses with encoding/xml into the JUnit
// structure GitLab and Jenkins read: one failed test case a finding, one
// passing test case a clean file, counts that add up.
func TestJUnit(t *testing.T) {
	fs := findings()[:2]
	out := write(t, "junit", Options{Name: "site"}, fs, "site/a b/index.html", "site/clean.html")
	assert.True(t, bytes.HasPrefix(out, []byte(xml.Header)))
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Errors   int      `xml:"errors,attr"`
		Suites   []struct {
			Name     string `xml:"name,attr"`
			Tests    int    `xml:"tests,attr"`
			Failures int    `xml:"failures,attr"`
			Skipped  int    `xml:"skipped,attr"`
			Cases    []struct {
				Classname string `xml:"classname,attr"`
				Name      string `xml:"name,attr"`
				File      string `xml:"file,attr"`
				Line      int    `xml:"line,attr"`
				Failure   *struct {
					Type    string `xml:"type,attr"`
					Message string `xml:"message,attr"`
					Body    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	require.NoError(t, xml.Unmarshal(out, &doc), "%s", out)
	assert.Equal(t, 3, doc.Tests)
	assert.Equal(t, 2, doc.Failures)
	require.Len(t, doc.Suites, 1)
	su := doc.Suites[0]
	assert.Equal(t, "site", su.Name)
	assert.Equal(t, 3, su.Tests)
	assert.Equal(t, 2, su.Failures)
	require.Len(t, su.Cases, 3)
	c := su.Cases[0]
	assert.Equal(t, "site/a b/index.html", c.Classname)
	assert.Equal(t, "1:10 absolute team%20b.html,x:y", c.Name)
	assert.Equal(t, 1, c.Line)
	require.NotNil(t, c.Failure)
	assert.Equal(t, "absolute", c.Failure.Type)
	assert.Equal(t, message(fs[0]), c.Failure.Message, "newlines survive the attribute")
	assert.Contains(t, c.Failure.Body, c.Failure.Message)
	assert.Equal(t, "site/clean.html", su.Cases[2].Classname)
	assert.Equal(t, "no findings", su.Cases[2].Name)
	assert.Nil(t, su.Cases[2].Failure)
}

// TestGitHub: workflow commands are escaped as actions/toolkit's
// command.ts escapes them: data "%" "\r" "\n"; properties also ":" ",".
func TestGitHub(t *testing.T) {
	out := string(write(t, "github", Options{}, findings()[:1]))
	want := "::error file=site/a b/index.html,line=1,col=8,endLine=1,endColumn=25,title=relurl%3A absolute::" +
		"team%2520b.html,x:y: no file a b/team b.html,x:y in the tree%0Asecond line%0D (relative: team%2520b.html)\n"
	assert.Equal(t, want, out)
	assert.Equal(t, 1, strings.Count(out, "\n"), "one line a finding")

	tests := []struct{ in, data, prop string }{
		{"100%", "100%25", "100%25"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"a:b,c", "a:b,c", "a%3Ab%2Cc"},
		{"%0A", "%250A", "%250A"}, // "%" first: no double meaning
	}
	for _, tt := range tests {
		assert.Equal(t, tt.data, EscapeData(tt.in), "EscapeData(%q)", tt.in)
		assert.Equal(t, tt.prop, EscapeProperty(tt.in), "EscapeProperty(%q)", tt.in)
	}
}

// TestText: compiler-style lines, and JSON Lines with the baseline state.
func TestTextAndJSON(t *testing.T) {
	fs := findings()[:1]
	fs[0].Reason = "why"
	assert.Equal(t, "site/a b/index.html:1:10: absolute: team%20b.html,x:y: why (relative: team%20b.html)\n", string(write(t, "text", Options{}, fs)))
	line := write(t, "json", Options{}, fs)
	var m map[string]any
	require.NoError(t, json.Unmarshal(line, &m))
	assert.Equal(t, "absolute", m["problem"])
	assert.NotContains(t, m, "baseline_state")
	_, err := New("xml", nil, Options{})
	assert.ErrorContains(t, err, `no such format "xml"`)
}

// TestGitHubStepSummary: with a step summary, the github writer adds a
// Markdown table (GitHub shows only ten annotations per step).
func TestGitHubStepSummary(t *testing.T) {
	var sum bytes.Buffer
	fs := findings()[:2]
	fs[1].Link = "a|b"
	out := write(t, "github", Options{Name: "site", StepSummary: &sum}, fs)
	assert.Equal(t, 2, strings.Count(string(out), "::error "))
	want := "### relurl check site\n\n| problem | findings |\n|---|---:|\n| `absolute` | 1 |\n| `root-relative` | 1 |\n\n" +
		"| file | line | problem | link | reason |\n|---|---:|---|---|---|\n" +
		"| site/a b/index.html | 1 | `absolute` | `team%20b.html,x:y` | no file a b/team b.html,x:y in the tree second line  |\n" +
		"| site/a b/index.html | 2 | `root-relative` | a\\|b | no file a b/team b.html,x:y in the tree second line  |\n\n"
	assert.Equal(t, want, sum.String())
	sum.Reset()
	write(t, "github", Options{Name: "site", StepSummary: &sum}, nil)
	assert.Equal(t, "### relurl check site\n\nNo findings.\n\n", sum.String())
}
