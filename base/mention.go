package base

import (
	"bytes"
	"io"
)

// Only a document whose bytes hold "<base" (in any case) can have a
// <base> element: a seekable document without it needs no scan for its
// base, and a pass that watches its input for it learns when a scan can
// matter. The search is ASCII case-insensitive over the raw bytes, which
// serves every ASCII-compatible encoding (not UTF-16: search its decoded
// text).

// Finder finds "<base" in a document given to it in order, in pieces
// of any size ("<base" split between two pieces included). The zero
// value is ready to use.
type Finder struct {
	tail [8]byte // the last bytes given, for a "<base" split between pieces
	n    int
}

// Find reports whether "<base" occurs in p or across the seam between
// the pieces given before and p. It remembers p's last bytes for the
// next call.
func (f *Finder) Find(p []byte) bool {
	if f.n > 0 {
		var seam [12]byte
		k := copy(seam[:], f.tail[:f.n])
		k += copy(seam[k:], p[:min(len(p), 4)])
		if containsBase(seam[:k]) {
			return true
		}
	}
	if containsBase(p) {
		return true
	}
	if len(p) >= 4 {
		f.n = copy(f.tail[:], p[len(p)-4:])
	} else {
		t := append(f.tail[:f.n:f.n], p...)
		f.n = copy(f.tail[:], t[max(0, len(t)-4):])
	}
	return false
}

// MentionsBase reports whether r holds "<base" in any case, after what
// f was given: only then can the document have a <base> element. It
// reads r through buf, in constant memory, to the end or to the first
// "<base".
func MentionsBase(r io.Reader, f *Finder, buf []byte) (bool, error) {
	for {
		n, err := r.Read(buf)
		if f.Find(buf[:n]) {
			return true, nil
		}
		if err == io.EOF {
			return false, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// containsBase reports whether b holds "<base", ASCII case-insensitively.
func containsBase(b []byte) bool {
	for {
		i := bytes.IndexByte(b, '<')
		if i < 0 || len(b)-i < 5 {
			return false
		}
		if b[i+1]|0x20 == 'b' && b[i+2]|0x20 == 'a' && b[i+3]|0x20 == 's' && b[i+4]|0x20 == 'e' {
			return true
		}
		b = b[i+1:]
	}
}
