package main

import (
	"bufio"
	"errors"
	"io"

	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/cmd/relurl/internal/progress"
	"github.com/relurl/relurl/cmd/relurl/internal/summary"
	"github.com/relurl/relurl/internal/countio"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/tree"
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
	f := newRewriteFlags(s)
	if code := f.parse(args); code >= 0 {
		return code
	}
	switch {
	case f.relative:
		return runRewriteRelative(f, s)
	case f.stdin:
		return rewriteStdin(f.t, s, f.asJSON)
	}
	// From here on, output lines go round the progress display.
	var bar *progress.Bar
	bar, s = startProgress(s, f.quiet || f.toStdout, "rewrite")
	defer bar.Finish()
	d := &rewriteDriver{f: f, s: s, bar: bar}
	if err := d.run(); err != nil {
		s.errorf("rewrite: %v", err)
		return exitFailure
	}
	summaryTo := s.out
	if f.toStdout {
		summaryTo = s.err
	}
	if err := printSummary(s, d.total, summaryTo, f.quiet || f.toStdout, f.asJSON); err != nil {
		return s.writeFailed("rewrite", err)
	}
	if d.total.Failed > 0 {
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
	out := &countio.Writer{W: s.out}
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
		if out.N == 0 {
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
