// Package extract reads or rewrites the links of a document of any kind
// relurl reads. [File] and [Reader] are the front door: every link of a
// file or a stream, whatever its kind, archives included, in one shape
// (link.Link, with its base, and its MHTML part or WARC record).
//
// Below them, one table (readerOf) hands each kind to its reader: HTML
// (htmlrewrite, its base decided by the open step before the first link),
// CSS (htmlrewrite), SVG, XHTML and feeds (xmlrewrite), web app manifests
// (manifest), JS modules (jsmodule). MHTML archives and WARC files (archive)
// yield the documents they hold, part by part and record by record, and
// each is read here as a file of its kind ([ArchivedLinks],
// [RewriteArchived]): every kind is read the same way alone and inside an
// archive. WARC is read, not rewritten. The kind itself is base's
// decision (base.FormatOf, base.FormatOfContent, base.SniffFormat).
package extract

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/byref"
	"github.com/relurl/relurl/internal/lazyurl"
	"github.com/relurl/relurl/internal/linkref"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/manifest"
	"github.com/relurl/relurl/xmlrewrite"
)

// Options say how to read one document. Its link.Document, filled once,
// says what every kind's reader needs (the spec in Context.Spec, the base
// layers, the content type, Map, the limits): each reader's options embed
// the same link.Document, and each whose own leaves Context.Spec zero
// takes this one, so that a document of any kind gets resolved URLs. The
// per-kind options add what is each reader's own (HTML's Base mode or
// Srcdoc, a module's ImportMap, ...); a reader whose own link.Document
// names a spec is read with its own options alone.
type Options struct {
	link.Document

	// HTML are the options of HTML and CSS. An archive's parts and
	// records are read with its other fields (ArchivedLinks), whatever
	// their kind.
	HTML     htmlrewrite.Options
	MIME     archive.Options // MHTML and WARC
	XML      xmlrewrite.Options
	Manifest manifest.Options
	Module   jsmodule.Options
	// Base, when set, is called with the document's base before its
	// first link: HTML's as the open step decided it, a stylesheet's,
	// manifest's or module's own URL (CSS Values 4 §4.5.1, HTML §8.1.5).
	// It is not called for XML (each element has its own, in Link.Base),
	// MHTML (each part) or WARC (each payload).
	Base func(base.Result)
	// RecordError is called, in file order between the links, for each
	// WARC record that was skipped or cut (archive.WARCHandler.RecordError); nil
	// stops at the first.
	RecordError func(*archive.RecordError) error
}

// Result is what reading one document's links left to say.
type Result struct {
	// Base is the document's base (XML: the root's; zero for MHTML and
	// WARC, whose parts and records each have theirs).
	Base base.Result
	// Warnings are the library's warnings: what was read best effort or
	// left unread ("part "P": ..." for an MHTML part, "record at O: ..."
	// for a WARC record).
	Warnings []string
	// Records counts the WARC records read (1 for any other document),
	// RecordErrors those given to Options.RecordError.
	Records, RecordErrors int64
}

// Document is one document opened by [Open]: its kind given, its
// encoding and base decided once, before the first link or byte, ready
// for one pass (Links or Rewrite), as htmlrewrite.Document is for HTML.
type Document struct {
	kind base.Format
	o    Options
	r    io.Reader
	html *htmlrewrite.Document // HTML (and Other, read as HTML)
	// charset and charsetSource are a stylesheet's or XML document's
	// encoding and the layer that decided it.
	charset, charsetSource string
	used                   bool
	rd                     reader // the reader of its kind (readerOf)
}

// Open reads as much of r as it takes to decide, once, what the document
// of kind k needs before its first link: an HTML document's encoding and
// <base> (htmlrewrite.Open, on base's decisions), a stylesheet's or XML
// document's encoding (base.SheetEncoding, base.XMLEncoding, from its
// first 1024 bytes), which its reader is then handed (htmlrewrite.Options.SheetCharset,
// xmlrewrite.Options.Charset) instead of deciding again. A manifest and a
// module are UTF-8 (their specs); an MHTML or WARC file is decided part by
// part, record by record, when read. Close frees what an HTML stream's
// spool holds.
func Open(r io.Reader, k base.Format, o Options) (*Document, error) {
	return open(r, k, o, false)
}

