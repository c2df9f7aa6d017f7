package archive

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/resolve"
)

// Stats reports what a rewrite did.
type Stats struct {
	Parts     int // parts read as HTML, CSS, SVG/feeds, manifests or modules
	Changed   int // parts whose body changed
	Links     int // URL values seen
	Rewritten int // values changed
	Failed    int // values that could not be resolved (left as written)
	Localized int // values pointed at a part of the archive (Options.Local)
	// Warnings name parts left as stored, and why.
	Warnings []string
}

// addPart counts a part read for links and its rewrite's figures.
func (st *Stats) addPart(ps PartStats) {
	st.Parts++
	st.Links += ps.Links
	st.Rewritten += ps.Rewritten
	st.Failed += ps.Failed
	st.Localized += ps.Mapped
}

var errNoSpec = errors.New("no resolution spec")

// unsettled is the kind of a part whose media type leaves it to the
// part's first bytes (see contentKind).
const unsettled = base.Format(-1)

// Documents calls fn, in order, for every part of m that is a document
// relurl reads (HTML, CSS, SVG, XHTML, Atom, RSS, web app manifests, JS
// modules: base.FormatOfContent on the part's media type and first
// bytes), with its decoded body and its base layers (RFC 2557 §5, the
// draft's §3), for the caller to read as it reads a file of that kind. A
// part that cannot be decoded, or whose bytes cannot be of its type, is
// skipped and noted in its Warnings, as is one fn returns an Unread
// *DocumentError for; another *DocumentError stops with an *Error naming
// the part, and any other error fn returns stops as it is.
func (m *Message) Documents(fn func(*Document) error) error {
	if m.opts.Spec == 0 {
		return &Error{Op: "links", Err: errNoSpec}
	}
	notRead := func(p *Part, err error) { p.Warnings = append(p.Warnings, "not read for links: "+errtext.Of(err)) }
	for _, p := range m.parts {
		kind := contentKind(p)
		if kind == base.Other {
			continue
		}
		var (
			src io.Reader
			err error
		)
		if kind, err = m.settle(p, kind); err != nil {
			if ke, ok := errors.AsType[*base.FormatError](err); ok {
				notRead(p, ke)
				continue
			}
			return &Error{Op: "links of", Where: partName(p.Path), Err: err}
		}
		if kind == base.Other {
			continue
		}
		if m.readsDecoded(p, kind) {
			rs := m.bodyReader(p)
			if kind, err = sniffStream(kind, p, rs); err != nil {
				if ke, ok := errors.AsType[*base.FormatError](err); ok {
					notRead(p, ke)
					continue
				}
				return &Error{Op: "links of", Where: partName(p.Path), Err: err}
			}
			src = rs
			if _, decoded := rs.(*decodedBody); decoded {
				// Its Seek decodes again from the start: not offered
				// to a reader that seeks back as it goes (the HTML
				// single pass's look for a late <base>), which would
				// take time quadratic in the part.
				src = struct{ io.Reader }{rs}
			}
		} else {
			body, err := m.Decode(p)
			if err != nil {
				notRead(p, err)
				continue
			}
			if kind, err = sniffPart(kind, p, body); err != nil {
				notRead(p, err)
				continue
			}
			src = bytes.NewReader(body)
		}
		if !isDocument(kind) {
			continue
		}
		err = fn(m.document(p, kind, src))
		if de, ok := documentError(err); ok {
			if de.Unread {
				notRead(p, de.Err)
				continue
			}
			return &Error{Op: "links of", Where: partName(p.Path), Err: de.Err}
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// document is the Document of part p of kind k whose body src reads.
func (m *Message) document(p *Part, k base.Format, src io.Reader) *Document {
	return &Document{
		Body: src, Format: k, ContentType: strictType(p.MediaType, p.Params),
		Context: *p.ctx, Offset: m.fileOffset(p.body), Part: p.Path, m: m,
	}
}

// PartContext returns part p's base layers below its own content (package
// base's Context for the part: its header fields, the enclosing entity's
// base, the retrieval URL and the default) and its Content-Type in the
// syntax the readers parse, as Documents gives them.
func (m *Message) PartContext(p *Part) (base.Context, string) {
	return *p.ctx, strictType(p.MediaType, p.Params)
}

// streams reports whether the part's body is read from the file as it
// is stored, in pieces, rather than held decoded: an HTML part of an
// opened message in an identity transfer encoding (RFC 2045 §6.2).
func (m *Message) streams(p *Part) bool {
	if m.file == nil || p.http {
		return false
	}
	switch p.Encoding {
	case "", SevenBit, EightBit, Binary:
		return true
	}
	return false
}

// contentKind says whether a part may be read for links, by its media
// type alone: base.HTML (text/html: the type decides, and the part may
// stream), unsettled (a type package base reads by the part's first bytes
// too: CSS, XHTML, SVG, feeds, generic XML, manifests, modules; see
// settle) or base.Other (not read: another type, or a multipart or
// message part).
func contentKind(p *Part) base.Format {
	switch {
	case len(p.Parts) > 0 || strings.HasPrefix(p.MediaType, "multipart/") || strings.HasPrefix(p.MediaType, "message/"):
		return base.Other
	case !base.ReadsType(p.MediaType):
		return base.Other
	case base.FormatOfType(p.MediaType) == base.HTML:
		return base.HTML
	}
	return unsettled
}

// sniffPart settles an unsettled kind from the body's first bytes by
// package base's one rule for typed content (base.FormatOfContent, as
// WARC payloads and materialize's captures are read); base.Other is not
// read (another XML vocabulary). A body that cannot be of its type (gzip
// bytes declared image/svg+xml) is base.Other with a *base.FormatError
// for the part's warning.
func sniffPart(kind base.Format, p *Part, body []byte) (base.Format, error) {
	if kind != unsettled {
		return kind, nil
	}
	return base.FormatOfContent(p.MediaType, body)
}

// strictType writes a media type and its charset in the syntax
// mime.ParseMediaType accepts, which htmlrewrite uses: a header may use
// the lenient syntax this package reads (see ParseMediaType), and the
// charset must not be lost for that.
func strictType(mt string, params map[string]string) string {
	if cs := params["charset"]; cs != "" {
		return mt + "; charset=" + cs
	}
	return mt
}

// isDocument reports whether a part or payload of kind k is a document
// read for links: an archive inside an archive is not opened.
func isDocument(k base.Format) bool {
	return k != base.Other && k != base.MHTML && k != base.WARC
}

// RewriteDocuments writes m to dst with every part that Documents yields
// rewritten by rw, which writes the document d's body to its dst as its
// reader rewrites it (d.Map set for the archive's own links) and says
// what it did. Each rewritten part is encoded again in its own
// Content-Transfer-Encoding (quoted-printable and base64 in 76-column
// lines, in the part's own line ends); every other byte, headers and
// delimiters included, is copied as it was, and a part with nothing to
// change keeps its bytes. A part rw returns an Unread *DocumentError for,
// having written nothing, is left as stored with a warning; an HTTP
// entity is left as stored.
func (m *Message) RewriteDocuments(dst io.Writer, rw func(dst io.Writer, d *Document) (PartStats, error)) (Stats, error) {
	var st Stats
	if m.opts.Spec == 0 {
		return st, &Error{Op: "rewrite", Err: errNoSpec}
	}
	last := 0
	for _, p := range m.parts {
		kind := contentKind(p)
		if kind == base.Other {
			continue
		}
		if p.http {
			st.Warnings = append(st.Warnings, "part "+p.Path+": HTTP entity left as stored")
			continue
		}
		kind, err := m.settle(p, kind)
		if ke, ok := errors.AsType[*base.FormatError](err); ok {
			st.Warnings = append(st.Warnings, "part "+p.Path+": left as stored: "+ke.Error())
			continue
		}
		if err != nil {
			return st, &Error{Op: "rewrite", Where: partName(p.Path), Err: err}
		}
		if kind == base.Other {
			continue
		}
		if kind == base.HTML && m.streams(p) || m.readsDecoded(p, kind) {
			rewrite := m.rewriteStreamed
			if !m.streams(p) || kind != base.HTML {
				rewrite = m.rewriteDecoded
			}
			changed, err := rewrite(dst, p, kind, last, &st, rw)
			if err != nil {
				return st, err
			}
			if changed {
				last = p.end
			}
			continue
		}
		body, err := m.Decode(p)
		if err != nil {
			st.Warnings = append(st.Warnings, "part "+p.Path+": left as stored: "+errtext.Of(err))
			continue
		}
		if kind, err = sniffPart(kind, p, body); err != nil {
			st.Warnings = append(st.Warnings, "part "+p.Path+": left as stored: "+errtext.Of(err))
			continue
		}
		if !isDocument(kind) {
			continue
		}
		var buf bytes.Buffer
		buf.Grow(len(body) + len(body)/8)
		ps, err := rw(&buf, m.rewriteDocument(p, kind, bytes.NewReader(body)))
		if de, ok := documentError(err); ok && de.Unread {
			st.Warnings = append(st.Warnings, "part "+p.Path+": left as stored: "+de.Err.Error())
			continue
		}
		if err != nil {
			return st, &Error{Op: "rewrite", Where: partName(p.Path), Err: unwrapDocument(err)}
		}
		st.addPart(ps)
		out := buf.Bytes()
		if bytes.Equal(out, body) {
			continue
		}
		st.Changed++
		if err := m.copySource(dst, last, p.body); err != nil {
			return st, err
		}
		if _, err := dst.Write(encodeBody(p.Encoding, out, m.Raw(p))); err != nil {
			return st, err
		}
		last = p.end
	}
	return st, m.copySource(dst, last, len(m.src))
}

// rewriteDocument is the Document of part p of kind k for a rewrite:
// with the archive's Map.
func (m *Message) rewriteDocument(p *Part, k base.Format, src io.Reader) *Document {
	d := m.document(p, k, src)
	d.Map = m.linkMap(p)
	return d
}

// unwrapDocument returns the reader's error a *DocumentError holds, else
// err.
func unwrapDocument(err error) error {
	if de, ok := documentError(err); ok {
		return de.Err
	}
	return err
}

// startWriter writes to w, calling start before the first byte: the
// source bytes before a part are copied only once its rewrite writes.
type startWriter struct {
	w       io.Writer
	start   func() error
	started bool
}

func (s *startWriter) Write(p []byte) (int, error) {
	if !s.started {
		s.started = true
		if err := s.start(); err != nil {
			return 0, err
		}
	}
	return s.w.Write(p)
}

// rewriteStreamed rewrites an HTML part that streams (its body is stored
// as it is: an identity transfer encoding) from the file to dst as it is
// read, after the source bytes from last up to the body: the body is
// never held. A body the rewrite leaves unchanged is the stored one, so
// the result is that of rewriting it held whole. changed reports whether
// dst now holds the part's body (last is then the part's end); a part
// left as stored (an encoding relurl does not rewrite) writes nothing.
func (m *Message) rewriteStreamed(dst io.Writer, p *Part, kind base.Format, last int, st *Stats, rw func(io.Writer, *Document) (PartStats, error)) (changed bool, err error) {
	from, to := m.fileSpan(p)
	sw := &startWriter{w: dst, start: func() error { return m.copySource(dst, last, p.body) }}
	ps, err := rw(sw, m.rewriteDocument(p, kind, io.NewSectionReader(m.file, m.origin+from, to-from)))
	if de, ok := documentError(err); ok && de.Unread && !sw.started {
		st.Warnings = append(st.Warnings, "part "+p.Path+": left as stored: "+de.Err.Error())
		return false, nil
	}
	if err != nil {
		return sw.started, &Error{Op: "rewrite", Where: partName(p.Path), Err: unwrapDocument(err)}
	}
	st.addPart(ps)
	if ps.Changed {
		st.Changed++
	}
	return sw.started, nil
}

// rewriteDecoded rewrites a part whose body is read decoded from the file
// (see readsDecoded) as it is read, and encodes it again as it is
// written, after the source bytes from last up to the body; neither the
// body nor its rewrite is held. As for a part held whole, a body the
// rewrite leaves unchanged keeps its stored bytes (nothing is written:
// changed is false and last stays where it was), and a part in an
// encoding relurl does not rewrite is left as stored with a warning.
func (m *Message) rewriteDecoded(dst io.Writer, p *Part, kind base.Format, last int, st *Stats, rw func(io.Writer, *Document) (PartStats, error)) (changed bool, err error) {
	src := m.bodyReader(p)
	if kind, err = sniffStream(kind, p, src); err != nil || !isDocument(kind) {
		if ke, ok := errors.AsType[*base.FormatError](err); ok {
			st.Warnings = append(st.Warnings, "part "+p.Path+": left as stored: "+ke.Error())
			return false, nil
		}
		return false, err
	}
	w := &changeWriter{
		stored: func() io.Reader { return m.bodyReader(p) },
		start: func() (io.WriteCloser, error) {
			if err := m.copySource(dst, last, p.body); err != nil {
				return nil, err
			}
			eol, endsLF, err := m.storedLineEnd(p)
			if err != nil {
				return nil, err
			}
			return newEncoder(dst, p.Encoding, eol, endsLF), nil
		},
	}
	ps, err := rw(w, m.rewriteDocument(p, kind, src))
	if de, ok := documentError(err); ok && de.Unread && w.enc == nil {
		st.Warnings = append(st.Warnings, "part "+p.Path+": left as stored: "+de.Err.Error())
		return false, nil
	}
	if err != nil {
		return w.enc != nil, &Error{Op: "rewrite", Where: partName(p.Path), Err: unwrapDocument(err)}
	}
	st.addPart(ps)
	if changed, err = w.Close(); changed {
		st.Changed++
	}
	return changed, err
}

// settle settles an unsettled kind of a part read decoded from the file
// (see decodes) by the first bytes of its decoded body, before the choice
// between streaming it and holding it: an XHTML part that is HTML
// streams, whatever its size, as a text/html part does. Another part's
// kind is settled from its body where it is read.
func (m *Message) settle(p *Part, kind base.Format) (base.Format, error) {
	if kind != unsettled || !m.decodes(p) {
		return kind, nil
	}
	k, err := sniffStream(kind, p, m.bodyReader(p))
	if !isDocument(k) {
		k = base.Other
	}
	return k, err
}

// readsDecoded reports whether a part of this kind is read for links and
// rewritten from a stream of its decoded body (see decodes): always an
// HTML part, which the rewriter streams; another kind, which its reader
// holds whole, only within Limits.DecodedBytes, as Decode bounds it.
func (m *Message) readsDecoded(p *Part, kind base.Format) bool {
	return m.decodes(p) && (kind == base.HTML || m.rawSize(p) <= m.lim.DecodedBytes)
}

// sniffStream settles an unsettled kind as sniffPart does, from the
// first bytes of the decoded body, and goes back to its start. A body
// that cannot be of its type is base.Other with a *base.FormatError.
func sniffStream(kind base.Format, p *Part, body io.ReadSeeker) (base.Format, error) {
	if kind != unsettled {
		return kind, nil
	}
	head := make([]byte, base.ContentSniffLen)
	n, err := io.ReadFull(body, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return base.Other, err
	}
	if _, err := body.Seek(0, io.SeekStart); err != nil {
		return base.Other, err
	}
	return sniffPart(kind, p, head[:n])
}

// resolveLocation resolves an HTTP Location value against the target URI
// (RFC 9110 §10.2.2), inheriting the target's fragment when the value has
// none.
func resolveLocation(spec resolve.Spec, target, loc string) (string, error) {
	u, err := resolve.Reference(spec, target, strings.TrimSpace(loc))
	if err != nil {
		return "", err
	}
	if !strings.Contains(u, "#") {
		if i := strings.IndexByte(target, '#'); i >= 0 {
			u += target[i:]
		}
	}
	return u, nil
}
