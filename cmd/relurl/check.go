package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/cmd/relurl/internal/progress"
	"github.com/relurl/relurl/cmd/relurl/internal/summary"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/linkcheck/report"
	"github.com/relurl/relurl/resolve/grammar"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
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
	fs := newFlagSet("check", checkSynopsis, s)
	spec, opts := specFlag(fs, defaultHTMLSpec)
	var root, to optionalString
	fs.Var(&root, "base", "the URL the tree is served from now, its root's URL (default: its file: URL)")
	alias(fs, "url", "base") // its old name, kept for one release (README)
	fs.Var(&to, "to", "the URL the tree will move to: report only what breaks in that move")
	gram := fs.String("grammar", "", "also report URLs this grammar rejects: "+strings.Join(grammar.Names(), ", "))
	asJSON := fs.Bool("json", false, "the same as --format json")
	format := fs.String("format", "text", "output format: "+strings.Join(report.Formats(), ", ")+` ("json" is JSON Lines, also named "jsonl" as in relurl links)`)
	hostName := fs.String("host", "file", "how the server maps URL paths to files: "+strings.Join(linkcheck.HostNames(), ", "))
	fix := fs.Bool("fix", false, "rewrite absolute and root-relative links into the tree to their relative form, and wrong letter case, in place")
	fixMissing := fs.Bool("fix-missing", false, "with --fix, also rewrite links whose target is missing from the tree")
	anchors := fs.Bool("anchors", true, "check fragments against the ids and <a name>s of their targets")
	all := fs.Bool("all", false, "with --to, also list the links broken before the move")
	unique := fs.Bool("unique", false, "list each broken target once, with its number of referrers")
	baselineFile := fs.String("baseline", "", "a SARIF log of an earlier run: report only the findings not in it")
	jobs := fs.Int("j", defaultJobs(), "files checked in parallel")
	maxSize := fs.Int64("max-size", defaultMaxSize, "largest input file, in bytes")
	var contentType string
	contentTypeFlag(fs, &contentType)
	var scripting bool
	scriptingFlag(fs, &scripting)
	orphans := fs.Bool("orphans", false, "also report the pages no chain of links leads to from the tree's index page (or the --entry pages)")
	var entries entryList
	fs.Var(&entries, "entry", "with --orphans, a page readers start from, relative to DIR (repeat or separate with commas; default: the index page)")
	savedFrom := fs.Bool("saved-from", false, `check a page saved by a browser at the URL of its "<!-- saved from url=(NNNN)URL -->" comment: its links to the files saved beside it are checked in the tree, its other links lead to the live site`)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	usageErr := func(format string, a ...any) int {
		s.errorf("check: "+format, a...)
		return exitUsage
	}
	if fs.NArg() != 1 {
		return wrongArgs(fs, s, "check", fs.NArg(), "one directory: the tree DIR to check")
	}
	dir := fs.Arg(0)
	if info, err := os.Stat(dir); err != nil {
		s.errorf("check: %v", err)
		return exitFailure
	} else if !info.IsDir() {
		return usageErr("%s is not a directory", dir)
	}
	if *jobs < 1 {
		return usageErr("-j must be at least 1")
	}
	if *maxSize < 1 {
		return usageErr("--max-size must be positive")
	}
	m, err := tree.NewMapper(root.value)
	if err != nil {
		return usageErr("--base: %v", err)
	}
	rootURL, err := m.Root(dir)
	if err != nil {
		return usageErr("--base: %v", err)
	}
	if to.set {
		if to.value == "" {
			return usageErr("--to: the URL of the new place is empty")
		}
		if _, err := tree.NewMapper(to.value); err != nil {
			return usageErr("--to: %v", err)
		}
	}
	if *format == "jsonl" {
		*format = "json" // JSON Lines, as links and fetch name them
	}
	if *asJSON {
		if explicit(fs, "format") && *format != "json" {
			return usageErr("--json is --format json; it contradicts --format %s", *format)
		}
		*format = "json"
	}
	if !slices.Contains(report.Formats(), *format) {
		return usageErr("--format: no such format %q (want one of %s)", *format, strings.Join(report.Formats(), ", "))
	}
	if *unique && *format != "text" && *format != "json" {
		return usageErr("--unique goes with --format text or json")
	}
	if *fixMissing && !*fix {
		return usageErr("--fix-missing goes with --fix")
	}
	if len(entries) > 0 && !*orphans {
		return usageErr("--entry goes with --orphans")
	}
	if *all && !to.set {
		return usageErr("--all goes with --to")
	}
	host, err := linkcheck.HostProfile(*hostName)
	if err != nil {
		return usageErr("--host: %v", err)
	}
	var baseline *report.Baseline
	if *baselineFile != "" {
		f, err := os.Open(*baselineFile)
		if err != nil {
			s.errorf("check: --baseline: %v", err)
			return exitFailure
		}
		baseline, err = report.ReadBaseline(f)
		f.Close()
		if err != nil {
			s.errorf("check: --baseline %s: %v", *baselineFile, err)
			return exitFailure
		}
	}
	c := &linkcheck.Checker{Spec: *spec, Options: *opts, Dir: dir, Root: rootURL, To: to.value,
		Host: host, NoAnchors: !*anchors, FixMissing: *fixMissing, MaxSize: *maxSize, ContentType: contentType, Scripting: scripting, SavedFrom: *savedFrom,
		Orphans: *orphans, Entries: entries}
	if *gram != "" {
		if c.Grammar, err = linkcheck.Grammar(*gram); err != nil {
			return usageErr("%v", err)
		}
	}
	if err := c.Prepare(); err != nil {
		return usageErr("%v", err)
	}
	// From here on, output lines go round the progress display.
	var bar *progress.Bar
	bar, s = startProgress(s, false, "check")
	defer bar.Finish()
	warned := 0
	warn := func() {
		ws := c.Warnings()
		for _, w := range ws[warned:] {
			s.errorf("check: warning: %s", w)
		}
		warned = len(ws)
	}
	warn()

	work := func(w inputs.Item) linkcheck.FileResult {
		switch {
		case w.Err != nil:
			return linkcheck.FileResult{Err: w.Err}
		case *fix:
			return c.FixFile(w.File, safewrite.Writer{})
		}
		return c.CheckFile(w.File)
	}
	out := bufio.NewWriter(s.out)
	ro := report.Options{Name: dir, Baseline: baseline}
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" && *format == "github" {
		// GitHub Actions shows ten annotations a step; the step summary
		// gets the whole table.
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			s.errorf("check: GITHUB_STEP_SUMMARY: %v", err)
			return exitFailure
		}
		defer f.Close()
		ro.StepSummary = f
	}
	w, err := report.New(*format, out, ro)
	if err != nil {
		return usageErr("%v", err)
	}
	// Each finding is listed, or counted as not listed: links broken
	// before the move (with --to, unless --all), findings in the baseline.
	list := &summary.Listing{Report: w, All: *all, Baseline: baseline, ListKnown: *format == "sarif", Unique: *unique}
	failed, fixed, files := 0, 0, 0
	emit := func(wk inputs.Item, r linkcheck.FileResult) error {
		bar.Add(1)
		if r.Err != nil {
			failed++
			list.Sum.Fail(r.Err)
			out.Flush()
			s.errorf("check: %s", fileError(wk.File.Path, r.Err, *maxSize))
			return nil
		}
		if r.Read {
			w.File(wk.File.Path)
			list.Sum.Files++
		}
		if r.Fixed > 0 {
			fixed += r.Fixed
			files++
		}
		for _, f := range r.Findings {
			if err := list.Show(f); err != nil {
				return err
			}
		}
		return nil
	}
	refer := c.Referrals()
	if refer != nil {
		refer.Gather = true // CheckFile and FixFile tell it from each page's pass
	}
	items, stopCount := inputs.Counted(bar, inputs.Seq(tree.Walker{RemoveStale: *fix, Removed: staleReporter(s, "check"), Refer: refer}.Walk([]string{dir})), []string{dir}, false)
	defer stopCount()
	err = ordered.Results(*jobs, items, work, emit)
	bar.Finish()
	if err == nil {
		// Fragments into other files, once every file has been read.
		for _, f := range c.Finish() {
			if err = list.Show(f); err != nil {
				break
			}
		}
	}
	warn()
	if err == nil && *unique {
		err = list.Targets.Write(out, *format)
	}
	if err == nil {
		err = w.Close()
	}
	if ferr := out.Flush(); err == nil {
		err = ferr
	}
	if err != nil {
		s.errorf("check: %v", err)
		return exitFailure
	}
	if *fix {
		s.errorf("check: fixed %s in %s", summary.Plural(fixed, "link"), summary.Plural(files, "file"))
	}
	for _, line := range list.Sum.Lines(baseline) {
		s.errorf("%s", line)
	}
	if list.Sum.Total > 0 || failed > 0 {
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
