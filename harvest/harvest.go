// Package harvest reads the links of files, trees and streams the way
// `relurl links` does, one call per input: each walked file's kind (or
// the kind the caller forces), the URL it was retrieved from
// (tree.Mapper), the site its links are compared with (the tree's root
// for a file walked in a directory, else the document's origin; an MHTML
// part's own base, a WARC record's target: see package linkfilter), its
// links read through package extract as they are found, each with its
// base, and chosen and written by a linkfilter.Filter. It is what a
// crawler or an archive author calls to list the links of a saved tree,
// an MHTML archive or a WARC file; the command only prints what it is
// given. For one file or stream, without a tree or a filter, package
// extract's front door (extract.File, extract.Reader) is the one call;
// harvest reads each document through the same dispatcher.
package harvest

import (
	"bufio"
	"io"
	"os"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/internal/byref"
	"github.com/relurl/relurl/internal/lazyurl"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/linkfilter"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/tree"
)

// A Reader reads the links of inputs. It is safe for concurrent use by
// several goroutines once set up.
type Reader struct {
	// Mapper gives each file the URL it was retrieved from (and each
	// tree's root URL); nil: its file: URL.
	Mapper *tree.Mapper
	// Options returns the readers' options for a document retrieved from
	// docURL (package extract picks the one of the document's kind).
	Options func(docURL string) extract.Options
	// Spec and Resolve are the resolver a tree's scope is computed with
	// (resolve.NewScope): links walked in a tree are inside it when under
	// its root URL.
	Spec    resolve.Spec
	Resolve resolve.Options
	// Kind, when not Other, is the kind of every input, whatever its name
	// or content (`relurl links --input-format`).
	Kind base.Format
	// Filter chooses the links and writes their URLs; the zero Filter
	// keeps every link as it is.
	Filter linkfilter.Filter
}

// Result is what reading one input's links came to.
type Result struct {
	// Base is the document's base as its reader decided it (HTML: before
	// the first link; XML: the root's); zero for MHTML and WARC, whose
	// parts and records each have theirs (link.Link.Base).
	Base base.Result
	// Warnings are the library's warnings: what was read best effort or
	// left unread.
	Warnings []string
	// Records counts the WARC records read (1 for any other document
	// read), RecordErrors the damaged records skipped or cut on the way.
	Records, RecordErrors int64
	// Skipped: a file walked in a directory that is of no kind relurl
	// reads; not read, not an error.
	Skipped bool
	// Err is why the input was not read, or not to its end.
	Err error
}

// File calls fn for every link of the walked file f that the filter
// keeps, in document order, as they are found, with its URL as the
// filter writes it, and the kind f was read as (which says whether the
// link's MHTML part or WARC record fields are set). onRecordError, when set, is called in file order
// between the links for each damaged WARC record, which is skipped
// (nil: the first ends the file with its error). A file of no kind relurl
// reads is skipped when walked in a directory, an error when named
// alone.
func (r *Reader) File(f tree.File, fn func(base.Format, link.Link) error, onRecordError func(*archive.RecordError) error) Result {
	return r.file(f, to{fn: fn}, onRecordError)
}

// extractLinksRef is extract's Links by pointer (package byref).
var extractLinksRef = byref.ExtractLinks.(func(io.Reader, base.Format, extract.Options, func(*link.Link) error) (extract.Result, error))

func init() { byref.HarvestFile = (*Reader).fileRef }

// fileRef is [Reader.File] with fn given a pointer to each link instead of
// a copy, as extract's by-pointer path (package byref): the Link is fn's
// to read and change during the call only; relurl links reaches it
// through byref.HarvestFile.
func (r *Reader) fileRef(f tree.File, fn func(base.Format, *link.Link) error, onRecordError func(*archive.RecordError) error) Result {
	return r.file(f, to{ref: fn}, onRecordError)
}

// to is where a Reader's links go: to fn, or to ref without a copy.
type to struct {
	fn  func(base.Format, link.Link) error
	ref func(base.Format, *link.Link) error
}

func (t to) call(k base.Format, l *link.Link) error {
	if t.ref != nil {
		return t.ref(k, l)
	}
	return t.fn(k, *l)
}

