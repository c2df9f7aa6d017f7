// Package coding undoes HTTP content codings (RFC 9110 §8.4.1): gzip
// (x-gzip), deflate and br, stacked in any order, for every reader of HTTP
// bodies in relurl (the WARC reader in mime, base.Fetch), so that what one
// decodes the other decodes too. Every decoded body is bounded.
package coding

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/andybalholm/brotli"
)

// Accept is the Accept-Encoding value (RFC 9110 §12.5.3) of the codings
// Decode undoes.
const Accept = "gzip, deflate, br"

// ErrTooLarge is wrapped by a decoding that goes past its bound.
var ErrTooLarge = errors.New("decoded body larger than the limit")

// An Error is a content coding that did not decode.
type Error struct {
	Coding string // as named in Content-Encoding, lower case
	// Before is the body that coding was to undo (the codings after it
	// in the list already undone); Partial what it decoded before
	// failing, if anything.
	Before, Partial []byte
	Err             error
}

func (e *Error) Error() string {
	return "Content-Encoding " + e.Coding + " does not decode: " + e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// Decode undoes the content codings that the Content-Encoding value
// contentEncoding lists, in the order they were applied, so the last
// first (RFC 9110 §8.4); "identity" and empty members are skipped. The
// result, and each step, is at most max bytes: past it the error wraps
// ErrTooLarge. A coding that is unknown or does not decode stops the
// work with an *Error.
func Decode(contentEncoding string, body []byte, max int64) ([]byte, error) {
	codings := strings.Split(strings.ToLower(contentEncoding), ",")
	for i := len(codings) - 1; i >= 0; i-- {
		c := strings.TrimSpace(codings[i])
		if c == "" || c == "identity" {
			continue
		}
		out, err := decodeOne(c, body, max)
		if errors.Is(err, ErrTooLarge) {
			return nil, err
		}
		if err != nil {
			return nil, &Error{Coding: c, Before: body, Partial: out, Err: err}
		}
		body = out
	}
	return body, nil
}

// decodeOne undoes one content coding; on a read error it returns what
// it decoded and the error.
func decodeOne(coding string, body []byte, max int64) ([]byte, error) {
	r, err := decoder(coding, body)
	if err != nil {
		return nil, err
	}
	// Most bodies are small: read at once. A larger one is measured
	// first (decoded into nothing), then decoded again into a buffer of
	// its size, so that what is held is the body and the bound, never a
	// growing buffer's old and new copies (twice the bound).
	const small = 4 << 20
	out, err := io.ReadAll(io.LimitReader(r, min(max, small)+1))
	if err != nil || int64(len(out)) <= min(max, small) {
		return out, err
	}
	if int64(len(out)) > max {
		return nil, fmt.Errorf("%w: decoded body over %d bytes", ErrTooLarge, max)
	}
	n := int64(len(out))
	out = nil
	m, err := io.Copy(io.Discard, io.LimitReader(r, max+1-n))
	if err != nil {
		// What decodes before the error, as for a small body.
		if r2, derr := decoder(coding, body); derr == nil {
			out = make([]byte, n+m)
			k, _ := io.ReadFull(r2, out)
			out = out[:k]
		}
		return out, err
	}
	if n += m; n > max {
		return nil, fmt.Errorf("%w: decoded body over %d bytes", ErrTooLarge, max)
	}
	if r, err = decoder(coding, body); err != nil {
		return nil, err
	}
	out = make([]byte, n)
	if _, err := io.ReadFull(r, out); err != nil {
		return nil, err
	}
	return out, nil
}

// decoder returns a reader of body with coding undone.
func decoder(coding string, body []byte) (io.Reader, error) {
	var r io.Reader
	switch coding {
	case "gzip", "x-gzip":
		z, err := gzip.NewReader(bytes.NewReader(body))
		if err != nil {
			return nil, err
		}
		r = z
	case "deflate":
		// RFC 9110 §8.4.1.2 says zlib; many servers send raw deflate.
		if z, err := zlib.NewReader(bytes.NewReader(body)); err == nil {
			r = z
		} else {
			r = flate.NewReader(bytes.NewReader(body))
		}
	case "br":
		r = brotli.NewReader(bytes.NewReader(body))
	default:
		return nil, fmt.Errorf("unknown coding %q", coding)
	}
	return r, nil
}
