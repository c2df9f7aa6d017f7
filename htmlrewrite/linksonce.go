package htmlrewrite

import (
	"errors"
	"io"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/countio"
	"github.com/relurl/relurl/internal/spare"
	"github.com/relurl/relurl/link"
)

// A seekable document's links are found in one pass, where the
// look-ahead of [Open] reads it twice (once for "<base", once for the
// links): the links are found with the fallback base and HELD, a bounded
// number of them. The first start tag named "base" the pass meets (in
// any namespace, template or noscript) calls for the look-ahead's own
// decision, base.ScanHTML over the whole document; a document without
// one has no <base> element for that scan to find, and its held links
// go to fn, in order, at its end. When the held links reach the bound
// first, or the pass stops early (a tag too long), or the document is
// longer than base.ScanHTML's token bound (where its scan could fail
// with a warning), the look-ahead's search is done as it does it
// ("<base" anywhere, then its scan) before any link is handed on, so fn
// never gets a link whose base could still change. When the deciding
// <base> says otherwise than the fallback base while links are held,
// they are dropped and the document is read again from its start with
// the decided base. The links, their order and the returned base are
// in every case the look-ahead's (TestLinksOnceAgrees, FuzzLinksOnce).

// The bound on held links: their number, and the bytes of their strings.
var (
	holdLinks = 4096
	holdBytes = 1 << 20
)

// holds keeps the hold's slice between documents (as readBuffers does).
var holds = spare.New[[]link.Link](spareBuffers)

// hold is the fn of a single pass: it keeps links until full says they
// can go, then passes them and every later one to fn (or ref: see
// linksRef).
type hold struct {
	fn     func(link.Link) error
	ref    func(*link.Link) error // when set, called instead of fn
	links  []link.Link
	size   int
	direct bool
	full   func() error // called at the bound: may stop the pass (errRedo)
	one    *link.Link   // a link passed directly (emit), filled in place: made when first needed
}

// call hands l to fn, or to ref without a copy.
func (h *hold) call(l *link.Link) error {
	if h.ref != nil {
		return h.ref(l)
	}
	return h.fn(*l)
}

func (h *hold) add(l link.Link) error {
	if h.direct {
		return h.call(&l)
	}
	*h.slot() = l
	return h.added()
}

// next returns the Link, zero, for the scanner to fill in place: a new
// slot of the hold, or, once links go directly, the hold's own Link.
func (h *hold) next() *link.Link {
	if h.direct {
		if h.one == nil {
			h.one = new(link.Link)
		}
		*h.one = link.Link{}
		return h.one
	}
	return h.slot()
}

// filled passes on the link next returned, once the scanner filled it.
func (h *hold) filled() error {
	if h.direct {
		return h.call(h.one)
	}
	return h.added()
}

// slot returns a new zero Link at the end of the held ones, for the
// caller to fill and then call added. The slots past the held ones are
// zero already (drop clears what it gives back; make and append zero
// new arrays): appending a zero Link wrote its ~250 bytes once more for
// every link.
func (h *hold) slot() *link.Link {
	n := len(h.links)
	if n == cap(h.links) {
		h.grow()
	}
	h.links = h.links[:n+1]
	return &h.links[n]
}

// grow makes room for one more held link.
func (h *hold) grow() {
	if h.links == nil {
		var ok bool
		if h.links, ok = holds.Get(); ok && cap(h.links) > 0 {
			return
		}
		h.links = make([]link.Link, 0, 256)
		return
	}
	h.links = append(h.links, link.Link{})[:len(h.links)]
}

// added counts the link last filled in, and passes the held links on
// at the bound.
func (h *hold) added() error {
	l := &h.links[len(h.links)-1]
	h.size += len(l.Raw) + len(l.URL)
	if len(h.links) < holdLinks && h.size < holdBytes {
		return nil
	}
	if err := h.full(); err != nil {
		return err
	}
	return h.pass()
}

// pass hands the held links to fn, in order, and lets later ones through.
func (h *hold) pass() error {
	h.direct = true
	var err error
	for i := range h.links {
		if err = h.call(&h.links[i]); err != nil {
			break
		}
	}
	h.drop()
	return err
}

// drop forgets the held links and gives the slice back.
func (h *hold) drop() {
	if h.links == nil {
		return
	}
	clear(h.links)
	holds.Put(h.links[:0])
	h.links, h.size = nil, 0
}

// linksOnce is Links of the seekable document rs, from start (see
// above). ok is false when the document is to go the look-ahead's way
// after all (UTF-16, decoded as a stream): rs is then back at start and
// fn was not called.
// Links go to fn, or to ref when it is set (linksRef).
func linksOnce(rs io.ReadSeeker, start int64, opts Options, fn func(link.Link) error, ref func(*link.Link) error) (res base.Result, ok bool, err error) {
	if err := checkSpec(opts); err != nil {
		return base.Result{}, true, err
	}
	buf := readBuffer()[:readSize]
	first, p, utf16, err := startOnce(rs, start, buf, &opts)
	if utf16 || err != nil {
		freeReadBuffer(buf)
		return base.Result{}, !utf16, err
	}
	h := &hold{fn: fn, ref: ref}
	defer h.drop()
	s, err := newScannerPrepared(p, opts, nil, h.add)
	if err != nil {
		freeReadBuffer(buf)
		return base.Result{}, true, err
	}
	s.first = first // the tokenizer reads the first bytes where they are, and frees buf
	s.hold = h
	late := &lateBase{rs: rs, start: start, opts: &opts, s: s, fallback: p.base}
	s.onBase = late.decide
	// whole does the look-ahead's search when the hold is full or the
	// pass must after all.
	whole := func() error {
		_, err := late.search()
		return err
	}
	h.full = whole
	src := &countio.Reader{R: rs, N: int64(len(first))}
	err = s.run(src)
	if err == nil && s.err != nil {
		err = s.err
	}
	// Without a <base> tag met, the look-ahead's search is still needed
	// when the pass stopped early (a tag too long) or when the document
	// is longer than base.ScanHTML's token bound (its scan could fail).
	if !late.seen && !h.direct && (err != nil && !errors.Is(err, errRedo) || src.N > base.MaxToken) {
		if werr := whole(); werr != nil {
			err = werr
		}
	}
	res = s.stats.Base
	s.free()
	if !errors.Is(err, errRedo) {
		if !h.direct {
			if perr := h.pass(); perr != nil {
				return res, true, perr
			}
		}
		return res, true, err
	}
	// The deciding <base> came after links found with the fallback base:
	// they are dropped (none was handed on) and the document is read
	// again with the decided base.
	h.drop()
	if opts.Referrer != nil {
		opts.Referrer.Restart()
	}
	if _, err := rs.Seek(start, io.SeekStart); err != nil {
		return base.Result{}, true, err
	}
	*h = hold{fn: fn, ref: ref, direct: true} // dropped above: reused, not made again
	s, err = newScannerPrepared(*late.decided, opts, nil, h.add)
	if err != nil {
		return base.Result{}, true, err
	}
	s.hold = h
	err = s.run(rs)
	res = s.stats.Base
	s.free()
	return res, true, err
}
