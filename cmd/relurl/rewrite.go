package main

import (
	"bufio"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"

	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/cmd/relurl/internal/progress"
	"github.com/relurl/relurl/cmd/relurl/internal/summary"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/treerewrite"
)

const rewriteSynopsis = `[--base URL] [--spec S] [-o DIR | -i | --dry-run] [flags] PATH... | -

Rewrites every link of HTML and MHTML files to absolute form. A FILE or
"-" (standard input) alone is written to standard output. A tree needs
-o DIR (a mirror of the inputs: each directory's files at their paths in
DIR, a file at its name), -i (in place, atomically) or --dry-run.
--base is the URL of a directory given alone (a file's URL is that plus
its path in the directory), or of a FILE given alone; of several inputs,
the URL of the current directory (or --list-root), each file's URL that
plus its path from there. Without it each file's URL is its file: URL.
--relative goes the other way (wget -k's): links into the tree DIR become
relative, as check --fix does in place. Exit status: 0 done, 1 some file failed, 2 usage.`

func runRewrite(args []string, s stdio) int {
	fs := newFlagSet("rewrite", rewriteSynopsis, s)
	t := addTreeFlags(fs, "the URL of the tree's root (of a FILE given alone: its URL; of several inputs: of the current directory or --list-root)")
	outDir := fs.String("o", "", "write the rewritten tree to this directory, mirroring the inputs (documents already up to date there are left alone)")
	inPlace := fs.Bool("i", false, "rewrite files in place, atomically; a file with nothing to change is not written")
	dryRun := fs.Bool("dry-run", false, "report which files would change, write nothing")
	others := fs.String("others", "copy", `with -o, files that are not HTML, MHTML, CSS, SVG or feeds: "copy" or "skip"`)
	sync := fs.Bool("sync", false, "with -o, fsync each file written (-i always does: the originals are at stake)")
	hardLinks := fs.String("hardlinks", "skip", `with -i, a file with several names (hard links): "skip" it with a warning, "keep" the names together (written through the same inode, not atomically), or "split" it (this name gets the new content)`)
	allowOwner := fs.Bool("allow-owner-change", false, "with -i, replace a file whose owner or group this user cannot keep (only root may give a file away): it becomes this user's (default: such a file is refused)")
	quiet := fs.Bool("quiet", false, "no summary line and no progress bar (a document written to standard output has neither)")
	jsonSummary := fs.Bool("json", false, "print the summary as JSON on standard output (standard error when the document goes there)")
	fs.StringVar(&t.input, "input-format", "auto", `the kind of standard input: "auto" (by its first bytes), "html", "mhtml", "css" or "xml" (SVG, Atom, RSS)`)
	addRewriteFlags(fs, t)
	relative := fs.Bool("relative", false, "the other direction, wget -k's: make links into the tree DIR relative (the file that serves them, by --host); links outside stay absolute (check --fix does the same in place)")
	relativeMissing := fs.Bool("relative-missing", false, "with --relative, also make links to files missing from the tree relative (by default they are written absolute, to the site the tree came from, as wget -k does)")
	hostName := fs.String("host", "nginx", "with --relative, how the server the tree was mirrored from mapped URL paths to files (the default: a directory is served by its index.html, as wget -k assumes): "+strings.Join(linkcheck.HostNames(), ", "))
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if *relative {
		return runRewriteRelative(fs, t, s, relativeFlags{outDir: *outDir, inPlace: *inPlace, dryRun: *dryRun,
			missing: *relativeMissing, host: *hostName, quiet: *quiet, asJSON: *jsonSummary})
	}
	if *relativeMissing || explicit(fs, "host") {
		s.errorf("rewrite: --relative-missing and --host go with --relative")
		return exitUsage
	}
	usageErr := func(format string, a ...any) int {
		s.errorf("rewrite: "+format, a...)
		return exitUsage
	}
	if err := t.check(); err != nil {
		return usageErr("%v", err)
	}
	if err := t.place(fs.Args()); err != nil {
		return usageErr("%v", err)
	}
	modes := 0
	for _, on := range []bool{*outDir != "", *inPlace, *dryRun} {
		if on {
			modes++
		}
	}
	if modes > 1 {
		return usageErr("-o, -i and --dry-run exclude each other")
	}
	if *others != "copy" && *others != "skip" {
		return usageErr(`--others is "copy" or "skip", not %q`, *others)
	}
	links, err := safewrite.ParseHardLinks(*hardLinks)
	if err != nil {
		return usageErr("--hardlinks: %v", err)
	}
	if fs.NArg() == 0 && t.fromList == "" {
		return wrongArgs(fs, s, "rewrite", 0, "files, directories or - (standard input), or --from-list")
	}
	if fs.NArg() == 1 && fs.Arg(0) == "-" {
		if modes > 0 || t.fromList != "" {
			return usageErr("standard input is rewritten to standard output: no -o, -i, --dry-run or --from-list")
		}
		return rewriteStdin(t, s, *jsonSummary)
	}
	for _, a := range fs.Args() {
		if a == "-" {
			return usageErr(`"-" (standard input) goes alone`)
		}
		if *outDir != "" {
			if err := treerewrite.CheckMirror(*outDir, a); err != nil {
				return usageErr("%v", err)
			}
		}
	}
	if info, err := os.Stat(*outDir); *outDir != "" && err == nil && !info.IsDir() {
		return usageErr("-o %s is a file: -o names the directory the mirror is written to", *outDir)
	}
	if *outDir != "" && t.fromList != "" {
		if err := tree.Disjoint(*outDir, cmp.Or(t.listRoot, ".")); err != nil {
			return usageErr("-o and --list-root: %v", err)
		}
	}
	toStdout := modes == 0
	if toStdout {
		if fs.NArg() != 1 || t.fromList != "" {
			return usageErr("rewriting several files or a tree needs -o DIR, -i or --dry-run")
		}
		if info, err := os.Stat(fs.Arg(0)); err == nil && info.IsDir() {
			return usageErr("rewriting a directory needs -o DIR, -i or --dry-run")
		}
	}
	// From here on, output lines go round the progress display.
	var bar *progress.Bar
	bar, s = startProgress(s, *quiet || toStdout, "rewrite")
	defer bar.Finish()
	if *inPlace {
		// A killed run's temporary files go once proven stale.
		t.walker = tree.Walker{RemoveStale: true, Removed: staleReporter(s, "rewrite"), Refer: t.walker.Refer}
	}
	if *outDir != "" {
		(tree.Walker{RemoveStale: true, Removed: staleReporter(s, "rewrite")}).Clean(*outDir)
	}
	items, done, err := inputs.Open(t.walker, fs.Args(), t.list(s))
	if err != nil {
		s.errorf("rewrite: %v", err)
		return exitFailure
	}
	items, stopCount := inputs.Counted(bar, items, fs.Args(), t.fromList != "")
	defer stopCount()

	rw := t.rewriter()
	rw.InPlace, rw.Mirror, rw.CopyOthers = *inPlace, *outDir, *others == "copy"
	if *inPlace {
		rw.Writer = safewrite.Writer{HardLinks: links, AllowOwnerChange: *allowOwner}
	} else {
		// A mirror is replaced atomically too, so a killed run leaves
		// whole files, but durably only on request: its source stays.
		// Made again, its unchanged documents are left alone.
		rw.Writer = safewrite.Writer{NoSync: !*sync, KeepSame: true}
	}
	// With a core to spare (-j 1 on two), each file is written a buffer
	// behind its rewriting, on a goroutine of its own.
	rw.Writer.Behind = t.jobs < runtime.GOMAXPROCS(0)
	if *outDir != "" && fs.NArg() > 1 {
		items = inputs.Claimed(items, rw.Claim)
	}
	// One walk, or several claimed: each mirror place has one input. A
	// list may name a file twice; its places are not claimed (that would
	// hold every line's place), so its mirror looks for files to keep.
	rw.OnePerPlace = t.fromList == ""
	work := func(w inputs.Item, sink *ordered.Sink) treerewrite.Result {
		if w.Err != nil {
			return treerewrite.Result{File: w.File, Err: w.Err}
		}
		var dst io.Writer
		if toStdout {
			dst = sink
		}
		return rw.Rewrite(dst, w.File)
	}
	var total summary.Rewrite
	emit := func(w inputs.Item, r treerewrite.Result) error {
		bar.Add(1)
		c := summary.Of(r)
		total.Add(c)
		for _, warn := range r.Warnings {
			s.errorf("rewrite: %s: warning: %s", tree.DisplayName(w.File.Path), warn)
		}
		switch {
		case r.Err != nil && r.CopiedUnchanged:
			s.errorf("rewrite: %s (copied unchanged into the mirror)", fileError(w.File.Path, r.Err, t.maxSize))
		case r.Err != nil:
			s.errorf("rewrite: %s", fileError(w.File.Path, r.Err, t.maxSize))
		case *dryRun && r.Changed:
			// A failed write ends the run (ordered.Run returns it).
			_, err := fmt.Fprintf(s.out, "%s: would rewrite %d of %d links\n", tree.DisplayName(w.File.Path), r.Rewritten, r.Links)
			return err
		case toStdout:
			// No summary follows a document written to standard
			// output: what failed in it is said here.
			failedLinks(s, "rewrite: "+tree.DisplayName(w.File.Path), r.Links, r.Failed, "relurl links")
		}
		return nil
	}
	err = ordered.Run(t.jobs, 0, items, write(s.out), work, emit)
	bar.Finish()
	if lerr := done(); lerr != nil {
		s.errorf("rewrite: %v", lerr)
		total.Failed++
	}
	if err != nil {
		s.errorf("rewrite: %v", err)
		return exitFailure
	}
	summaryTo := s.out
	if toStdout {
		summaryTo = s.err
	}
	if err := printSummary(s, total, summaryTo, *quiet || toStdout, *jsonSummary); err != nil {
		return s.writeFailed("rewrite", err)
	}
	if total.Failed > 0 {
		return exitFailure
	}
	return exitOK
}