// open is Open; with rewriteHTML, an HTML document is left for
// Document.Rewrite to open, where htmlrewrite.Rewrite decides its
// encoding and base (the same decision) and reads a seekable file
// written into an output that can be rewound only once.
func open(r io.Reader, k base.Format, o Options, rewriteHTML bool) (*Document, error) {
	o = withCore(o, k)
	if o.HTML.Context.Local != nil {
		o.HTML = undeferred(o.HTML) // a saved page's local links get their URLs here (keepLocal)
	}
	d := &Document{kind: k, o: o, r: r, rd: readerOf(k)}
	if d.rd.open != nil {
		if err := d.rd.open(d, rewriteHTML); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// Kind returns the document's kind, as Open was given it.
func (d *Document) Kind() base.Format { return d.kind }

// Charset returns the name of the encoding the document is read in, as
// Open decided it (HTML, CSS, XML); "" for the other kinds.
func (d *Document) Charset() string {
	switch {
	case d.html != nil:
		return d.html.Charset()
	}
	return d.charset
}

// CharsetSource returns the layer that decided a stylesheet's or XML
// document's encoding (base.ByBOM, base.ByContentType, ...); "" for the
// other kinds.
func (d *Document) CharsetSource() string { return d.charsetSource }

// heads are the buffers peek reads a seekable document's first bytes
// into: only the encoding decision looks at them.
var heads = sync.Pool{New: func() any { b := make([]byte, 1024); return &b }}

// peek returns the first len(buf) bytes of r (fewer at its end) and a
// reader of every byte of r from the first: an in-memory r itself (a
// bytes.Reader, a strings.Reader), read into buf and seeked back, else a
// buffered reader over r, whose reader then reads on from the bytes
// already read (no second read nor seek of a file).
func peek(r io.Reader, buf []byte) ([]byte, io.Reader, error) {
	n := len(buf)
	if rs, ok := r.(interface {
		io.ReadSeeker
		Len() int
	}); ok {
		if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
			head := buf
			m, err := io.ReadFull(rs, head)
			if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
				return nil, nil, err
			}
			if _, err := rs.Seek(start, io.SeekStart); err != nil {
				return nil, nil, err
			}
			return head[:m], rs, nil
		}
	}
	br := bufio.NewReaderSize(r, n)
	head, err := br.Peek(n)
	if err != nil && err != io.EOF {
		return nil, nil, err
	}
	if f, ok := r.(*os.File); ok {
		// A file's size tells its reader what to hold (and what not).
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			if at, err := f.Seek(0, io.SeekCurrent); err == nil {
				return head, &linkref.Sized{Reader: br, N: fi.Size() - at + int64(br.Buffered())}, nil
			}
		}
	}
	return head, br, nil
}

// Element returns the <base> element that decided an HTML document's
// base (htmlrewrite.Document.Element); Found is false for other kinds.
func (d *Document) Element() base.Element {
	if d.html != nil {
		return d.html.Element()
	}
	return base.Element{}
}

// Close frees what Open holds (an HTML stream's spool).
func (d *Document) Close() error {
	if d.html != nil {
		return d.html.Close()
	}
	return nil
}

// errUsed is the error of a second pass over one Document.
var errUsed = errors.New("extract: a Document is read once")

// Links calls fn for every link of the document r of kind k, in document
// order, each with its base (link.Link.Base) and, in an archive, its part
// or record. A kind relurl does not read (base.Other) is read as HTML. It
// stops at the first error fn returns and returns it.
func Links(r io.Reader, k base.Format, o Options, fn func(link.Link) error) (Result, error) {
	o = withCore(o, k)
	if rd := readerOf(k); rd.seekLinks != nil {
		if rs, ok := r.(io.ReadSeeker); ok {
			return rd.seekLinks(rs, o, fn, nil)
		}
	}
	d, err := Open(r, k, o)
	if err != nil {
		return Result{Records: 1}, err
	}
	defer d.Close()
	return d.Links(fn)
}

