package archive

import (
	"bufio"
	"errors"
)

// A Response is the HTTP response a WARC response or revisit record
// holds: its status line and header, and its payload with the transfer
// and content codings undone (RFC 9112 §7, RFC 9110 §8.4), which is what a
// browser would render.
type Response struct {
	StatusLine string // as written, e.g. "HTTP/1.1 302 Found"
	StatusCode int    // 0 when the status line has none
	Header     Header
	// Payload is the decoded body: empty for a revisit record, whose
	// payload is that of the record it refers to.
	Payload []byte
	// Warnings say which codings did not decode (the bytes were then
	// kept as stored) and whether the record was cut short.
	Warnings []string
}

// ReadResponse reads the HTTP response in the block of rec, a WARC
// response or revisit record, bounded by lim (HeaderBytes for the head,
// DecodedBytes for the payload). It fails with an *Error when the block
// does not start with an HTTP status line (a dns: record, a revisit
// without headers) or breaks a bound. A block cut short by the end of the
// file gives what it holds, with a warning.
func ReadResponse(rec *Record, lim Limits) (*Response, error) {
	lim = lim.withDefaults()
	where := recordAt(rec.Offset)
	br := bufio.NewReader(rec.Block)
	head, err := readHTTPHead(br, lim.HeaderBytes)
	if err != nil {
		return nil, &Error{Op: "read HTTP response of", Where: where, Err: err}
	}
	r := &Response{StatusLine: head.StatusLine, StatusCode: head.StatusCode, Header: head.Header}
	raw, err := readMaxSize(br, rec.ContentLength, lim.DecodedBytes)
	if errors.Is(err, ErrTruncated) {
		r.Warnings = append(r.Warnings, "record is truncated: payload kept as far as it goes")
	} else if err != nil {
		return nil, &Error{Op: "read payload of", Where: where, Err: err}
	}
	body, warn, err := httpPayload(head.Header, raw, lim.DecodedBytes)
	r.Warnings = append(r.Warnings, warn...)
	if err != nil {
		return nil, &Error{Op: "decode payload of", Where: where, Err: err}
	}
	r.Payload = body
	return r, nil
}
