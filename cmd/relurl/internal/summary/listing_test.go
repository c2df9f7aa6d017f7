package summary

import (
	"bytes"
	"strings"
	"testing"

	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/linkcheck/report"
)

// TestListing: what a check run lists and what it counts as not listed.
func TestListing(t *testing.T) {
	a := linkcheck.Finding{File: "a.html", Line: 1, Column: 1, Link: "/x", Problem: linkcheck.RootRelative, Target: "x"}
	b := linkcheck.Finding{File: "a.html", Line: 2, Column: 1, Link: "y.html", Problem: linkcheck.Missing, Target: "y.html", Before: true}
	c := linkcheck.Finding{File: "b.html", Line: 3, Column: 1, Link: "/x", Problem: linkcheck.RootRelative, Target: "x"}

	var buf bytes.Buffer
	w, err := report.New("json", &buf, report.Options{})
	if err != nil {
		t.Fatal(err)
	}
	l := &Listing{Report: w}
	for _, f := range []linkcheck.Finding{a, b, c} {
		if err := l.Show(f); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	if n := strings.Count(buf.String(), "\n"); n != 2 || l.Sum.Total != 2 || l.Sum.Before != 1 || l.Sum.Counts[linkcheck.RootRelative] != 2 {
		t.Errorf("without --all: %d lines, Sum %+v; want 2 listed, 1 before\n%s", n, l.Sum, buf.String())
	}

	// --all lists the links broken before the move; --unique gathers by target.
	l = &Listing{Report: w, All: true, Unique: true}
	for _, f := range []linkcheck.Finding{a, b, c} {
		l.Show(f)
	}
	if l.Sum.Total != 3 || l.Sum.Before != 0 {
		t.Errorf("--all: Sum %+v, want 3 listed", l.Sum)
	}
	var u bytes.Buffer
	if err := l.Targets.Write(&u, "text"); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(u.String(), "\n"); n != 2 {
		t.Errorf("--unique: %d targets, want 2 (x twice, y.html):\n%s", n, u.String())
	}

	// A baseline: its findings are known, not listed (SARIF lists them
	// as unchanged).
	var sarif bytes.Buffer
	sw, _ := report.New("sarif", &sarif, report.Options{})
	var prints report.Fingerprints
	sw.Finding(report.Finding{Finding: a, Fingerprint: prints.Next(a)})
	sw.Close()
	for _, known := range []bool{false, true} {
		base, err := report.ReadBaseline(bytes.NewReader(sarif.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		buf.Reset()
		w, _ := report.New("json", &buf, report.Options{})
		l = &Listing{Report: w, Baseline: base, ListKnown: known}
		l.Show(a)
		l.Show(c)
		w.Close()
		lines := strings.Count(buf.String(), "\n")
		if l.Sum.Known != 1 || l.Sum.Total != 1 || known && lines != 2 || !known && lines != 1 {
			t.Errorf("baseline, ListKnown %v: %d lines, Sum %+v; want 1 known, 1 listed", known, lines, l.Sum)
		}
	}
}
