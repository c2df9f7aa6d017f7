package base

import (
	"bytes"
	"io"
	"math"
	"os"

	"golang.org/x/text/encoding"
)

// The HTML open sequence, in one place: what an HTML document's first
// bytes and the layers around it decide before its first link is read.
// base.Open (`relurl base`, the open step) and package htmlrewrite (every
// rewrite and link extraction) both call DecideHTML; what they choose
// differently is an HTMLPolicy field, not a second copy of the steps.

// HTMLPolicy is what the callers of [DecideHTML] choose differently. The
// zero value is [Open]'s choice for a stream.
type HTMLPolicy struct {
	// ScanLimit bounds how much of a stream (a reader that cannot seek)
	// is held while its <base> is looked for; 0 is DefaultScanLimit. A
	// negative limit scans to the deciding element or the end and keeps
	// nothing: HTMLDecision.Reader is then nil (a caller that only wants
	// the base, as `relurl base`).
	ScanLimit int64
	// Scripting reads <noscript> as a user agent with scripting does (the
	// Scripting ScanOption).
	Scripting bool
	// WarnScanErrors makes a <base> scan that fails (a token over
	// MaxToken, a read error past the first bytes) decide with what it
	// found, the error becoming a warning ("looking for <base href>:
	// ..."): for a caller whose own pass over the document meets the same
	// problem and reports it (htmlrewrite's IncompleteError, the read
	// error). Unset, the error is DecideHTML's: a caller that reads the
	// document for nothing but its base cannot tell it.
	WarnScanErrors bool
	// Spool makes a stream whose <base> is not settled within ScanLimit
	// bytes be copied to an unlinked temporary file in SpoolDir (see
	// [Spool]) and decided from there: the base is then the right one in
	// bounded memory. HTMLDecision.Spool is the file; the caller closes it.
	Spool    bool
	SpoolDir string
	// Charset, when set, is called with the encoding's name as soon as
	// it is decided, before the <base> is looked for; its error is
	// DecideHTML's (a tokenizer refuses an encoding it cannot read).
	Charset func(name string) error
	// Buffer, when it holds at least 1024 bytes, is read into for the
	// first bytes and the "<base" pre-check; DecideHTML keeps nothing of
	// it. nil: DecideHTML makes its own.
	Buffer []byte

	// raw (Open): a UTF-16 stream's Reader yields its bytes, not its
	// decoded text. Never with Spool.
	raw bool
}

// HTMLDecision is what [DecideHTML] decided of an HTML document.
type HTMLDecision struct {
	// Encoding is the document's encoding (nil for UTF-8), Charset its
	// name and CharsetSource the layer that decided it (see [Encoding]).
	Encoding               encoding.Encoding
	Charset, CharsetSource string
	// Element is the <base> element that decides the base (Found false
	// when none does). In a UTF-16 document its Line, Column and Offset
	// count in its text decoded to UTF-8 (see Reader), the byte order
	// mark included: the text a reader of Reader tokenizes.
	Element Element
	// Base is the document's base by the §3 layers, with the layer that
	// decided it and the layers' warnings.
	Base Result
	// Warnings are the <base> scan's: elements that were found and did
	// not count, and why; with WarnScanErrors, the scan's error last.
	Warnings []string
	// Settled is false when a stream's <base> was not decided within
	// ScanLimit bytes (and not spooled): Element is then not found and
	// Base the fallback.
	Settled bool
	// Reader yields the document's text from its first byte: its bytes,
	// or, for UTF-16, its text decoded to UTF-8 losslessly (U+FEFF for
	// the byte order mark, a lone surrogate in its three-byte generalized
	// form, an odd last byte kept aside: see OddByte). A seekable source
	// is seeked back and is (or is under) Reader; a stream is what was
	// looked at, then the rest; a spooled stream is read from Spool. nil
	// with a negative ScanLimit.
	Reader io.Reader
	// Spool is the temporary file Reader reads from when the stream was
	// spooled, nil otherwise; the caller closes it.
	Spool *os.File

	utf16 *utf16Reader // Reader's decoder, for a UTF-16 document
}