// htmlLinksRef is htmlrewrite's Links by pointer (package byref).
var htmlLinksRef = byref.HTMLLinks.(func(io.Reader, htmlrewrite.Options, func(*link.Link) error) (base.Result, error))

func init() { byref.ExtractLinks = linksRef }

// linksRef is [Links] with fn given a pointer to each link instead of a
// copy, as htmlrewrite's by-pointer path (package byref): the Link is
// fn's to read and change during the call only. A seekable HTML
// document's links come without a copy; other kinds' are copied once, to
// be handed over.
func linksRef(r io.Reader, k base.Format, o Options, fn func(*link.Link) error) (Result, error) {
	o = withCore(o, k)
	if rd := readerOf(k); rd.seekLinks != nil {
		if rs, ok := r.(io.ReadSeeker); ok {
			return rd.seekLinks(rs, o, nil, fn)
		}
	}
	d, err := Open(r, k, o)
	if err != nil {
		return Result{Records: 1}, err
	}
	defer d.Close()
	var one link.Link // one for the document: a Link taken by address per call would be an allocation each
	return d.Links(func(l link.Link) error {
		one = l
		return fn(&one)
	})
}

// Links calls fn for every link of the document, as the package-level
// [Links] does, through its kind's reader, with what Open decided.
func (d *Document) Links(fn func(link.Link) error) (Result, error) {
	if d.used {
		return Result{Records: 1}, errUsed
	}
	d.used = true
	r, o := d.r, d.o
	if o.HTML.Context.Local != nil {
		fn = keepLocal(o.HTML.Context, fn)
	}
	return d.rd.links(d, r, o, fn)
}

// htmlLinks is Links of a seekable HTML document: htmlrewrite.Links,
// which reads it once (the links held until its base is known), where
// Open's look-ahead reads it twice; the links and the base are the same
// (htmlrewrite's TestLinksOnceAgrees; TestLinksSinglePass here). Options.Base
// is called with the base of the first link before fn gets it, or with
// the final base when there is none.
func htmlLinks(rs io.ReadSeeker, o Options, fn func(link.Link) error, ref func(*link.Link) error) (Result, error) {
	if o.HTML.Context.Local != nil {
		// A saved page's local links get their URLs here, not deferred.
		o.HTML = undeferred(o.HTML)
		if ref != nil {
			ref = keepLocalRef(o.HTML.Context, ref)
		} else {
			fn = keepLocal(o.HTML.Context, fn)
		}
	}
	onBase := o.Base // not o: a closure over o copied all of Options to the heap, per page
	var final base.Result
	var err error
	switch {
	case onBase == nil && ref != nil:
		final, err = htmlLinksRef(rs, o.HTML, ref)
	case onBase == nil:
		final, err = htmlrewrite.Links(rs, o.HTML, fn)
	default:
		first := true
		final, err = htmlLinksRef(rs, o.HTML, func(l *link.Link) error {
			if first {
				first = false
				onBase(l.Base)
			}
			if ref != nil {
				return ref(l)
			}
			return fn(*l)
		})
		if first {
			onBase(final)
		}
	}
	return Result{Base: final, Warnings: final.Warnings, Records: 1}, err
}

// own reads a document whose links all resolve against its own URL.
func own(o Options, c base.Context, read func(func(link.Link) error) (base.Result, error), fn func(link.Link) error) (Result, error) {
	if o.Base != nil {
		o.Base(c.Fallback())
	}
	final, err := read(fn)
	return Result{Base: final, Warnings: final.Warnings, Records: 1}, err
}

// Stats is what Rewrite did.
type Stats struct {
	// Base is the document's base and where it came from (XML: the
	// root's; zero for MHTML, whose parts each have theirs).
	Base      base.Result
	Links     int // URL values seen
	Rewritten int // values changed
	Failed    int // values that could not be resolved (left as written)
	Mapped    int // values changed as the reader's Map said (counted in Rewritten too)
	// Warnings are the library's warnings (the base's, the parts' of an
	// MHTML archive).
	Warnings []string
	// Changed reports whether dst got anything other than src's bytes.
	Changed bool
}

