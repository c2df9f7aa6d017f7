package summary

import (
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/tree/report"
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
	last      string // the file of the last finding counted
}

// Show lists the finding f, or counts it as not listed; the error is the
// report's.
func (l *Listing) Show(f tree.Finding) error {
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
		// A file's findings come together, so a new file is a change of name.
		if f.File != l.last || l.Sum.With == 0 {
			l.Sum.With++
			l.last = f.File
		}
	}
	if l.Unique {
		l.Targets.Add(f)
		return nil
	}
	return l.Report.Finding(rf)
}
