// Package htmlrewrite rewrites every URL-bearing attribute of an HTML
// stream to absolute form, or extracts the links, leaving every other byte
// as it was.
//
// It follows the HTML Living Standard: the URL-bearing attributes of its
// elements (plus the HTML 4.01 %URI attributes and the legacy ones browsers
// still honour), "parse a srcset attribute", the "shared declarative
// refresh steps" of <meta http-equiv=refresh>, CSS url() and @import in
// style attributes and <style> elements, and the document base URL: one
// base, the first <base href> in tree order, for the whole document,
// including the links written before it (see [Rewrite]).
//
// The document runs through a copy of golang.org/x/net/html's Tokenizer
// (internal/token: the same tokens, faster, with the attribute spans
// exposed). Every token is copied from its raw bytes; in a start tag only
// the bytes of a changed attribute value are replaced, keeping its quote
// character, so a document in which nothing needs resolving comes out
// byte for byte as it went in.
// Values are read the way the tokenizer decodes attributes (so
// "?a=1&copy=2" stays as written), resolved with one [resolve.Resolver] per
// document, and written back escaped for their context; a new URL that
// ends with the old reference is written as the new prefix inserted before
// the author's bytes.
//
// What is left as written: references with a scheme and fragment-only
// ones (unless Options say otherwise), references that fail to resolve,
// <script>, <textarea>, <title>, <xmp>, comments, and the values the HTML
// Standard does not define as URLs (xmlns, itemtype, rel, download, ...).
// Options.Map lets the caller write a reference of its own for any link
// in the same pass (package archive points links at the parts of an
// archive).
//
// Best efforts, bounded by the input: the tokenizer has no tree, so svg
// and math nesting is tracked from tags (HTML integration points and the
// start tags that break out of foreign content included, up to 256 levels
// deep); CSS inside <svg><style> is not read as CSS; a document in a
// legacy encoding whose value holds characters outside ASCII is decoded
// for resolving and encoded back, characters the encoding lacks becoming
// character references (in a query they become %26%23NNNN%3B, as the URL
// Standard says). A UTF-16 document is decoded as it streams in and
// encoded back as it streams out, losslessly (BOM, lone surrogates and an
// odd last byte kept); its links' offsets count its own bytes.
package htmlrewrite

import (
	"bufio"
	"errors"
	"io"
	"os"
	"slices"

	"golang.org/x/text/encoding"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/byref"
	"github.com/relurl/relurl/internal/lazyref"
	"github.com/relurl/relurl/internal/lazyurl"
	"github.com/relurl/relurl/internal/spare"
	"github.com/relurl/relurl/internal/token"
	"github.com/relurl/relurl/link"
)

