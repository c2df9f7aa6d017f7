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

// TooLongError is ReadDocument's error for a document over its bound.
type TooLongError struct{ Limit int }

func (e *TooLongError) Error() string {
	return fmt.Sprintf("longer than %d bytes: left as written", e.Limit)
}

// ReadDocument reads a document that a reader must hold whole, at most max
// bytes (link.DefaultMaxToken when max <= 0). A longer one is still
// read to its end and returned with a *TooLongError, so that the caller can
// copy it as written.
func ReadDocument(src io.Reader, max int) ([]byte, error) {
	if max <= 0 {
		max = link.DefaultMaxToken
	}
	data, err := io.ReadAll(io.LimitReader(src, int64(max)+1))
	if err != nil || len(data) <= max {
		return data, err
	}
	rest, _ := io.ReadAll(src)
	return append(data, rest...), &TooLongError{Limit: max}
}
