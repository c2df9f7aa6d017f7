package main

import (
	"bytes"
	"io"
	"strconv"
)

// writeHadoopCounters writes an input's counts as Hadoop Streaming's
// counter updates on stderr (--counters hadoop): one
// "reporter:counter:relurl,NAME,AMOUNT" line per count that is not zero,
// which the framework adds up over the job (HadoopStreaming.md, "How do I
// update counters in streaming applications?").
func writeHadoopCounters(w io.Writer, st *inputStatus) error {
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
	if st.err != nil {
		add("inputs_failed", 1)
	}
	add("records", st.records)
	add("links", st.links)
	add("record_errors", st.recordErrors)
	_, err := w.Write(b.Bytes())
	return err
}
