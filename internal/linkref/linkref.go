// Package linkref holds what the readers of link-bearing formats other
// than HTML (xmlrewrite, manifest, jsmodule) share: the decision of what a
// rewrite writes for one reference, made as htmlrewrite makes it (values
// with a scheme and fragment-only ones left as written unless asked,
// Options.Map first), the splicing of replacements into the source bytes,
// and line and column numbers.
package linkref

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"strings"

	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// Decider decides, one reference at a time, what a rewrite writes, and
// counts what it did in Stats.
type Decider struct {
	Absolute  bool // also rewrite references with a scheme
	Fragments bool // also rewrite fragment-only references
	Map       func(link.Link) (string, bool)
	Stats     link.Stats
}

// Resolve resolves ref against res; a nil res is the empty base (§3.4)
// and resErr, when set, says why there is none.
func Resolve(res *resolve.Resolver, resErr error, ref string) (string, error) {
	if res == nil {
		if resErr != nil {
			return "", resErr
		}
		return "", resolve.ErrNoBase
	}
	return res.Reference(ref)
}

// Write returns the text to write in place of the reference raw and true,
// or false to leave it as written. mk makes the Link that Map is given,
// from the resolved URL.
func (d *Decider) Write(res *resolve.Resolver, resErr error, raw string, mk func(u string) link.Link) (string, bool) {
	ref := link.Clean(raw)
	_, abs := resolve.Scheme(ref)
	leave := !d.Absolute && abs || !d.Fragments && strings.HasPrefix(ref, "#")
	if leave && d.Map == nil {
		d.Stats.Links++
		d.Stats.Skipped++
		return "", false
	}
	u, err := Resolve(res, resErr, ref)
	return d.Decide(raw, u, err, mk)
}

// Decide is Write for a reference already resolved to u (or err).
func (d *Decider) Decide(raw, u string, err error, mk func(u string) link.Link) (string, bool) {
	ref := link.Clean(raw)
	d.Stats.Links++
	_, abs := resolve.Scheme(ref)
	leave := !d.Absolute && abs || !d.Fragments && strings.HasPrefix(ref, "#")
	mapped := false
	if err == nil && d.Map != nil {
		if m, ok := d.Map(mk(u)); ok {
			u, leave, mapped = m, false, true
		}
	}
	switch {
	case leave:
		d.Stats.Skipped++
		return "", false
	case err != nil:
		d.Stats.Failed++
		return "", false
	case u == raw:
		return "", false
	}
	d.Stats.Rewritten++
	if mapped {
		d.Stats.Mapped++
	}
	return u, true
}

// Splicer writes src to w with replacements, given in increasing order of
// position.
type Splicer struct {
	W   *bufio.Writer
	Src []byte
	at  int
}

// Replace writes the source up to a, then s in place of src[a:b].
func (s *Splicer) Replace(a, b int, repl string) {
	if a < s.at || b < a {
		return // overlapping or out of order: left as written
	}
	s.W.Write(s.Src[s.at:a])
	s.W.WriteString(repl)
	s.at = b
}

// Finish writes the rest of the source.
func (s *Splicer) Finish() {
	s.W.Write(s.Src[s.at:])
	s.at = len(s.Src)
}

// Lines turns byte offsets of Src into 1-based lines and columns, fastest
// when asked in increasing order.
type Lines struct {
	Src        []byte
	off, line0 int // the line at off
	lineStart  int
}

// Position returns the line and column (in bytes) of the offset o.
func (l *Lines) Position(o int) (line, col int) {
	if o > len(l.Src) {
		o = len(l.Src)
	}
	if o < l.off || l.line0 == 0 {
		l.off, l.line0, l.lineStart = 0, 1, 0
	}
	for {
		i := bytes.IndexByte(l.Src[l.off:o], '\n')
		if i < 0 {
			break
		}
		l.off += i + 1
		l.line0++
		l.lineStart = l.off
	}
	l.off = o
	return l.line0, o - l.lineStart + 1
}

