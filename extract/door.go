package extract

import (
	"bufio"
	"errors"
	"io"
	"os"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// ErrNotDocument is the error of File for a file of no kind relurl reads
// (by its name and first bytes).
var ErrNotDocument = errors.New("extract: not a document relurl reads (HTML, MHTML, WARC, CSS, SVG, XHTML, Atom, RSS, a web app manifest or a JS module)")

// File calls fn for every link of the file at path, whatever its kind
// (base.FormatOf: its name, else its first bytes), in document order, as
// they are found, each with its URL, its base and the layer that decided
// it, and, in an archive, its place: an MHTML part's path (Link.Part,
// Link.TargetPart) or a WARC record's offset and target (Link.Record,
// Link.Target). Every document an archive holds is read as the file of
// its kind is: the same links, the same bases.
//
// o may be the zero Options: the spec is then WHATWG's (what browsers
// do) and the file's base below its own <base> is its file: URL
// (base.FileURL). A spec, a retrieval URL (o.HTML.Context) or a strict
// <base> set in o.HTML serve every kind's reader that has none of its own.
// It stops at the first error fn returns and returns it.
func File(path string, o Options, fn func(link.Link) error) (Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return Result{}, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	head, err := br.Peek(base.SniffLen)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return Result{}, err
	}
	k := base.FormatOf(path, head)
	if k == base.Other {
		return Result{}, ErrNotDocument
	}
	if o.HTML.Context.Retrieval == "" {
		u, err := base.FileURL(path)
		if err != nil {
			return Result{}, err
		}
		o.HTML.Context.Retrieval = u
	}
	return Links(readerAt(f, br), k, defaults(o, k), fn)
}

// Reader calls fn for every link of the document r, as File does. name is
// the document's URL (the base below its own: a crawler's response URL,
// after redirects) or its file name, or ""; contentType is the media type
// it came with ("text/html; charset=utf-8"), or "". The kind is the one
// contentType names, the document's first bytes settling generic XML and
// XHTML (base.FormatOfContent); without a type relurl reads, its name's
// (base.FormatOf), else what a stream's first bytes say (base.SniffFormat:
// WARC, MHTML, an SVG or feed by its root, other text as HTML; no bytes or
// binary bytes are an error). A type's charset outranks what
// the document declares, as in browsers. The first bytes looked at are
// those that have come (at least base.SniffLenStream of them, at most
// base.ContentSniffLen): a stream is not waited for.
func Reader(r io.Reader, name, contentType string, o Options, fn func(link.Link) error) (Result, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(base.SniffLenStream)
	if err != nil && err != io.EOF {
		return Result{}, err
	}
	if len(head) > 0 {
		head, _ = br.Peek(min(max(br.Buffered(), len(head)), base.ContentSniffLen))
	}
	k, err := base.FormatOfContent(contentType, head)
	if err != nil {
		return Result{}, err
	}
	if k == base.Other && name != "" && name != "-" {
		k = base.FormatOf(name, head)
	}
	if k == base.Other {
		// What a stream's bytes say (relurl links -): a WARC, an MHTML
		// archive, an SVG or a feed by its root, else text as HTML.
		if k, err = base.SniffFormat(head); err != nil {
			return Result{}, err
		}
	}
	if o.HTML.Context.Retrieval == "" && isURL(name) {
		o.HTML.Context.Retrieval = name
	}
	if contentType != "" {
		if o.HTML.ContentType == "" {
			o.HTML.ContentType = contentType
		}
		if o.XML.ContentType == "" {
			o.XML.ContentType = contentType
		}
	}
	return Links(br, k, defaults(o, k), fn)
}

// readerAt is f read from its first byte when it can be seeked back (an
// HTML file is then read in one pass, its links held until its <base> is
// known), else the buffered reader over it.
func readerAt(f *os.File, br *bufio.Reader) io.Reader {
	if _, err := f.Seek(0, io.SeekStart); err == nil {
		return f
	}
	return br
}

// isURL reports whether name is an absolute URL.
func isURL(name string) bool {
	_, err := resolve.NewResolver(resolve.WHATWG, name, resolve.Options{})
	return err == nil && name != "" && hasScheme(name)
}

// hasScheme reports whether s starts with a URL scheme and ":".
func hasScheme(s string) bool {
	for i, c := range s {
		switch {
		case c == ':':
			return i > 1 // not a Windows drive letter
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return false
}

// defaults fills in what each kind's reader needs and o leaves unset,
// from o.HTML: the spec (WHATWG's when none is set), the document's base
// layers (o.HTML.Context), its retrieval URL for an MHTML archive.
func defaults(o Options, k base.Format) Options {
	spec := o.HTML.Spec
	for _, s := range []resolve.Spec{o.HTML.Context.Spec, o.XML.Spec, o.Manifest.Spec, o.Module.Spec, o.MIME.Spec} {
		if spec == 0 {
			spec = s
		}
	}
	if spec == 0 {
		spec = resolve.WHATWG
	}
	c := o.HTML.Context
	if c.Spec == 0 {
		c.Spec = spec
	}
	if o.HTML.Spec == 0 {
		o.HTML.Spec = spec
	}
	o.HTML.Context = c
	if o.XML.Spec == 0 {
		o.XML.Spec, o.XML.Context = spec, c
	}
	if o.Manifest.Spec == 0 {
		o.Manifest.Spec, o.Manifest.Context = spec, c
	}
	if o.Module.Spec == 0 {
		o.Module.Spec, o.Module.Context = spec, c
	}
	if o.MIME.Spec == 0 {
		o.MIME.Spec, o.MIME.Strict = spec, c.Strict
	}
	if k == base.MHTML && o.MIME.Retrieval == "" {
		o.MIME.Retrieval = c.Retrieval
	}
	return o
}
