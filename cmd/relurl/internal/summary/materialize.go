package summary

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/relurl/relurl/materialize"
)

// Materialize is the summary of a `relurl materialize` run: the library's
// counts (materialize.Summary) and the directory written into.
type Materialize struct {
	materialize.Summary
	Dir string `json:"dir"`
}

// WriteJSON writes m as one JSON object and a newline (--json): the
// Summary's fields, then "dir".
func (m Materialize) WriteJSON(w io.Writer) error {
	return json.NewEncoder(w).Encode(m)
}

// WriteLine writes m as the summary line, "relurl: materialize: N pages,
// ...; into DIR", naming the stale files of an earlier run only when
// there are some.
func (m Materialize) WriteLine(w io.Writer) error {
	s := m.Summary
	stale := ""
	if s.Stale > 0 {
		stale = fmt.Sprintf("; %s of an earlier run, %d removed", Plural(s.Stale, "stale file"), s.Removed)
	}
	errs := ""
	if s.ErrorResponses > 0 {
		errs = ", " + Plural(s.ErrorResponses, "error response")
	}
	if s.Dropped > 0 {
		// Named in warnings as they came; counted here too.
		errs += ", " + Plural(s.Dropped, "capture") + " not http(s) dropped"
	}
	_, err := fmt.Fprintf(w, "relurl: materialize: %s, %s, %s%s, %s (%s from %s in %s, %s, %d local); %s, %s%s; into %s\n",
		Plural(s.Pages, "page"), Plural(s.Resources, "resource"), Plural(s.Redirects, "redirect"), errs,
		Plural(s.Uncaptured, "uncaptured link"), Plural(s.URLs, "URL"), Plural(s.Captures, "capture"), Plural(s.Inputs, "input"),
		Plural(s.Links, "link"), s.Local, Plural(s.Warnings, "warning"), Plural(s.Problems, "problem"), stale, m.Dir)
	return err
}

// Failed reports whether the run failed (exit status 1): a record, part,
// input or file was lost, or no input could be read.
func (m Materialize) Failed() bool { return m.Problems > 0 || m.Inputs == 0 }
