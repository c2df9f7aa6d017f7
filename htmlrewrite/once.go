package htmlrewrite

import (
	"errors"
	"io"
	"math"
	"reflect"

	"github.com/relurl/relurl/base"
)

// A document that can be read again (an io.ReadSeeker) into an output
// that can be taken back (a Rewinder) is rewritten in one pass, where
// the look-ahead of [Open] would read it twice (once for "<base", once to
// rewrite it): the rewrite starts with the fallback base, and the input
// is watched for "<base" as it is read. Most documents have none, and are
// read once. A document whose first "<base" comes in the tokenizer's
// first read, before any token is rewritten (a <base> early in <head>,
// the usual case), gets the base the look-ahead would have decided
// before its first token, and needs no second pass either (only the
// bytes up to the deciding element are read again, by base.ScanHTML).
// Only when a "<base" comes after tokens were rewritten with the
// fallback base, and the deciding element then says otherwise, are the
// output rewound and the document rewritten from its start with the
// decided base. The decision is in every case the one the look-ahead
// makes, base.ScanHTML over the whole document, so the output is the
// same byte for byte (TestRewriteOnceAgrees).

// Rewinder is an output that can take back what was written to it: a
// temporary file not yet renamed into place (tree.Writer's streamed
// writes are one), a buffer. Rewind discards everything written so far;
// the next Write starts the output again. [Rewrite] into a Rewinder
// reads a seekable document once. Rewrite may call Rewind, so a writer
// that holds anything besides the document (an archive's other parts, a
// header written before) must not be handed to it as a Rewinder.
type Rewinder interface {
	io.Writer
	Rewind() error
}

// errRedo stops a single pass whose deciding <base> came too late.
var errRedo = errors.New("htmlrewrite: the document's base changed after the first links")

// discard is io.Discard as a Rewinder: --dry-run keeps nothing to take
// back.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
func (discard) Rewind() error               { return nil }

// rewinder returns dst as a Rewinder, if it is one.
func rewinder(dst io.Writer) (Rewinder, bool) {
	if dst == io.Discard {
		return discard{}, true
	}
	rw, ok := dst.(Rewinder)
	return rw, ok
}

// rewriteOnce is Rewrite of the seekable document rs, from start, into
// the Rewinder dst (see above). ok is false when the document is to go
// the look-ahead's way after all (UTF-16, which is decoded as a stream):
// rs is then back at start and nothing is written.
func rewriteOnce(dst Rewinder, rs io.ReadSeeker, start int64, opts Options) (st Stats, ok bool, err error) {
	if opts.Context.Spec == 0 {
		opts.Context.Spec = opts.Spec
	}
	if err := checkSpec(opts); err != nil {
		return Stats{}, true, err
	}
	// The first read serves the encoding's prefix and the tokenizer.
	first := readBuffer()[:readSize]
	defer freeReadBuffer(first)
	n, err := io.ReadAtLeast(rs, first, min(1024, readSize))
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return Stats{}, true, err
	}
	first = first[:n]
	d := decideEncoding(first[:min(n, 1024)], opts.ContentType)
	if d.name == "utf-16le" || d.name == "utf-16be" {
		_, err := rs.Seek(start, io.SeekStart)
		return Stats{}, false, err
	}
	if d.err != nil {
		return Stats{}, true, d.err
	}
	p := prepared{enc: d.enc, encName: d.name}
	// The look-ahead's decision for a document without "<base".
	p.base = opts.Context.Decide(base.Element{})
	fallback := p.base
	s, err := newScannerPrepared(p, opts, nil, nil)
	if err != nil {
		return Stats{}, true, err
	}
	var decided *prepared // the look-ahead's decision, once "<base" is seen
	watch := &baseWatch{r: io.MultiReader(&byteReader{b: first}, rs)}
	watch.on = func() error {
		q := p
		q.scan(scanFrom(rs, start), &opts)
		decided = &q
		switch {
		case s.off == 0:
			// No token is rewritten yet: the scanner starts again
			// with the decided base, as if made with it.
			s.adopt(q)
			return nil
		case !q.elem.Found && reflect.DeepEqual(q.base, fallback):
			return nil // the look-ahead decides what the pass assumed
		}
		return errRedo
	}
	st, err = rewriteWith(s, dst, watch)
	if !errors.Is(err, errRedo) {
		return st, true, err
	}
	// The deciding <base> came after links rewritten with the fallback
	// base: the output is taken back and the document rewritten from its
	// start with the decided base.
	if err := dst.Rewind(); err != nil {
		return Stats{}, true, err
	}
	if _, err := rs.Seek(start, io.SeekStart); err != nil {
		return Stats{}, true, err
	}
	q := *decided
	s, err = newScannerPrepared(q, opts, nil, nil)
	if err != nil {
		return Stats{}, true, err
	}
	st, err = rewriteWith(s, dst, rs)
	return st, true, err
}

// rewriteWith runs the scanner s over r into dst, as Document.Rewrite
// does.
func rewriteWith(s *scanner, dst io.Writer, r io.Reader) (Stats, error) {
	w, free := pooledWriter(dst)
	defer free()
	s.w = w
	err := s.run(r)
	if ferr := s.flush(w); err == nil {
		err = ferr
	}
	return s.stats, err
}

// scanFrom returns a reader of rs from start to its end that leaves rs's
// own position alone: the single pass is reading rs meanwhile.
func scanFrom(rs io.ReadSeeker, start int64) io.Reader {
	if ra, ok := rs.(io.ReaderAt); ok {
		return io.NewSectionReader(ra, start, math.MaxInt64-start)
	}
	return &seekBack{rs: rs, start: start}
}

// seekBack reads rs from start, and puts rs back where it was at the
// end of each read.
type seekBack struct {
	rs    io.ReadSeeker
	start int64
	off   int64
}

func (r *seekBack) Read(p []byte) (int, error) {
	at, err := r.rs.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	if _, err := r.rs.Seek(r.start+r.off, io.SeekStart); err != nil {
		return 0, err
	}
	n, err := r.rs.Read(p)
	r.off += int64(n)
	if _, serr := r.rs.Seek(at, io.SeekStart); serr != nil && err == nil {
		err = serr
	}
	return n, err
}

// byteReader is a bytes.Reader without WriteTo, so that the tokenizer's
// reads go through baseWatch.
type byteReader struct{ b []byte }

func (r *byteReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// baseWatch passes on what it reads from r, and calls on the first time
// "<base" (in any case) goes through: only a document holding it can have
// a <base> element. An error from on ends the reading.
type baseWatch struct {
	r    io.Reader
	f    base.Finder
	seen bool
	on   func() error
}

func (w *baseWatch) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	if !w.seen && n > 0 {
		if w.f.Find(p[:n]) {
			w.seen = true
			if oerr := w.on(); oerr != nil {
				return 0, oerr
			}
		}
	}
	return n, err
}

// adopt makes the scanner go on with the base q decided, as if it had
// been made with it: nothing resolved so far depended on the fallback.
func (s *scanner) adopt(q prepared) {
	s.p.elem, s.p.base = q.elem, q.base
	s.stats.Base = q.base
	s.res, s.docRes = s.resolver(q.base.URL), nil
}
