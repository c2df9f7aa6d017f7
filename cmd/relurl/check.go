package main

import (
	"bufio"
	"flag"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/relurl/relurl/cmd/relurl/internal/progress"
	"github.com/relurl/relurl/cmd/relurl/internal/summary"
)

const checkSynopsis = `[--base CURRENT_ROOT_URL] [--to NEW_ROOT_URL] [--host PROFILE] [--fix] [--format FORMAT] DIR

Reports, as FILE:LINE:COLUMN, each link that ties the tree DIR to its
place (the relative-URL draft's §1: trees that can be moved as a whole):
absolute links into the tree, root-relative links, relative links that
climb out of it, links to files missing from it (as the --host serves
paths), fragments naming no anchor of their target, targets that differ
in letter case, <base> elements, with --grammar URLs that grammar
rejects, and with --orphans pages no page leads to from the index page
(or the --entry pages). With --to, only the links that break in that move (--all: also
those broken already). --fix rewrites absolute and root-relative links
into the tree to their relative form and corrects letter case, in place
and atomically (rewrite --relative does it into a mirror, -o, or a dry run,
to the files that serve the links, as wget -k). Counts per problem go to stderr.
Exit status: 0 the tree is movable, 1 something was found, 2 usage.`

func runCheck(args []string, s stdio) int {
	f := newCheckFlags(s)
	if code := f.parse(args); code >= 0 {
		return code
	}
	c, baseline, err := f.checker()
	if err != nil {
		return s.exit("check", err)
	}
	// From here on, output lines go round the progress display.
	var bar *progress.Bar
	bar, s = startProgress(s, false, "check")
	defer bar.Finish()
	d := &checkDriver{c: c, f: f, s: s, bar: bar, out: bufio.NewWriter(s.out)}
	d.warn()
	w, closeSummary, err := f.report(d.out, baseline)
	if err != nil {
		return s.exit("check", err)
	}
	defer closeSummary()
	// Each finding is listed, or counted as not listed: links broken
	// before the move (with --to, unless --all), findings in the baseline.
	d.list = &summary.Listing{Report: w, All: f.all, Baseline: baseline, ListKnown: f.format == "sarif", Unique: f.unique}
	if err := d.run(); err != nil {
		s.errorf("check: %v", err)
		return exitFailure
	}
	if f.fix {
		s.errorf("check: fixed %s in %s", summary.Plural(d.fixed, "link"), summary.Plural(d.files, "file"))
	}
	for _, line := range d.list.Sum.Lines(baseline) {
		s.errorf("%s", line)
	}
	if d.list.Sum.Total > 0 || d.failed > 0 {
		return exitFailure
	}
	return exitOK
}

// explicit reports whether the flag name was set on the command line.
func explicit(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			set = true
		}
	})
	return set
}

// entryList is the value of --entry: tree-relative pages, slash-separated.
type entryList []string

func (e *entryList) String() string { return strings.Join(*e, ",") }

func (e *entryList) Set(v string) error {
	for p := range strings.SplitSeq(v, ",") {
		p = strings.TrimPrefix(filepath.ToSlash(strings.TrimSpace(p)), "./")
		if p == "" {
			return fmt.Errorf("an empty page name")
		}
		*e = append(*e, p)
	}
	return nil
}
