package extract

import (
	"errors"
	"io"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/manifest"
	"github.com/relurl/relurl/xmlrewrite"
)

// A reader is what this package does with a document of one kind: what
// the open step decides before its first link, how its links are read and
// how it is rewritten.
type reader struct {
	// open decides, once, what the document needs before its first link
	// (Open); nil: nothing (a manifest and a module are UTF-8, an archive
	// is decided part by part, record by record). rewriteHTML leaves an
	// HTML document for Rewrite to open.
	open func(d *Document, rewriteHTML bool) error
	// links reads the document's links from r with the options o.
	links func(d *Document, r io.Reader, o Options, fn func(link.Link) error) (Result, error)
	// rewrite writes src, the document, to dst rewritten; whole says
	// rewrite is given the document held in memory, and its Changed is
	// set by comparing (Document.Rewrite).
	rewrite func(d *Document, dst io.Writer, src io.Reader, o Options) (Stats, error)
	whole   bool
	// seekLinks, when set, reads a seekable document's links in one pass
	// without the open step's look-ahead (the same links and base), each
	// given to fn, or to ref without a copy; direct, when set, rewrites a
	// document without a Document (Rewrite).
	seekLinks func(rs io.ReadSeeker, o Options, fn func(link.Link) error, ref func(*link.Link) error) (Result, error)
	direct    func(dst io.Writer, src io.Reader, o Options) (Stats, error)
}

// readerOf returns the reader of documents of kind k. It is the one place
// that maps a kind to its reader: a file, a stream, an MHTML part and a
// WARC record's payload (each archive yields its documents, see
// ArchivedLinks) all come here. A kind relurl does not read (base.Other)
// is read as HTML.
func readerOf(k base.Format) reader {
	switch k {
	case base.CSS:
		return reader{
			open: openEncoding,
			links: func(_ *Document, r io.Reader, o Options, fn func(link.Link) error) (Result, error) {
				return own(o, o.HTML.Context, func(fn func(link.Link) error) (base.Result, error) { return htmlrewrite.CSSLinks(r, o.HTML, fn) }, fn)
			},
			// Streamed (RewriteCSS reads a rule at a time), Changed
			// said by the rewrite.
			rewrite: func(_ *Document, dst io.Writer, src io.Reader, o Options) (Stats, error) {
				return htmlStats(htmlrewrite.RewriteCSS(dst, src, o.HTML))
			},
		}
	case base.XML:
		return reader{
			open: openEncoding,
			links: func(_ *Document, r io.Reader, o Options, fn func(link.Link) error) (Result, error) {
				final, err := xmlrewrite.Links(r, o.XML, fn)
				return Result{Base: final, Warnings: final.Warnings, Records: 1}, err
			},
			rewrite: func(_ *Document, dst io.Writer, src io.Reader, o Options) (Stats, error) {
				return htmlStats(xmlrewrite.Rewrite(dst, src, o.XML))
			},
			whole: true,
		}
	case base.Manifest:
		return reader{
			links: func(_ *Document, r io.Reader, o Options, fn func(link.Link) error) (Result, error) {
				return own(o, o.Manifest.Context, func(fn func(link.Link) error) (base.Result, error) { return manifest.Links(r, o.Manifest, fn) }, fn)
			},
			rewrite: func(_ *Document, dst io.Writer, src io.Reader, o Options) (Stats, error) {
				return htmlStats(manifest.Rewrite(dst, src, o.Manifest))
			},
			whole: true,
		}
	case base.Module:
		return reader{
			links: func(_ *Document, r io.Reader, o Options, fn func(link.Link) error) (Result, error) {
				return own(o, o.Module.Context, func(fn func(link.Link) error) (base.Result, error) { return jsmodule.Links(r, o.Module, fn) }, fn)
			},
			rewrite: func(_ *Document, dst io.Writer, src io.Reader, o Options) (Stats, error) {
				return htmlStats(jsmodule.Rewrite(dst, src, o.Module))
			},
			whole: true,
		}
	case base.MHTML:
		return reader{links: mhtmlLinks, rewrite: mhtmlRewrite}
	case base.WARC:
		return reader{
			links: warcLinks,
			rewrite: func(*Document, io.Writer, io.Reader, Options) (Stats, error) {
				return Stats{}, errWARC
			},
		}
	}
	return reader{
		open:      openHTML,
		seekLinks: htmlLinks,
		direct:    rewriteHTML,
		links: func(d *Document, _ io.Reader, o Options, fn func(link.Link) error) (Result, error) {
			if o.Base != nil {
				o.Base(d.html.Base())
			}
			final, err := d.html.Links(fn)
			return Result{Base: final, Warnings: final.Warnings, Records: 1}, err
		},
		rewrite: func(d *Document, dst io.Writer, src io.Reader, o Options) (Stats, error) {
			if d.html == nil {
				// htmlrewrite.Rewrite, not Open: a file written into an
				// output that can be rewound (safewrite.Writer's) is then read
				// once.
				return htmlStats(htmlrewrite.Rewrite(dst, src, o.HTML))
			}
			return htmlStats(d.html.Rewrite(dst))
		},
	}
}

var errWARC = errors.New("extract: WARC files are not rewritten")

// openHTML is the open step of an HTML document: its encoding and <base>
// decided before the first link (htmlrewrite.Open, on base's decisions).
func openHTML(d *Document, rewriteHTML bool) error {
	if rewriteHTML {
		return nil
	}
	h, err := htmlrewrite.Open(d.r, d.o.HTML)
	if err != nil {
		return err
	}
	d.html = h
	return nil
}

// rewriteHTML rewrites the HTML document src (htmlrewrite.Rewrite, which
// decides its encoding and base as Open does), a saved page's local links
// kept local.
func rewriteHTML(dst io.Writer, src io.Reader, o Options) (Stats, error) {
	if o.HTML.Context.Local != nil {
		o.HTML.Map = keepLocalMap(o.HTML.Context, o.HTML.Map)
	}
	return htmlStats(htmlrewrite.Rewrite(dst, src, o.HTML))
}

// openEncoding is the open step of a stylesheet or an XML document: the
// encoding is all it has to decide (their base is their own URL, their
// kind was given), base's layered decision over the first 1024 bytes,
// which is all it reads, handed to the reader.
func openEncoding(d *Document, _ bool) error {
	buf := heads.Get().(*[]byte)
	defer heads.Put(buf)
	head, rest, err := peek(d.r, *buf)
	if err != nil {
		return err
	}
	d.r = rest
	ct := d.o.XML.ContentType
	if d.kind == base.CSS {
		ct = d.o.HTML.ContentType
	}
	_, d.charset, d.charsetSource = base.TextEncoding(d.kind, head, ct, d.o.HTML.SheetEnvironment)
	d.o.HTML.SheetCharset, d.o.XML.Charset = d.charset, d.charset
	return nil
}
