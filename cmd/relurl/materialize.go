package main

import (
	"errors"
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
	fs := newFlagSet("materialize", materializeSynopsis, s)
	dir := fs.String("o", ".", "the directory to write the tree into")
	at := fs.String("at", "", "of several captures of a URL, keep the one closest to this time (YYYY[MM[DD[hh[mm[ss]]]]] or RFC 3339; default: the latest)")
	hosts := fs.String("hosts", "", "comma-separated hosts to materialize (default: all); links to the others stay absolute")
	removeStale := fs.Bool("remove-stale", false, "remove the files an earlier run over DIR wrote that this run does not write, if unchanged since (default: keep and name them)")
	errorPages := fs.Bool("error-pages", false, "also write the URLs captured only as an HTTP error (4xx, 5xx) and point links to them there (default: leave them out, links to them absolute)")
	force := fs.Bool("force", false, "replace DIR/index.html and DIR/urls.jsonl even when relurl did not write them")
	quiet := fs.Bool("quiet", false, "no summary line and no progress bar")
	asJSON := fs.Bool("json", false, "print the summary as one JSON object on standard output instead of the line on standard error")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() == 0 {
		return wrongArgs(fs, s, "materialize", 0, "captures: WARC, WACZ or MHTML files")
	}
	opts := materialize.Options{Dir: *dir, RemoveStale: *removeStale, ErrorPages: *errorPages, Force: *force}
	if os.Getenv("GOGC") == "" {
		// materialize holds an index of every captured URL (about 700
		// bytes each, live): the heap grows by half of it between
		// collections, not by all of it (README: Memory).
		defer debug.SetGCPercent(debug.SetGCPercent(50))
	}
	if *at != "" {
		t, err := materialize.ParseTimestamp(*at)
		if err != nil {
			s.errorf("materialize: --at: %v", err)
			return exitUsage
		}
		opts.At = t
	}
	if *hosts != "" {
		opts.Hosts = strings.Split(*hosts, ",")
	}
	var bar *progress.Bar
	bar, s = startProgress(s, *quiet, "materialize")
	defer bar.Finish()
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
	sum, err := materialize.Run(fs.Args(), opts)
	bar.Finish()
	if fe, ok := errors.AsType[*materialize.ForeignFileError](err); ok {
		s.errorf("materialize: %s: %s: relurl did not write it, so it is not replaced (use --force to replace it, or another -o DIR)", fe.Path, fe.Reason)
		return exitFailure
	}
	if err != nil {
		s.errorf("%v", err)
		return exitFailure
	}
	m := summary.Materialize{Summary: sum, Dir: *dir}
	switch {
	case *asJSON:
		if err := m.WriteJSON(s.out); err != nil {
			return s.writeFailed("materialize", err)
		}
	case !*quiet:
		m.WriteLine(s.err)
	}
	if m.Failed() {
		return exitFailure
	}
	return exitOK
}