// Options control a rewrite or an extraction: the link.Document every
// reader takes, and what is HTML's and CSS's own. Context.Spec, the
// resolution rules, must be set (its zero value is an error); the zero
// value of every other field is the documented default. Of the Document,
// for HTML and CSS:
//
//   - Context gives the layers below the document's own <base>
//     (§3.2–3.4).
//   - ContentType's charset parameter decides the document's encoding
//     (after a BOM and before a <meta> declaration, as
//     charset.DetermineEncoding does); "" takes the Content-Type of
//     Context.Header, as base.Open does.
//   - Fragments never changes a CSS url(#g): CSS Values 4 §4.5.1 makes it
//     local whatever the base.
//   - Map's text is escaped for its place (attribute, CSS string or
//     url()); Links ignores Map.
//   - MaxSize bounds what is held of one token: a tag with its
//     attributes, a <style> sheet, an inline module script or import map
//     (read whole), a doctype or CDATA section (text, scripts and
//     comments pass in pieces of constant size, whatever their length).
//     When a token exceeds it, the rest of the document is copied
//     unchanged and an *link.IncompleteError is returned (see [Rewrite]).
type Options struct {
	link.Document

	// SheetEnvironment is, for RewriteCSS and CSSLinks, the encoding
	// label of the document that refers to the stylesheet: CSS Syntax
	// §3.2's "environment encoding" (a <link rel=stylesheet>'s document's
	// encoding; an @import's importing sheet's). It decides after a BOM,
	// the charset of ContentType and an @charset rule, before UTF-8.
	// HTML documents ignore it.
	SheetEnvironment string
	// SheetCharset is, for RewriteCSS and CSSLinks, the stylesheet's
	// encoding as the open step already decided it (base.Open's
	// Opened.Charset, by base.SheetEncoding; package extract sets it):
	// the sheet is read in it and its encoding is not decided again
	// (ContentType and SheetEnvironment then do not count for it). ""
	// decides it from the sheet's bytes. HTML documents ignore it.
	SheetCharset string

	// Base says what to do with <base href> elements.
	Base BaseMode
	// BaseHref, when set, is what Rewrite writes as the href of the
	// deciding <base> (the one that sets the document's base), in
	// place of its value: a tree made relative keeps its <base> but
	// relative to the document, so that it moves with the tree.
	BaseHref string

	// Srcdoc rewrites the document inside <iframe srcdoc> recursively,
	// against the container's base (its fallback base per the HTML
	// Standard). By default srcdoc is left as written.
	Srcdoc bool
	// LazyLoad also treats the lazy-loading attributes data-src,
	// data-lazy-src, data-original, data-bg, data-background (URLs) and
	// data-srcset, data-lazy-srcset (srcset lists) as links.
	LazyLoad bool
	// Param also treats <param value> as a URL when valuetype=ref or the
	// param's name is movie, src, url, filename, data or href (HTML 4.01
	// §13.3.2 and the Flash/ActiveX conventions).
	Param bool
	// Scripting reads the document as a browser running scripts does:
	// the content of <noscript> is raw text (HTML §13.2.2, "the scripting
	// flag"), so no link in it is reported or rewritten and a <base href>
	// in it does not count. By default, as relurl runs no scripts, it is
	// read as a user agent without scripting reads it: as markup, whose
	// links (the lazy-loading fallbacks, say) are reported and rewritten
	// and whose <base href> counts. One switch decides both, so the links
	// and the base always come from the same reading.
	Scripting bool

	// Anchor, when set, is called with the name of every place in the
	// document a fragment can indicate (HTML Standard "find a potential
	// indicated element"): the value of each id attribute, on any element
	// including svg and math ones, and of each name attribute of an HTML
	// <a> element, character references decoded, in document order. The
	// contents of <template> and of <iframe srcdoc> are other documents
	// and are left out; empty values are never reported. It is called in
	// the same pass that finds the links, so a link checker learns a
	// page's anchors without tokenizing it twice.
	Anchor func(name string)

	// MapName, when set, is called with the name and the id of every HTML
	// <map> element, in the pass that finds the links: the names a usemap
	// attribute's hash-name reference can indicate (HTML Standard, image
	// maps: "rules for parsing a hash-name reference" match a map's id or
	// name, and nothing else). Left out as Anchor leaves them out.
	MapName func(name string)

	// Referrer, when set, is told, in the pass of Rewrite or Links, what
	// the document says of the kinds of the files it loads (a module
	// script, a manifest, a stylesheet): see [Referrer]. A tree walk
	// gathers this from the pass that rewrites or reads a page instead of
	// reading the page again.
	Referrer Referrer

	// ScanLimit bounds how much of a stream that is not an io.ReadSeeker
	// is held in memory while looking for its <base href>; zero or a
	// negative value is DefaultScanLimit (a rewriter reads the document
	// after the scan, so it cannot take base.Open's "scan whole, keep
	// nothing"). See [Rewrite].
	ScanLimit int
	// Spool makes a stream whose <base> is not settled within ScanLimit
	// bytes be copied to a temporary file (in SpoolDir, or the system's
	// default) and read from there, so that its base is the right one in
	// bounded memory. The file is unlinked at once and closed when the
	// document is done.
	Spool    bool
	SpoolDir string
	// deferred, when set (lazyurl.DeferIn, relurl's command only), leaves
	// the URL of each link of a UTF-8 document resolved against the
	// document's own resolvers to whoever reads the link last
	// (lazyurl.Resolve), off the goroutine that reads the document.
	deferred *lazyref.Refs

	// identity (tests only) replaces every URL by itself, through the
	// same splicing as a real change: the output must equal the input.
	identity bool
}