// Rewrite copies the document src of kind k to dst with its links in
// absolute form (or as the readers' Options.Map say), through that kind's
// rewriter: HTML streams through htmlrewrite (a kind relurl does not read
// is read as HTML); MHTML is read through by archive.Message.RewriteDocuments
// (headers first, then a part at a time, each part by its kind's
// rewriter); CSS streams a rule at a time; XML, manifests and modules
// are read whole by their rewriters, each bounded by its own limit (a
// larger one is copied as written, with a *link.TooLargeError). WARC files are not
// rewritten (an error).
func Rewrite(dst io.Writer, src io.Reader, k base.Format, o Options) (Stats, error) {
	o = withCore(o, k)
	if rd := readerOf(k); rd.direct != nil {
		// HTML (and what is read as HTML): htmlrewrite.Rewrite, as
		// Document.Rewrite does, without a Document (its Options copy
		// was most of what a page's rewrite allocated besides the pass).
		return rd.direct(dst, src, o)
	}
	d, err := open(src, k, o, true)
	if err != nil {
		return Stats{}, err
	}
	defer d.Close()
	return d.Rewrite(dst)
}

// Rewrite writes the document to dst as the package-level [Rewrite]
// does, with what Open decided.
func (d *Document) Rewrite(dst io.Writer) (Stats, error) {
	if d.used {
		return Stats{}, errUsed
	}
	d.used = true
	src, o := d.r, d.o
	if c := o.HTML.Context; c.Local != nil {
		o.HTML.Map = keepLocalMap(c, o.HTML.Map)
		o.XML.Map = keepLocalMap(c, o.XML.Map)
		o.Manifest.Map = keepLocalMap(c, o.Manifest.Map)
		o.Module.Map = keepLocalMap(c, o.Module.Map)
	}
	if d.rd.rewrite == nil {
		return Stats{}, fmt.Errorf("extract: %v files are not rewritten", d.kind)
	}
	if !d.rd.whole {
		return d.rd.rewrite(d, dst, src, o)
	}
	// Held whole: the rewriters of these kinds read their document in
	// memory; the copy says whether anything changed. One larger than
	// its reader may hold is not read whole: copied as written, refused
	// by name.
	limit := HoldLimit(d.kind, o)
	data, err := linkref.ReadDocument(src, int(limit))
	if long := (*linkref.TooLongError)(nil); errors.As(err, &long) {
		if _, err := dst.Write(data); err != nil {
			return Stats{}, err
		}
		if err := long.CopyRest(dst); err != nil {
			return Stats{}, err
		}
		return Stats{}, TooLarge(d.kind, limit)
	}
	if err != nil {
		return Stats{}, err
	}
	// Written as it comes, compared with the input on the way: the
	// output is not held too. (A reader that stops at a limit writes the
	// rest as it was.)
	cw := &compareWriter{w: dst, want: data}
	st, err := d.rd.rewrite(d, cw, linkref.NewHeld(data), o)
	st.Changed = cw.differs || cw.n != len(data)
	return st, err
}

// compareWriter writes to w and notes whether what it writes differs
// from want, the input.
type compareWriter struct {
	w       io.Writer
	want    []byte
	n       int // bytes written
	differs bool
}

func (c *compareWriter) Write(p []byte) (int, error) {
	if !c.differs {
		end := c.n + len(p)
		c.differs = end > len(c.want) || !bytes.Equal(p, c.want[c.n:end])
	}
	n, err := c.w.Write(p)
	c.n += n
	return n, err
}

// HoldLimit is the most the reader of the kind k (XML, a manifest, a
// module: those read whole) holds of a document, in bytes.
func HoldLimit(k base.Format, o Options) int64 {
	n := 0
	switch k {
	case base.XML:
		n = o.XML.MaxSize
	case base.Manifest:
		n = o.Manifest.MaxSize
	case base.Module:
		n = o.Module.MaxSize
	}
	if n <= 0 {
		n = link.DefaultMaxToken
	}
	return int64(n)
}

// TooLarge is the error of a document of kind k larger than limit, the
// most its reader holds.
func TooLarge(k base.Format, limit int64) error {
	what := map[base.Format]string{base.XML: "an XML document", base.Manifest: "a web app manifest", base.Module: "a JavaScript module"}[k]
	if what == "" {
		what = "a document"
	}
	return &link.TooLargeError{What: what, Size: -1, Limit: limit}
}