// printSummary writes the summary c: JSON to jsonTo, or a line on stderr.
// It returns the JSON's write error: the summary is then the output lost.
func printSummary(s stdio, c summary.Rewrite, jsonTo io.Writer, quiet, asJSON bool) error {
	switch {
	case asJSON:
		return c.WriteJSON(jsonTo)
	case !quiet:
		c.WriteLine(s.err)
	}
	return nil
}

// failedLinks says on stderr how many of a document's links could not be
// resolved, when some could not: they are left as written, which is not a
// failure of the document (the exit status stays 0), but a document
// written to standard output has no summary to count them in.
func failedLinks(s stdio, name string, links, failed int, lister string) {
	if failed == 0 {
		return
	}
	link := "links"
	if links == 1 {
		link = "link"
	}
	s.errorf("%s: %d of %d %s could not be resolved, left as written (%s lists them with the reason)", name, failed, links, link, lister)
}

// staleReporter reports each stale temporary file a walk removes.
func staleReporter(s stdio, cmd string) func(string, error) {
	return func(path string, err error) {
		if err != nil {
			s.errorf("%s: removing a stale temporary file: %v", cmd, err)
			return
		}
		s.errorf("%s: removed %s, a temporary file its dead writer left", cmd, tree.DisplayName(path))
	}
}

