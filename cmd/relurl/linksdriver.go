package main

import (
	"bufio"
	"cmp"
	"flag"
	"io"
	"runtime"
	"sync/atomic"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/cmd/relurl/internal/linkout"
	"github.com/relurl/relurl/cmd/relurl/internal/progress"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/internal/behind"
	"github.com/relurl/relurl/internal/lazyref"
	"github.com/relurl/relurl/internal/lazyurl"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/linkfilter"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/wat"
)

// linksFlags are the flags of relurl links.
type linksFlags struct {
	fs              *flag.FlagSet
	s               stdio
	t               *treeFlags
	sf              *streamFlags
	ff              *filterFlags
	format, outPath string

	// Once parsed:
	mode   linkout.Mode      // how records and statuses are written
	filter linkfilter.Filter // the links kept
	stdin  bool              // the input is standard input, "-"
}

// newLinksFlags binds links' flags to a new flag set.
func newLinksFlags(s stdio) *linksFlags {
	fs := newFlagSet("links", linksSynopsis, s)
	f := &linksFlags{fs: fs, s: s}
	f.t = addTreeFlags(fs, "the URL of the tree's root (of a FILE given alone: its URL; of several inputs: of the current directory or --list-root)")
	fs.StringVar(&f.format, "format", "jsonl", `"jsonl", "text" (one absolute URL a line), "tsv" (tab-separated fields, no header), "parquet" (a Parquet table, one row per link) or "wat" (a WAT file, one metadata record per WARC response record; WARC inputs only)`)
	fs.StringVar(&f.outPath, "o", "", "write the output to this file (written beside and renamed into place when done; a device is written in place); default standard output")
	f.sf = addStreamFlags(fs)
	f.ff = addFilterFlags(fs, "only links into the site: under the tree's root URL for a tree; for a file alone, standard input, an MHTML part or a WARC record, to the same origin as the document")
	return f
}

// parse parses args and returns -1 to go on, or the exit status to return
// (its error said).
func (f *linksFlags) parse(args []string) int {
	if code := parseFlags(f.fs, args); code >= 0 {
		return code
	}
	if err := f.check(); err != nil {
		return f.s.exit("links", err)
	}
	if f.fs.NArg() == 0 && f.t.fromList == "" {
		return wrongArgs(f.fs, f.s, "links", 0, "files, directories or - (standard input), or --from-list")
	}
	f.stdin = f.fs.NArg() == 1 && f.fs.Arg(0) == "-"
	if f.stdin && f.t.fromList != "" {
		return f.s.exit("links", usagef(`"-" reads one document from standard input: no --from-list`))
	}
	for _, a := range f.fs.Args() {
		if a == "-" && !f.stdin {
			return f.s.exit("links", usagef(`"-" (standard input) goes alone`))
		}
	}
	return -1
}

// check validates the flags against each other.
func (f *linksFlags) check() error {
	if err := f.t.check(); err != nil {
		return usagef("%v", err)
	}
	if err := f.t.place(f.fs.Args()); err != nil {
		return usagef("%v", err)
	}
	switch f.format {
	case "jsonl", "text", "tsv", "parquet", "wat":
	default:
		return usagef(`--format is "jsonl", "text", "tsv", "parquet" or "wat", not %q`, f.format)
	}
	table := f.format == "parquet" || f.format == "wat"
	if table && (f.sf.status || f.sf.fields != "") {
		return usagef("--format %s holds links only, every field: no --status, no --fields", f.format)
	}
	if f.format == "wat" && f.fs.NArg() == 1 && f.fs.Arg(0) == "-" {
		return usagef("--format wat reads its WARC files again for their records' headers: not standard input")
	}
	recordFormat := f.format
	if table {
		recordFormat = "jsonl" // converted as written (tableOut)
	}
	var err error
	if f.mode, err = f.sf.mode(recordFormat); err != nil {
		return usagef("%v", err)
	}
	if f.filter, err = f.ff.filter(); err != nil {
		return usagef("%v", err)
	}
	return nil
}

// output returns the output -o or a table format asks for, nil for
// standard output as it is.
func (f *linksFlags) output(stdout io.Writer) (*linksOut, error) {
	if f.outPath == "" && f.format != "parquet" && f.format != "wat" {
		return nil, nil
	}
	return openLinksOut(f.outPath, f.format, stdout)
}

// linksDriver reads the links of the inputs and writes their records in
// input order.
type linksDriver struct {
	f      *linksFlags
	s      stdio // round the progress display, gated behind the records
	bar    *progress.Bar
	mode   linkout.Mode
	w      flusher        // the records' buffer
	closeW func() error   // flushes (or closes) w
	out    ordered.Out    // the records, in input order
	wat    *wat.Converter // --format wat's output
	// running is true while the run may still stop at a write error.
	running atomic.Bool
}

// newLinksDriver returns the driver writing to s.out (lo when not nil).
func newLinksDriver(f *linksFlags, s stdio, bar *progress.Bar, lo *linksOut) *linksDriver {
	d := &linksDriver{f: f, bar: bar, mode: f.mode}
	if lo != nil {
		d.wat = lo.wat
	}
	if !f.stdin && f.t.jobs == 1 && runtime.GOMAXPROCS(0) > 1 && !progress.IsTerminal(s.out) && d.wat == nil {
		// A core is free: the records are encoded and written behind the
		// worker, on a goroutine of their own (linkout.Behind; with
		// --unique, whose Out looks at each record's URL, only written:
		// package behind). Standard error waits for what was handed off
		// before it, and shows nothing the run wrote after a failed
		// write (with bufio it would have stopped there).
		var bw behindOut
		if f.ff.unique {
			bw = behind.New(s.out, 64<<10)
		} else {
			lb := linkout.NewBehind(s.out)
			d.mode.Behind = lb
			bw = lb
		}
		d.w, d.closeW = bw, bw.Close
		s.err = bw.Gate(s.err, d.running.Load)
	} else {
		bf := bufio.NewWriterSize(s.out, 64<<10)
		d.w, d.closeW = bf, bf.Flush
	}
	d.mode.Stderr = linkout.NewStderr(s.err, s.errorf) // round the progress display
	d.out = linkOut(d.w, s, f.ff.unique)
	d.s = s
	return d
}