// htmlStats is the Stats of a reader's rewrite.
func htmlStats(st link.Stats, err error) (Stats, error) {
	return Stats{Base: st.Base, Links: st.Links, Rewritten: st.Rewritten, Failed: st.Failed, Mapped: st.Mapped, Warnings: st.Base.Warnings, Changed: st.Changed}, err
}

// A saved page's links to the files beside it stay local (the rule is
// base.Context.LocalTarget's): Links reports them at their local URL,
// Rewrite leaves them as written. The rule applies to the links resolved
// against the page's live URL, not to those a <base href> decides.

// localURL returns the local URL of the link l of a saved page.
func localURL(c *base.Context, l *link.Link) (string, bool) {
	if l.Err != nil || l.Base.Source != base.Retrieval {
		return "", false
	}
	return c.LocalTarget(l.Raw)
}

// makeLocal gives the local link l of a saved page its local URL u and the
// base it was resolved against: the page's own place.
func makeLocal(c *base.Context, l *link.Link, u string) {
	l.URL = u
	l.Base = base.Result{URL: c.Local.URL, Source: base.Retrieval, Detail: "the saved page's own file, for a file saved beside it"}
}

// keepLocal returns fn, given the local URL of each local link of the
// saved page whose context is c (c.Local set; nothing deferred, since the
// URLs are resolved here).
func keepLocal(c base.Context, fn func(link.Link) error) func(link.Link) error {
	return func(l link.Link) error {
		if u, ok := localURL(&c, &l); ok {
			makeLocal(&c, &l, u)
		}
		return fn(l)
	}
}

// keepLocalRef is keepLocal for a function given each link by address.
func keepLocalRef(c base.Context, ref func(*link.Link) error) func(*link.Link) error {
	return func(l *link.Link) error {
		if u, ok := localURL(&c, l); ok {
			makeLocal(&c, l, u)
		}
		return ref(l)
	}
}

// keepLocalMap returns the Map of the rewrite of the saved page whose
// context is c: its local links are left as written, the others go to
// then (the caller's Map, or nil).
func keepLocalMap(c base.Context, then func(link.Link) (string, bool)) func(link.Link) (string, bool) {
	return func(l link.Link) (string, bool) {
		if _, ok := localURL(&c, &l); ok {
			return l.Raw, true
		}
		if then != nil {
			return then(l)
		}
		return "", false
	}
}

// withCore gives each kind's reader whose options leave Context.Spec
// zero what o.Document says of the document (fill): the one place the
// core reaches the readers.
func withCore(o Options, k base.Format) Options {
	core := &o.Document
	if core.Context.Spec == 0 {
		return o
	}
	for _, d := range [...]*link.Document{&o.HTML.Document, &o.XML.Document, &o.Manifest.Document, &o.Module.Document} {
		if d.Context.Spec == 0 {
			fill(d, core)
		}
	}
	if m := &o.MIME; m.Spec == 0 {
		m.Spec, m.Strict = core.Context.Spec, core.Context.Strict
		if k == base.MHTML {
			m.Retrieval = cmp.Or(m.Retrieval, core.Context.Retrieval)
		}
	}
	return o
}

// fill gives a reader's d, which names no spec, the core's context, and
// the core's value of every other field d leaves zero.
func fill(d, core *link.Document) {
	d.Context = core.Context
	d.ContentType = cmp.Or(d.ContentType, core.ContentType)
	d.Absolute = d.Absolute || core.Absolute
	d.Fragments = d.Fragments || core.Fragments
	if d.Map == nil {
		d.Map = core.Map
	}
	d.MaxSize = cmp.Or(d.MaxSize, core.MaxSize)
}

// undeferred returns h with its links resolved at once. It takes and
// returns a copy: the address handed to lazyurl.DeferIn escapes, and a
// caller's own Options would go to the heap on every call, not only on
// the path that calls it (TestLinksAllocs).
func undeferred(h htmlrewrite.Options) htmlrewrite.Options {
	lazyurl.DeferIn(&h, nil)
	return h
}
