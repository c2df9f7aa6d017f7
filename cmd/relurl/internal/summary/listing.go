package summary

import (
	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/linkcheck/report"
)

// Listing passes the findings of a `relurl check` run on to its report,
// or counts those it does not list: links broken before the move (with
// --to, unless All), and findings of the Baseline (listed as
// "unchanged" only in SARIF, ListKnown). With Unique the listed findings
// are gathered by target (Targets) instead of reported one by one.
type Listing struct {
	Report    report.Writer
	All       bool             // --all: list the links broken before the move too
	Baseline  *report.Baseline // --baseline: findings in it are known
	ListKnown bool             // list the baseline's findings, as "unchanged" (SARIF)
	Unique    bool             // --unique: gather by target into Targets
	Sum       Check            // what was listed, and what was not
	Targets   Targets          // with Unique: the broken targets
	prints    report.Fingerprints
	with      map[string]struct{} // the files with a finding listed
}

// Show lists the finding f, or counts it as not listed; the error is the
// report's.
func (l *Listing) Show(f linkcheck.Finding) error {
	if f.Before && !l.All {
		l.Sum.Before++
		return nil
	}
	rf := report.Finding{Finding: f, Fingerprint: l.prints.Next(f)}
	if l.Baseline != nil {
		rf.BaselineState = l.Baseline.State(rf.Fingerprint)
		if rf.BaselineState == "unchanged" {
			l.Sum.Known++
			if !l.ListKnown {
				return nil
			}
		}
	}
	if rf.BaselineState != "unchanged" {
		l.Sum.Add(f.Problem)
		// Finish's findings (anchors, orphans) come after every file's own.
		if _, ok := l.with[f.File]; !ok {
			if l.with == nil {
				l.with = map[string]struct{}{}
			}
			l.with[f.File] = struct{}{}
			l.Sum.With++
		}
	}
	if l.Unique {
		l.Targets.Add(f)
		return nil
	}
	return l.Report.Finding(rf)
}