// file is File with its links going to t.
func (r *Reader) file(f tree.File, t to, onRecordError func(*archive.RecordError) error) Result {
	defer f.Release() // the walk waits for a page's pass (referral.Reader.Gather)
	if r.Kind != base.Other {
		f.Kind = r.Kind
	}
	if f.Kind == base.Other {
		if f.Rel == "" {
			return Result{Err: extract.ErrNotDocument}
		}
		return Result{Skipped: true}
	}
	m, err := r.mapper()
	if err != nil {
		return Result{Err: err}
	}
	docURL, err := m.URL(f)
	if err != nil {
		return Result{Err: err}
	}
	// A file walked in a tree is in the tree's site; a file alone in its
	// URL's origin.
	site := linkfilter.Site{Document: docURL}
	if f.Rel != "" {
		root, err := m.Root(f.Root)
		if err != nil {
			return Result{Err: err}
		}
		site.Tree = resolve.NewScope(r.Spec, r.Resolve, root)
	}
	// The walk's descriptor when it still holds it: no second open.
	in := tree.TakeHeld(f)
	if in == nil {
		f, err := os.Open(f.Path)
		if err != nil {
			return Result{Err: err}
		}
		in = f
	}
	defer in.Close()
	var o extract.Options
	if r.Options != nil {
		o = r.Options(docURL)
	}
	if l := m.Local(f); l != nil {
		if o.HTML.Context.Spec == 0 {
			o.Document.Context.Local = l // the HTML reader takes the core
		} else {
			o.HTML.Context.Local = l
		}
	}
	if f.Kind == base.HTML {
		// What the page tells of the tree's other files, for the walk.
		if ref := f.Referrer(); ref != nil {
			o.HTML.Referrer = ref
		}
	}
	o.MIME.Pipelined = true // a file, not a stream read as it comes
	return r.readWith(in, f.Kind, o, site, t, onRecordError)
}

// Stream calls fn for every link of the document src, retrieved from
// docURL ("" for none), as File does. Its kind is the Reader's Kind, else
// src's by its first bytes (base.SniffFormat), read no further than has
// come: a filter's input is not waited for. A WARC from an
// *archive.Stream is decompressed ahead of the parsing on a goroutine of
// its own (archive.Options.Pipelined).
func (r *Reader) Stream(src io.Reader, docURL string, fn func(base.Format, link.Link) error, onRecordError func(*archive.RecordError) error) Result {
	in, ok := src.(*bufio.Reader)
	if !ok {
		in = bufio.NewReaderSize(src, 64<<10)
	}
	kind, err := r.Kind, error(nil)
	if kind != base.Other {
		err = checkKind(in, kind)
	} else {
		kind, err = sniffKind(in)
	}
	if err != nil {
		return Result{Err: err}
	}
	if st, ok := src.(*archive.Stream); ok && kind == base.WARC {
		// Decompression ahead of the parsing, the stream's Wait where
		// the links are written.
		var o extract.Options
		if r.Options != nil {
			o = r.Options(docURL)
		}
		o.MIME.Pipelined, o.MIME.Stream = true, st
		return r.readWith(in, kind, o, linkfilter.Site{Document: docURL}, to{fn: fn}, onRecordError)
	}
	return r.read(in, kind, docURL, linkfilter.Site{Document: docURL}, to{fn: fn}, onRecordError)
}

// Document calls fn for every link of the document src of kind k at site
// (the page of a response: its URL after redirects), with the readers'
// options o, as File does.
func (r *Reader) Document(src io.Reader, k base.Format, o extract.Options, site linkfilter.Site, fn func(base.Format, link.Link) error) Result {
	return r.links(src, k, o, site, to{fn: fn})
}

