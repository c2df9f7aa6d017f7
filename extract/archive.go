package extract

import (
	"cmp"
	"errors"
	"fmt"
	"io"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/manifest"
	"github.com/relurl/relurl/xmlrewrite"
)

// mhtmlLinks reads an MHTML archive's links part by part, each part
// through the reader of its kind (ArchivedLinks); what the parts left
// unread or read best effort becomes warnings.
func mhtmlLinks(_ *Document, r io.Reader, o Options, fn func(link.Link) error) (Result, error) {
	m, err := archive.Open(r, o.MIME)
	if err != nil {
		return Result{Records: 1}, err
	}
	defer m.Close()
	err = m.Documents(func(d *archive.Document) error { return ArchivedLinks(d, o, fn) })
	res := Result{Records: 1}
	for _, p := range m.Parts() {
		for _, w := range p.Warnings {
			res.Warnings = append(res.Warnings, fmt.Sprintf("part %q: %s", p.Path, w))
		}
	}
	return res, err
}

// mhtmlRewrite rewrites an MHTML archive part by part (headers first,
// then one part at a time), each through the rewriter of its kind; a
// part whose body is unchanged keeps its bytes, so no changed part means
// dst is src.
func mhtmlRewrite(_ *Document, dst io.Writer, src io.Reader, o Options) (Stats, error) {
	m, err := archive.Open(src, o.MIME)
	if err != nil {
		return Stats{}, err
	}
	defer m.Close()
	st, err := m.RewriteDocuments(dst, func(w io.Writer, d *archive.Document) (archive.PartStats, error) {
		return RewriteArchived(w, d, o)
	})
	return Stats{Links: st.Links, Rewritten: st.Rewritten, Failed: st.Failed, Mapped: st.Localized, Warnings: st.Warnings, Changed: st.Changed > 0}, err
}

// warcLinks reads a WARC file record by record, each payload through the
// reader of its kind (ArchivedLinks), on past record errors.
func warcLinks(_ *Document, r io.Reader, o Options, fn func(link.Link) error) (Result, error) {
	stats, err := archive.ScanWARC(r, o.MIME, archive.WARCHandler{
		Link:        fn,
		Document:    func(d *archive.Document) error { return ArchivedLinks(d, o, fn) },
		RecordError: o.RecordError,
	})
	res := Result{Records: stats.Records, RecordErrors: stats.RecordErrors, Warnings: stats.Warnings}
	if stats.WarningsDropped > 0 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d more warnings", stats.WarningsDropped))
	}
	return res, err
}

// ArchivedLinks calls fn for every link of d, a document an archive
// yielded (an MHTML part: archive.Message.Documents; a WARC payload:
// archive.ScanWARC), read as a file of its kind is (Links), with o's
// options for each kind and d's base layers, content type and place: each
// link has its base (the part's or record's <base> on its layers, or the
// layers' own) and its part (with the part its URL names) or record. What
// the reader finds wrong with the document is returned as a
// *archive.DocumentError, for the archive to note; fn's error is returned as
// it is.
func ArchivedLinks(d *archive.Document, o Options, fn func(link.Link) error) error {
	po := archived(d, o)
	var (
		own   base.Result
		owned bool
		fnErr error
	)
	// The document's own base, decided before its first link (HTML's
	// <base>, else its layers'); an XML document's links each have their
	// element's (xml:base) and keep it.
	po.Base = func(b base.Result) { own, owned = d.Own(b), true }
	res, err := Links(d.Body, d.Format, po, func(l link.Link) error {
		if owned {
			l.Base = own
		}
		d.Link(&l)
		fnErr = fn(l)
		return fnErr
	})
	if fnErr != nil {
		return fnErr
	}
	d.Warnings = append(d.Warnings, res.Warnings...)
	return documentError(err)
}

// RewriteArchived writes d, a document an archive yielded, to dst
// rewritten as a file of its kind is (Rewrite), with o's options for each
// kind, d's base layers and content type, and d.Map for the links that
// name the archive's own parts; it is archive.Message.RewriteDocuments'
// function.
func RewriteArchived(dst io.Writer, d *archive.Document, o Options) (archive.PartStats, error) {
	st, err := Rewrite(dst, d.Body, d.Format, archived(d, o))
	return archive.PartStats{Links: st.Links, Rewritten: st.Rewritten, Failed: st.Failed, Mapped: st.Mapped, Changed: st.Changed}, documentError(err)
}

// documentError is the *archive.DocumentError of a reader's error: Unread
// for a document whose encoding cannot be read as its bytes are.
func documentError(err error) error {
	if err == nil {
		return nil
	}
	return &archive.DocumentError{Err: err, Unread: errors.Is(err, htmlrewrite.ErrEncoding)}
}

// archived returns the options a document yielded by an archive is read
// with: o's, with the document's spec, base layers, content type and Map
// given to every kind's reader (as the archive decided them), and nothing
// that belongs to a file of its own (a saved page's local files, the
// links left for later, a tree's referrals).
func archived(d *archive.Document, o Options) Options {
	h := o.HTML
	core := link.Document{Context: d.Context, Absolute: h.Absolute, Fragments: h.Fragments, Map: d.Map}
	core.Context.Spec = cmp.Or(core.Context.Spec, o.MIME.Spec)
	h.Context, h.ContentType, h.Map = core.Context, d.ContentType, d.Map
	h.Referrer, h.SheetEnvironment = nil, ""
	h = undeferred(h)
	return Options{
		HTML:     h,
		XML:      xmlrewrite.Options{Document: core},
		Manifest: manifest.Options{Document: core},
		Module:   jsmodule.Options{Document: core},
	}
}