// write returns the output that writes records to w as they come.
func write(w io.Writer) ordered.Out {
	return func(_ string, rec []byte) error {
		_, err := w.Write(rec)
		return err
	}
}

// rewriteStdin rewrites standard input to standard output as it is read:
// what is written is flushed whenever the command waits for input.
func rewriteStdin(t *treeFlags, s stdio, asJSON bool) int {
	out := &countingWriter{w: s.out}
	w := bufio.NewWriterSize(out, 64<<10)
	in := bufio.NewReaderSize(inputs.FlushBeforeRead(s.in, w), 64<<10)
	kind, _ := t.inputKind() // Other: by its first bytes
	r := t.rewriter().Stream(w, in, kind, t.base.value)
	err := r.Err
	if ferr := w.Flush(); err == nil && ferr != nil {
		s.errorf("rewrite: %v", ferr)
		return exitFailure
	}
	for _, warn := range r.Warnings {
		s.errorf("rewrite: standard input: warning: %s", warn)
	}
	if err != nil {
		// Standard input cannot be read again: when the reader refused
		// it before writing, say that nothing was written.
		nothing := ""
		if out.n == 0 {
			nothing = "; nothing written to standard output"
		}
		if errors.Is(err, tree.ErrTooLarge) {
			s.errorf("rewrite: standard input: larger than --max-size %d (raise it to read it): left as written", t.maxSize)
		} else {
			s.errorf("rewrite: standard input: %v%s", err, nothing)
		}
		if !tree.Incomplete(err) {
			return exitFailure
		}
	} else {
		failedLinks(s, "rewrite: standard input", r.Links, r.Failed, "relurl links")
	}
	c := summary.Of(r)
	if err := printSummary(s, c, s.err, true, asJSON); err != nil {
		return s.writeFailed("rewrite", err)
	}
	if c.Failed > 0 {
		return exitFailure
	}
	return exitOK
}

// countingWriter counts what is written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
