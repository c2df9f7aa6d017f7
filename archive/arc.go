package archive

import (
	"bytes"
	"io"
	"strconv"
	"strings"
)

// ARC files, the Internet Archive's format before WARC ("ARC File Format",
// version 1.0, 1996; version 2 adds fields), are read by WARCReader too:
// a file that starts "filedesc://" is ARC. Each record is one header line,
//
//	URL IP-address Archive-date Content-type Archive-length
//
// (version 2: URL IP-address Archive-date Content-type Result-code
// Checksum Location Offset Filename Archive-length), then Archive-length
// bytes (for http: the HTTP response), then a newline. The first record,
// filedesc://, holds the version block; its third line names the fields.
// A URL may hold spaces (some crawlers wrote them), so the fields are taken
// from the right. Records come back as WARC records would: the version
// block as "warcinfo", the others as "response", with WARC-Target-URI,
// WARC-Date, WARC-IP-Address and Content-Type made from the header line.

// arcVersion is the Record.Version of ARC records.
const arcVersion = "ARC/1.0"

// arcFields is the number of fields of a version 1 header line.
const arcFields = 5

var filedesc = []byte("filedesc://")

// arcHeader is one parsed ARC header line.
type arcHeader struct {
	url, ip, date, contentType string
	length                     int64
}

// parseARCHeader parses an ARC header line of n fields (without its line
// end): the last n-1 fields are separated by single spaces, the URL is
// the rest.
func parseARCHeader(line []byte, n int) (arcHeader, string) {
	s := strings.TrimRight(string(line), "\r\n")
	parts := make([]string, n)
	for i := n - 1; i > 0; i-- {
		j := strings.LastIndexByte(s, ' ')
		if j < 0 {
			return arcHeader{}, "header line of " + strconv.Itoa(n-i) + " fields, not " + strconv.Itoa(n)
		}
		parts[i], s = s[j+1:], s[:j]
	}
	parts[0] = s
	h := arcHeader{url: parts[0], ip: parts[1], date: parts[2], contentType: parts[3]}
	if !arcURL(h.url) {
		return h, "no URL in the header line"
	}
	l, err := strconv.ParseInt(parts[n-1], 10, 64)
	if err != nil || l < 0 {
		return h, "Archive-length " + strconv.Quote(parts[n-1])
	}
	if len(h.date) < 8 || len(h.date) > 17 || strings.Trim(h.date, "0123456789") != "" {
		return h, "Archive-date " + strconv.Quote(h.date)
	}
	h.length = l
	return h, ""
}

// arcURL reports whether s starts with a URL scheme and a colon.
func arcURL(s string) bool {
	i := strings.IndexByte(s, ':')
	if i <= 0 || strings.ContainsAny(s, "\t") {
		return false
	}
	for j := 0; j < i; j++ {
		c := s[j]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || j > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// looksLikeARCRecord reports whether head starts with a line that could
// be an ARC header line of n fields (for finding the next record; the
// length may still be wrong).
func looksLikeARCRecord(head []byte, n int) bool {
	i := bytes.IndexByte(head, '\n')
	if i < 0 {
		return false
	}
	fields := bytes.Fields(head[:i])
	if len(fields) < n || !arcURL(string(fields[0])) {
		return false
	}
	d := fields[len(fields)-n+2]
	return len(d) >= 8 && len(bytes.Trim(d, "0123456789")) == 0
}

// arcDate turns an ARC date (YYYYMMDDhhmmss) into WARC-Date's form.
func arcDate(d string) string {
	if len(d) < 14 {
		return d
	}
	return d[0:4] + "-" + d[4:6] + "-" + d[6:8] + "T" + d[8:10] + ":" + d[10:12] + ":" + d[12:14] + "Z"
}

// arcRecord reads the ARC record at the read position; nil after a
// problem it queued.
func (w *WARCReader) arcRecord() *Record {
	start := w.pos
	rec := &Record{Offset: w.fileOffset(start), Position: start, Version: arcVersion}
	at := rec.Offset
	mark := len(w.pending)
	line, err := w.readLine(w.Limits.HeaderBytes)
	if len(w.pending) > mark || w.err != nil {
		return nil
	}
	if err != nil {
		if err == io.EOF && w.ended {
			w.report(at, "", ErrTruncated, "the file ends inside the header line")
			return nil
		}
		if err != io.EOF {
			if err == ErrHeaderTooLarge {
				w.report(at, "", ErrHeaderTooLarge, "ARC header line over "+strconv.FormatInt(w.Limits.HeaderBytes, 10)+" bytes; record skipped")
				w.quiet = true
				return nil
			}
			w.damage()
			return nil
		}
	}
	h, bad := parseARCHeader(line, w.arcN)
	rec.TargetURI = targetURI(h.url)
	if bad != "" {
		w.report(at, rec.TargetURI, ErrNotWARC, "ARC header: "+bad+"; record skipped")
		w.quiet = true
		return nil
	}
	rec.Type = "response"
	if strings.HasPrefix(h.url, "filedesc:") {
		rec.Type, rec.TargetURI = "warcinfo", ""
	}
	var head bytes.Buffer
	head.WriteString("WARC-Type: " + rec.Type + "\r\n")
	if rec.TargetURI != "" {
		head.WriteString("WARC-Target-URI: " + rec.TargetURI + "\r\n")
	}
	head.WriteString("WARC-Date: " + arcDate(h.date) + "\r\nWARC-IP-Address: " + h.ip + "\r\nContent-Type: " + h.contentType +
		"\r\nContent-Length: " + strconv.FormatInt(h.length, 10) + "\r\n\r\n")
	rec.Header, _, _, _ = readHeader(head.Bytes(), int64(head.Len())+1)
	rec.ContentLength = h.length
	w.block = &blockReader{w: w, rec: rec, left: h.length, where: recordAt(rec.Offset), cand: -1, noScan: true}
	rec.Block = w.block
	w.cur, w.curAt = rec, w.m.start
	w.n++
	if rec.Type == "warcinfo" {
		w.arcInfo = true
	}
	return rec
}