// Header calls fn for the links of a response's Link header field values
// that the filter keeps, resolved under the Reader's Spec against the URL
// the response came from (RFC 8288 §3.1: no base of the body applies),
// which is also each link's base and, its origin, the site the filter
// compares with. The links are in no document: fn is given kind Other.
func (r *Reader) Header(values []string, responseURL string, fn func(base.Format, link.Link) error) error {
	site := linkfilter.Site{Document: responseURL}
	b := base.Result{URL: responseURL, Source: base.Retrieval, Detail: "response URL"}
	return archive.HeaderLinks(values, r.Spec, responseURL, func(l link.Link) error {
		u, ok := r.Filter.Apply(l.Kind, l.URL, site)
		if !ok {
			return nil
		}
		l.URL, l.Base = u, b
		return fn(base.Other, l)
	})
}

// read reads the links of src of kind k, retrieved from docURL.
func (r *Reader) read(src io.Reader, k base.Format, docURL string, site linkfilter.Site, t to, onRecordError func(*archive.RecordError) error) Result {
	var o extract.Options
	if r.Options != nil {
		o = r.Options(docURL)
	}
	return r.readWith(src, k, o, site, t, onRecordError)
}

// readWith reads the links of src of kind k with the readers' options o.
func (r *Reader) readWith(src io.Reader, k base.Format, o extract.Options, site linkfilter.Site, t to, onRecordError func(*archive.RecordError) error) Result {
	if k == base.WARC {
		o.MIME.Retrieval = "" // each record has its own
		o.RecordError = onRecordError
	}
	res := r.links(src, k, o, site, t)
	if k != base.WARC {
		res.Records = 1 // one document
	}
	return res
}

// links reads the links of src of kind k through extract, each compared
// with its site: an MHTML part's base, a WARC record's target, else the
// document's.
func (r *Reader) links(src io.Reader, k base.Format, o extract.Options, site linkfilter.Site, t to) Result {
	var b base.Result
	o.Base = func(d base.Result) {
		b = d
		// An HTML page's links are compared with its base's origin when
		// nothing else says where it is.
		if k != base.CSS && k != base.Module && k != base.Manifest && site.Document == "" {
			site.Document = d.URL
		}
	}
	all := passesAll(&r.Filter)
	res, err := extractLinksRef(src, k, o, func(l *link.Link) error {
		if !all {
			lazyurl.Resolve(l) // the filter reads the URL
		}
		s := site
		switch k {
		case base.WARC:
			s = linkfilter.Site{Document: l.Target}
		case base.MHTML:
			s = linkfilter.Site{Document: l.Base.URL}
		}
		u, ok := r.Filter.Apply(l.Kind, l.URL, s)
		if !ok {
			return nil
		}
		l.URL = u
		return t.call(k, l)
	})
	if k == base.XML {
		b = res.Base
	}
	out := Result{Base: b, Warnings: res.Warnings, Err: err}
	if k == base.WARC {
		out.Records, out.RecordErrors = res.Records, res.RecordErrors
	}
	return out
}

// passesAll reports whether f keeps every link as it is, reading no URL:
// a link whose URL was left for later (lazyurl.DeferIn) can
// then go on unresolved (TestPassesAll lists Filter's fields).
func passesAll(f *linkfilter.Filter) bool {
	return f.Kinds == nil && f.Schemes == nil && !f.StripFragment && f.Normalize == 0 && f.Scope == linkfilter.Anywhere
}

func (r *Reader) mapper() (*tree.Mapper, error) {
	if r.Mapper != nil {
		return r.Mapper, nil
	}
	return tree.NewMapper("")
}

// sniffKind tells the kind of a stream, which has no name, by what has
// come of its first bytes (base.SniffFormat): a filter must not wait for
// 1024 bytes that may come much later.
func sniffKind(in *bufio.Reader) (base.Format, error) {
	head, err := in.Peek(base.SniffLenStream)
	if len(head) > 0 {
		head, _ = in.Peek(min(max(in.Buffered(), len(head)), 1024))
	} else if err != nil && err != io.EOF {
		return base.Other, err
	}
	return base.SniffFormat(head)
}

// checkKind returns an error when the stream's first bytes cannot be the
// kind forced (base.CheckFormat).
func checkKind(in *bufio.Reader, kind base.Format) error {
	head, err := in.Peek(base.SniffLenStream)
	if len(head) == 0 && err != nil && err != io.EOF {
		return err
	}
	return base.CheckFormat(head, kind)
}
