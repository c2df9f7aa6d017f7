// Package linkout writes the output of `relurl links` (and of `relurl
// fetch --links`): one record a link, as JSON Lines (byte for byte what
// encoding/json writes), as tab-separated values, only the fields
// --fields names, or one URL a line (--format text); the --unique set;
// and, per input, the --status lines in band and the Hadoop Streaming
// counters on standard error. The records are the command's contract
// (docs/output.md), not the library's: a program embedding relurl
// gets link.Link values from package harvest and writes what it needs.
package linkout

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/harvest"
	"github.com/relurl/relurl/internal/byref"
	"github.com/relurl/relurl/internal/lazyurl"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/tree"
)

// Mode is how each input's links and statuses are written, beyond the
// records themselves (NewMode: --format, --fields).
type Mode struct {
	text   bool         // --format text: one absolute URL a line
	format recordFormat // --format jsonl or tsv, --fields
	// Status writes a status line after each input (Finish) and each
	// record error in band (Writer.RecordError); without it a record
	// error goes to Stderr.
	Status bool
	// HadoopCounters writes each input's counts as Hadoop Streaming
	// counter lines on Stderr (--counters hadoop).
	HadoopCounters bool
	// Stderr takes the lines written out of band; nil drops them.
	Stderr *Stderr
	// NoKeys sends the records to the sink without their URL as key,
	// for an Out that does not look at it (Out without unique): an
	// input's buffered records then go out in one call (ordered.Out).
	NoKeys bool
	// Behind, when set, takes each link record instead of the sink, to
	// encode and write it on its goroutine: for a run with one worker
	// (its sink writes straight to out) whose out writes to Behind and
	// does not look at the keys.
	Behind *Behind
}

// NewMode returns the mode of --format format ("jsonl", "text" or "tsv")
// and --fields fields (comma-separated names, "" for every field).
func NewMode(format, fields string) (Mode, error) {
	var m Mode
	switch format {
	case "jsonl":
	case "text":
		m.text = true
	case "tsv":
		m.format.tsv = true
	default:
		return m, fmt.Errorf(`--format is "jsonl", "text" or "tsv", not %q`, format)
	}
	if fields != "" {
		if m.text {
			return m, errors.New(`--fields goes with --format jsonl or tsv`)
		}
		f, err := parseFields(fields)
		if err != nil {
			return m, err
		}
		m.format.fields = f
	}
	return m, nil
}

// FieldNames are the names of a record's fields, in the order of the JSON
// Lines output.
func FieldNames() []string { return linkFieldNames() }

// StatusLine returns an input's status line:
// {"status":"ok","file":F,"records":R,"links":L,"record_errors":E}, or
// "error" with "error":MSG after the file; in TSV output after
// "#status\t".
func (m *Mode) StatusLine(st *Status) []byte {
	var buf bytes.Buffer
	appendStatus(&buf, m.format.tsv, st)
	return buf.Bytes()
}

// Finish writes what follows an input's links: its status line to out
// (Status), its counter lines to Stderr (HadoopCounters).
func (m *Mode) Finish(out ordered.Out, st *Status) error {
	if m.Status {
		if err := out("", m.StatusLine(st)); err != nil {
			return err
		}
	}
	if m.HadoopCounters {
		return m.Stderr.counters(st)
	}
	return nil
}

// Stderr writes the lines the workers write out of band, one at a time.
type Stderr struct {
	mu     sync.Mutex
	w      io.Writer
	errorf func(format string, a ...any)
}

// NewStderr returns the Stderr of w, where errorf writes the command's
// messages ("relurl: ...").
func NewStderr(w io.Writer, errorf func(format string, a ...any)) *Stderr {
	return &Stderr{w: w, errorf: errorf}
}

// counters writes an input's Hadoop Streaming counter lines.
func (l *Stderr) counters(st *Status) error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return writeHadoopCounters(l.w, st)
}

func (l *Stderr) printf(format string, a ...any) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errorf(format, a...)
}

// MaxUnique bounds the URLs Out remembers with unique (about 1 GiB of
// memory for long URLs); past it, new URLs are printed without being
// remembered.
const MaxUnique = 1 << 22

// Out returns the output of the link records, in input order: w, or with
// unique the records whose URL has not been printed before; full is
// called once when more than MaxUnique URLs were seen.
func Out(w io.Writer, unique bool, full func()) ordered.Out {
	if !unique {
		return func(_ string, rec []byte) error {
			_, err := w.Write(rec)
			return err
		}
	}
	seen := map[string]bool{}
	warned := false
	return func(u string, rec []byte) error {
		if u != "" {
			if seen[u] {
				return nil
			}
			if len(seen) < MaxUnique {
				seen[u] = true
			} else if !warned {
				warned = true
				full()
			}
		}
		_, err := w.Write(rec)
		return err
	}
}

