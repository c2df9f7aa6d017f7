package linkout

import (
	"bytes"
	"fmt"
	"io"
	"strconv"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/tree"
)

// statusPrefix starts a status line in TSV output, where a line that is
// not a link has to say so before its first tab.
const statusPrefix = "#status\t"

// Status is what one input came to: its records and links, the record
// errors on the way, and the error that ended it.
type Status struct {
	File         string // the input as its records name it
	Records      int64  // WARC records read
	Links        int64  // links written
	RecordErrors int64  // WARC records skipped or cut
	Err          error  // what ended the input, nil if it was read through
}

// Failed reports whether the input counts as failed for --on-error exit:
// it ended in an error or lost records on the way.
func (st *Status) Failed() bool { return st.Err != nil || st.RecordErrors > 0 }

// appendStatus appends the input's status line:
// {"status":"ok","file":F,"records":R,"links":L,"record_errors":E} or
// {"status":"error","file":F,"error":MSG,"records":R,"links":L,"record_errors":E}.
func appendStatus(buf *bytes.Buffer, tsv bool, st *Status) {
	if tsv {
		buf.WriteString(statusPrefix)
	}
	if st.Err == nil {
		buf.WriteString(`{"status":"ok","file":`)
		appendFileName(buf, st.File)
	} else {
		buf.WriteString(`{"status":"error","file":`)
		appendFileName(buf, st.File)
		buf.WriteString(`,"error":`)
		writeJSONString(buf, errtext.Of(st.Err)) // in the user's terms (package errtext)
	}
	fmt.Fprintf(buf, `,"records":%d,"links":%d,"record_errors":%d}`+"\n", st.Records, st.Links, st.RecordErrors)
}

// appendRecordError appends a record error's line:
// {"status":"record-error","file":F,"offset":O,"target":URI,"error":MSG}.
func appendRecordError(buf *bytes.Buffer, tsv bool, file string, e *archive.RecordError) {
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

// writeHadoopCounters writes an input's counts as Hadoop Streaming's
// counter updates on stderr (--counters hadoop): one
// "reporter:counter:relurl,NAME,AMOUNT" line per count that is not zero,
// which the framework adds up over the job (HadoopStreaming.md, "How do I
// update counters in streaming applications?").
func writeHadoopCounters(w io.Writer, st *Status) error {
	var b bytes.Buffer
	add := func(name string, n int64) {
		if n == 0 {
			return
		}
		b.WriteString("reporter:counter:relurl,")
		b.WriteString(name)
		b.WriteByte(',')
		b.WriteString(strconv.FormatInt(n, 10))
		b.WriteByte('\n')
	}
	add("inputs", 1)
	if st.Err != nil {
		add("inputs_failed", 1)
	}
	add("records", st.Records)
	add("links", st.Links)
	add("record_errors", st.RecordErrors)
	_, err := w.Write(b.Bytes())
	return err
}
