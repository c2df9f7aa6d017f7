package main

import (
	"bufio"
	"bytes"
	"io"

	"github.com/relurl/relurl/harvest"
	"github.com/relurl/relurl/internal/inputs"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/internal/progress"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/tree"
)

const linksSynopsis = `[--base URL] [--spec S] [--format jsonl|text|tsv] [--fields LIST] [--status] [--on-error exit|report] [filters] PATH... | -

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

// maxUnique bounds the URLs --unique remembers (about 1 GiB of memory
// for long URLs); past it, new URLs are printed without being remembered.
const maxUnique = 1 << 22

// linkRecord is one line of the JSON Lines output.
type linkRecord struct {
	Raw    string   `json:"raw"`
	URL    string   `json:"url,omitempty"`
	Error  string   `json:"error,omitempty"`
	Tag    string   `json:"tag"`
	Attr   string   `json:"attr"`
	Kind   string   `json:"kind"`
	Rel    []string `json:"rel"`
	Line   int      `json:"line"`
	Column int      `json:"column"`
	Offset int64    `json:"offset"`
	File   string   `json:"file"`
	// FileEncoding is "percent" when File is not valid UTF-8 and was
	// percent-encoded (tree.JSONName); absent otherwise.
	FileEncoding string  `json:"file_encoding,omitempty"`
	Part         *string `json:"part,omitempty"`        // MHTML: the part the link is in
	TargetPart   string  `json:"target_part,omitempty"` // MHTML: the part the URL names
	Record       *int64  `json:"record,omitempty"`      // WARC: the record's offset
	Target       string  `json:"target,omitempty"`      // WARC: the record's target URI
	Base         string  `json:"base"`
	BaseSource   string  `json:"base_source"`
	// Inert: the link is in the inert contents of an HTML <template>
	// (htmlrewrite.Link.Inert); absent otherwise.
	Inert bool `json:"inert,omitempty"`

	// cache holds the encodings of File, Base and BaseSource, which stay
	// the same across a document's records; nil: none.
	cache *recordCache
}

// docResult is what reading one document's links left to say: its
// library warnings and its error.
type docResult struct {
	warnings []string
	err      error
	st       inputStatus // for --status and --on-error
}

func runLinks(args []string, s stdio) int {
	fs := newFlagSet("links", linksSynopsis, s)
	t := addTreeFlags(fs, "the URL of the tree's root (of a FILE given alone: its URL)")
	format := fs.String("format", "jsonl", `"jsonl", "text" (one absolute URL a line) or "tsv" (tab-separated fields, no header)`)
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
	if *format != "jsonl" && *format != "text" && *format != "tsv" {
		return usageErr(`--format is "jsonl", "text" or "tsv", not %q`, *format)
	}
	if err := sf.check(*format); err != nil {
		return usageErr("%v", err)
	}
	filter, err := ff.filter()
	if err != nil {
		return usageErr("%v", err)
	}
	if fs.NArg() == 0 && t.fromList == "" {
		fs.Usage()
		return exitUsage
	}
	// A walk shows its progress; standard input, one stream, does not.
	var bar *progress.Bar
	if fs.NArg() != 1 || fs.Arg(0) != "-" {
		bar, s = startProgress(s, false, "links")
		defer bar.Finish()
	}
	text := *format == "text"
	w := bufio.NewWriterSize(s.out, 64<<10)
	defer w.Flush()
	out := linkOut(w, s, ff.unique)
	// report names a document's warnings and error on stderr, after its
	// links, and says whether it failed.
	report := func(name string, r docResult) bool {
		if len(r.warnings) > 0 || r.err != nil {
			w.Flush()
		}
		for _, warn := range r.warnings {
			s.errorf("%s: warning: %s", tree.DisplayName(name), warn)
		}
		if r.err != nil {
			s.errorf("%s", fileError(name, r.err, t.maxSize))
		}
		return r.err != nil
	}

	if fs.NArg() == 1 && fs.Arg(0) == "-" {
		if t.fromList != "" {
			return usageErr(`"-" reads one document from standard input: no --from-list`)
		}
		return linksStdin(s, w, out, t, filter, text, sf.name, sf.mode(s), report)
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
	mode := sf.mode(s)
	hv := t.harvester(mode.forced, filter)
	work := func(wk inputs.Item, sink *ordered.Sink) docResult {
		if wk.Err != nil {
			return docResult{err: wk.Err}
		}
		lw := newLinkWriter(sink, wk.Name, text)
		lw.mode = mode
		return lw.result(hv.File(wk.File, lw.link, lw.recordError))
	}
	// A list is a stream: each file's links go out before the next path
	// is waited for, so a caller can talk to the command line by line.
	streaming := t.fromList != ""
	emit := func(wk inputs.Item, r docResult) error {
		bar.Add(1)
		r.st.file, r.st.err = wk.Name, r.err
		if report(wk.File.Path, r) || r.st.failed() {
			failed++
		}
		if sf.status {
			if err := out("", statusLine(mode.format.tsv, &r.st)); err != nil {
				return err
			}
		}
		if err := mode.stderr.counters(mode.hadoopCounters, &r.st); err != nil {
			return err
		}
		if streaming {
			return w.Flush()
		}
		return nil
	}
	err = ordered.Run(t.jobs, 0, items, out, work, emit)
	bar.Finish()
	if lerr := done(); lerr != nil {
		s.errorf("links: %v", lerr)
		failed++
		if sf.status && err == nil {
			// The list itself failed (a line over 1 MiB, a read error).
			err = out("", statusLine(mode.format.tsv, &inputStatus{file: t.fromList, err: lerr}))
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
	if !unique {
		return func(_ string, rec []byte) error {
			_, err := w.Write(rec)
			return err
		}
	}
	seen := map[string]bool{}
	full := false
	return func(u string, rec []byte) error {
		if u != "" {
			if seen[u] {
				return nil
			}
			if len(seen) < maxUnique {
				seen[u] = true
			} else if !full {
				full = true
				s.errorf("links: --unique: more than %d URLs; later ones may repeat", maxUnique)
			}
		}
		_, err := w.Write(rec)
		return err
	}
}

// flushBeforeRead flushes w each time it must wait for r: the output of a
// filter reaches its reader while the input is still coming.
type flushBeforeRead struct {
	r io.Reader
	w *bufio.Writer
}

func (f flushBeforeRead) Read(p []byte) (int, error) {
	if f.w.Buffered() > 0 {
		if err := f.w.Flush(); err != nil {
			return 0, err
		}
	}
	return f.r.Read(p)
}

// linkWriter writes one document's link records to its sink, as they
// are found.
type linkWriter struct {
	sink *ordered.Sink
	file string
	text bool
	buf  bytes.Buffer // status and record-error lines
	line []byte       // the record being written, reused
	mode outputMode   // --fields, --format tsv, --status
	st   inputStatus  // what was read and written
	rec  linkRecord   // the record being written, reused (one allocation a link was most of what relurl links allocated)
	// name and nameEncoding are file as the records name it
	// (tree.JSONName), found once for all of them.
	name, nameEncoding string
	cache              recordCache
}

func newLinkWriter(sink *ordered.Sink, file string, text bool) *linkWriter {
	e := &linkWriter{sink: sink, file: file, text: text, name: file}
	if name, escaped := tree.JSONName(file); escaped {
		e.name, e.nameEncoding = name, tree.PercentEncoded
	}
	return e
}

// link writes the record of the link l of a document of kind k: with its
// part in MHTML, its record in WARC.
func (e *linkWriter) link(k tree.Kind, l link.Link) error {
	r := &e.rec
	record(r, &l, e.name, e.nameEncoding)
	r.cache = &e.cache
	switch k {
	case tree.MHTML:
		part := l.Part
		r.Part, r.TargetPart = &part, l.TargetPart
	case tree.WARC:
		rec := l.Record
		r.Record, r.Target = &rec, l.Target
	}
	return e.add(r)
}

// result is what reading the input's links left to say.
func (e *linkWriter) result(r harvest.Result) docResult {
	e.st.records, e.st.recordErrors = r.Records, r.RecordErrors
	return docResult{warnings: r.Warnings, err: r.Err, st: e.st}
}

func (e *linkWriter) add(r *linkRecord) error {
	e.st.links++
	b := e.line[:0]
	if e.text {
		if r.URL == "" {
			return nil
		}
		b = append(append(b, r.URL...), '\n')
	} else {
		if r.Rel == nil {
			r.Rel = []string{}
		}
		b = e.mode.format.append(b, r)
	}
	e.line = b
	return e.sink.Record(r.URL, b)
}

// record fills r with the JSON record of l, found in the file the records
// name name (tree.JSONName: nameEncoding is its file_encoding); the MHTML
// and WARC fields are the caller's to set (mhtml, warc).
func record(r *linkRecord, l *link.Link, name, nameEncoding string) {
	b := &l.Base
	*r = linkRecord{
		Raw: l.Raw, URL: l.URL, Tag: l.Tag, Attr: l.Attr, Kind: l.Kind.String(), Rel: l.Rel,
		Line: l.Line, Column: l.Column, Offset: l.Offset, File: name, FileEncoding: nameEncoding,
		Base: b.URL, BaseSource: b.Source.String(), Inert: l.Inert,
	}
	if l.Err != nil {
		r.Error = userMessage(l.Err.Error()) // data, in the user's terms too
	}
}