// Result is what reading one input's links left to say: its library
// warnings, its error and its status.
type Result struct {
	Warnings []string
	Err      error
	Status   Status
}

// Failed returns the Result of the input named file that could not be
// read at all: err, and nothing written.
func Failed(file string, err error) Result {
	return Result{Err: err, Status: Status{File: file, Err: err}}
}

// Writer writes one input's link records to its sink, as they are found.
type Writer struct {
	sink *ordered.Sink
	file string
	mode Mode
	buf  bytes.Buffer // status and record-error lines
	line []byte       // the record being written, reused
	st   Status       // what was read and written
	rec  linkRecord   // the record being written, reused (one allocation a link was most of what relurl links allocated)
	// name and nameEncoding are file as the records name it
	// (tree.JSONName), found once for all of them.
	name, nameEncoding string
	cache              recordCache
	// part and record are what the record's Part and Record point to
	// (MHTML, WARC): fields of the writer, not a value escaping per link.
	part   string
	record int64
}

// NewWriter returns the Writer of the input named file (the records'
// "file"), writing to sink as m says.
func NewWriter(sink *ordered.Sink, file string, m Mode) *Writer {
	e := &Writer{sink: sink, file: file, mode: m, name: file}
	if name, escaped := tree.JSONName(file); escaped {
		e.name, e.nameEncoding = name, tree.PercentEncoded
	}
	return e
}

// Link writes the record of the link l of a document of kind k: with its
// part in MHTML, its record in WARC (harvest.Reader's fn).
func (e *Writer) Link(k base.Format, l link.Link) error {
	return e.LinkRef(k, &l)
}

// LinkRef is Link with the link by pointer (File): l is read during the
// call only.
func (e *Writer) LinkRef(k base.Format, l *link.Link) error {
	if e.mode.Behind != nil {
		return e.behind(k, l) // its URL resolved behind, if left for later
	}
	lazyurl.Resolve(l)
	r := &e.rec
	record(r, l, e.name, e.nameEncoding, &e.mode)
	r.cache = &e.cache
	switch k {
	case base.MHTML:
		e.part = l.Part
		r.Part, r.TargetPart = &e.part, l.TargetPart
	case base.WARC:
		e.record = l.Record
		r.Record, r.Target = &e.record, l.Target
	}
	return e.add(r)
}

// behind is Link with Mode.Behind: the link is copied into the queue's
// entry, its record made, encoded and written there.
func (e *Writer) behind(k base.Format, l *link.Link) error {
	e.st.Links++
	it, err := e.mode.Behind.next()
	if err != nil {
		return e.sink.SetErr(err) // out's error: the run stops
	}
	// From here on the writer's mode, names and cache are read (and the
	// cache written) by the queue's goroutine only.
	it.link, it.kind, it.w = *l, k, e
	if err := e.mode.Behind.filled(&it.link); err != nil {
		return e.sink.SetErr(err)
	}
	return nil
}

func (e *Writer) add(r *linkRecord) error {
	e.st.Links++
	b := e.line[:0]
	if e.mode.text {
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
	if e.mode.NoKeys {
		return e.sink.Record("", b)
	}
	return e.sink.Record(r.URL, b)
}

// RecordError writes a WARC record error where it happened: a status line
// in band with Mode.Status, else "FILE: ERROR" on Stderr
// (harvest.Reader's onRecordError).
func (e *Writer) RecordError(re *archive.RecordError) error {
	if !e.mode.Status {
		e.mode.Stderr.printf("%s: %v", tree.DisplayName(e.file), re)
		return nil
	}
	e.buf.Reset()
	appendRecordError(&e.buf, e.mode.format.tsv, e.file, re)
	return e.sink.Record("", e.buf.Bytes())
}

// harvestFile is harvest's Reader.File by pointer (package byref).
var harvestFile = byref.HarvestFile.(func(*harvest.Reader, tree.File, func(base.Format, *link.Link) error, func(*archive.RecordError) error) harvest.Result)

// File writes the records of the links of the walked file f that hv
// reads and keeps, each handed by pointer from the reader to its record,
// and returns what came of it.
func (e *Writer) File(hv *harvest.Reader, f tree.File) Result {
	return e.Result(harvestFile(hv, f, e.LinkRef, e.RecordError))
}

// Result returns what reading the input's links (r) left to say, with
// the input's status.
func (e *Writer) Result(r harvest.Result) Result {
	e.st.Records, e.st.RecordErrors = r.Records, r.RecordErrors
	st := e.st
	st.File, st.Err = e.file, r.Err
	return Result{Warnings: r.Warnings, Err: r.Err, Status: st}
}