// report names a document's warnings and error on stderr, after its
// links, and says whether it failed.
func (d *linksDriver) report(name string, r linkout.Result) bool {
	if len(r.Warnings) > 0 || r.Err != nil {
		d.w.Flush()
	}
	for _, warn := range r.Warnings {
		d.s.errorf("links: %s: warning: %s", tree.DisplayName(name), warn)
	}
	if r.Err != nil {
		d.s.errorf("links: %s", fileError(name, r.Err, d.f.t.maxSize))
	}
	return r.Err != nil || r.Status.Failed()
}

// stdin writes the links of standard input, one document read as a
// stream (its kind by --input-format, else by its first bytes): a WARC
// goes through record by record with no bound on its size.
func (d *linksDriver) stdin() int {
	f, s := d.f, d.s
	forced, _ := f.sf.kind()
	hv := f.t.harvester(forced, f.filter)
	w := d.w.(*bufio.Writer)
	// The links go out as they are found: what is written is flushed
	// whenever the command waits for input. The readers are given the
	// stream itself, so that a WARC's decompression can run ahead on a
	// goroutine of its own while the flushes stay where the links are.
	in := inputs.FlushBeforeRead(s.in, w)
	lw := linkout.NewWriter(ordered.Direct(d.out), cmp.Or(f.sf.name, "-"), d.mode)
	var r linkout.Result
	if f.sf.inputFormat == "wat" {
		r = lw.Result(watLinks(in, hv, lw.LinkRef, lw.RecordError))
	} else {
		r = lw.Result(hv.Stream(in, f.t.base.value, lw.Link, lw.RecordError))
	}
	failed := d.report("standard input", r)
	if err := d.mode.Finish(d.out, &r.Status); err != nil {
		s.errorf("links: %v", err)
		return exitFailure
	}
	if err := w.Flush(); err != nil {
		s.errorf("links: %v", err)
		return exitFailure
	}
	if failed {
		return f.sf.exitStatus(1)
	}
	return exitOK
}

// run writes the links of the files, directories and --from-list paths,
// and returns how many inputs failed; its error ends the run (an output
// that could not be written, a list that could not be opened).
func (d *linksDriver) run() (failed int, err error) {
	f, t := d.f, d.f.t
	items, done, err := inputs.Open(t.walker, f.fs.Args(), t.list(d.s))
	if err != nil {
		return 0, err
	}
	items, stopCount := inputs.Counted(d.bar, items, f.fs.Args(), t.fromList != "")
	defer stopCount()
	d.mode.NoKeys = !f.ff.unique // out looks at the keys only for --unique
	forced, _ := f.sf.kind()
	hv := t.harvester(forced, f.filter)
	watIn := f.sf.inputFormat == "wat" // read by package wat, not harvest
	if d.mode.Behind != nil && !watIn {
		// The links' URLs are resolved behind too (package lazyurl),
		// where their records are encoded: the worker does not read
		// them (harvest resolves them first for a filter that does).
		refs, opts := new(lazyref.Refs), hv.Options
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
		lw := linkout.NewWriter(sink, wk.Name, d.mode)
		if watIn {
			return lw.Result(watFileLinks(wk.File.Path, hv, lw.LinkRef, lw.RecordError))
		}
		return lw.File(hv, wk.File)
	}
	emit := func(wk inputs.Item, r linkout.Result) error {
		if d.report1(wk, r) {
			failed++
		}
		return d.finish(wk, r)
	}
	d.running.Store(true)
	err = ordered.Run(t.jobs, 0, items, d.out, work, emit)
	if err == nil {
		// The last records are still buffered (or, behind, handed off):
		// a write of them that fails is the run's failure, as one in the
		// middle of the output is.
		err = d.w.Flush()
	}
	d.running.Store(false)
	d.bar.Finish()
	if lerr := done(); lerr != nil {
		d.s.errorf("links: %v", lerr)
		failed++
		if d.mode.Status && err == nil {
			// The list itself failed (a line over 1 MiB, a read error).
			err = d.out("", d.mode.StatusLine(&linkout.Status{File: t.fromList, Err: lerr}))
		}
	}
	return failed, err
}

// report1 counts one input on the progress display and reports it.
func (d *linksDriver) report1(wk inputs.Item, r linkout.Result) bool {
	d.bar.Add(1)
	return d.report(wk.File.Path, r)
}

// finish ends one input's records: its status line, its WAT records; a
// list is a stream, so each file's links go out before the next path is
// waited for, and a caller can talk to the command line by line.
func (d *linksDriver) finish(wk inputs.Item, r linkout.Result) error {
	if err := d.mode.Finish(d.out, &r.Status); err != nil {
		return err
	}
	if d.wat != nil && wk.Err == nil && wk.File.Kind == base.WARC {
		// The file's link records are out: the WAT gets the rest of
		// its records (all of them, for a file with no links).
		if err := d.w.Flush(); err != nil {
			return err
		}
		if err := d.wat.EndFile(wk.File.Path); err != nil {
			return err
		}
	}
	if d.f.t.fromList != "" {
		return d.w.Flush()
	}
	return nil
}