// UTF16 reports whether the document is UTF-16, and Reader its decoded
// text.
func (d *HTMLDecision) UTF16() bool { return d.utf16 != nil }

// OddByte returns the odd last byte of a UTF-16 document (which no code
// unit holds), known once Reader has been read to its end: a rewriter
// writes it back last.
func (d *HTMLDecision) OddByte() []byte {
	if d.utf16 == nil {
		return nil
	}
	return d.utf16.tail
}

// ContentType returns declared, the document's Content-Type as its
// caller was told it, or when that is "" the Content-Type of c.Header:
// both are the transport layer's word on the document's type and
// charset.
func (c *Context) ContentType(declared string) string {
	if declared == "" && c.Header != nil {
		return c.Header.Get("Content-Type")
	}
	return declared
}

// DecideHTML reads as much of the HTML document r as it takes to decide,
// once, for every reader of it: its encoding from its first 1024 bytes
// (byte order mark > Content-Type charset > <meta> prescan, see
// [Encoding]; contentType, else c.Header's), and its <base> element and
// base by the §3 layers of c. A UTF-16 document is looked at as its
// decoded text (see HTMLDecision.Reader).
//
// A reader that can seek (r is read from where it stands) is looked at
// for "<base" first (one read, [MentionsBase]) and scanned ([ScanHTML])
// only when it holds one, then seeked back; nothing is held. A stream is
// held up to ScanLimit bytes while it is scanned ([Lookahead]), read only
// as far as the deciding element; past the limit it is spooled (Spool)
// or left unsettled. The error is that of reading r, of p.Charset, of
// spooling, or of the scan (unless WarnScanErrors).
func DecideHTML(r io.Reader, contentType string, c Context, p HTMLPolicy) (*HTMLDecision, error) {
	rs, seekable := r.(io.ReadSeeker)
	var start int64
	if seekable {
		// os.Stdin is an io.ReadSeeker even when it is a pipe: it must
		// really seek.
		var err error
		if start, err = rs.Seek(0, io.SeekCurrent); err != nil {
			seekable = false
		}
	}
	buf := p.Buffer
	if len(buf) < 1024 {
		buf = make([]byte, 4<<10)
	}
	n, err := io.ReadAtLeast(r, buf, 1024)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	whole := err != nil // the first read reached the end
	head := buf[:n]

	d := &HTMLDecision{Settled: true}
	d.Encoding, d.Charset, d.CharsetSource = Encoding(head[:min(n, 1024)], c.ContentType(contentType))
	if p.Charset != nil {
		if err := p.Charset(d.Charset); err != nil {
			return nil, err
		}
	}
	t := docText{utf16: d.Charset == "utf-16le" || d.Charset == "utf-16be", big: d.Charset == "utf-16be"}
	if !t.utf16 && c.Options.QueryEncoding == nil {
		// <base href> is text in the document's encoding (the WHATWG
		// mode decodes it with this). A UTF-16 document's query
		// encoding is UTF-8 (Encoding Standard, "get an output
		// encoding").
		c.Options.QueryEncoding = d.Encoding
	}
	limit := p.ScanLimit
	if limit == 0 {
		limit = DefaultScanLimit
	}
	opts := []ScanOption{Scripting(p.Scripting)}
	var e Element
	var warns []string
	var scanErr error
	switch {
	case limit < 0:
		e, warns, scanErr = ScanHTML(t.of(io.MultiReader(bytes.NewReader(head), r)), c.Strict, opts...)
	case seekable:
		found, err := t.mentionsBase(rs, start, head, whole, buf)
		if err != nil {
			return nil, err
		}
		if found {
			e, warns, scanErr = ScanHTML(t.of(from(rs, start)), c.Strict, opts...)
		}
		if _, err := rs.Seek(start, io.SeekStart); err != nil {
			return nil, &Error{Op: "open", Err: err}
		}
		d.Reader = rs
		if t.utf16 && !p.raw {
			d.utf16 = newUTF16Reader(rs, t.big)
			d.Reader = d.utf16
		}
	default:
		src := io.MultiReader(bytes.NewReader(bytes.Clone(head)), r)
		var rec *recorder
		if t.utf16 {
			if p.raw {
				rec = &recorder{r: src}
				d.utf16 = newUTF16Reader(rec, t.big)
			} else {
				d.utf16 = newUTF16Reader(src, t.big)
			}
		}
		var rest io.Reader
		var text io.Reader = src
		if d.utf16 != nil {
			text = d.utf16
		}
		e, warns, rest, d.Settled, scanErr = Lookahead(text, c.Strict, limit, opts...)
		d.Reader = rest
		if rec != nil {
			d.Reader, d.utf16 = io.MultiReader(bytes.NewReader(rec.buf), src), nil
		}
		if !d.Settled && p.Spool {
			f, err := Spool(rest, p.SpoolDir)
			if err != nil {
				return nil, err
			}
			d.Spool, d.Reader, d.Settled = f, f, true
			// The spool holds the text (UTF-8, if the stream was
			// UTF-16): looked at as a file of it.
			e, warns, scanErr = Element{}, nil, nil
			found, err := MentionsBase(f, &Finder{}, buf)
			if err == nil && found {
				if _, err = f.Seek(0, io.SeekStart); err == nil {
					e, warns, scanErr = ScanHTML(f, c.Strict, opts...)
				}
			}
			if err == nil {
				_, err = f.Seek(0, io.SeekStart)
			}
			if err != nil {
				f.Close()
				return nil, &Error{Op: "spool", Err: err}
			}
		}
	}
	if scanErr != nil {
		if !p.WarnScanErrors {
			if d.Spool != nil {
				d.Spool.Close()
			}
			return nil, scanErr
		}
		warns = append(warns, "looking for <base href>: "+scanErr.Error())
	}
	if t.utf16 && e.Found {
		e.Href = replaceSurrogates(e.Href)
	}
	d.Element, d.Warnings = e, warns
	d.Base = c.Decide(e)
	return d, nil
}

