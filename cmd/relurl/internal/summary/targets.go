package summary

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"

	"github.com/relurl/relurl/linkcheck"
)

// Targets is the list `relurl check --unique` prints: each broken target
// once, with its number of referrers and its first referrer.
type Targets struct {
	targets map[targetKey]*target
	order   []targetKey
}

// targetKey is one broken target: the problem and what it names.
type targetKey struct {
	problem linkcheck.Problem
	target  string
}

type target struct {
	first     linkcheck.Finding
	referrers int
}

// Add counts the finding f as a referrer of its target: f.Target, else
// its URL, else the link as written.
func (t *Targets) Add(f linkcheck.Finding) {
	k := targetKey{f.Problem, f.Target}
	if k.target == "" {
		k.target = f.URL
	}
	if k.target == "" {
		k.target = f.Link
	}
	if t.targets == nil {
		t.targets = map[targetKey]*target{}
	}
	if x := t.targets[k]; x != nil {
		x.referrers++
		return
	}
	t.targets[k] = &target{first: f, referrers: 1}
	t.order = append(t.order, k)
}

// Write writes the list, most referred first (ties in the order found):
// as JSON Lines with format "json", else as text lines
// "TARGET: PROBLEM: N referrers (first: FILE:LINE:COLUMN): REASON".
func (t *Targets) Write(w io.Writer, format string) error {
	slices.SortStableFunc(t.order, func(a, b targetKey) int { return t.targets[b].referrers - t.targets[a].referrers })
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, k := range t.order {
		x := t.targets[k]
		f := x.first
		var err error
		if format == "json" {
			err = enc.Encode(struct {
				Problem   linkcheck.Problem `json:"problem"`
				Target    string            `json:"target"`
				Referrers int               `json:"referrers"`
				File      string            `json:"file"`
				Line      int               `json:"line"`
				Column    int               `json:"column"`
				Reason    string            `json:"reason"`
			}{k.problem, k.target, x.referrers, f.File, f.Line, f.Column, f.Reason})
		} else {
			_, err = fmt.Fprintf(w, "%s: %s: %s (first: %s:%d:%d): %s\n", k.target, k.problem, Plural(x.referrers, "referrer"), f.File, f.Line, f.Column, f.Reason)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
