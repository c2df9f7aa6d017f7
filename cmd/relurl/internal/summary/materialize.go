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
		stale = fmt.Sprintf("; %d stale files of an earlier run, %d removed", s.Stale, s.Removed)
	}
	errs := ""
	if s.ErrorResponses > 0 {
		errs = fmt.Sprintf(", %d error responses", s.ErrorResponses)
	}
	if s.Dropped > 0 {
		// Named in warnings as they came; counted here too.
		errs += fmt.Sprintf(", %d captures not http(s) dropped", s.Dropped)
	}
	_, err := fmt.Fprintf(w, "relurl: materialize: %d pages, %d resources, %d redirects%s, %d uncaptured links (%d URLs from %d captures in %d inputs, %d links, %d local); %d warnings, %d problems%s; into %s\n",
		s.Pages, s.Resources, s.Redirects, errs, s.Uncaptured, s.URLs, s.Captures, s.Inputs, s.Links, s.Local, s.Warnings, s.Problems, stale, m.Dir)
	return err
}

// Failed reports whether the run failed (exit status 1): a record, part,
// input or file was lost, or no input could be read.
func (m Materialize) Failed() bool { return m.Problems > 0 || m.Inputs == 0 }