// docText is how a document's bytes become the text its <base> is looked
// for in: as they are, or decoded from UTF-16.
type docText struct{ utf16, big bool }

func (t docText) of(r io.Reader) io.Reader {
	if t.utf16 {
		return newUTF16Reader(r, t.big)
	}
	return r
}

// mentionsBase reports whether the seekable document rs, which starts at
// start and whose first bytes head were read from it (all of it if
// whole), holds "<base" in its text, reading it through buf.
func (t docText) mentionsBase(rs io.ReadSeeker, start int64, head []byte, whole bool, buf []byte) (bool, error) {
	if t.utf16 {
		if _, err := rs.Seek(start, io.SeekStart); err != nil {
			return false, &Error{Op: "open", Err: err}
		}
		return MentionsBase(newUTF16Reader(rs, t.big), &Finder{}, buf)
	}
	var f Finder
	if f.Find(head) {
		return true, nil
	}
	if whole {
		return false, nil
	}
	return MentionsBase(rs, &f, buf)
}

// from returns a reader of rs from start to its end, reading at its own
// offsets when rs can (an *os.File: no seek).
func from(rs io.ReadSeeker, start int64) io.Reader {
	if ra, ok := rs.(io.ReaderAt); ok {
		return io.NewSectionReader(ra, start, math.MaxInt64-start)
	}
	if _, err := rs.Seek(start, io.SeekStart); err != nil {
		return errReader{&Error{Op: "open", Err: err}}
	}
	return rs
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// recorder keeps what is read through it.
type recorder struct {
	r   io.Reader
	buf []byte
}

func (r *recorder) Read(p []byte) (int, error) {
	n, err := r.r.Read(p)
	r.buf = append(r.buf, p[:n]...)
	return n, err
}
