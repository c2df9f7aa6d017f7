package summary

import (
	"fmt"
	"strings"

	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/linkcheck/report"
	"github.com/relurl/relurl/tree"
)

// Check counts what a `relurl check` run found, for the lines on
// standard error.
type Check struct {
	Files  int                       // files checked
	With   int                       // files with a finding listed
	Total  int                       // findings listed
	Counts map[linkcheck.Problem]int // findings listed, by problem
	Before int                       // links broken before the move, not listed (--to without --all)
	Known  int                       // findings of the baseline, not listed
	// Files that could not be checked, or not to their end; Incomplete
	// of them went past a limit (tree.Incomplete). Either fails the run.
	Failed, Incomplete int
}

// Fail counts a file whose check failed with err.
func (m *Check) Fail(err error) {
	m.Failed++
	if tree.Incomplete(err) {
		m.Incomplete++
	}
}

// Add counts a listed finding of problem p.
func (m *Check) Add(p linkcheck.Problem) {
	if m.Counts == nil {
		m.Counts = map[linkcheck.Problem]int{}
	}
	m.Counts[p]++
	m.Total++
}

// Lines returns the summary, "check: N findings in K of M files: J
// missing, ..." (K files of the M checked have a finding listed; problems
// in the order of linkcheck.Problems), then a line for what
// was not listed: the links broken before the move, and with a baseline
// the findings still in it and those gone.
func (m *Check) Lines(baseline *report.Baseline) []string {
	var parts []string
	for _, p := range linkcheck.Problems() {
		if n := m.Counts[p]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, p))
		}
	}
	line := fmt.Sprintf("check: %s in %s", Plural(m.Total, "finding"), Plural(m.Files, "file"))
	if m.Total > 0 {
		line = fmt.Sprintf("check: %s in %d of %s", Plural(m.Total, "finding"), m.With, Plural(m.Files, "file"))
	}
	if len(parts) > 0 {
		line += ": " + strings.Join(parts, ", ")
	}
	lines := []string{line}
	if m.Failed > 0 {
		// Named on stderr as they came; a file not read to its end
		// may hide findings, so the count is part of the summary.
		fl := fmt.Sprintf("check: %s not checked", Plural(m.Failed, "file"))
		if m.Incomplete > 0 {
			fl += fmt.Sprintf(" (%d over a limit, not read to the end)", m.Incomplete)
		}
		lines = append(lines, fl)
	}
	if m.Before > 0 {
		lines = append(lines, fmt.Sprintf("check: %s broken before the move not listed (--all lists them)", Plural(m.Before, "link")))
	}
	if baseline != nil {
		lines = append(lines, fmt.Sprintf("check: %d findings of the baseline still there, %d gone", m.Known, baseline.Absent()))
	}
	return lines
}

// Plural returns "1 what" or "N whats".
func Plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