// A Referrer learns, from the one pass that rewrites a document or
// reports its links (Options.Referrer), what the document tells of the
// files it loads: HTML §8.1.5 (a module script, an import map), §4.6.7
// (<link rel=modulepreload|manifest|stylesheet>). Its methods are called
// on the pass's goroutine.
type Referrer interface {
	// Load is called, in document order, with each link of kind Import
	// (module scripts, modulepreload, import map entries, an inline
	// module's imports), each link of a <link> element whose rel names
	// manifest, and, in a document not in UTF-8 or UTF-16, each whose rel
	// names stylesheet (its encoding is then the sheet's environment
	// encoding, CSS Syntax §3.2: what such a link tells of the sheet), as
	// Links reports it (resolved, Rel and Inert set) but without its
	// position
	// (Line, Column and Offset are zero). A link that cannot be resolved
	// comes with its Err. The links of an <iframe srcdoc> document read
	// with Options.Srcdoc come too, Inert when the iframe is.
	Load(link.Link)
	// End is called once the pass has read the document to its end, or
	// to a token over MaxSize (where Links stops too), with the bare
	// specifier keys of its import maps ([Document.ImportMap]) and the
	// name of the encoding it was read in ([Document.Charset]: a
	// stylesheet it links takes it as its environment encoding). A pass
	// that an error of its output or of Links' fn stops before does not
	// call it.
	End(importMap []string, charset string)
	// Restart is called when the pass starts again from the document's
	// start (its deciding <base> came after links already found): what
	// Load told before is void.
	Restart()
}

// DefaultScanLimit is Options.ScanLimit's default.
const DefaultScanLimit = 1 << 20

// BaseMode says what Rewrite does with <base href> elements.
type BaseMode int

// The ways to treat <base href>.
const (
	// BaseKeep leaves every <base> element as written.
	BaseKeep BaseMode = iota
	// BaseRemove removes every <base> start tag that has an href (outside
	// <template> and foreign content): the rewritten links no longer need
	// it, and a later one would otherwise take over.
	BaseRemove
	// BaseAbsolute sets the href of the deciding <base> to the absolute
	// base URL.
	BaseAbsolute
)

// ErrEncoding is returned for documents whose encoding is not
// ASCII-compatible and not UTF-16 (ISO-2022-JP, replacement): tokenizing
// their bytes as they are would corrupt them, so they are refused. UTF-16
// documents are decoded, rewritten and encoded back (see utf16.go).
var ErrEncoding = errors.New("htmlrewrite: " + notASCII)

// notASCII is ErrEncoding's text after the package's name.
const notASCII = "the document's encoding is not ASCII-compatible"

func init() {
	lazyurl.DeferIn = func(opts any, refs *lazyref.Refs) { opts.(*Options).deferred = refs }
	byref.HTMLLinks = linksRef
}

// Rewrite copies the HTML document src to dst with every URL-bearing
// attribute in absolute form, and reports what it did.
//
// One base serves the whole document, as in browsers: the first <base
// href> decides it even for links written before it. To find that element
// first, an src that is an io.ReadSeeker is scanned and seeked back; any
// other stream is held in memory up to Options.ScanLimit bytes while it is
// scanned. A <base href> beyond that limit in such a stream is not seen
// (best effort): the links use the fallback base, and Stats.Base carries a
// warning when the rewrite meets it.
//
// An src that is an io.ReadSeeker written into a dst that is a
// [Rewinder] (or io.Discard) is not scanned first: it is rewritten in one
// pass with the fallback base, watched for "<base", and rewritten again
// from its start (dst rewound) only when its deciding <base href> comes
// after links already rewritten; the output is the same as the
// scan-first way's.
//
// References that cannot be resolved are left as written and counted in
// Stats.Failed; they never stop the rewrite. A tag longer than
// Options.MaxSize stops the rewriting: the rest of the document is copied
// unchanged and an *link.IncompleteError is returned (Links stops there). Errors are those of src and
// dst, a refused encoding (ErrEncoding) or an unusable Options.Context.Spec.
func Rewrite(dst io.Writer, src io.Reader, opts Options) (link.Stats, error) {
	if rw, ok := rewinder(dst); ok {
		if rs, ok := src.(io.ReadSeeker); ok {
			if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
				if st, done, err := rewriteOnce(rw, rs, start, opts); done {
					return st, err
				}
			}
		}
	}
	d, err := Open(src, opts)
	if err != nil {
		return link.Stats{}, err
	}
	defer d.Close()
	return d.Rewrite(dst)
}

// Document is an HTML document opened for one pass, as
// multipart.NewReader comes before NextPart: its encoding and its base
// are decided by [Open], before the first byte is written or the first
// link reported, so that a caller can print the base ahead of the links
// and stream both.
type Document struct {
	s    *scanner
	r    io.Reader
	used bool
}

