package extract

import (
	"bufio"
	"cmp"
	"errors"
	"io"
	"os"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// ErrNotDocument is the error of File for a file of no kind relurl reads
// (by its name and first bytes).
var ErrNotDocument = errors.New("not a document relurl reads, by name and content (HTML, MHTML, WARC, CSS, SVG, XHTML, Atom, RSS, a web app manifest or a JS module; --input-format names the kind of a stream)")

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
// (base.FileURL). What o.Document says (or, when it is unset, o.HTML's
// spec and base layers) serves every kind's reader that has no spec of
// its own.
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
	o = defaults(o)
	if o.Document.Context.Retrieval == "" {
		u, err := base.FileURL(path)
		if err != nil {
			return Result{}, err
		}
		o.Document.Context.Retrieval = u
	}
	return Links(readerAt(f, br), k, o, fn)
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
	o = defaults(o)
	if o.Document.Context.Retrieval == "" && isURL(name) {
		o.Document.Context.Retrieval = name
	}
	o.Document.ContentType = cmp.Or(o.Document.ContentType, contentType)
	return Links(br, k, o, fn)
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

// defaults returns o with its link.Document filled: from o.HTML when only
// that is set (its spec and base layers), else with WHATWG's spec when no
// reader names one.
func defaults(o Options) Options {
	if o.Document.Context.Spec == 0 && o.HTML.Context.Spec != 0 {
		o.Document.Context, o.HTML.Context = o.HTML.Context, base.Context{}
	}
	for _, s := range []resolve.Spec{o.HTML.Context.Spec, o.XML.Context.Spec, o.Manifest.Context.Spec, o.Module.Context.Spec, o.MIME.Spec, resolve.WHATWG} {
		if o.Document.Context.Spec == 0 {
			o.Document.Context.Spec = s
		}
	}
	return o
}
