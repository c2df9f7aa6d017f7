// Package crawlcheck tests relurl's crawl formats (WAT in and out,
// Parquet link tables) against readers that are not relurl's: warcio.js
// for WAT, a port of cc-pyspark's WAT link extraction, and DuckDB for
// Parquet. It holds the generator of the WARC files the tests read.
package crawlcheck

import (
	"bytes"
	"compress/gzip"
	"crypto/sha1"
	"encoding/base32"
	"fmt"
	"io"
	"strconv"
)

// A Record is a WARC record to generate: a response (Status, Header and
// Body), or a revisit of the earlier record Refers.
type Record struct {
	Type   string // "response" (default) or "revisit"
	Target string
	Status int      // 200 by default
	Header []string // HTTP header lines, "Name: value"
	Body   string
	Refers int // for a revisit: the index of the record it revisits
}

// WriteWARC writes records as a WARC/1.1 file, each record in a gzip
// member of its own when gz is set, and returns each record's
// WARC-Record-ID.
func WriteWARC(w io.Writer, recs []Record, gz bool) ([]string, error) {
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = fmt.Sprintf("<urn:uuid:00000000-0000-4000-8000-%012d>", i+1)
		status := r.Status
		if status == 0 {
			status = 200
		}
		var http bytes.Buffer
		fmt.Fprintf(&http, "HTTP/1.1 %d %s\r\n", status, reason(status))
		for _, h := range r.Header {
			http.WriteString(h + "\r\n")
		}
		if r.Type != "revisit" {
			fmt.Fprintf(&http, "Content-Length: %d\r\n", len(r.Body))
		}
		http.WriteString("\r\n")
		typ := "response"
		extra := ""
		if r.Type == "revisit" {
			typ = "revisit"
			extra = "WARC-Refers-To: " + ids[r.Refers] + "\r\nWARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\n"
		} else {
			http.WriteString(r.Body)
		}
		sum := sha1.Sum(http.Bytes())
		var rec bytes.Buffer
		fmt.Fprintf(&rec, "WARC/1.1\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nWARC-Date: 2026-11-29T00:00:00Z\r\nWARC-Record-ID: %s\r\n%sWARC-Block-Digest: sha1:%s\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: %s\r\n\r\n",
			typ, r.Target, ids[i], extra, base32.StdEncoding.EncodeToString(sum[:]), strconv.Itoa(http.Len()))
		rec.Write(http.Bytes())
		rec.WriteString("\r\n\r\n")
		if !gz {
			if _, err := w.Write(rec.Bytes()); err != nil {
				return nil, err
			}
			continue
		}
		zw := gzip.NewWriter(w)
		if _, err := zw.Write(rec.Bytes()); err != nil {
			return nil, err
		}
		if err := zw.Close(); err != nil {
			return nil, err
		}
	}
	return ids, nil
}

func reason(status int) string {
	switch status {
	case 200:
		return "OK"
	case 301:
		return "Moved Permanently"
	case 302:
		return "Found"
	}
	return "Status"
}
