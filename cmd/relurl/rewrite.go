package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"

	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/internal/progress"
	"github.com/relurl/relurl/tree"
)

const rewriteSynopsis = `[--base URL] [--spec S] [-o DIR | -i | --dry-run] [flags] PATH... | -

Rewrites every link of HTML and MHTML files to absolute form. A FILE or
"-" (standard input) alone is written to standard output. A tree needs
-o DIR (a mirror of the inputs: each directory's files at their paths in
DIR, a file at its name), -i (in place, atomically) or --dry-run.
--base is the URL of each directory given (a file's URL is that plus its
path in the directory), or of a FILE given alone; without it each file's
URL is its file: URL. Exit status: 0 done, 1 some file failed, 2 usage.`

// rewriteCounts is the summary of a rewrite run.
type rewriteCounts struct {
	Files    int `json:"files"`                // documents read
	Changed  int `json:"changed"`              // documents whose bytes changed (with -o: mirror files written)
	UpToDate int `json:"up_to_date,omitempty"` // with -o: documents the mirror already held as rewritten, left alone
	// Documents read whose rewrite changes no byte (-i: not written;
	// -o: written into the mirror as they were). Files = Changed +
	// UpToDate + Unchanged + the documents counted in Failed.
	Unchanged   int `json:"unchanged,omitempty"`
	Links       int `json:"links"`        // URL values seen
	Rewritten   int `json:"rewritten"`    // URL values changed
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
	// Documents not processed to their end (a tag longer than the
	// bound): written best effort, the rest as it was; counted in Failed.
	Incomplete int `json:"incomplete"`
	// Warnings the library gave (each also on stderr, after its file).
	Warnings int `json:"warnings"`

	warns []string // one document's warnings
}

// rewriteResult is what rewriting one file did.
type rewriteResult struct {
	counts   rewriteCounts
	err      error
	note     string // what was done about err: "copied unchanged"
	changed  bool
	upToDate bool // -o: the mirror already held the rewritten document
}

