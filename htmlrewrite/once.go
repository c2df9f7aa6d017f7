package htmlrewrite

import (
	"errors"
	"io"
	"math"
	"reflect"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/countio"
	"github.com/relurl/relurl/link"
)

// A document that can be read again (an io.ReadSeeker) into an output
// that can be taken back (a Rewinder) is rewritten in one pass, where
// the look-ahead of [Open] would read it twice (once for "<base", once to
// rewrite it): the rewrite starts with the fallback base, and the first
// start tag named "base" the pass meets (in any namespace, template or
// noscript) calls for the look-ahead's own decision, base.ScanHTML over
// the whole document (only the bytes up to the deciding element are read
// again). A document without one has no <base> element for that scan to
// find, and is read once: its bytes are not searched for "<base" a second
// time (the tokenizer meets every start tag). When nothing written so far
// depended on the fallback base (no link yet, the usual <base> early in
// <head>), the pass goes on with the decided base. Only when links were
// rewritten with the fallback base and the deciding element then says
// otherwise are the output rewound and the document rewritten from its
// start with the decided base. When the pass stops early (a tag too
// long, the rest copied as it is) or the document is longer than
// base.ScanHTML's token bound, the look-ahead's search is done as it does
// it ("<base" anywhere, then its scan). The decision is in every case the
// one the look-ahead makes, so the output is the same byte for byte
// (TestRewriteOnceAgrees).

// Rewinder is an output that can take back what was written to it: a
// temporary file not yet renamed into place (safewrite.Writer's streamed
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
func rewriteOnce(dst Rewinder, rs io.ReadSeeker, start int64, opts Options) (st link.Stats, ok bool, err error) {
	if err := checkSpec(opts); err != nil {
		return link.Stats{}, true, err
	}
	buf := readBuffer()[:readSize]
	first, p, utf16, err := startOnce(rs, start, buf, &opts)
	if utf16 || err != nil {
		freeReadBuffer(buf)
		return link.Stats{}, !utf16, err
	}
	s, err := newScannerPrepared(p, opts, nil, nil)
	if err != nil {
		freeReadBuffer(buf)
		return link.Stats{}, true, err
	}
	late := &lateBase{rs: rs, start: start, opts: &opts, s: s, fallback: p.base}
	s.onBase = late.decide
	s.first = first // the tokenizer reads the first bytes where they are, and frees buf
	src := &countio.Reader{R: rs, N: int64(len(first))}
	st, err = rewriteWith(s, dst, src)
	// Without a <base> tag met, the look-ahead's search is still needed
	// when the pass stopped early (a tag too long: the rest is copied as
	// it is) or when the document is longer than base.ScanHTML's token
	// bound (its scan could fail).
	if !late.seen && (err != nil && !errors.Is(err, errRedo) || src.N > base.MaxToken) {
		found, serr := late.search()
		if found {
			st = s.stats
		}
		if serr != nil {
			err = serr
		}
	}
	s.free()
	if !errors.Is(err, errRedo) {
		return st, true, err
	}
	// The deciding <base> came after links rewritten with the fallback
	// base: the output is taken back and the document rewritten from its
	// start with the decided base.
	if err := dst.Rewind(); err != nil {
		return link.Stats{}, true, err
	}
	if opts.Referrer != nil {
		opts.Referrer.Restart()
	}
	if _, err := rs.Seek(start, io.SeekStart); err != nil {
		return link.Stats{}, true, err
	}
	q := *late.decided
	s, err = newScannerPrepared(q, opts, nil, nil)
	if err != nil {
		return link.Stats{}, true, err
	}
	st, err = rewriteWith(s, dst, rs)
	s.free()
	return st, true, err
}

// lateBase is what a single pass (rewriteOnce, linksOnce) knows of the
// look-ahead's decision: the pass starts with the fallback base and takes
// the decision at the first start tag named "base" (scanner.onBase), or
// when it must search the whole document for "<base" after all.
type lateBase struct {
	rs       io.ReadSeeker
	start    int64
	opts     *Options
	s        *scanner
	fallback base.Result // the look-ahead's decision without "<base"
	decided  *prepared   // the look-ahead's decision, once a <base> tag is met
	seen     bool        // decided, or known to have no "<base"
}

// decide takes the look-ahead's decision; errRedo when what the pass
// did so far depended on the fallback base and the decision differs.
func (l *lateBase) decide() error {
	l.seen = true
	q, err := decideLate(l.rs, l.start, l.opts)
	if err != nil {
		return err
	}
	l.decided = &q
	switch {
	case l.s.untouched():
		// Nothing written or found so far (no link, no warning) depends
		// on the fallback base: the scanner goes on with the decided
		// base, as if made with it.
		l.s.adopt(q)
		return nil
	case !q.elem.Found && reflect.DeepEqual(q.base, l.fallback):
		return nil // the look-ahead decides what the pass assumed
	}
	return errRedo
}

// search does the look-ahead's search, "<base" anywhere in the document,
// and then its decision (once: nothing when already decided or searched);
// found says whether "<base" occurs.
func (l *lateBase) search() (found bool, err error) {
	if l.seen {
		return false, nil
	}
	l.seen = true
	l.s.onBase = nil
	buf := readBuffer()[:readSize]
	found, err = base.MentionsBase(scanFrom(l.rs, l.start), &base.Finder{}, buf)
	freeReadBuffer(buf)
	if err != nil || !found {
		return false, err
	}
	return true, l.decide()
}

// rewriteWith runs the scanner s over r into dst, as Document.Rewrite
// does.
func rewriteWith(s *scanner, dst io.Writer, r io.Reader) (link.Stats, error) {
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

// untouched reports whether nothing the scanner did so far depends on
// the base it was made with: no URL value met (each one counts as a
// link, resolved or not), no resolver for the document's URL made, no
// warning added (a warning of an import map before <base> must stay in
// the base's warnings, in order).
func (s *scanner) untouched() bool {
	return s.stats.Links == 0 && s.docRes == nil && len(s.stats.Base.Warnings) == s.warn0
}

// adopt makes the scanner go on with the base q decided, as if it had
// been made with it: nothing so far depended on the fallback (untouched).
func (s *scanner) adopt(q prepared) {
	s.p.elem, s.p.base = q.elem, q.base
	s.stats.Base = q.base
	s.res, s.docRes = s.resolver(q.base.URL), nil
	s.warn0 = len(s.stats.Base.Warnings)
}
