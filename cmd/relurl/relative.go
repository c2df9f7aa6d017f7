package main

import (
	"os"

	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/cmd/relurl/internal/summary"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/treerewrite"
)

// runRewriteRelative is rewrite --relative: the links of the tree DIR into
// the tree made relative by the library's checker (linkcheck.Checker's fix, the
// one check --fix runs), written in place, into a mirror or nowhere.
func runRewriteRelative(f *rewriteFlags, s stdio) int {
	c, err := f.relativeChecker()
	if err != nil {
		return s.exit("rewrite", err)
	}
	d := &relativeDriver{f: f, s: s, c: c}
	d.warn()
	if err := d.run(); err != nil {
		return s.exit("rewrite", err)
	}
	d.warn()
	if err := printSummary(s, d.total, s.out, f.quiet, f.asJSON); err != nil {
		return s.writeFailed("rewrite", err)
	}
	if d.total.Failed > 0 {
		return exitFailure
	}
	return exitOK
}

// relativeChecker returns the library's checker that makes the tree's
// links relative, as rewrite's flags say; its errors are *exitError.
func (f *rewriteFlags) relativeChecker() (*linkcheck.Checker, error) {
	if f.modes != 1 {
		return nil, usagef("--relative needs one of -o DIR, -i or --dry-run")
	}
	t := f.t
	if f.fs.NArg() != 1 || t.fromList != "" {
		return nil, usagef("--relative rewrites one tree: one DIR, no --from-list")
	}
	dir := f.fs.Arg(0)
	if info, err := os.Stat(dir); err != nil {
		return nil, failf("%v", err)
	} else if !info.IsDir() {
		return nil, usagef("--relative: %s is not a directory (relative links are between the files of a tree)", dir)
	}
	if f.outDir != "" {
		if err := treerewrite.CheckMirror(f.outDir, dir); err != nil {
			return nil, usagef("%v", err)
		}
	}
	if err := t.check(); err != nil {
		return nil, usagef("%v", err)
	}
	rootURL, err := t.mapper.Root(dir)
	if err != nil {
		return nil, usagef("--base: %v", err)
	}
	host, err := linkcheck.HostProfile(f.host)
	if err != nil {
		return nil, usagef("--host: %v", err)
	}
	c := &linkcheck.Checker{Spec: *t.spec, Options: *t.opts, Dir: dir, Root: rootURL, Host: host, NoAnchors: true,
		FixMissing: f.relativeMissing, AbsoluteMissing: f.relativeMissing, MissingToSite: !f.relativeMissing, ToServed: true, MaxSize: t.maxSize, ContentType: t.html.ContentType, Scripting: t.html.Scripting, SavedFrom: t.savedFrom}
	if err := c.Prepare(); err != nil {
		return nil, usagef("%v", err)
	}
	return c, nil
}

// relativeDriver makes the links of every file of the tree relative, in
// parallel, and counts the files in the tree's order.
type relativeDriver struct {
	f      *rewriteFlags
	s      stdio
	c      *linkcheck.Checker
	total  summary.Rewrite
	warned int // the checker's warnings said so far
}

// warn says the checker's warnings not said yet.
func (d *relativeDriver) warn() {
	ws := d.c.Warnings()
	for _, w := range ws[d.warned:] {
		d.s.errorf("rewrite: warning: %s", w)
	}
	d.warned = len(ws)
}

// run rewrites the tree; its error ends the run.
func (d *relativeDriver) run() error {
	f := d.f
	to := linkcheck.RelativeTarget{Mirror: f.outDir, DryRun: f.dryRun}
	if f.outDir != "" {
		to.Writer = safewrite.Writer{NoSync: true, KeepSame: true}
		if err := os.MkdirAll(f.outDir, 0o777); err != nil {
			return err
		}
	}
	refer := d.c.Referrals()
	if refer != nil {
		refer.Gather = true
	}
	dir := f.fs.Arg(0)
	walker := tree.Walker{RemoveStale: f.inPlace, Removed: staleReporter(d.s, "rewrite"), Refer: refer}
	items := inputs.Seq(walker.Walk([]string{dir}))
	work := func(w inputs.Item) linkcheck.FileResult {
		if w.Err != nil {
			return linkcheck.FileResult{Err: w.Err}
		}
		return d.c.RelativeFile(w.File, to)
	}
	return ordered.Results(f.t.jobs, items, work, d.emit)
}

// emit counts one file, and names it for --dry-run when it would change.
func (d *relativeDriver) emit(w inputs.Item, r linkcheck.FileResult) error {
	var c summary.Rewrite
	switch {
	case r.Err != nil:
		d.s.errorf("%s", fileError(w.File.Path, r.Err, d.f.t.maxSize))
		c.Failed = 1
		if r.Read {
			c.Files = 1
		}
	case r.Copied:
		c.Copied = 1
	case !r.Read:
	case r.UpToDate:
		c.Files, c.UpToDate = 1, 1
	case r.Changed:
		c.Files, c.Changed, c.Rewritten = 1, 1, r.Fixed
		if d.f.dryRun {
			if _, err := d.s.out.Write([]byte(tree.DisplayName(w.File.Path) + ": would rewrite " + summary.Plural(r.Fixed, "link") + "\n")); err != nil {
				return err
			}
		}
	default:
		c.Files, c.Unchanged = 1, 1
	}
	d.total.Add(c)
	return nil
}
