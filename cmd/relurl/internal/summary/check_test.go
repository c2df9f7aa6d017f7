package summary

import (
	"strings"
	"testing"

	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/linkcheck/report"
	"github.com/stretchr/testify/assert"
)

func TestCheckLines(t *testing.T) {
	var m Check
	m.Files = 1
	assert.Equal(t, []string{"check: 0 findings in 1 file"}, m.Lines(nil))
	m.Files = 3
	m.Add(linkcheck.Missing)
	m.Add(linkcheck.RootRelative)
	m.Add(linkcheck.Missing)
	m.Before = 1
	m.With = 1
	assert.Equal(t, []string{
		"check: 3 findings in 1 of 3 files: 1 root-relative, 2 missing",
		"check: 1 link broken before the move not listed (--all lists them)",
	}, m.Lines(nil), "problems in the order of linkcheck.Problems")
}

// TestListingCountsFilesWithFindings: six findings in one of six files
// are "in 1 of 6 files", not "in 6 files".
func TestListingCountsFilesWithFindings(t *testing.T) {
	l := Listing{Report: discard{}}
	l.Sum.Files = 6
	for i := range 6 {
		assert.NoError(t, l.Show(linkcheck.Finding{Problem: linkcheck.Missing, File: "a.html", Line: i + 1}))
	}
	assert.NoError(t, l.Show(linkcheck.Finding{Problem: linkcheck.Missing, File: "b.html", Line: 1}))
	assert.Equal(t, "check: 7 findings in 2 of 6 files: 7 missing", l.Sum.Lines(nil)[0])
}

func TestPlural(t *testing.T) {
	assert.Equal(t, "1 file", Plural(1, "file"))
	assert.Equal(t, "0 files", Plural(0, "file"))
	assert.Equal(t, "12 links", Plural(12, "link"))
}

func TestTargets(t *testing.T) {
	var ts Targets
	ts.Add(linkcheck.Finding{Problem: linkcheck.Missing, Target: "a.html", File: "x.html", Line: 1, Column: 2, Reason: "no such file"})
	ts.Add(linkcheck.Finding{Problem: linkcheck.Missing, Target: "b.html", File: "x.html", Line: 3, Column: 1, Reason: "no such file"})
	ts.Add(linkcheck.Finding{Problem: linkcheck.Missing, Target: "b.html", File: "y.html", Line: 5, Column: 1, Reason: "no such file"})
	ts.Add(linkcheck.Finding{Problem: linkcheck.RootRelative, URL: "https://e.example/b.html", Link: "/b.html", File: "y.html", Line: 6, Column: 1, Reason: "root"})
	var b strings.Builder
	assert.NoError(t, ts.Write(&b, "text"))
	assert.Equal(t, `b.html: missing: 2 referrers (first: x.html:3:1): no such file
a.html: missing: 1 referrer (first: x.html:1:2): no such file
https://e.example/b.html: root-relative: 1 referrer (first: y.html:6:1): root
`, b.String(), "most referred first, then in the order found; the URL when there is no target")
	b.Reset()
	assert.NoError(t, ts.Write(&b, "json"))
	assert.Equal(t, `{"problem":"missing","target":"b.html","referrers":2,"file":"x.html","line":3,"column":1,"reason":"no such file"}`,
		strings.SplitN(b.String(), "\n", 2)[0])
}

// discard is a report.Writer that keeps nothing.
type discard struct{}

func (discard) File(string)                  {}
func (discard) Finding(report.Finding) error { return nil }
func (discard) Close() error                 { return nil }
