package main

import (
	"bufio"
	"errors"
	"flag"
	"os"
	"slices"
	"strings"

	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/cmd/relurl/internal/progress"
	"github.com/relurl/relurl/cmd/relurl/internal/summary"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/linkcheck/report"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/resolve/grammar"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
)

// checkFlags are the flags of relurl check.
type checkFlags struct {
	fs                        *flag.FlagSet
	s                         stdio
	spec                      *resolve.Spec
	opts                      *resolve.Options
	root, to                  optionalString
	grammar, format, host     string
	baseline, contentType     string
	asJSON, fix, fixMissing   bool
	anchors, all, unique      bool
	scripting, orphans, saved bool
	jobs                      int
	maxSize                   int64
	entries                   entryList
	dir                       string // the tree, once parsed
}

// newCheckFlags binds check's flags to a new flag set.
func newCheckFlags(s stdio) *checkFlags {
	fs := newFlagSet("check", checkSynopsis, s)
	f := &checkFlags{fs: fs, s: s}
	f.spec, f.opts = specFlag(fs, defaultHTMLSpec)
	fs.Var(&f.root, "base", "the URL the tree is served from now, its root's URL (default: its file: URL)")
	alias(fs, "url", "base") // its old name, kept for one release (docs/output.md)
	fs.Var(&f.to, "to", "the URL the tree will move to: report only what breaks in that move")
	fs.StringVar(&f.grammar, "grammar", "", "also report URLs this grammar rejects: "+strings.Join(grammar.Names(), ", "))
	fs.BoolVar(&f.asJSON, "json", false, "the same as --format json")
	fs.StringVar(&f.format, "format", "text", "output format: "+strings.Join(report.Formats(), ", ")+` ("json" is JSON Lines, also named "jsonl" as in relurl links)`)
	fs.StringVar(&f.host, "host", "file", "how the server maps URL paths to files: "+strings.Join(linkcheck.HostNames(), ", "))
	fs.BoolVar(&f.fix, "fix", false, "rewrite absolute and root-relative links into the tree to their relative form, and wrong letter case, in place")
	fs.BoolVar(&f.fixMissing, "fix-missing", false, "with --fix, also rewrite links whose target is missing from the tree")
	fs.BoolVar(&f.anchors, "anchors", true, "check fragments against the ids and <a name>s of their targets")
	fs.BoolVar(&f.all, "all", false, "with --to, also list the links broken before the move")
	fs.BoolVar(&f.unique, "unique", false, "list each broken target once, with its number of referrers")
	fs.StringVar(&f.baseline, "baseline", "", "a SARIF log of an earlier run: report only the findings not in it")
	fs.IntVar(&f.jobs, "j", defaultJobs(), "files checked in parallel")
	fs.Int64Var(&f.maxSize, "max-size", defaultMaxSize, "largest input file, in bytes")
	contentTypeFlag(fs, &f.contentType)
	scriptingFlag(fs, &f.scripting)
	fs.BoolVar(&f.orphans, "orphans", false, "also report the pages no chain of links leads to from the tree's index page (or the --entry pages)")
	fs.Var(&f.entries, "entry", "with --orphans, a page readers start from, relative to DIR (repeat or separate with commas; default: the index page)")
	fs.BoolVar(&f.saved, "saved-from", false, `check a page saved by a browser at the URL of its "<!-- saved from url=(NNNN)URL -->" comment: its links to the files saved beside it are checked in the tree, its other links lead to the live site`)
	return f
}

// parse parses args and returns -1 to go on, or the exit status to return
// (its error said).
func (f *checkFlags) parse(args []string) int {
	if code := parseFlags(f.fs, args); code >= 0 {
		return code
	}
	if f.fs.NArg() != 1 {
		return wrongArgs(f.fs, f.s, "check", f.fs.NArg(), "one directory: the tree DIR to check")
	}
	f.dir = f.fs.Arg(0)
	return -1
}

// checker returns the library's checker of the tree as the flags say, and
// the --baseline log (nil: none); its errors are *exitError.
func (f *checkFlags) checker() (*linkcheck.Checker, *report.Baseline, error) {
	if info, err := os.Stat(f.dir); err != nil {
		return nil, nil, failf("%v", err)
	} else if !info.IsDir() {
		return nil, nil, usagef("%s is not a directory", f.dir)
	}
	if f.jobs < 1 {
		return nil, nil, usagef("-j must be at least 1")
	}
	if f.maxSize < 1 {
		return nil, nil, usagef("--max-size must be positive")
	}
	m, err := tree.NewMapper(f.root.value)
	if err != nil {
		return nil, nil, usagef("--base: %v", err)
	}
	rootURL, err := m.Root(f.dir)
	if err != nil {
		return nil, nil, usagef("--base: %v", err)
	}
	if err := f.checkCombinations(); err != nil {
		return nil, nil, err
	}
	host, err := linkcheck.HostProfile(f.host)
	if err != nil {
		return nil, nil, usagef("--host: %v", err)
	}
	baseline, err := f.readBaseline()
	if err != nil {
		return nil, nil, err
	}
	c := &linkcheck.Checker{Spec: *f.spec, Options: *f.opts, Dir: f.dir, Root: rootURL, To: f.to.value,
		Host: host, NoAnchors: !f.anchors, FixMissing: f.fixMissing, MaxSize: f.maxSize, ContentType: f.contentType, Scripting: f.scripting, SavedFrom: f.saved,
		Orphans: f.orphans, Entries: f.entries}
	if f.grammar != "" {
		if c.Grammar, err = linkcheck.Grammar(f.grammar); errors.Is(err, grammar.ErrUnknownGrammar) {
			return nil, nil, usagef("%s", unknownGrammar(f.grammar))
		} else if err != nil {
			return nil, nil, usagef("%v", err)
		}
	}
	if err := c.Prepare(); err != nil {
		return nil, nil, usagef("%v", err)
	}
	return c, baseline, nil
}

