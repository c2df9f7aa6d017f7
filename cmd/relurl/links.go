package main

import (
	"bufio"
	"cmp"
	"io"
	"runtime"
	"sync/atomic"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/cmd/relurl/internal/behind"
	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/cmd/relurl/internal/linkout"
	"github.com/relurl/relurl/cmd/relurl/internal/progress"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/harvest"
	"github.com/relurl/relurl/internal/lazyurl"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/wat"
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
	fs := newFlagSet("links", linksSynopsis, s)
	t := addTreeFlags(fs, "the URL of the tree's root (of a FILE given alone: its URL; of several inputs: of the current directory or --list-root)")
	format := fs.String("format", "jsonl", `"jsonl", "text" (one absolute URL a line), "tsv" (tab-separated fields, no header), "parquet" (a Parquet table, one row per link) or "wat" (a WAT file, one metadata record per WARC response record; WARC inputs only)`)
	outPath := fs.String("o", "", "write the output to this file (written beside and renamed into place when done; a device is written in place); default standard output")
	sf := addStreamFlags(fs)
	ff := addFilterFlags(fs, "only links into the site: under the tree's root URL for a tree; for a file alone, standard input, an MHTML part or a WARC record, to the same origin as the document")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	usageErr := func(format string, a ...any) int {
		s.errorf("links: "+format, a...)
		return exitUsage
	}
	if err := t.check(); err != nil {
		return usageErr("%v", err)
	}
	if err := t.place(fs.Args()); err != nil {
		return usageErr("%v", err)
	}
	switch *format {
	case "jsonl", "text", "tsv", "parquet", "wat":
	default:
		return usageErr(`--format is "jsonl", "text", "tsv", "parquet" or "wat", not %q`, *format)
	}
	table := *format == "parquet" || *format == "wat"
	if table && (sf.status || sf.fields != "") {
		return usageErr("--format %s holds links only, every field: no --status, no --fields", *format)
	}
	if *format == "wat" && fs.NArg() == 1 && fs.Arg(0) == "-" {
		return usageErr("--format wat reads its WARC files again for their records' headers: not standard input")
	}
	recordFormat := *format
	if table {
		recordFormat = "jsonl" // converted as written (tableOut)
	}
	mode, err := sf.mode(recordFormat)
	if err != nil {
		return usageErr("%v", err)
	}
	filter, err := ff.filter()
	if err != nil {
		return usageErr("%v", err)
	}
	if fs.NArg() == 0 && t.fromList == "" {
		return wrongArgs(fs, s, "links", 0, "files, directories or - (standard input), or --from-list")
	}
	var watOut *wat.Converter
	if *outPath != "" || table {
		out, err := openLinksOut(*outPath, *format, s.out)
		if err != nil {
			s.errorf("links: %v", err)
			return exitFailure
		}
		s.out, watOut = out, out.wat
		// Runs after the output's own flushes (deferred below): the
		// table's footer goes last, and the file is renamed into place
		// only when it was written whole.
		defer func() {
			if err := out.Close(); err != nil {
				s.errorf("links: %v", err)
				code = exitFailure
			}
		}()
	}
	// A walk shows its progress; standard input, one stream, does not.
	var bar *progress.Bar
	if fs.NArg() != 1 || fs.Arg(0) != "-" {
		bar, s = startProgress(s, false, "links")
		defer bar.Finish()
	}
	forced, _ := sf.kind()
	watIn := sf.inputFormat == "wat" // read by package wat, not harvest
	stdin := fs.NArg() == 1 && fs.Arg(0) == "-"
	var w flusher
	var bw behindOut
	// running is true while the run may still stop at a write error.
	var running atomic.Bool
	if !stdin && t.jobs == 1 && runtime.GOMAXPROCS(0) > 1 && !progress.IsTerminal(s.out) && watOut == nil {
		// A core is free: the records are encoded and written behind the
		// worker, on a goroutine of their own (linkout.Behind; with
		// --unique, whose Out looks at each record's URL, only written:
		// package behind). Standard error waits for what was handed off
		// before it, and shows nothing the run wrote after a failed
		// write (with bufio it would have stopped there).
		if ff.unique {
			bw = behind.New(s.out, 64<<10)
		} else {
			lb := linkout.NewBehind(s.out)
			mode.Behind = lb
			bw = lb
		}
		defer bw.Close()
		w = bw
		s.err = bw.Gate(s.err, running.Load)
	} else {
		bf := bufio.NewWriterSize(s.out, 64<<10)
		defer bf.Flush()
		w = bf
	}
	mode.Stderr = linkout.NewStderr(s.err, s.errorf) // round the progress display
	out := linkOut(w, s, ff.unique)
	// report names a document's warnings and error on stderr, after its
	// links, and says whether it failed.
	report := func(name string, r linkout.Result) bool {
		if len(r.Warnings) > 0 || r.Err != nil {
			w.Flush()
		}
		for _, warn := range r.Warnings {
			s.errorf("links: %s: warning: %s", tree.DisplayName(name), warn)
		}
		if r.Err != nil {
			s.errorf("links: %s", fileError(name, r.Err, t.maxSize))
		}
		return r.Err != nil || r.Status.Failed()
	}

	if stdin {
		if t.fromList != "" {
			return usageErr(`"-" reads one document from standard input: no --from-list`)
		}
		return linksStdin(s, w.(*bufio.Writer), out, t.harvester(forced, filter), watIn, t.base.value, cmp.Or(sf.name, "-"), mode, report, sf.exitStatus(1))
	}
	for _, a := range fs.Args() {
		if a == "-" {
			return usageErr(`"-" (standard input) goes alone`)
		}
	}
	items, done, err := inputs.Open(t.walker, fs.Args(), t.list(s))
	if err != nil {
		s.errorf("links: %v", err)
		return exitFailure
	}
	items, stopCount := inputs.Counted(bar, items, fs.Args(), t.fromList != "")
	defer stopCount()
	failed := 0
	mode.NoKeys = !ff.unique // out looks at the keys only for --unique
	hv := t.harvester(forced, filter)
	if mode.Behind != nil && !watIn {
		// The links' URLs are resolved behind too (package lazyurl),
		// where their records are encoded: the worker does not read
		// them (harvest resolves them first for a filter that does).
		refs, opts := new(lazyurl.Refs), hv.Options
		hv.Options = func(docURL string) extract.Options {
			o := opts(docURL)
			lazyurl.DeferIn(&o.HTML, refs)
			return o
		}
	}
	work := func(wk inputs.Item, sink *ordered.Sink) linkout.Result {
		if wk.Err != nil {
			return linkout.Failed(wk.Name, wk.Err)
		}
		lw := linkout.NewWriter(sink, wk.Name, mode)
		if watIn {
			return lw.Result(watFileLinks(wk.File.Path, hv, lw.LinkRef, lw.RecordError))
		}
		return lw.Result(hv.FileRef(wk.File, lw.LinkRef, lw.RecordError))
	}
	// A list is a stream: each file's links go out before the next path
	// is waited for, so a caller can talk to the command line by line.
	streaming := t.fromList != ""
	emit := func(wk inputs.Item, r linkout.Result) error {
		bar.Add(1)
		if report(wk.File.Path, r) {
			failed++
		}
		if err := mode.Finish(out, &r.Status); err != nil {
			return err
		}
		if watOut != nil && wk.Err == nil && wk.File.Kind == base.WARC {
			// The file's link records are out: the WAT gets the rest of
			// its records (all of them, for a file with no links).
			if err := w.Flush(); err != nil {
				return err
			}
			if err := watOut.EndFile(wk.File.Path); err != nil {
				return err
			}
		}
		if streaming {
			return w.Flush()
		}
		return nil
	}
	running.Store(true)
	err = ordered.Run(t.jobs, 0, items, out, work, emit)
	if err == nil {
		// The last records are still buffered (or, behind, handed off):
		// a write of them that fails is the run's failure, as one in the
		// middle of the output is.
		err = w.Flush()
	}
	running.Store(false)
	bar.Finish()
	if lerr := done(); lerr != nil {
		s.errorf("links: %v", lerr)
		failed++
		if mode.Status && err == nil {
			// The list itself failed (a line over 1 MiB, a read error).
			err = out("", mode.StatusLine(&linkout.Status{File: t.fromList, Err: lerr}))
		}
	}
	if err != nil {
		s.errorf("links: %v", err)
		return exitFailure
	}
	return sf.exitStatus(failed)
}

