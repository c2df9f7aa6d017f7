package htmlrewrite

import (
	"errors"
	"io"
	"reflect"

	"github.com/relurl/relurl/base"
)

// A seekable document's links are found in one pass, where the
// look-ahead of [Open] reads it twice (once for "<base", once for the
// links): the links are found with the fallback base and HELD, a bounded
// number of them, while the input is watched for "<base" as it is read
// (as Rewrite's single pass does, once.go). A document that ends, or
// whose held links reach the bound, without a "<base" in what was read
// hands them to fn in order; at the bound the rest of the document is
// first searched for "<base" from where the reading is (what the
// look-ahead does for the whole document), so that fn never gets a link
// whose base could still change. When the deciding <base> (base.ScanHTML
// over the whole document, the look-ahead's decision) says otherwise
// than the fallback base while the links are held, they are dropped and
// the document is read again from its start with the decided base. The
// links, their order and the returned base are in every case the
// look-ahead's (TestLinksOnceAgrees).

// The bound on held links: their number, and the bytes of their strings.
var (
	holdLinks = 4096
	holdBytes = 1 << 20
)

// holds keeps the hold's slice between documents (as readBuffers does).
var holds = make(chan []Link, spareBuffers)

// hold is the fn of a single pass: it keeps links until full says they
// can go, then passes them and every later one to fn.
type hold struct {
	fn     func(Link) error
	links  []Link
	size   int
	direct bool
	full   func() error // called at the bound: may stop the pass (errRedo)
}

func (h *hold) add(l Link) error {
	if h.direct {
		return h.fn(l)
	}
	if h.links == nil {
		select {
		case h.links = <-holds:
		default:
			h.links = make([]Link, 0, 256)
		}
	}
	h.links = append(h.links, l)
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
		if err = h.fn(h.links[i]); err != nil {
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
	select {
	case holds <- h.links[:0]:
	default:
	}
	h.links, h.size = nil, 0
}

// linksOnce is Links of the seekable document rs, from start (see
// above). ok is false when the document is to go the look-ahead's way
// after all (UTF-16, decoded as a stream): rs is then back at start and
// fn was not called.
func linksOnce(rs io.ReadSeeker, start int64, opts Options, fn func(Link) error) (res base.Result, ok bool, err error) {
	if opts.Context.Spec == 0 {
		opts.Context.Spec = opts.Spec
	}
	if err := checkSpec(opts); err != nil {
		return base.Result{}, true, err
	}
	first := readBuffer()[:readSize]
	defer freeReadBuffer(first)
	n, err := io.ReadAtLeast(rs, first, min(1024, readSize))
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return base.Result{}, true, err
	}
	first = first[:n]
	d := decideEncoding(first[:min(n, 1024)], opts.ContentType)
	if d.name == "utf-16le" || d.name == "utf-16be" {
		_, err := rs.Seek(start, io.SeekStart)
		return base.Result{}, false, err
	}
	if d.err != nil {
		return base.Result{}, true, d.err
	}
	p := prepared{enc: d.enc, encName: d.name}
	p.base = opts.Context.Decide(base.Element{})
	fallback := p.base
	h := &hold{fn: fn}
	defer h.drop()
	s, err := newScannerPrepared(p, opts, nil, h.add)
	if err != nil {
		return base.Result{}, true, err
	}
	var decided *prepared // the look-ahead's decision, once "<base" is seen
	watch := &baseWatch{r: io.MultiReader(&byteReader{b: first}, rs)}
	watch.on = func() error {
		q := p
		q.scan(scanFrom(rs, start), &opts)
		decided = &q
		switch {
		case s.off == 0 && len(h.links) == 0 && !h.direct:
			// Nothing found yet: the scanner goes on with the decided
			// base, as if made with it.
			s.p.elem, s.p.base = q.elem, q.base
			s.stats.Base = q.base
			s.res, s.docRes = s.resolver(q.base.URL), nil
			return nil
		case !q.elem.Found && reflect.DeepEqual(q.base, fallback):
			return nil // the look-ahead decides what the pass assumed
		}
		return errRedo
	}
	// rest looks for "<base" in what the pass has not read yet.
	rest := func() error {
		if watch.seen {
			return nil // decided already, as assumed
		}
		at, err := rs.Seek(0, io.SeekCurrent)
		if err != nil {
			return err
		}
		buf := readBuffer()[:readSize]
		found, err := mentionsBase(scanFrom(rs, at), &watch.f, buf)
		freeReadBuffer(buf)
		if err != nil {
			return err
		}
		watch.seen = true
		if found {
			return watch.on()
		}
		return nil
	}
	h.full = rest
	err = s.run(watch)
	if err == nil && s.err != nil {
		err = s.err
	}
	if err != nil && !errors.Is(err, errRedo) && !h.direct {
		// Stopped early (a tag too long): the links before it go to fn
		// with the base the look-ahead would have given them.
		if rerr := rest(); rerr != nil {
			err = rerr
		}
	}
	if !errors.Is(err, errRedo) {
		if !h.direct {
			if perr := h.pass(); perr != nil {
				return s.stats.Base, true, perr
			}
		}
		return s.stats.Base, true, err
	}
	// The deciding <base> came after links found with the fallback base:
	// they are dropped (none was handed on) and the document is read
	// again with the decided base.
	h.drop()
	if _, err := rs.Seek(start, io.SeekStart); err != nil {
		return base.Result{}, true, err
	}
	s, err = newScannerPrepared(*decided, opts, nil, fn)
	if err != nil {
		return base.Result{}, true, err
	}
	err = s.run(rs)
	return s.stats.Base, true, err
}
