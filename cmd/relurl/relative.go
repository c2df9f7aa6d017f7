package main

import (
	"flag"
	"os"

	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/cmd/relurl/internal/summary"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/treerewrite"
)

// relativeFlags are rewrite's flags that rewrite --relative reads.
type relativeFlags struct {
	outDir          string
	inPlace, dryRun bool
	missing         bool
	host            string
	quiet, asJSON   bool
}

// runRewriteRelative is rewrite --relative: the links of the tree DIR into
// the tree made relative by the library's checker (linkcheck.Checker's fix, the
// one check --fix runs), written in place, into a mirror or nowhere.
func runRewriteRelative(fs *flag.FlagSet, t *treeFlags, s stdio, rf relativeFlags) int {
	usageErr := func(format string, a ...any) int {
		s.errorf("rewrite: "+format, a...)
		return exitUsage
	}
	modes := 0
	for _, on := range []bool{rf.outDir != "", rf.inPlace, rf.dryRun} {
		if on {
			modes++
		}
	}
	if modes != 1 {
		return usageErr("--relative needs one of -o DIR, -i or --dry-run")
	}
	if fs.NArg() != 1 || t.fromList != "" {
		return usageErr("--relative rewrites one tree: one DIR, no --from-list")
	}
	dir := fs.Arg(0)
	if info, err := os.Stat(dir); err != nil {
		s.errorf("rewrite: %v", err)
		return exitFailure
	} else if !info.IsDir() {
		return usageErr("--relative: %s is not a directory (relative links are between the files of a tree)", dir)
	}
	if rf.outDir != "" {
		if err := treerewrite.CheckMirror(rf.outDir, dir); err != nil {
			return usageErr("%v", err)
		}
	}
	if err := t.check(); err != nil {
		return usageErr("%v", err)
	}
	rootURL, err := t.mapper.Root(dir)
	if err != nil {
		return usageErr("--base: %v", err)
	}
	host, err := linkcheck.HostProfile(rf.host)
	if err != nil {
		return usageErr("--host: %v", err)
	}
	c := &linkcheck.Checker{Spec: *t.spec, Options: *t.opts, Dir: dir, Root: rootURL, Host: host, NoAnchors: true,
		FixMissing: rf.missing, AbsoluteMissing: rf.missing, MissingToSite: !rf.missing, ToServed: true, MaxSize: t.maxSize, ContentType: t.html.ContentType, Scripting: t.html.Scripting, SavedFrom: t.savedFrom}
	if err := c.Prepare(); err != nil {
		return usageErr("%v", err)
	}
	warned := len(c.Warnings())
	for _, w := range c.Warnings() {
		s.errorf("rewrite: warning: %s", w)
	}
	to := linkcheck.RelativeTarget{Mirror: rf.outDir, DryRun: rf.dryRun}
	if rf.outDir != "" {
		to.Writer = safewrite.Writer{NoSync: true, KeepSame: true}
		if err := os.MkdirAll(rf.outDir, 0o777); err != nil {
			s.errorf("rewrite: %v", err)
			return exitFailure
		}
	}
	refer := c.Referrals()
	if refer != nil {
		refer.Gather = true
	}
	walker := tree.Walker{RemoveStale: rf.inPlace, Removed: staleReporter(s, "rewrite"), Refer: refer}
	items := inputs.Seq(walker.Walk([]string{dir}))
	work := func(w inputs.Item) linkcheck.FileResult {
		if w.Err != nil {
			return linkcheck.FileResult{Err: w.Err}
		}
		return c.RelativeFile(w.File, to)
	}
	var total summary.Rewrite
	emit := func(w inputs.Item, r linkcheck.FileResult) error {
		var c summary.Rewrite
		switch {
		case r.Err != nil:
			s.errorf("%s", fileError(w.File.Path, r.Err, t.maxSize))
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
			if rf.dryRun {
				if _, err := s.out.Write([]byte(tree.DisplayName(w.File.Path) + ": would rewrite " + summary.Plural(r.Fixed, "link") + "\n")); err != nil {
					return err
				}
			}
		default:
			c.Files, c.Unchanged = 1, 1
		}
		total.Add(c)
		return nil
	}
	if err := ordered.Results(t.jobs, items, work, emit); err != nil {
		s.errorf("rewrite: %v", err)
		return exitFailure
	}
	for _, w := range c.Warnings()[warned:] {
		s.errorf("rewrite: warning: %s", w)
	}
	if err := printSummary(s, total, s.out, rf.quiet, rf.asJSON); err != nil {
		return s.writeFailed("rewrite", err)
	}
	if total.Failed > 0 {
		return exitFailure
	}
	return exitOK
}
