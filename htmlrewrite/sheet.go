package htmlrewrite

import (
	"bufio"
	"bytes"
	"io"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
)

// RewriteCSS copies the stylesheet src (a text/css file or MIME part) to
// dst with the URLs of its url() and @import in absolute form, as Rewrite
// does for a <style> element. A stylesheet has no base of its own: its
// URLs resolve against Options.Context's base, the sheet's own URL (CSS
// 2.1 §4.3.4). Its encoding is the open step's decision, CSS Syntax
// §3.2's (base.SheetEncoding: a BOM, the charset of Options.ContentType,
// an @charset rule, Options.SheetEnvironment, else UTF-8); bytes are kept
// as in Rewrite. The sheet is held in memory up to
// Options.MaxToken bytes; a larger one is copied unchanged, with a
// warning in Stats.Base.
func RewriteCSS(dst io.Writer, src io.Reader, opts Options) (link.Stats, error) {
	w := newWriter(dst)
	s, data, err := newSheet(src, opts, w, nil)
	if err == nil {
		err = s.sheetRun(data, src)
	}
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if s == nil {
		return link.Stats{}, err
	}
	return s.stats, err
}

// CSSLinks calls fn for every URL of the stylesheet src, in order, as
// Links does; Link.Tag and Link.Attr are empty. It returns the sheet's
// base.
func CSSLinks(src io.Reader, opts Options, fn func(link.Link) error) (base.Result, error) {
	s, data, err := newSheet(src, opts, nil, fn)
	if err != nil {
		return base.Result{}, err
	}
	err = s.sheetRun(data, src)
	return s.stats.Base, err
}

// newSheet reads the sheet (up to MaxToken bytes and one more, to know
// whether it is larger) and makes its scanner.
func newSheet(src io.Reader, opts Options, w *bufio.Writer, fn func(link.Link) error) (*scanner, []byte, error) {
	if opts.Context.Spec == 0 {
		opts.Context.Spec = opts.Spec
	}
	maxTok := opts.MaxToken
	if maxTok <= 0 {
		maxTok = link.DefaultMaxToken
	}
	data, err := io.ReadAll(io.LimitReader(src, int64(maxTok)+1))
	if err != nil {
		return nil, nil, err
	}
	p := prepared{base: opts.Context.Decide(base.Element{}), encName: "utf-8"}
	if e, name := sheetEncoding(data, &opts); name != "utf-8" {
		if asciiIncompatible[name] {
			return nil, nil, &encodingError{name}
		}
		p.enc, p.encName = e, name
	}
	s, err := newScannerPrepared(p, opts, w, fn)
	return s, data, err
}

// sheetEncoding is the encoding the sheet that starts with head is read
// in: the open step's decision (CSS Syntax §3.2, base.SheetEncoding), as
// Options.SheetCharset hands it over or as made here from the same
// inputs.
func sheetEncoding(head []byte, opts *Options) (encoding.Encoding, string) {
	if name := opts.SheetCharset; name != "" {
		if name == "utf-8" {
			return nil, name
		}
		e, _ := htmlindex.Get(name)
		return e, name
	}
	e, name, _ := base.SheetEncoding(head, opts.ContentType, opts.SheetEnvironment)
	return e, name
}

// sheetRun rewrites or reads the sheet data, or copies it unchanged with
// the rest of src when it is larger than MaxToken.
func (s *scanner) sheetRun(data []byte, src io.Reader) error {
	maxTok := s.opts.MaxToken
	if maxTok <= 0 {
		maxTok = link.DefaultMaxToken
	}
	if len(data) > maxTok {
		s.warn("the stylesheet is longer than %d bytes: left as written", maxTok)
		if s.w == nil {
			return nil
		}
		if err := s.write(data); err != nil {
			return err
		}
		_, err := io.Copy(s.w, src)
		return err
	}
	if err := s.sheet(bytes.Clone(data), nil, false); err != nil {
		return err
	}
	return s.err
}
