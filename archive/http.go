package archive

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/relurl/relurl/internal/coding"
	"github.com/relurl/relurl/internal/errtext"
)

// An httpHead is the head of an HTTP/1.x response as a WARC response
// record or a message/http entity stores it.
type httpHead struct {
	StatusLine string // as written, e.g. "HTTP/1.1 302 Found"
	StatusCode int    // 0 when the status line has none
	Header     Header
}

// readHTTPHead reads an HTTP response's status line and header from br.
// It accepts what Go's net/http rejects but archives hold: "HTTP/2 200",
// an empty reason phrase, LF-only line ends.
func readHTTPHead(br *bufio.Reader, max int64) (*httpHead, error) {
	var head []byte
	lineStart := 0
	for {
		line, err := br.ReadSlice('\n')
		head = append(head, line...)
		if int64(len(head)) > max {
			return nil, ErrHeaderTooLarge
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			if len(head) == 0 {
				return nil, io.ErrUnexpectedEOF
			}
			break
		}
		if lineStart > 0 && len(bytes.TrimRight(head[lineStart:], "\r\n")) == 0 {
			break
		}
		lineStart = len(head)
	}
	status, next := nextLine(head, 0)
	if !bytes.HasPrefix(status, []byte("HTTP/")) {
		return nil, fmt.Errorf("not an HTTP response: %q", clip(status))
	}
	h, _, _, _ := readHeader(head[next:], max)
	r := &httpHead{StatusLine: string(status), Header: h}
	if f := strings.Fields(string(status)); len(f) >= 2 {
		r.StatusCode, _ = strconv.Atoi(f[1])
	}
	return r, nil
}

// httpPayload undoes the HTTP transfer coding and content codings of raw
// (RFC 9112 §7, RFC 9110 §8.4): chunked, then gzip, x-gzip, deflate (zlib
// or raw, as servers send both) and br. When a header lies (a body stored
// de-chunked under "Transfer-Encoding: chunked", as some crawlers did, or
// an encoding that does not decode) the bytes are kept as they were and a
// warning says so; a gzip body sent without Content-Encoding is
// recognised by its magic number. The result is at most max bytes.
func httpPayload(h Header, raw []byte, max int64) ([]byte, []string, error) {
	var warn []string
	body := raw
	if hasToken(h.Get("Transfer-Encoding"), "chunked") {
		if b, err := dechunk(raw, max); err == nil {
			body = b
		} else if errors.Is(err, ErrTooLarge) {
			return nil, warn, err
		} else {
			warn = append(warn, "Transfer-Encoding chunked does not decode ("+errtext.Of(err)+"): body kept as stored")
		}
	}
	codings := h.Get("Content-Encoding")
	if strings.TrimSpace(codings) == "" && bytes.HasPrefix(body, []byte{0x1f, 0x8b}) {
		codings = "gzip"
	}
	decoded, err := coding.Decode(codings, body, max)
	var ce *coding.Error
	switch {
	case errors.Is(err, coding.ErrTooLarge):
		return nil, warn, fmt.Errorf("%w: decoded body over %d bytes", ErrTooLarge, max)
	case errors.As(err, &ce) && errors.Is(ce.Err, io.ErrUnexpectedEOF) && len(ce.Partial) > 0:
		// A body cut short (a truncated record): what decodes is
		// the best there is.
		warn = append(warn, "Content-Encoding "+ce.Coding+" body is truncated: decoded as far as it goes")
		body = ce.Partial
	case errors.As(err, &ce):
		warn = append(warn, "Content-Encoding "+ce.Coding+" does not decode ("+ce.Err.Error()+"): body kept as stored")
		body = ce.Before
	default:
		body = decoded
	}
	return body, warn, nil
}

func hasToken(v, token string) bool {
	for _, t := range strings.Split(v, ",") {
		if strings.EqualFold(strings.TrimSpace(t), token) {
			return true
		}
	}
	return false
}

// readMax reads r to the end, failing with ErrTooLarge past max bytes.
// On a read error it returns what it read and the error.
func readMax(r io.Reader, max int64) ([]byte, error) {
	return readMaxSize(r, 512, max)
}

// readMaxSize is readMax for a reader that holds about size bytes, read
// into one allocation when size is right.
func readMaxSize(r io.Reader, size, limit int64) ([]byte, error) {
	// A lying size costs at most 4 MiB up front.
	return readMaxCap(r, min(size, 4<<20), limit)
}

// readMaxCap is readMax starting with a buffer of size bytes (at most
// limit), for a size that is known to be right.
func readMaxCap(r io.Reader, size, limit int64) ([]byte, error) {
	size = min(max(size, 0), limit) + 1
	b := make([]byte, 0, size)
	var err error
	lr := io.LimitReader(r, limit+1)
	for {
		if len(b) == cap(b) {
			b = slices.Grow(b, cap(b)) // doubling: append's growth for large slices is 1.25x
		}
		var n int
		n, err = lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			break
		}
	}
	if err != io.EOF {
		return b, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%w: decoded body over %d bytes", ErrTooLarge, limit)
	}
	return b, nil
}

// dechunk decodes a chunked body (RFC 9112 §7.1), ignoring chunk
// extensions and trailer fields.
func dechunk(raw []byte, max int64) ([]byte, error) {
	var out []byte
	pos := 0
	for {
		if pos >= len(raw) {
			return nil, io.ErrUnexpectedEOF
		}
		line, next := nextLine(raw, pos)
		if i := bytes.IndexByte(line, ';'); i >= 0 {
			line = line[:i]
		}
		size, err := strconv.ParseInt(string(bytes.TrimSpace(line)), 16, 64)
		if err != nil || size < 0 {
			return nil, fmt.Errorf("bad chunk size %q", clip(line))
		}
		if size == 0 {
			return out, nil
		}
		if size > int64(len(raw)-next) {
			return nil, io.ErrUnexpectedEOF
		}
		if int64(len(out))+size > max {
			return nil, fmt.Errorf("%w: decoded body over %d bytes", ErrTooLarge, max)
		}
		out = append(out, raw[next:next+int(size)]...)
		pos = next + int(size)
		// The CRLF after the chunk data.
		if pos < len(raw) && raw[pos] == '\r' {
			pos++
		}
		if pos < len(raw) && raw[pos] == '\n' {
			pos++
		}
	}
}
