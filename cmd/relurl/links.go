package main

import (
	"io"

	"github.com/relurl/relurl/cmd/relurl/internal/linkout"
	"github.com/relurl/relurl/cmd/relurl/internal/progress"
	"github.com/relurl/relurl/internal/ordered"
)

const linksSynopsis = `[--base URL] [--spec S] [--format jsonl|text|tsv|parquet|wat] [-o FILE] [--fields LIST] [--status] [--on-error exit|report] [filters] PATH... | -

Prints every link of HTML, MHTML and WARC files (directories are walked),
one JSON object a line (fields raw, url or error, tag, attr, kind, rel,
line, column, offset, file, base, base_source; inert for a link in a
<template>; part and target_part for MHTML; record and target for WARC),
with --format text one absolute URL a line, with --format tsv
tab-separated fields; --fields keeps the named ones. "-" streams one input
from standard input (--input-format, --name). With --from-list, paths are
read one a line as they come, so the command is a streaming filter (Hadoop
Streaming, Spark's RDD.pipe). --status adds a status line after each input
and one for each damaged WARC record.
Exit status: 0 done, 1 some input failed (0 with --on-error report), 2 usage.`

func runLinks(args []string, s stdio) (code int) {
	f := newLinksFlags(s)
	if code := f.parse(args); code >= 0 {
		return code
	}
	lo, err := f.output(s.out)
	if err != nil {
		s.errorf("links: %v", err)
		return exitFailure
	}
	if lo != nil {
		s.out = lo
		// Runs after the output's own flushes (deferred below): the
		// table's footer goes last, and the file is renamed into place
		// only when it was written whole.
		defer func() {
			if err := lo.Close(); err != nil {
				s.errorf("links: %v", err)
				code = exitFailure
			}
		}()
	}
	// A walk shows its progress; standard input, one stream, does not.
	var bar *progress.Bar
	if !f.stdin {
		bar, s = startProgress(s, false, "links")
		defer bar.Finish()
	}
	d := newLinksDriver(f, s, bar, lo)
	defer d.closeW()
	s = d.s
	if f.stdin {
		return d.stdin()
	}
	failed, err := d.run()
	if err != nil {
		s.errorf("links: %v", err)
		return exitFailure
	}
	return f.sf.exitStatus(failed)
}

// linkOut returns the output of the link records, in input order: w, or
// with unique the records whose URL has not been printed before.
func linkOut(w io.Writer, s stdio, unique bool) ordered.Out {
	return linkout.Out(w, unique, func() {
		s.errorf("links: --unique: more than %d URLs; later ones may repeat", linkout.MaxUnique)
	})
}

// flusher is the buffered output of the link records.
type flusher interface {
	io.Writer
	Flush() error
}

// behindOut is the output of the link records written behind the worker.
type behindOut interface {
	flusher
	Close() error
	Gate(w io.Writer, drop func() bool) io.Writer
}