// Open reads as much of src as it takes to decide the document's
// encoding and base (see [Rewrite] for how far that is), and returns the
// document ready for one call of Rewrite or Links. Close frees what a
// spooled stream holds.
func Open(src io.Reader, opts Options) (*Document, error) {
	s, r, err := newScanner(src, opts, nil, nil)
	if err != nil {
		return nil, err
	}
	return &Document{s: s, r: r}, nil
}

// Base returns the document's base, decided by Open. Its warnings are
// those known so far; Rewrite and Links return the complete ones.
func (d *Document) Base() base.Result { return d.s.stats.Base }

// Element returns the <base> element that decided the document's base, as
// Open found it (Found false when none did), so that a caller that reports
// it (a link checker: the <base href> is a link too) need not scan the
// document again. In a UTF-16 document its Line, Column and Offset count
// in the decoded text, the byte order mark included (base.HTMLDecision).
func (d *Document) Element() base.Element { return d.s.p.elem }

// Charset returns the name of the encoding the document is read in.
func (d *Document) Charset() string { return d.s.stats.Charset }

// ImportMap returns the bare specifier keys (HTML §8.1.5.3) of the
// document's import maps read so far (after Rewrite or Links, all of
// them, at most 65,536): the keys a module the document loads has in
// force, for jsmodule.Options.ImportMap. URL-like keys are links of their
// own (Attr "importmap:key"). The caller must not modify the slice.
func (d *Document) ImportMap() []string { return d.s.importKeys }

// errUsed is the error of a second pass over one Document.
var errUsed = errors.New("htmlrewrite: a Document is read once")

// Rewrite writes the document to dst as the package-level [Rewrite] does.
func (d *Document) Rewrite(dst io.Writer) (link.Stats, error) {
	if d.used {
		return d.s.stats, errUsed
	}
	d.used = true
	w, free := pooledWriter(dst)
	defer free()
	d.s.w = w
	if c := d.s.p.utf16; c != nil {
		d.s.u16w = &utf16Writer{c: c, w: w}
		d.s.w = newWriter(d.s.u16w)
	}
	err := d.s.run(d.r)
	if ferr := d.s.flush(w); err == nil {
		err = ferr
	}
	return d.s.stats, err
}

// Links calls fn for every link of the document, as the package-level
// [Links] does, each one resolved against [Document.Base].
func (d *Document) Links(fn func(link.Link) error) (base.Result, error) {
	if d.used {
		return d.s.stats.Base, errUsed
	}
	d.used = true
	d.s.fn = fn
	err := d.s.run(d.r)
	return d.s.stats.Base, err
}

// Close releases the temporary file of a spooled stream; it does not
// close the source.
func (d *Document) Close() error {
	if f := d.s.p.spool; f != nil {
		d.s.p.spool = nil
		return f.Close()
	}
	return nil
}

func newWriter(dst io.Writer) *bufio.Writer { return bufio.NewWriterSize(dst, writeSize) }

const writeSize = 32 << 10

// writers holds Rewrite's output buffers between documents, as
// readBuffers holds the tokenizers' (see there).
var writers = spare.New[*bufio.Writer](spareBuffers)

// pooledWriter returns a buffered writer to dst (dst itself when it is
// one large enough, as bufio.NewWriterSize does) and the function that
// gives it back once flushed.
func pooledWriter(dst io.Writer) (*bufio.Writer, func()) {
	if b, ok := dst.(*bufio.Writer); ok && b.Size() >= writeSize {
		return b, func() {}
	}
	b, ok := writers.Get()
	if ok {
		b.Reset(dst)
	} else {
		b = newWriter(dst)
	}
	return b, func() {
		b.Reset(nil)
		writers.Put(b)
	}
}

// MaxRewrites bounds the candidates of one srcset, whatever
// Options.MaxSize allows: past it the document is not read further (an
// *link.IncompleteError). link.MaxAttrs bounds the attributes of a tag.
const MaxRewrites = 16384

// The tokenizer keeps the attributes the readers' shared bound allows.
var _ [link.MaxAttrs - token.MaxAttrs]struct{}
var _ [token.MaxAttrs - link.MaxAttrs]struct{}

// EncodingError is ErrEncoding for one encoding, which it names.
type EncodingError struct{ Name string }

func (e *EncodingError) Error() string { return ErrEncoding.Error() + ": " + e.Name }

