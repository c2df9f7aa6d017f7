// Package summary keeps the counts of a `relurl rewrite`, `check` or
// `materialize` run, file by file as the results come, and prints them:
// the summary lines on standard error or the --json object (their fields
// are part of the command's contract, docs/output.md). It is the
// command's accounting, kept apart from the library, which reports what
// each file did (treerewrite.Result, linkcheck.FileResult, materialize.Summary)
// and counts nothing across files.
package summary

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/treerewrite"
)

// Rewrite is the summary of a rewrite run, or of one file of it.
type Rewrite struct {
	Files    int `json:"files"`                // documents read
	Changed  int `json:"changed"`              // documents whose bytes changed (with -o: mirror files written)
	UpToDate int `json:"up_to_date,omitempty"` // with -o: documents the mirror already held as rewritten, left alone
	// Documents read whose rewrite changes no byte (-i: not written;
	// -o: written into the mirror as they were). Files = Changed +
	// UpToDate + Unchanged + the documents counted in Failed.
	Unchanged   int `json:"unchanged,omitempty"`
	Links       int `json:"links"`        // URL values seen
	Rewritten   int `json:"rewritten"`    // URL values changed in the documents this run wrote (-o: not in those already up to date)
	FailedLinks int `json:"failed_links"` // URL values that could not be resolved
	Failed      int `json:"failed"`       // files that could not be read, rewritten or written
	Copied      int `json:"copied"`       // other files copied to the mirror
	Skipped     int `json:"skipped"`      // other files not copied
	// Documents not written for safety (a symbolic link or another file
	// in their place at write time, a hard link under --hardlinks=skip);
	// counted in Failed too.
	Refused int `json:"refused"`
	// Documents -o could not rewrite and copied into the mirror as they
	// were; counted in Failed too.
	Unrewritten int `json:"unrewritten"`
	// Documents not processed to their end because they went past a
	// limit (tree.Incomplete: a tag, rule or element stack over a
	// reader's bound, a document larger than may be held): written best
	// effort, the rest as it was; counted in Failed.
	Incomplete int `json:"incomplete"`
	// Warnings the library gave (each also on stderr, after its file).
	Warnings int `json:"warnings"`
}

// Of returns the counts of one file's result. A failed file counts as
// failed only: its links are not counted.
func Of(r treerewrite.Result) Rewrite {
	var c Rewrite
	if r.Read {
		c.Files = 1
	}
	c.Warnings = len(r.Warnings)
	switch {
	case r.Err != nil && !r.Read:
		// A path the walk could not read, a file that is not a
		// document given alone, one whose copy failed.
		c.Failed = 1
		return c
	case r.Err != nil:
		c.Failed = 1
		if errors.Is(r.Err, safewrite.ErrSymlink) || errors.Is(r.Err, safewrite.ErrChanged) || errors.Is(r.Err, safewrite.ErrHardLink) || errors.Is(r.Err, safewrite.ErrOwner) {
			c.Refused = 1
		}
		if tree.Incomplete(r.Err) {
			c.Incomplete = 1
		}
		if r.CopiedUnchanged {
			c.Unrewritten = 1
		}
		return c
	case r.Copied:
		c.Copied = 1
		return c
	case r.Skipped:
		c.Skipped = 1
		return c
	}
	c.Links, c.Rewritten, c.FailedLinks = r.Links, r.Rewritten, r.Failed
	switch {
	case r.UpToDate:
		// The mirror held the rewrite already: this run rewrote no link
		// of it, as a second -i rewrites none.
		c.UpToDate, c.Rewritten = 1, 0
	case r.Changed:
		c.Changed = 1
	default:
		c.Unchanged = 1
	}
	return c
}

// Add adds the counts d to c.
func (c *Rewrite) Add(d Rewrite) {
	c.Files += d.Files
	c.Changed += d.Changed
	c.UpToDate += d.UpToDate
	c.Unchanged += d.Unchanged
	c.Links += d.Links
	c.Rewritten += d.Rewritten
	c.FailedLinks += d.FailedLinks
	c.Failed += d.Failed
	c.Copied += d.Copied
	c.Skipped += d.Skipped
	c.Refused += d.Refused
	c.Unrewritten += d.Unrewritten
	c.Incomplete += d.Incomplete
	c.Warnings += d.Warnings
}

// WriteJSON writes c as one JSON object and a newline.
func (c Rewrite) WriteJSON(w io.Writer) error {
	return json.NewEncoder(w).Encode(c)
}

// WriteLine writes c as the summary line, "relurl: rewrite: N files
// read, ...", naming only the counts that are not zero past the first
// four.
func (c Rewrite) WriteLine(w io.Writer) error {
	b := fmt.Appendf(nil, "relurl: rewrite: %s read, %d changed, %s rewritten, %s failed",
		Plural(c.Files, "file"), c.Changed, Plural(c.Rewritten, "link"), Plural(c.FailedLinks, "link"))
	for _, p := range []struct {
		n    int
		text string // the count, said
	}{
		{c.UpToDate, fmt.Sprintf(", %d up to date", c.UpToDate)},
		{c.Unchanged, fmt.Sprintf(", %d unchanged", c.Unchanged)},
		{c.Copied, ", " + Plural(c.Copied, "other file") + " copied"},
		{c.Failed, ", " + Plural(c.Failed, "file") + " failed"},
		{c.Refused, fmt.Sprintf(" (%d not written for safety)", c.Refused)},
		{c.Unrewritten, fmt.Sprintf(" (%d copied unchanged)", c.Unrewritten)},
		{c.Incomplete, fmt.Sprintf(" (%d incomplete)", c.Incomplete)},
		{c.Warnings, ", " + Plural(c.Warnings, "warning")},
	} {
		if p.n > 0 {
			b = append(b, p.text...)
		}
	}
	_, err := w.Write(append(b, '\n'))
	return err
}