func runRewrite(args []string, s stdio) int {
	fs := newFlagSet("rewrite", rewriteSynopsis, s)
	t := addTreeFlags(fs, "the URL of the tree's root (of a FILE given alone: its URL)")
	outDir := fs.String("o", "", "write the rewritten tree to this directory, mirroring the inputs (documents already up to date there are left alone)")
	inPlace := fs.Bool("i", false, "rewrite files in place, atomically; a file with nothing to change is not written")
	dryRun := fs.Bool("dry-run", false, "report which files would change, write nothing")
	others := fs.String("others", "copy", `with -o, files that are not HTML, MHTML, CSS, SVG or feeds: "copy" or "skip"`)
	sync := fs.Bool("sync", false, "with -o, fsync each file written (-i always does: the originals are at stake)")
	hardLinks := fs.String("hardlinks", "skip", `with -i, a file with several names (hard links): "skip" it with a warning, "keep" the names together (written through the same inode, not atomically), or "split" it (this name gets the new content)`)
	quiet := fs.Bool("quiet", false, "no summary line and no progress bar (a document written to standard output has neither)")
	jsonSummary := fs.Bool("json", false, "print the summary as JSON on standard output (standard error when the document goes there)")
	fs.StringVar(&t.input, "input-format", "auto", `the kind of standard input: "auto" (by its first bytes), "html", "mhtml", "css" or "xml" (SVG, Atom, RSS)`)
	addRewriteFlags(fs, t)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	usageErr := func(format string, a ...any) int {
		s.errorf("rewrite: "+format, a...)
		return exitUsage
	}
	if err := t.check(); err != nil {
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
	links, err := tree.ParseHardLinks(*hardLinks)
	if err != nil {
		return usageErr("--hardlinks: %v", err)
	}
	if fs.NArg() == 0 && t.fromList == "" {
		fs.Usage()
		return exitUsage
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
			if err := checkOutput(*outDir, a); err != nil {
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
	items, done, err := t.inputs(fs.Args(), s)
	if err != nil {
		s.errorf("rewrite: %v", err)
		return exitFailure
	}
	if *outDir != "" && fs.NArg() > 1 {
		items = oneSourceEach(items, *outDir, *others == "copy")
	}
	items, stopCount := counted(bar, items, fs.Args(), t.fromList != "")
	defer stopCount()

	// A mirror is replaced atomically too, so a killed run leaves whole
	// files, but durably only on request: its source stays. Made again,
	// its unchanged documents are left alone.
	mirror := tree.Writer{NoSync: !*sync, KeepSame: true}
	inPlaceWriter := tree.Writer{HardLinks: links}
	work := func(w walked, sink *ordered.Sink) rewriteResult {
		if w.err != nil {
			return rewriteResult{err: w.err, counts: rewriteCounts{Failed: 1}}
		}
		f := w.f
		doc := isDoc(f)
		switch {
		case !doc && toStdout:
			return rewriteResult{err: fmt.Errorf("not an HTML or MHTML file (by name and content)"), counts: rewriteCounts{Failed: 1}}
		case !doc && *outDir != "" && *others == "copy":
			if err := mirrorCopy(mirror, *outDir, f); err != nil {
				return rewriteResult{err: err, counts: rewriteCounts{Failed: 1}}
			}
			return rewriteResult{counts: rewriteCounts{Copied: 1}}
		case !doc:
			return rewriteResult{counts: rewriteCounts{Skipped: 1}}
		}
		docURL, err := t.mapper.URL(f)
		if err != nil {
			return rewriteResult{err: err, counts: rewriteCounts{Failed: 1}}
		}
		var r rewriteResult
		switch {
		case *inPlace:
			// Streamed into a temporary file beside the original, which
			// is left alone when nothing changed.
			r.changed, r.err = inPlaceWriter.UpdateStream(f, func(dst io.Writer, src io.Reader) error {
				var err error
				r.counts, _, err = rewriteStream(dst, src, f.Kind, docURL, t)
				return err
			})
		case *outDir != "":
			var unread bool
			r.changed, r.upToDate, unread, r.err = mirrorRewrite(mirror, *outDir, f, func(dst io.Writer, src io.Reader) (bool, error) {
				var changed bool
				var err error
				r.counts, changed, err = rewriteStream(dst, src, f.Kind, docURL, t)
				return changed, err
			})
			if unread {
				// What cannot be rewritten is still part of the
				// site: the mirror gets it as it was.
				if cerr := mirrorCopy(mirror, *outDir, f); cerr != nil {
					r.err = fmt.Errorf("%v; copying it unchanged: %w", r.err, cerr)
				} else {
					r.note = "copied unchanged into the mirror"
				}
			}
		default:
			// To standard output or nowhere (--dry-run): streamed.
			var dst io.Writer = io.Discard
			if toStdout {
				dst = sink
			}
			r.counts, r.changed, r.err = rewriteFile(dst, f, docURL, t)
		}
		r.counts.Files = 1
		r.counts.Warnings = len(r.counts.warns)
		if r.err != nil {
			r.counts = rewriteCounts{Files: 1, Failed: 1, Refused: refused(r.err), Incomplete: incomplete(r.err),
				warns: r.counts.warns, Warnings: r.counts.Warnings}
			if r.note != "" {
				r.counts.Unrewritten = 1
			}
		} else if r.upToDate {
			r.counts.UpToDate = 1
		} else if r.changed {
			r.counts.Changed = 1
		} else {
			r.counts.Unchanged = 1
		}
		return r
	}

	var total rewriteCounts
	emit := func(w walked, r rewriteResult) error {
		bar.Add(1)
		total.add(r.counts)
		for _, warn := range r.counts.warns {
			s.errorf("%s: warning: %s", tree.DisplayName(w.f.Path), warn)
		}
		switch {
		case r.err != nil && r.note != "":
			s.errorf("%s (%s)", fileError(w.f.Path, r.err, t.maxSize), r.note)
		case r.err != nil:
			s.errorf("%s", fileError(w.f.Path, r.err, t.maxSize))
		case *dryRun && r.changed:
			fmt.Fprintf(s.out, "%s: would rewrite %d of %d links\n", tree.DisplayName(w.f.Path), r.counts.Rewritten, r.counts.Links)
		case toStdout:
			// No summary follows a document written to standard
			// output: what failed in it is said here.
			failedLinks(s, tree.DisplayName(w.f.Path), r.counts, "relurl links")
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
	total.print(s, summaryTo, *quiet || toStdout, *jsonSummary)
	if total.Failed > 0 {
		return exitFailure
	}
	return exitOK
}

func (c *rewriteCounts) add(d rewriteCounts) {
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

// print writes the summary: a line on stderr, or JSON to jsonTo.
func (c rewriteCounts) print(s stdio, jsonTo io.Writer, quiet, asJSON bool) {
	switch {
	case asJSON:
		json.NewEncoder(jsonTo).Encode(c)
	case !quiet:
		fmt.Fprintf(s.err, "relurl: rewrite: %d files read, %d changed, %d links rewritten, %d links failed",
			c.Files, c.Changed, c.Rewritten, c.FailedLinks)
		if c.UpToDate > 0 {
			fmt.Fprintf(s.err, ", %d up to date", c.UpToDate)
		}
		if c.Unchanged > 0 {
			fmt.Fprintf(s.err, ", %d unchanged", c.Unchanged)
		}
		if c.Copied > 0 {
			fmt.Fprintf(s.err, ", %d other files copied", c.Copied)
		}
		if c.Failed > 0 {
			fmt.Fprintf(s.err, ", %d files failed", c.Failed)
		}
		if c.Refused > 0 {
			fmt.Fprintf(s.err, " (%d not written for safety)", c.Refused)
		}
		if c.Unrewritten > 0 {
			fmt.Fprintf(s.err, " (%d copied unchanged)", c.Unrewritten)
		}
		if c.Incomplete > 0 {
			fmt.Fprintf(s.err, " (%d incomplete)", c.Incomplete)
		}
		if c.Warnings > 0 {
			fmt.Fprintf(s.err, ", %d warnings", c.Warnings)
		}
		fmt.Fprintln(s.err)
	}
}

// failedLinks says on stderr how many of a document's links could not be
// resolved, when some could not: they are left as written, which is not a
// failure of the document (the exit status stays 0), but a document
// written to standard output has no summary to count them in.
func failedLinks(s stdio, name string, c rewriteCounts, lister string) {
	if c.FailedLinks == 0 {
		return
	}
	link := "links"
	if c.Links == 1 {
		link = "link"
	}
	s.errorf("%s: %d of %d %s could not be resolved, left as written (%s lists them with the reason)", name, c.FailedLinks, c.Links, link, lister)
}

// oneSourceEach makes a file bound for a place in the mirror dir that an
// earlier input already takes (two trees with the same paths, two files
// with the same name) an error of that file, so that no output silently
// replaces another. Within one tree paths are distinct; only several
// inputs need the check. Other files take a place only when copied.
func oneSourceEach(items iter.Seq[walked], dir string, copyOthers bool) iter.Seq[walked] {
	return func(yield func(walked) bool) {
		from := map[string]string{}
		for w := range items {
			if w.err == nil && (copyOthers || isDoc(w.f)) {
				dst := mirrorPath(dir, w.f)
				if prev, ok := from[dst]; ok {
					w.err = fmt.Errorf("not mirrored: %s is already the mirror of %s", dst, prev)
				} else {
					from[dst] = w.f.Path
				}
			}
			if !yield(w) {
				return
			}
		}
	}
}

// isDoc reports whether rewrite rewrites f (rather than copy or skip it).
func isDoc(f tree.File) bool { return f.Kind != tree.Other && f.Kind != tree.WARC }

// mirrorPath is where f goes in the mirror dir: its path in its tree, or
// for a file given alone its name.
func mirrorPath(dir string, f tree.File) string {
	if f.Rel == "" {
		return filepath.Join(dir, filepath.Base(f.Path))
	}
	return filepath.Join(dir, filepath.FromSlash(f.Rel))
}

// mirrorRel is where f goes in the mirror, relative to it.
func mirrorRel(f tree.File) string {
	if f.Rel == "" {
		return filepath.Base(f.Path)
	}
	return f.Rel
}

// mirrorRewrite streams the document f, opened as the walk found it (not
// through a link swapped in since, whose target could be outside the
// tree), through rewrite into f's mirror in dir. The writer makes the
// directories below dir and follows no link there: a link planted in the
// mirror cannot send the write elsewhere. kept: the mirror already held
// the rewritten document (left alone); unread: err is about reading or
// rewriting f, not about writing its mirror.
func mirrorRewrite(w tree.Writer, dir string, f tree.File, rewrite func(dst io.Writer, src io.Reader) (bool, error)) (changed, kept, unread bool, err error) {
	src, err := tree.Open(f)
	if err != nil {
		return false, false, true, err
	}
	defer src.Close()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, false, false, err
	}
	var rerr error
	kept, err = w.WriteInStream(dir, mirrorRel(f), f.Mode, func(dst io.Writer) error {
		changed, rerr = rewrite(dst, src)
		return rerr
	})
	return changed, kept, err != nil && rerr != nil, err
}

func mirrorCopy(w tree.Writer, dir string, f tree.File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return w.CopyWalked(dir, mirrorRel(f), f)
}

// refused is 1 when err is the writer's refusal to write a file for
// safety, else 0.
func refused(err error) int {
	if errors.Is(err, tree.ErrSymlink) || errors.Is(err, tree.ErrChanged) || errors.Is(err, tree.ErrHardLink) {
		return 1
	}
	return 0
}

// checkOutput fails when -o out would write over the input in, read its
// own output, or overwrite in with its mirror: out and a directory in,
// with every link resolved, are the same or one holds the other; or in
// is a file that out's mirror of it would replace.
func checkOutput(out, in string) error {
	info, err := os.Stat(in)
	if err != nil || info.IsDir() {
		return tree.Disjoint(out, in)
	}
	// A file given alone is mirrored at its name: in its own
	// directory, that is the input itself.
	ro, err1 := tree.RealPath(out)
	rd, err2 := tree.RealPath(filepath.Dir(in))
	if err1 == nil && err2 == nil && ro == rd {
		return fmt.Errorf("-o %s would overwrite the input %s", out, in)
	}
	return nil
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

// incomplete is 1 when err says a document was written best effort.
func incomplete(err error) int {
	if errors.Is(err, htmlrewrite.ErrIncomplete) {
		return 1
	}
	return 0
}

// write returns the output that writes records to w as they come.
func write(w io.Writer) ordered.Out {
	return func(_ string, rec []byte) error {
		_, err := w.Write(rec)
		return err
	}
}

// rewriteFile rewrites the file f, retrieved from docURL, to dst as it
// is read.
func rewriteFile(dst io.Writer, f tree.File, docURL string, t *treeFlags) (rewriteCounts, bool, error) {
	r, err := os.Open(f.Path)
	if err != nil {
		return rewriteCounts{}, false, err
	}
	defer r.Close()
	return rewriteStream(dst, r, f.Kind, docURL, t)
}

// rewriteStream rewrites the document src of the given kind to dst
// (package extract dispatches the kind): HTML and MHTML as they are read
// (an MHTML archive's headers first, then a part at a time: mime.Open),
// stylesheets, XML, manifests and modules held whole, up to --max-size.
func rewriteStream(dst io.Writer, src io.Reader, kind tree.Kind, docURL string, t *treeFlags) (rewriteCounts, bool, error) {
	var c rewriteCounts
	o := t.extractOptions(docURL)
	o.MIME.Local = t.local
	whole := kind == tree.CSS || kind == tree.XML || kind == tree.Manifest || kind == tree.Module
	if whole {
		data, err := io.ReadAll(io.LimitReader(src, t.maxSize+1))
		if err == nil && int64(len(data)) > t.maxSize {
			err = tree.ErrTooLarge
		}
		if err != nil {
			return c, false, err
		}
		src = bytes.NewReader(data)
	}
	st, err := extract.Rewrite(dst, src, kind, o)
	c.warns = st.Warnings
	if err != nil && whole {
		return c, false, err // nothing written
	}
	c.Links, c.Rewritten, c.FailedLinks = st.Links, st.Rewritten, st.Failed
	return c, st.Changed, err
}

// rewriteStdin rewrites standard input to standard output as it is read:
// what is written is flushed whenever the command waits for input.
func rewriteStdin(t *treeFlags, s stdio, asJSON bool) int {
	w := bufio.NewWriterSize(s.out, 64<<10)
	in := bufio.NewReaderSize(flushBeforeRead{s.in, w}, 64<<10)
	head, _ := in.Peek(tree.SniffLen)
	kind := tree.KindOf("-", head)
	if kind != tree.MHTML && bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte("MIME-Version:")) {
		kind = tree.MHTML
	}
	if forced, ok := t.inputKind(); ok {
		kind = forced
	} else if kind != tree.MHTML && kind != tree.XML {
		kind = tree.HTML // a stream named "-" is taken for HTML
	}
	c, changed, err := rewriteStream(w, in, kind, t.base.value, t)
	if ferr := w.Flush(); err == nil && ferr != nil {
		s.errorf("rewrite: %v", ferr)
		return exitFailure
	}
	for _, warn := range c.warns {
		s.errorf("standard input: warning: %s", warn)
	}
	c.Files, c.Warnings = 1, len(c.warns)
	if err != nil {
		s.errorf("rewrite: standard input: %v", err)
		if !errors.Is(err, htmlrewrite.ErrIncomplete) {
			return exitFailure
		}
		c.Failed, c.Incomplete = 1, 1
	}
	if changed {
		c.Changed = 1
	} else if c.Failed == 0 {
		c.Unchanged = 1
	}
	if err == nil {
		failedLinks(s, "standard input", c, "relurl links")
	}
	c.print(s, s.err, true, asJSON)
	if c.Failed > 0 {
		return exitFailure
	}
	return exitOK
}