// TooLongError is ReadDocument's error for a document over its bound. It
// is not held: Rest copies what ReadDocument did not read. It wraps
// link.ErrIncomplete, as every refusal of a reader's limit does.
type TooLongError struct {
	Limit int
	Size  int64 // the document's size when its file said so, else -1
	rest  io.Reader
}

func (e *TooLongError) Error() string {
	if e.Size >= 0 {
		return fmt.Sprintf("%d bytes, longer than %d bytes: left as written", e.Size, e.Limit)
	}
	return fmt.Sprintf("longer than %d bytes: left as written", e.Limit)
}

// Unwrap returns link.ErrIncomplete.
func (e *TooLongError) Unwrap() error { return link.ErrIncomplete }

// CopyRest copies to w the rest of the document, after the bytes
// ReadDocument returned with e.
func (e *TooLongError) CopyRest(w io.Writer) error {
	if e.rest == nil {
		return nil
	}
	_, err := io.Copy(w, e.rest)
	return err
}

// ReadDocument reads a document that a reader must hold whole, at most max
// bytes (link.DefaultMaxToken when max <= 0). A longer one is not
// read whole: a file whose size says so is not read at all, any other
// source only to max bytes and one more, and ReadDocument returns the
// bytes read with a *TooLongError, whose CopyRest copies the rest, so
// that the caller can copy the document as written.
func ReadDocument(src io.Reader, max int) ([]byte, error) {
	if max <= 0 {
		max = link.DefaultMaxToken
	}
	if h, ok := src.(*Held); ok {
		// Already in memory: its bytes, not a copy.
		data := h.data[len(h.data)-h.Len():]
		h.Seek(0, io.SeekEnd)
		if len(data) > max {
			return data, &TooLongError{Limit: max, Size: int64(len(data))}
		}
		return data, nil
	}
	size := int64(512) // what to read into first
	if z, ok := src.(*Sized); ok {
		if z.N > int64(max) {
			return nil, &TooLongError{Limit: max, Size: z.N, rest: z.Reader}
		}
		size = max64(0, z.N)
	} else if l, ok := src.(interface{ Len() int }); ok {
		// In memory (a bytes.Reader, a strings.Reader): its length.
		size = int64(l.Len())
	} else if f, ok := src.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if off, err := seekOffset(src); err == nil {
				if size = max64(0, fi.Size()-off); size > int64(max) {
					return nil, &TooLongError{Limit: max, Size: size, rest: src}
				}
			}
		}
	}
	data, err := readAll(src, min(size, int64(max))+1, int64(max)+1)
	if err != nil || len(data) <= max {
		return data, err
	}
	return data, &TooLongError{Limit: max, Size: -1, rest: src}
}

// Sized is a reader whose length, N bytes, is known (a file's): what
// ReadDocument reads it into, or refuses it by.
type Sized struct {
	io.Reader
	N int64
}

// Held is a document already read into memory, as a reader: ReadDocument
// takes its bytes as they are, so that a document passed from one reader
// to the next is held once.
type Held struct {
	*bytes.Reader
	data []byte
}

// NewHeld returns data as a Held reader.
func NewHeld(data []byte) *Held { return &Held{bytes.NewReader(data), data} }

// readAll reads r to its end or limit bytes, into a buffer of size bytes
// first: a file's size, read without the buffer's growth.
func readAll(r io.Reader, size, limit int64) ([]byte, error) {
	b := make([]byte, 0, size)
	lr := io.LimitReader(r, limit)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := lr.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// seekOffset is where a file is read from: 0 unless it says otherwise.
func seekOffset(src io.Reader) (int64, error) {
	if s, ok := src.(io.Seeker); ok {
		return s.Seek(0, io.SeekCurrent)
	}
	return 0, nil
}

func max64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}
