// Package linktable writes relurl's link records as a Parquet table: one
// row per link, one typed column per field of the JSON Lines record of
// `relurl links` (docs/output.md), so that Spark, DuckDB or BigQuery load
// what the command prints without a schema of their own.
//
// The columns are raw, url, error, tag, attr, kind, rel (a list of
// strings), line, column, offset (64-bit integers), file, file_encoding,
// part, target_part, record (a 64-bit integer), target, base, base_source
// and inert (a boolean). A field the JSON record leaves out is null.
//
// Rows are written in row groups of at most RowGroupRows rows, so the
// memory a table takes while written is bounded by one row group, however
// many links the input has.
package linktable

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/compress/zstd"
)

// Row is one link of the table. Its Parquet column names are the JSON
// record's keys; the pointer fields are optional columns, null where the
// JSON record has no such key.
type Row struct {
	Raw          string   `parquet:"raw" json:"raw"`
	URL          *string  `parquet:"url,optional" json:"url,omitempty"`
	Error        *string  `parquet:"error,optional" json:"error,omitempty"`
	Tag          string   `parquet:"tag" json:"tag"`
	Attr         string   `parquet:"attr" json:"attr"`
	Kind         string   `parquet:"kind" json:"kind"`
	Rel          []string `parquet:"rel,list" json:"rel"`
	Line         int64    `parquet:"line" json:"line"`
	Column       int64    `parquet:"column" json:"column"`
	Offset       int64    `parquet:"offset" json:"offset"`
	File         string   `parquet:"file" json:"file"`
	FileEncoding *string  `parquet:"file_encoding,optional" json:"file_encoding,omitempty"`
	Part         *string  `parquet:"part,optional" json:"part,omitempty"`
	TargetPart   *string  `parquet:"target_part,optional" json:"target_part,omitempty"`
	Record       *int64   `parquet:"record,optional" json:"record,omitempty"`
	Target       *string  `parquet:"target,optional" json:"target,omitempty"`
	Base         string   `parquet:"base" json:"base"`
	BaseSource   string   `parquet:"base_source" json:"base_source"`
	Inert        bool     `parquet:"inert" json:"inert,omitempty"`
}

// RowGroupRows bounds the rows of one row group: a row group is held in
// memory until it is flushed, and readers split work by row group.
const RowGroupRows = 64 << 10

// A Writer writes link rows to a Parquet file. Its Write method takes the
// JSON Lines records `relurl links` prints, so the command's output can be
// turned into a table as it is written. Close writes the file's footer;
// a Parquet file without it is not readable.
type Writer struct {
	pw      *parquet.GenericWriter[Row]
	buf     []Row
	partial []byte // an incomplete last line, kept for the next Write
	rows    int64
	err     error
}

// NewWriter returns a Writer of a Parquet file to w, its columns
// compressed with zstd.
func NewWriter(w io.Writer) *Writer {
	pw := parquet.NewGenericWriter[Row](w,
		parquet.Compression(&zstd.Codec{}),
		parquet.MaxRowsPerRowGroup(RowGroupRows),
		parquet.CreatedBy("relurl", "", ""),
	)
	return &Writer{pw: pw, buf: make([]Row, 0, 1024)}
}

// WriteRows adds rows to the table.
func (t *Writer) WriteRows(rows []Row) error {
	if t.err != nil {
		return t.err
	}
	if _, err := t.pw.Write(rows); err != nil {
		t.err = err
		return err
	}
	t.rows += int64(len(rows))
	return nil
}

// Rows returns the rows written so far.
func (t *Writer) Rows() int64 { return t.rows }

// Write takes JSON Lines link records, in any pieces: each complete line
// becomes a row. A line that is not a link record (a --status line has a
// "status" key) is an error: the table holds links only.
func (t *Writer) Write(p []byte) (int, error) {
	if t.err != nil {
		return 0, t.err
	}
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			t.partial = append(t.partial, p...)
			break
		}
		line := p[:i]
		if len(t.partial) > 0 {
			t.partial = append(t.partial, line...)
			line = t.partial
		}
		if err := t.line(line); err != nil {
			t.err = err
			return 0, err
		}
		t.partial = t.partial[:0]
		p = p[i+1:]
	}
	if len(t.buf) == cap(t.buf) {
		return n, t.flushBuf()
	}
	return n, nil
}

// errNotLink is the error of a line that is not a link record.
var errNotLink = errors.New("not a link record")

func (t *Writer) line(line []byte) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	var r Row
	var probe struct {
		Status *string `json:"status"`
	}
	if err := json.Unmarshal(line, &probe); err != nil {
		return fmt.Errorf("linktable: %w", err)
	}
	if probe.Status != nil {
		return fmt.Errorf("linktable: a status line: %w", errNotLink)
	}
	if err := json.Unmarshal(line, &r); err != nil {
		return fmt.Errorf("linktable: %w", err)
	}
	if r.Rel == nil {
		r.Rel = []string{}
	}
	t.buf = append(t.buf, r)
	if len(t.buf) == cap(t.buf) {
		return t.flushBuf()
	}
	return nil
}

func (t *Writer) flushBuf() error {
	if len(t.buf) == 0 {
		return nil
	}
	err := t.WriteRows(t.buf)
	clear(t.buf)
	t.buf = t.buf[:0]
	return err
}

// Close writes what is buffered and the file's footer. It does not close
// the underlying writer.
func (t *Writer) Close() error {
	if t.err != nil {
		return t.err
	}
	if len(bytes.TrimSpace(t.partial)) > 0 {
		if err := t.line(t.partial); err != nil {
			t.err = err
			return err
		}
	}
	if err := t.flushBuf(); err != nil {
		return err
	}
	if err := t.pw.Close(); err != nil {
		t.err = err
		return err
	}
	t.err = errors.New("linktable: writer closed")
	return nil
}
