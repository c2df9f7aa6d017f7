package main

import (
	"bufio"
	"bytes"
	"sync"

	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/linkfilter"
	"github.com/relurl/relurl/mime"
	"github.com/relurl/relurl/tree"
)

// outputMode is how one input's links and statuses are written, beyond
// what linkWriter does by itself.
type outputMode struct {
	format recordFormat
	status bool // --status: record errors in band
	stderr *lockedStderr
	// forced is the kind --input-format says, Other for auto; failStatus
	// the exit status of a failed input (--on-error).
	forced     tree.Kind
	failStatus int
	// hadoopCounters writes each input's counts as Hadoop Streaming
	// counter lines on stderr (--counters hadoop).
	hadoopCounters bool
}

func (sf *streamFlags) mode(s stdio) outputMode {
	m := outputMode{format: sf.format, status: sf.status, stderr: &lockedStderr{s: s}}
	m.forced, _ = sf.kind()
	m.failStatus = sf.exitStatus(1)
	m.hadoopCounters = sf.counters == "hadoop"
	return m
}

// lockedStderr prints record errors from the workers one line at a time.
type lockedStderr struct {
	mu sync.Mutex
	s  stdio
}

// counters writes an input's Hadoop Streaming counter lines when
// --counters hadoop asks for them, between the workers' lines.
func (l *lockedStderr) counters(on bool, st *inputStatus) error {
	if l == nil || !on {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	return writeHadoopCounters(l.s.err, st)
}

func (l *lockedStderr) errorf(format string, a ...any) {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.s.errorf(format, a...)
}

// statusLine returns an input's status line.
func statusLine(tsv bool, st *inputStatus) []byte {
	var buf bytes.Buffer
	appendStatus(&buf, tsv, st)
	return buf.Bytes()
}

// recordError writes a record error where it happened.
func (e *linkWriter) recordError(re *mime.RecordError) error {
	if !e.mode.status {
		e.mode.stderr.errorf("%s: %v", tree.DisplayName(e.file), re)
		return nil
	}
	e.buf.Reset()
	appendRecordError(&e.buf, e.mode.format.tsv, e.file, re)
	return e.sink.Record("", e.buf.Bytes())
}

// linksStdin writes the links of standard input, one document read as a
// stream (its kind by --input-format, else by its first bytes): a WARC
// goes through record by record with no bound on its size.
func linksStdin(s stdio, w *bufio.Writer, out ordered.Out, t *treeFlags, lf linkfilter.Filter, text bool, name string, m outputMode, report func(string, docResult) bool) int {
	if name == "" {
		name = "-"
	}
	// The links go out as they are found: what is written is flushed
	// whenever the command waits for input.
	in := bufio.NewReaderSize(flushBeforeRead{s.in, w}, 64<<10)
	lw := newLinkWriter(ordered.Direct(out), name, text)
	lw.mode = m
	r := lw.result(t.harvester(m.forced, lf).Stream(in, t.base.value, lw.link, lw.recordError))
	r.st.file, r.st.err = name, r.err
	failed := report("standard input", r) || r.st.failed()
	if m.status {
		if werr := out("", statusLine(m.format.tsv, &r.st)); werr != nil {
			s.errorf("links: %v", werr)
			return exitFailure
		}
	}
	if werr := m.stderr.counters(m.hadoopCounters, &r.st); werr != nil {
		s.errorf("links: %v", werr)
		return exitFailure
	}
	if werr := w.Flush(); werr != nil {
		s.errorf("links: %v", werr)
		return exitFailure
	}
	if failed {
		return m.failStatus
	}
	return exitOK
}