// checkCombinations checks --to, --format and the flags that go with
// others; --json and "jsonl" become --format json.
func (f *checkFlags) checkCombinations() error {
	if f.to.set {
		if f.to.value == "" {
			return usagef("--to: the URL of the new place is empty")
		}
		if _, err := tree.NewMapper(f.to.value); err != nil {
			return usagef("--to: %v", err)
		}
	}
	if f.format == "jsonl" {
		f.format = "json" // JSON Lines, as links and fetch name them
	}
	if f.asJSON {
		if explicit(f.fs, "format") && f.format != "json" {
			return usagef("--json is --format json; it contradicts --format %s", f.format)
		}
		f.format = "json"
	}
	switch {
	case !slices.Contains(report.Formats(), f.format):
		return usagef("--format: no such format %q (want one of %s)", f.format, strings.Join(report.Formats(), ", "))
	case f.unique && f.format != "text" && f.format != "json":
		return usagef("--unique goes with --format text or json")
	case f.fixMissing && !f.fix:
		return usagef("--fix-missing goes with --fix")
	case len(f.entries) > 0 && !f.orphans:
		return usagef("--entry goes with --orphans")
	case f.all && !f.to.set:
		return usagef("--all goes with --to")
	}
	return nil
}

// readBaseline reads the --baseline log (nil: none).
func (f *checkFlags) readBaseline() (*report.Baseline, error) {
	if f.baseline == "" {
		return nil, nil
	}
	r, err := os.Open(f.baseline)
	if err != nil {
		return nil, failf("--baseline: %v", err)
	}
	defer r.Close()
	baseline, err := report.ReadBaseline(r)
	if err != nil {
		return nil, failf("--baseline %s: %v", f.baseline, err)
	}
	return baseline, nil
}

// report returns the writer of the findings in --format to out, and what
// closes the GitHub step summary it also writes (with --format github in
// GitHub Actions, which shows ten annotations a step; the step summary
// gets the whole table).
func (f *checkFlags) report(out *bufio.Writer, baseline *report.Baseline) (report.Writer, func(), error) {
	ro := report.Options{Name: f.dir, Baseline: baseline}
	closeSummary := func() {}
	if path := os.Getenv("GITHUB_STEP_SUMMARY"); path != "" && f.format == "github" {
		sf, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return nil, nil, failf("GITHUB_STEP_SUMMARY: %v", err)
		}
		ro.StepSummary, closeSummary = sf, func() { sf.Close() }
	}
	w, err := report.New(f.format, out, ro)
	if err != nil {
		closeSummary()
		return nil, nil, usagef("%v", err)
	}
	return w, closeSummary, nil
}

// checkDriver checks (or fixes) every file of the tree in parallel and
// lists the findings in the tree's order.
type checkDriver struct {
	c    *linkcheck.Checker
	f    *checkFlags
	s    stdio
	bar  *progress.Bar
	out  *bufio.Writer
	list *summary.Listing

	warned               int // the checker's warnings said so far
	failed, fixed, files int // files failed; links fixed, in files
}

// warn says the checker's warnings not said yet.
func (d *checkDriver) warn() {
	ws := d.c.Warnings()
	for _, w := range ws[d.warned:] {
		d.s.errorf("check: warning: %s", w)
	}
	d.warned = len(ws)
}

// run checks the tree and writes the report whole; its error is the
// output's (or the walk's) that ended the run.
func (d *checkDriver) run() error {
	refer := d.c.Referrals()
	if refer != nil {
		refer.Gather = true // CheckFile and FixFile tell it from each page's pass
	}
	walk := tree.Walker{RemoveStale: d.f.fix, Removed: staleReporter(d.s, "check"), Refer: refer}
	dirs := []string{d.f.dir}
	items, stopCount := inputs.Counted(d.bar, inputs.Seq(walk.Walk(dirs)), dirs, false)
	defer stopCount()
	err := ordered.Results(d.f.jobs, items, d.work, d.emit)
	d.bar.Finish()
	if err == nil {
		// Fragments into other files, once every file has been read.
		for _, f := range d.c.Finish() {
			if err = d.list.Show(f); err != nil {
				break
			}
		}
	}
	d.warn()
	if err == nil && d.f.unique {
		err = d.list.Targets.Write(d.out, d.f.format)
	}
	if err == nil {
		err = d.list.Report.Close()
	}
	if ferr := d.out.Flush(); err == nil {
		err = ferr
	}
	return err
}

// work checks (or fixes) one file; it runs on the workers.
func (d *checkDriver) work(w inputs.Item) linkcheck.FileResult {
	switch {
	case w.Err != nil:
		return linkcheck.FileResult{Err: w.Err}
	case d.f.fix:
		return d.c.FixFile(w.File, safewrite.Writer{})
	}
	return d.c.CheckFile(w.File)
}

// emit lists one file's findings, in the tree's order.
func (d *checkDriver) emit(wk inputs.Item, r linkcheck.FileResult) error {
	d.bar.Add(1)
	if r.Err != nil {
		d.failed++
		d.list.Sum.Fail(r.Err)
		d.out.Flush()
		d.s.errorf("check: %s", fileError(wk.File.Path, r.Err, d.f.maxSize))
		return nil
	}
	if r.Read {
		d.list.Report.File(wk.File.Path)
		d.list.Sum.Files++
	}
	if r.Fixed > 0 {
		d.fixed += r.Fixed
		d.files++
	}
	for _, f := range r.Findings {
		if err := d.list.Show(f); err != nil {
			return err
		}
	}
	return nil
}