// linkOut returns the output of the link records, in input order: w, or
// with unique the records whose URL has not been printed before.
func linkOut(w io.Writer, s stdio, unique bool) ordered.Out {
	return linkout.Out(w, unique, func() {
		s.errorf("links: --unique: more than %d URLs; later ones may repeat", linkout.MaxUnique)
	})
}

// linksStdin writes the links of standard input, one document read as a
// stream (its kind by --input-format, else by its first bytes): a WARC
// goes through record by record with no bound on its size.
func linksStdin(s stdio, w *bufio.Writer, out ordered.Out, hv *harvest.Reader, watIn bool, docURL, name string, m linkout.Mode, report func(string, linkout.Result) bool, failStatus int) int {
	// The links go out as they are found: what is written is flushed
	// whenever the command waits for input. The readers are given the
	// stream itself, so that a WARC's decompression can run ahead on a
	// goroutine of its own while the flushes stay where the links are.
	in := inputs.FlushBeforeRead(s.in, w)
	lw := linkout.NewWriter(ordered.Direct(out), name, m)
	var r linkout.Result
	if watIn {
		r = lw.Result(watLinks(in, hv, lw.LinkRef, lw.RecordError))
	} else {
		r = lw.Result(hv.Stream(in, docURL, lw.Link, lw.RecordError))
	}
	failed := report("standard input", r)
	if err := m.Finish(out, &r.Status); err != nil {
		s.errorf("links: %v", err)
		return exitFailure
	}
	if err := w.Flush(); err != nil {
		s.errorf("links: %v", err)
		return exitFailure
	}
	if failed {
		return failStatus
	}
	return exitOK
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
