package main

import (
	"cmp"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/treerewrite"
)

// addRewriteFlags binds the flags that choose how documents are rewritten
// (htmlrewrite.Options and archive.Options.Local) to fs.
func addRewriteFlags(fs *flag.FlagSet, t *treeFlags) {
	fs.Func("base-element", `what becomes of <base href> elements: "keep" (default), "remove", or "absolute" (the deciding one's href set to the absolute base)`, func(v string) error {
		m, ok := map[string]htmlrewrite.BaseMode{"keep": htmlrewrite.BaseKeep, "remove": htmlrewrite.BaseRemove, "absolute": htmlrewrite.BaseAbsolute}[v]
		if !ok {
			return fmt.Errorf(`want "keep", "remove" or "absolute"`)
		}
		t.html.Base = m
		return nil
	})
	fs.BoolVar(&t.html.Absolute, "absolute", false, "also resolve references that carry a scheme, normalizing them (mailto:, javascript: and data: change too)")
	fs.BoolVar(&t.html.Fragments, "fragments", false, `make fragment-only references ("#top") absolute too (a saved page's in-page links then lead to the live site)`)
	fs.BoolVar(&t.html.Srcdoc, "srcdoc", false, "rewrite the documents inside <iframe srcdoc> too")
	fs.BoolVar(&t.html.LazyLoad, "lazy-load", false, "treat lazy-loading attributes (data-src, data-srcset, data-original, ...) as links")
	fs.Func("local", `MHTML: write a link that names a part of the archive as "cid" (the part's cid: URL) or "location" (its Content-Location), so the saved page stays self-contained; default "none"`, func(v string) error {
		m, ok := map[string]archive.LocalMode{"none": archive.LocalNone, "cid": archive.LocalCID, "location": archive.LocalLocation}[v]
		if !ok {
			return fmt.Errorf(`want "none", "cid" or "location"`)
		}
		t.local = m
		return nil
	})
}

// rewriteFlags are the flags of relurl rewrite.
type rewriteFlags struct {
	fs                    *flag.FlagSet
	s                     stdio
	t                     *treeFlags
	outDir, others        string
	hardLinks, host       string
	inPlace, dryRun, sync bool
	allowOwner, quiet     bool
	asJSON, relative      bool
	relativeMissing       bool

	// Once parsed:
	modes    int                 // how many of -o, -i and --dry-run are given
	links    safewrite.HardLinks // -i's way with hard links
	stdin    bool                // the input is standard input, "-"
	toStdout bool                // the one document goes to standard output
}

// newRewriteFlags binds rewrite's flags to a new flag set.
func newRewriteFlags(s stdio) *rewriteFlags {
	fs := newFlagSet("rewrite", rewriteSynopsis, s)
	f := &rewriteFlags{fs: fs, s: s}
	t := addTreeFlags(fs, "the URL of the tree's root (of a FILE given alone: its URL; of several inputs: of the current directory or --list-root)")
	f.t = t
	fs.StringVar(&f.outDir, "o", "", "write the rewritten tree to this directory, mirroring the inputs (documents already up to date there are left alone)")
	fs.BoolVar(&f.inPlace, "i", false, "rewrite files in place, atomically; a file with nothing to change is not written")
	fs.BoolVar(&f.dryRun, "dry-run", false, "report which files would change, write nothing")
	fs.StringVar(&f.others, "others", "copy", `with -o, files that are not HTML, MHTML, CSS, SVG or feeds: "copy" or "skip"`)
	fs.BoolVar(&f.sync, "sync", false, "with -o, fsync each file written (-i always does: the originals are at stake)")
	fs.StringVar(&f.hardLinks, "hardlinks", "skip", `with -i, a file with several names (hard links): "skip" it with a warning, "keep" the names together (written through the same inode, not atomically), or "split" it (this name gets the new content)`)
	fs.BoolVar(&f.allowOwner, "allow-owner-change", false, "with -i, replace a file whose owner or group this user cannot keep (only root may give a file away): it becomes this user's (default: such a file is refused)")
	fs.BoolVar(&f.quiet, "quiet", false, "no summary line and no progress bar (a document written to standard output has neither)")
	fs.BoolVar(&f.asJSON, "json", false, "print the summary as JSON on standard output (standard error when the document goes there)")
	fs.StringVar(&t.input, "input-format", "auto", `the kind of standard input: "auto" (by its first bytes), "html", "mhtml", "css" or "xml" (SVG, Atom, RSS)`)
	addRewriteFlags(fs, t)
	fs.BoolVar(&f.relative, "relative", false, "the other direction, wget -k's: make links into the tree DIR relative (the file that serves them, by --host); links outside stay absolute (check --fix does the same in place)")
	fs.BoolVar(&f.relativeMissing, "relative-missing", false, "with --relative, also make links to files missing from the tree relative (by default they are written absolute, to the site the tree came from, as wget -k does)")
	fs.StringVar(&f.host, "host", "nginx", "with --relative, how the server the tree was mirrored from mapped URL paths to files (the default: a directory is served by its index.html, as wget -k assumes): "+strings.Join(linkcheck.HostNames(), ", "))
	return f
}