// Text is the error without the package's name, as a command shows it.
func (e *EncodingError) Text() string { return notASCII + ": " + e.Name }

// Unwrap returns ErrEncoding.
func (e *EncodingError) Unwrap() error { return ErrEncoding }

// Links calls fn for every link of the HTML document src, in document
// order, and returns the document's base. It stops at the first error fn
// returns and returns it. It finds the base as Rewrite does and holds no
// more than a token (and Options.ScanLimit bytes of a stream) at a time.
//
// A link is reported whatever its form: references with a scheme and
// fragment-only ones get the URL the resolver gives them, and a failure is
// reported in Link.Err. Empty values are reported only where they mean
// something (a and area href: the base URL; form action and formaction:
// the document URL). The <base href> itself is not a link: it is the
// returned base.
//
// A seekable src is read once, its links held (a bounded number) until
// no <base> can change them, unless a <base> decides late (see
// linksonce.go); [Document.Links] reads it twice, as [Open] promises the
// base first.
//
// A Link's strings and its Rel slice are its own, but the links of a
// document share the memory they are carved from, in blocks of 1 KiB: a
// link kept alone keeps its block alive.
func Links(src io.Reader, opts Options, fn func(link.Link) error) (base.Result, error) {
	return links(src, opts, fn, nil)
}

// linksRef is [Links] with fn given a pointer to each link instead of a
// copy (a Link is some 260 bytes, copied at each call it goes through):
// the zero-copy path of relurl's own packages (byref.HTMLLinks). The Link
// is fn's to read and change during the call only; its strings and Rel
// slice are its own, as Links says, and may be kept.
func linksRef(src io.Reader, opts Options, fn func(*link.Link) error) (base.Result, error) {
	return links(src, opts, nil, fn)
}

// links is Links with fn, or linksRef with ref.
func links(src io.Reader, opts Options, fn func(link.Link) error, ref func(*link.Link) error) (base.Result, error) {
	if rs, ok := src.(io.ReadSeeker); ok {
		if start, err := rs.Seek(0, io.SeekCurrent); err == nil {
			if res, done, err := linksOnce(rs, start, opts, fn, ref); done {
				return res, err
			}
		}
	}
	d, err := Open(src, opts)
	if err != nil {
		return base.Result{}, err
	}
	defer d.Close()
	if ref != nil {
		// A stream's links come through Document.Links, one copy each.
		var one link.Link // one for the document: a Link taken by address per call would be an allocation each
		fn = func(l link.Link) error {
			one = l
			return ref(&one)
		}
	}
	return d.Links(fn)
}

// asciiIncompatible names the WHATWG encodings whose bytes a tokenizer
// cannot read as they are (HTML Standard §13.2.3.1: "ASCII-compatible").
var asciiIncompatible = map[string]bool{
	"utf-16le": true, "utf-16be": true, "iso-2022-jp": true, "replacement": true,
}

// prepared is a document ready to be tokenized: its reader (positioned at
// its first byte), its base, and its encoding.
type prepared struct {
	r         io.Reader
	base      base.Result
	elem      base.Element
	truncated bool     // the <base> scan saw only the first limit bytes
	spool     *os.File // the stream's copy, closed when the document is done
	limit     int
	enc       encoding.Encoding
	encName   string
	utf16     *utf16Codec // a UTF-16 document, read decoded (enc is nil)
	fallback  bool        // base is the Context's Fallback() itself
}

// prepare decides src's encoding and base, from where src stands, with
// the open sequence every reader of HTML shares (base.DecideHTML) under
// this package's policy (see policy).
func prepare(src io.Reader, opts *Options) (prepared, error) {
	limit := opts.ScanLimit
	if limit <= 0 {
		limit = DefaultScanLimit
	}
	buf := readBuffer()[:readSize]
	defer freeReadBuffer(buf)
	pol := opts.policy(buf)
	pol.ScanLimit = int64(limit)
	pol.Spool, pol.SpoolDir = opts.Spool, opts.SpoolDir
	d, err := base.DecideHTML(src, opts.ContentType, opts.Context, pol)
	if err != nil {
		return prepared{}, err
	}
	p := fromDecision(d)
	p.r, p.spool = d.Reader, d.Spool
	p.truncated, p.limit = !d.Settled, limit
	return p, nil
}

