package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"strconv"

	"github.com/relurl/relurl/mime"
	"github.com/relurl/relurl/tree"
)

// streamFlags are the flags of links for streams and cluster jobs: the
// kind and name of the input, the output's format and fields, and status
// lines in band.
type streamFlags struct {
	inputFormat string
	name        string
	status      bool
	onError     string
	counters    string // --counters: "" or "hadoop"
	fields      string
	format      recordFormat
}

func addStreamFlags(fs *flag.FlagSet) *streamFlags {
	sf := new(streamFlags)
	fs.StringVar(&sf.inputFormat, "input-format", "auto", `the kind of every input: "auto" (files by name and content, standard input by its first bytes), "html", "mhtml", "warc" (.warc, .warc.gz, .warc.zst: told apart by content), "css", "xml" (SVG, Atom, RSS; also "svg", "atom", "rss"), "manifest" or "module" (a JS module)`)
	fs.StringVar(&sf.name, "name", "", `the "file" field of standard input's links and statuses (default "-")`)
	fs.BoolVar(&sf.status, "status", false, `after each input, a status line {"status":"ok"|"error",...}; each record-level problem a {"status":"record-error",...} line where it happens`)
	fs.StringVar(&sf.onError, "on-error", "exit", `"exit": exit status 1 when an input failed or had record errors; "report": exit status 0 then (the statuses say what failed)`)
	fs.StringVar(&sf.counters, "counters", "", `"hadoop": after each input, its counts as Hadoop Streaming counter lines on stderr (reporter:counter:relurl,NAME,N)`)
	fs.StringVar(&sf.fields, "fields", "", "only these link fields, comma-separated, in this order (jsonl keys, tsv columns): "+joinNames(linkFieldNames()))
	return sf
}

func joinNames(names []string) string {
	var b bytes.Buffer
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n)
	}
	return b.String()
}

// check validates the flags against --format (jsonl, text or tsv).
func (sf *streamFlags) check(format string) error {
	switch sf.inputFormat {
	case "auto", "html", "mhtml", "warc", "css", "xml", "svg", "atom", "rss", "manifest", "module":
	default:
		return fmt.Errorf(`--input-format is "auto", "html", "mhtml", "warc", "css", "xml", "manifest" or "module", not %q`, sf.inputFormat)
	}
	if sf.counters != "" && sf.counters != "hadoop" {
		return fmt.Errorf(`--counters is "hadoop", not %q`, sf.counters)
	}
	switch sf.onError {
	case "exit", "report":
	default:
		return fmt.Errorf(`--on-error is "exit" or "report", not %q`, sf.onError)
	}
	sf.format.tsv = format == "tsv"
	if sf.fields != "" {
		if format == "text" {
			return errors.New(`--fields goes with --format jsonl or tsv`)
		}
		f, err := parseFields(sf.fields)
		if err != nil {
			return err
		}
		sf.format.fields = f
	}
	return nil
}

// kind returns the kind --input-format forces, or false for auto.
func (sf *streamFlags) kind() (tree.Kind, bool) {
	switch sf.inputFormat {
	case "html":
		return tree.HTML, true
	case "mhtml":
		return tree.MHTML, true
	case "warc":
		return tree.WARC, true
	case "css":
		return tree.CSS, true
	case "manifest":
		return tree.Manifest, true
	case "module":
		return tree.Module, true
	case "xml", "svg", "atom", "rss":
		return tree.XML, true
	}
	return tree.Other, false
}

// exitStatus is the exit status when failed inputs failed (or had record
// errors) and nothing else went wrong.
func (sf *streamFlags) exitStatus(failed int) int {
	if failed > 0 && sf.onError == "exit" {
		return exitFailure
	}
	return exitOK
}

// statusPrefix starts a status line in TSV output, where a line that is
// not a link has to say so before its first tab.
const statusPrefix = "#status\t"

// inputStatus is what one input came to: its records and links, the
// record errors on the way, and the error that ended it.
type inputStatus struct {
	file         string
	records      int64
	links        int64
	recordErrors int64
	err          error
}

// failed reports whether the input counts as failed for --on-error exit:
// it ended in an error or lost records on the way.
func (st *inputStatus) failed() bool { return st.err != nil || st.recordErrors > 0 }

// appendStatus appends the input's status line:
// {"status":"ok","file":F,"records":R,"links":L,"record_errors":E} or
// {"status":"error","file":F,"error":MSG,"records":R,"links":L,"record_errors":E}.
func appendStatus(buf *bytes.Buffer, tsv bool, st *inputStatus) {
	if tsv {
		buf.WriteString(statusPrefix)
	}
	if st.err == nil {
		buf.WriteString(`{"status":"ok","file":`)
		appendFileName(buf, st.file)
	} else {
		buf.WriteString(`{"status":"error","file":`)
		appendFileName(buf, st.file)
		buf.WriteString(`,"error":`)
		writeJSONString(buf, userMessage(st.err.Error()))
	}
	fmt.Fprintf(buf, `,"records":%d,"links":%d,"record_errors":%d}`+"\n", st.records, st.links, st.recordErrors)
}

// appendRecordError appends a record error's line:
// {"status":"record-error","file":F,"offset":O,"target":URI,"error":MSG}.
func appendRecordError(buf *bytes.Buffer, tsv bool, file string, e *mime.RecordError) {
	if tsv {
		buf.WriteString(statusPrefix)
	}
	buf.WriteString(`{"status":"record-error","file":`)
	appendFileName(buf, file)
	buf.WriteString(`,"offset":`)
	buf.WriteString(strconv.FormatInt(e.Offset, 10))
	buf.WriteString(`,"target":`)
	writeJSONString(buf, e.Target)
	buf.WriteString(`,"error":`)
	writeJSONString(buf, e.Message())
	buf.WriteString("}\n")
}

// appendFileName writes a file name as the link records do: as it is
// when it is UTF-8, else percent-encoded and followed by
// "file_encoding":"percent" (tree.JSONName).
func appendFileName(buf *bytes.Buffer, name string) {
	n, escaped := tree.JSONName(name)
	writeJSONString(buf, n)
	if escaped {
		buf.WriteString(`,"file_encoding":`)
		writeJSONString(buf, tree.PercentEncoded)
	}
}