// parse parses args and returns -1 to go on, or the exit status to return
// (its error said). rewrite --relative's own checks are relativeChecker's.
func (f *rewriteFlags) parse(args []string) int {
	if code := parseFlags(f.fs, args); code >= 0 {
		return code
	}
	for _, on := range []bool{f.outDir != "", f.inPlace, f.dryRun} {
		if on {
			f.modes++
		}
	}
	if f.relative {
		return -1
	}
	if f.relativeMissing || explicit(f.fs, "host") {
		f.s.errorf("rewrite: --relative-missing and --host go with --relative")
		return exitUsage
	}
	if err := f.check(); err != nil {
		return f.s.exit("rewrite", err)
	}
	if f.fs.NArg() == 0 && f.t.fromList == "" {
		return wrongArgs(f.fs, f.s, "rewrite", 0, "files, directories or - (standard input), or --from-list")
	}
	if err := f.checkInputs(); err != nil {
		return f.s.exit("rewrite", err)
	}
	return -1
}

// check validates the flags against each other.
func (f *rewriteFlags) check() error {
	if err := f.t.check(); err != nil {
		return usagef("%v", err)
	}
	if err := f.t.place(f.fs.Args()); err != nil {
		return usagef("%v", err)
	}
	if f.modes > 1 {
		return usagef("-o, -i and --dry-run exclude each other")
	}
	if f.others != "copy" && f.others != "skip" {
		return usagef(`--others is "copy" or "skip", not %q`, f.others)
	}
	var err error
	if f.links, err = safewrite.ParseHardLinks(f.hardLinks); err != nil {
		return usagef("--hardlinks: %v", err)
	}
	return nil
}

// checkInputs validates the inputs against the flags: standard input
// alone and written to standard output, a mirror apart from its inputs,
// a tree not written to standard output.
func (f *rewriteFlags) checkInputs() error {
	fs, t := f.fs, f.t
	if fs.NArg() == 1 && fs.Arg(0) == "-" {
		if f.modes > 0 || t.fromList != "" {
			return usagef("standard input is rewritten to standard output: no -o, -i, --dry-run or --from-list")
		}
		f.stdin = true
		return nil
	}
	for _, a := range fs.Args() {
		if a == "-" {
			return usagef(`"-" (standard input) goes alone`)
		}
		if f.outDir != "" {
			if err := treerewrite.CheckMirror(f.outDir, a); err != nil {
				return usagef("%v", err)
			}
		}
	}
	if info, err := os.Stat(f.outDir); f.outDir != "" && err == nil && !info.IsDir() {
		return usagef("-o %s is a file: -o names the directory the mirror is written to", f.outDir)
	}
	if f.outDir != "" && t.fromList != "" {
		if err := tree.Disjoint(f.outDir, cmp.Or(t.listRoot, ".")); err != nil {
			return usagef("-o and --list-root: %v", err)
		}
	}
	f.toStdout = f.modes == 0
	if f.toStdout {
		if fs.NArg() != 1 || t.fromList != "" {
			return usagef("rewriting several files or a tree needs -o DIR, -i or --dry-run")
		}
		if info, err := os.Stat(fs.Arg(0)); err == nil && info.IsDir() {
			return usagef("rewriting a directory needs -o DIR, -i or --dry-run")
		}
	}
	return nil
}
