package main

import (
	"errors"
	"flag"
	"os"
	"runtime/debug"
	"strings"

	"github.com/relurl/relurl/cmd/relurl/internal/progress"
	"github.com/relurl/relurl/cmd/relurl/internal/summary"
	"github.com/relurl/relurl/materialize"
)

const materializeSynopsis = `[-o DIR] [--at TIMESTAMP] [--hosts LIST] [--remove-stale] [--error-pages] [--force] [--quiet] [--json] INPUT...

Writes the captures in the INPUTs (WARC, .warc.gz, WACZ, MHTML; several
merge into one tree) as plain files under DIR: one file per captured URL at
DIR/HOST[+PORT]/PATH, every link to a captured URL rewritten to the
shortest relative reference to its file and every other link absolute,
a stub page for each captured redirect, DIR/index.html listing the pages
by host and DIR/urls.jsonl mapping each URL to its file. A URL captured
only as an HTTP error (4xx, 5xx) is not written and links to it stay
absolute (--error-pages writes it). An index.html or urls.jsonl in DIR that
relurl did not write is not replaced (--force replaces it). Running it again
over DIR updates it file by file; the files an earlier run wrote that this
one does not (its urls.jsonl says which) are named as stale and kept, or
removed with --remove-stale if they still hold the bytes relurl wrote.
Exit status: 0 done, 1 an input, record or file could not be used, 2 usage.`

func runMaterialize(args []string, s stdio) int {
	f := newMaterializeFlags(s)
	if code := f.parse(args); code >= 0 {
		return code
	}
	if os.Getenv("GOGC") == "" {
		// materialize holds an index of every captured URL (about 700
		// bytes each, live): the heap grows by half of it between
		// collections, not by all of it (docs/cli/materialize.md: Memory).
		defer debug.SetGCPercent(debug.SetGCPercent(50))
	}
	opts, err := f.options()
	if err != nil {
		return s.exit("materialize", err)
	}
	var bar *progress.Bar
	bar, s = startProgress(s, f.quiet, "materialize")
	defer bar.Finish()
	sum, err := materialize.Run(f.fs.Args(), reporting(opts, bar, s))
	bar.Finish()
	if fe, ok := errors.AsType[*materialize.ForeignFileError](err); ok {
		s.errorf("materialize: %s: %s: relurl did not write it, so it is not replaced (use --force to replace it, or another -o DIR)", fe.Path, fe.Reason)
		return exitFailure
	}
	if err != nil {
		s.errorf("%v", err)
		return exitFailure
	}
	m := summary.Materialize{Summary: sum, Dir: f.dir}
	switch {
	case f.asJSON:
		if err := m.WriteJSON(s.out); err != nil {
			return s.writeFailed("materialize", err)
		}
	case !f.quiet:
		m.WriteLine(s.err)
	}
	if m.Failed() {
		return exitFailure
	}
	return exitOK
}

// materializeFlags are the flags of relurl materialize.
type materializeFlags struct {
	fs                             *flag.FlagSet
	s                              stdio
	dir, at, hosts                 string
	removeStale, errorPages, force bool
	quiet, asJSON                  bool
}

// newMaterializeFlags binds materialize's flags to a new flag set.
func newMaterializeFlags(s stdio) *materializeFlags {
	fs := newFlagSet("materialize", materializeSynopsis, s)
	f := &materializeFlags{fs: fs, s: s}
	fs.StringVar(&f.dir, "o", ".", "the directory to write the tree into")
	fs.StringVar(&f.at, "at", "", "of several captures of a URL, keep the one closest to this time (YYYY[MM[DD[hh[mm[ss]]]]] or RFC 3339; default: the latest)")
	fs.StringVar(&f.hosts, "hosts", "", "comma-separated hosts to materialize (default: all); links to the others stay absolute")
	fs.BoolVar(&f.removeStale, "remove-stale", false, "remove the files an earlier run over DIR wrote that this run does not write, if unchanged since (default: keep and name them)")
	fs.BoolVar(&f.errorPages, "error-pages", false, "also write the URLs captured only as an HTTP error (4xx, 5xx) and point links to them there (default: leave them out, links to them absolute)")
	fs.BoolVar(&f.force, "force", false, "replace DIR/index.html and DIR/urls.jsonl even when relurl did not write them")
	fs.BoolVar(&f.quiet, "quiet", false, "no summary line and no progress bar")
	fs.BoolVar(&f.asJSON, "json", false, "print the summary as one JSON object on standard output instead of the line on standard error")
	return f
}

// parse parses args and returns -1 to go on, or the exit status to return
// (its error said).
func (f *materializeFlags) parse(args []string) int {
	if code := parseFlags(f.fs, args); code >= 0 {
		return code
	}
	if f.fs.NArg() == 0 {
		return wrongArgs(f.fs, f.s, "materialize", 0, "captures: WARC, WACZ or MHTML files")
	}
	return -1
}

// options returns the library's options as the flags say.
func (f *materializeFlags) options() (materialize.Options, error) {
	opts := materialize.Options{Dir: f.dir, RemoveStale: f.removeStale, ErrorPages: f.errorPages, Force: f.force}
	if f.at != "" {
		t, err := materialize.ParseTimestamp(f.at)
		if err != nil {
			return opts, usagef("--at: %v", err)
		}
		opts.At = t
	}
	if f.hosts != "" {
		opts.Hosts = strings.Split(f.hosts, ",")
	}
	return opts, nil
}

// reporting returns opts with its progress shown on bar and its warnings
// said on s.
func reporting(opts materialize.Options, bar *progress.Bar, s stdio) materialize.Options {
	// The captures are all read before the first file is written: the
	// total is known from the first call.
	opts.Progress = func(_, total int) {
		bar.SetTotal(total)
		bar.Add(1)
	}
	opts.Warn = func(w materialize.Warning) {
		if w.Problem || w.Stale {
			s.errorf("materialize: %v", w)
		} else {
			s.errorf("materialize: warning: %v", w)
		}
	}
	return opts
}