// policy is how this package runs base.DecideHTML, where base.Open
// differs: a <base> scan that fails is a warning, not an error (the pass
// meets the same token or read error and reports it: link.IncompleteError);
// encodings the tokenizer cannot read are refused before anything else
// is read; the first bytes are read into buf (a pooled read buffer).
// The look-ahead bound and the spool are Options' (prepare), a negative
// ScanLimit being DefaultScanLimit: a rewriter must keep what it scans.
func (opts *Options) policy(buf []byte) base.HTMLPolicy {
	return base.HTMLPolicy{
		Scripting:      opts.Scripting,
		WarnScanErrors: true,
		Charset:        refuse,
		Buffer:         buf,
	}
}

// refuse is the error of an encoding the tokenizer cannot read (UTF-16
// is decoded first).
func refuse(name string) error {
	if asciiIncompatible[name] && name != "utf-16le" && name != "utf-16be" {
		return &EncodingError{name}
	}
	return nil
}

// fromDecision is what the scanner needs of d: the element, the base with the
// scan's warnings after the layers', the encoding the tokens are read in.
func fromDecision(d *base.HTMLDecision) prepared {
	p := prepared{elem: d.Element, base: d.Base, enc: d.Encoding, encName: d.Charset}
	p.base.Warnings = append(slices.Clip(p.base.Warnings), d.Warnings...)
	if d.UTF16() {
		p.enc = nil // the tokens are its decoded text
		p.utf16 = &utf16Codec{big: d.Charset == "utf-16be", name: d.Charset, tail: d.OddByte}
	}
	return p
}

// decideLate is the decision of the single passes (once.go,
// linksonce.go), made when the pass meets a <base> tag: the look-ahead's
// own, base.DecideHTML over the whole document from start, keeping
// nothing (the pass goes on reading rs).
func decideLate(rs io.ReadSeeker, start int64, opts *Options) (prepared, error) {
	buf := readBuffer()
	defer freeReadBuffer(buf)
	pol := opts.policy(buf[:1024]) // the scan reads no further than it must
	pol.ScanLimit = -1
	d, err := base.DecideHTML(scanFrom(rs, start), opts.ContentType, opts.Context, pol)
	if err != nil {
		return prepared{}, err
	}
	return fromDecision(d), nil
}

// startOnce begins a single pass over the seekable document rs, from
// start (once.go, linksonce.go): the first read, into buf, serves the
// encoding's prefix and then the tokenizer (first); p is the decision
// the pass starts with, the encoding and the base of a document without
// a <base> element (the fallback, what the look-ahead decides when
// there is no "<base"). utf16 says the document is UTF-16, which goes
// the open sequence's way (decoded as a stream): rs is then back at
// start.
func startOnce(rs io.ReadSeeker, start int64, buf []byte, opts *Options) (first []byte, p prepared, utf16 bool, err error) {
	n, err := io.ReadAtLeast(rs, buf, min(1024, len(buf)))
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, p, false, err
	}
	first = buf[:n]
	enc, name, err := decideEncoding(first[:min(n, 1024)], opts)
	if name == "utf-16le" || name == "utf-16be" {
		_, err := rs.Seek(start, io.SeekStart)
		return nil, p, true, err
	}
	if err != nil {
		return nil, p, false, err
	}
	p = prepared{enc: enc, encName: name, fallback: true}
	p.base = opts.Context.Decide(base.Element{}) // Fallback(): no element
	return first, p, false, nil
}

// decideEncoding is the encoding of a document whose first bytes are
// prefix, as [Encoding] and the open step decide it (the Content-Type
// opts.ContentType, else Context.Header's).
func decideEncoding(prefix []byte, opts *Options) (encoding.Encoding, string, error) {
	return Encoding(prefix, opts.Context.ContentType(opts.ContentType))
}

// Encoding decides an HTML document's character encoding from its first
// 1024 bytes and its Content-Type: [base.Encoding], the open step's
// decision. It returns the encoding (nil for UTF-8) and its name, or an
// error wrapping ErrEncoding for an encoding that is not ASCII-compatible
// (UTF-16, which Rewrite and Links decode first, and ISO-2022-JP), whose
// bytes cannot be tokenized as they are.
func Encoding(prefix []byte, contentType string) (encoding.Encoding, string, error) {
	enc, name, _ := base.Encoding(prefix, contentType)
	if asciiIncompatible[name] {
		return nil, name, &EncodingError{name}
	}
	return enc, name, nil
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}
