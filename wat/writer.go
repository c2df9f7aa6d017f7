package wat

import (
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/sha1"
	"encoding/base32"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"
)

// A Writer writes the records of a WAT file: WARC/1.0 records (the
// version Common Crawl's WAT files use), each in a gzip member of its own
// when Gzip is set (.warc.wat.gz, WARC 1.1 Annex D), so that a reader can
// seek to any record.
type Writer struct {
	w    io.Writer
	gzip bool
	zw   *gzip.Writer
	buf  bytes.Buffer
	now  func() time.Time
}

// NewWriter returns a Writer to w, gzip-compressed per record with gz.
func NewWriter(w io.Writer, gz bool) *Writer {
	return &Writer{w: w, gzip: gz, now: time.Now}
}

// recordID is a new WARC-Record-ID, an RFC 9562 version 4 UUID URN.
func recordID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read does not fail
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// WriteWarcinfo writes the warcinfo record a WAT file starts with.
func (w *Writer) WriteWarcinfo(filename string, fields string) error {
	return w.write([][2]string{
		{"WARC-Type", "warcinfo"},
		{"WARC-Date", w.now().UTC().Format(time.RFC3339)},
		{"WARC-Filename", filename},
		{"WARC-Record-ID", recordID()},
		{"Content-Type", "application/warc-fields"},
	}, []byte(fields))
}

// WriteMetadata writes the metadata record of the record whose
// WARC-Record-ID is refersTo, retrieved from target on date.
func (w *Writer) WriteMetadata(target, date, refersTo string, e *Envelope) error {
	block, err := json.Marshal(e)
	if err != nil {
		return err
	}
	h := [][2]string{
		{"WARC-Type", "metadata"},
		{"WARC-Target-URI", target},
		{"WARC-Date", date},
		{"WARC-Record-ID", recordID()},
		{"WARC-Refers-To", refersTo},
		{"Content-Type", "application/json"},
	}
	return w.write(h, block)
}

// write writes one record, with its WARC-Block-Digest and Content-Length.
func (w *Writer) write(h [][2]string, block []byte) error {
	w.buf.Reset()
	w.buf.WriteString("WARC/1.0\r\n")
	sum := sha1.Sum(block)
	h = append(h, [2]string{"WARC-Block-Digest", "sha1:" + base32.StdEncoding.EncodeToString(sum[:])})
	h = append(h, [2]string{"Content-Length", strconv.Itoa(len(block))})
	for _, f := range h {
		if f[1] == "" {
			continue
		}
		w.buf.WriteString(f[0] + ": " + f[1] + "\r\n")
	}
	w.buf.WriteString("\r\n")
	w.buf.Write(block)
	w.buf.WriteString("\r\n\r\n")
	if !w.gzip {
		_, err := w.w.Write(w.buf.Bytes())
		return err
	}
	if w.zw == nil {
		w.zw = gzip.NewWriter(w.w)
	} else {
		w.zw.Reset(w.w)
	}
	if _, err := w.zw.Write(w.buf.Bytes()); err != nil {
		return err
	}
	return w.zw.Close()
}
