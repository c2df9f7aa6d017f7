package archive

import (
	"io"

	"github.com/relurl/relurl/link"
)

// The readers of the documents an archive yields are package extract's,
// which imports this package: its external test (readers_ext_test.go)
// hands them over, and these helpers read archives with them as a caller
// does, so that the tests here see every part and record read.
var (
	readArchived    func(d *Document, opts Options, fn func(link.Link) error) error
	rewriteArchived func(dst io.Writer, d *Document, opts Options) (PartStats, error)
)

// SetReaders is called by the external test's init.
func SetReaders(links func(*Document, Options, func(link.Link) error) error, rewrite func(io.Writer, *Document, Options) (PartStats, error)) {
	readArchived, rewriteArchived = links, rewrite
}

type (
	Link     = link.Link
	WARCLink = link.Link
)

// Links reads the MHTML message src and calls fn for every link of every
// document part.
func Links(src io.Reader, opts Options, fn func(Link) error) error {
	if opts.Spec == 0 {
		return &Error{Op: "links", Err: errNoSpec}
	}
	m, err := Open(src, opts)
	if err != nil {
		return err
	}
	defer m.Close()
	return m.Links(fn)
}

// Links calls fn for every link of every document part of m.
func (m *Message) Links(fn func(Link) error) error {
	return m.Documents(func(d *Document) error { return readArchived(d, m.opts, fn) })
}

// Rewrite writes the MHTML message src to dst with its parts' links
// rewritten.
func Rewrite(dst io.Writer, src io.Reader, opts Options) (Stats, error) {
	if opts.Spec == 0 {
		return Stats{}, &Error{Op: "rewrite", Err: errNoSpec}
	}
	m, err := Open(src, opts)
	if err != nil {
		return Stats{}, err
	}
	defer m.Close()
	return m.Rewrite(dst)
}

// Rewrite writes m to dst with its parts' links rewritten.
func (m *Message) Rewrite(dst io.Writer) (Stats, error) {
	return m.RewriteDocuments(dst, func(w io.Writer, d *Document) (PartStats, error) { return rewriteArchived(w, d, m.opts) })
}

// WARCLinks calls fn for every link of the WARC file r.
func WARCLinks(r io.Reader, opts Options, fn func(WARCLink) error) error {
	_, err := ScanWARCLinks(r, opts, fn, nil)
	return err
}

// ScanWARCLinks is WARCLinks going on past record errors.
func ScanWARCLinks(r io.Reader, opts Options, fn func(WARCLink) error, onError func(*RecordError) error) (scanStats, error) {
	var n int64
	count := func(l link.Link) error { n++; return fn(l) }
	st, err := ScanWARC(r, opts, WARCHandler{
		Link:        count,
		Document:    func(d *Document) error { return readArchived(d, opts, count) },
		RecordError: onError,
	})
	return scanStats{WARCStats: st, Links: n}, err
}

// scanStats are a scan's WARCStats with the links read counted.
type scanStats struct {
	WARCStats
	Links int64
}
