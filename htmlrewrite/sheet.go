package htmlrewrite

import (
	"bufio"
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
// as in Rewrite. A UTF-8 (or ASCII) sheet streams: it is read in pieces
// cut after a ";", "{" or "}" at its top level, so that only a rule or
// declaration is held, up to Options.MaxSize bytes (past it, an
// *link.IncompleteError and the rest copied as written). A sheet in another
// encoding is held whole, up to Options.MaxSize bytes; a larger one is
// copied unchanged with a *link.TooLargeError.
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

// sheetHead is what newSheet reads of a sheet before it decides its
// encoding: a BOM or an @charset rule comes first.
const sheetHead = chunkSize

// newSheet reads the sheet's head and makes its scanner.
func newSheet(src io.Reader, opts Options, w *bufio.Writer, fn func(link.Link) error) (*scanner, []byte, error) {
	maxTok := opts.MaxSize
	if maxTok <= 0 {
		maxTok = link.DefaultMaxToken
	}
	data, err := io.ReadAll(io.LimitReader(src, int64(min(maxTok, sheetHead))+1))
	if err != nil {
		return nil, nil, err
	}
	p := prepared{base: opts.Context.Decide(base.Element{}), encName: "utf-8"}
	if e, name := sheetEncoding(data, &opts); name != "utf-8" {
		if asciiIncompatible[name] {
			return nil, nil, &EncodingError{name}
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

// sheetRun rewrites or reads the sheet that starts with head, then src.
func (s *scanner) sheetRun(head []byte, src io.Reader) error {
	maxTok := s.opts.MaxSize
	if maxTok <= 0 {
		maxTok = link.DefaultMaxToken
	}
	if s.p.enc != nil {
		return s.sheetWhole(head, src, maxTok)
	}
	// The pieces: buf holds the sheet from the last cut on; it is
	// scanned for a cut once it has grown to check bytes, which doubles
	// while none is found, so that each byte is scanned a bounded number
	// of times.
	buf := append(make([]byte, 0, max(2*chunkSize, len(head))), head...)
	check := chunkSize
	eof := false
	for {
		for !eof && len(buf) < check && len(buf) <= maxTok {
			if len(buf) == cap(buf) {
				buf = append(buf, 0)[:len(buf)]
			}
			n, err := src.Read(buf[len(buf):min(cap(buf), maxTok+1)])
			buf = buf[:len(buf)+n]
			if err == io.EOF {
				eof = true
			} else if err != nil {
				return err
			}
		}
		if eof {
			if err := s.sheetPiece(buf); err != nil {
				return err
			}
			return s.err
		}
		cut := cssCut(buf)
		if cut == 0 {
			if len(buf) > maxTok {
				line, _ := s.position(buf, 0)
				incomplete := &link.IncompleteError{What: "a CSS rule", Line: line, Offset: s.off, Limit: maxTok, Unit: "bytes"}
				if s.w == nil {
					return incomplete
				}
				if err := s.write(buf); err != nil {
					return err
				}
				if _, err := io.Copy(s.w, src); err != nil {
					return err
				}
				return incomplete
			}
			check = min(2*len(buf), maxTok+1)
			continue
		}
		if err := s.sheetPiece(buf[:cut]); err != nil {
			return err
		}
		if s.err != nil {
			return s.err
		}
		buf = buf[:copy(buf, buf[cut:])]
		check = chunkSize
	}
}

// sheetPiece rewrites or reads a piece of a streamed sheet and moves the
// position past it.
func (s *scanner) sheetPiece(p []byte) error {
	if err := s.sheet(p, nil, false); err != nil {
		return err
	}
	s.advanceHeld(p)
	s.off += int64(len(p))
	s.cur = cursor{}
	return nil
}

// sheetWhole rewrites or reads a sheet held whole (one in a legacy
// encoding, where a trail byte can be "}" or "\"), or copies it
// unchanged with the rest of src when it is larger than maxTok.
func (s *scanner) sheetWhole(head []byte, src io.Reader, maxTok int) error {
	rest, err := io.ReadAll(io.LimitReader(src, int64(maxTok-len(head))+1))
	if err != nil {
		return err
	}
	data := append(head, rest...)
	if len(data) > maxTok {
		tooLarge := &link.TooLargeError{What: "a stylesheet in " + s.p.encName, Size: -1, Limit: int64(maxTok)}
		if s.w == nil {
			return tooLarge
		}
		if err := s.write(data); err != nil {
			return err
		}
		if _, err := io.Copy(s.w, src); err != nil {
			return err
		}
		return tooLarge
	}
	if err := s.sheet(data, nil, false); err != nil {
		return err
	}
	return s.err
}
