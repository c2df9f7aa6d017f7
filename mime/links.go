package mime

import (
	"bytes"
	"errors"
	"io"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/manifest"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/xmlrewrite"
)

// A Link is one link of an HTML or CSS part of a MIME message: a
// [link.Link] with Part (the path of the part it is in), Base (that part's
// base, and the layer that decided it) and TargetPart (the path of the
// part of the same message that URL names, RFC 2557 §8, or "" when the
// link leads outside the archive) set. Its Line, Column and Offset count
// in the part's decoded body.
type Link = link.Link

// Stats reports what a rewrite did.
type Stats struct {
	Parts     int // parts read as HTML, CSS, SVG/feeds or manifests
	Changed   int // parts whose body changed
	Links     int // URL values seen
	Rewritten int // values changed
	Failed    int // values that could not be resolved (left as written)
	Localized int // values pointed at a part of the archive (Options.Local)
	// Warnings name parts left as stored, and why.
	Warnings []string
}

// addPart counts a part read for links and its rewrite's figures.
func (st *Stats) addPart(hs htmlrewrite.Stats) {
	st.Parts++
	st.Links += hs.Links
	st.Rewritten += hs.Rewritten
	st.Failed += hs.Failed
	st.Localized += hs.Mapped
}

var errNoSpec = errors.New("no resolution spec")

// Links reads the MIME message src (an MHTML file) and calls fn for every
// link of every HTML, CSS, SVG, Atom, RSS and web app manifest part, in
// order, each resolved against its part's base (a feed's, against the
// xml:base in scope). It stops at the first error fn returns and returns it.
func Links(src io.Reader, opts Options, fn func(Link) error) error {
	if opts.Spec == 0 {
		return &Error{Op: "links", Err: errNoSpec}
	}
	m, err := Open(src, opts)
	if err != nil {
		return err
	}
	defer m.Close()
	return m.Links(fn)
}

// Links calls fn for every link of every part of m read for links (see
// Links), in order. A part that cannot be decoded is skipped and noted in its
// Warnings.
func (m *Message) Links(fn func(Link) error) error {
	if m.opts.Spec == 0 {
		return &Error{Op: "links", Err: errNoSpec}
	}
	for _, p := range m.parts {
		kind := contentKind(p)
		if kind == "" {
			continue
		}
		var (
			src io.Reader
			err error
		)
		if kind, err = m.settle(p, kind); err != nil {
			if ke, ok := errors.AsType[*base.FormatError](err); ok {
				p.Warnings = append(p.Warnings, "not read for links: "+ke.Error())
				continue
			}
			return &Error{Op: "links of", Where: partName(p.Path), Err: err}
		}
		if kind == "" {
			continue
		}
		if m.readsDecoded(p, kind) {
			rs := m.bodyReader(p)
			if kind, err = sniffStream(kind, p, rs); err != nil {
				if ke, ok := errors.AsType[*base.FormatError](err); ok {
					p.Warnings = append(p.Warnings, "not read for links: "+ke.Error())
					continue
				}
				return &Error{Op: "links of", Where: partName(p.Path), Err: err}
			}
			src = rs
		} else {
			body, err := m.Decode(p)
			if err != nil {
				p.Warnings = append(p.Warnings, "not read for links: "+err.Error())
				continue
			}
			if kind, err = sniffPart(kind, p, body); err != nil {
				p.Warnings = append(p.Warnings, "not read for links: "+err.Error())
				continue
			}
			src = bytes.NewReader(body)
		}
		if kind == "" {
			continue
		}
		// The part's base is decided before its first link: each goes
		// out as found.
		var fnErr error
		emit := func(res base.Result) func(htmlrewrite.Link) error {
			return func(l htmlrewrite.Link) error {
				l.Part, l.Base = p.Path, res
				if l.URL != "" {
					if t := m.Find(l.URL); t != nil {
						l.TargetPart = t.Path
					}
				}
				fnErr = fn(l)
				return fnErr
			}
		}
		switch kind {
		case "css":
			// A stylesheet has no <base> of its own: its base is the
			// part's (for Chrome's cid:css-... parts, the enclosing page's).
			_, err = htmlrewrite.CSSLinks(src, m.htmlOptions(p), emit(p.Base))
		case "xml":
			// SVG, Atom, RSS: each link against its element's base
			// (xml:base in feeds), as WARC records are read.
			o := m.htmlOptions(p)
			_, err = xmlrewrite.Links(src, xmlrewrite.Options{Spec: o.Spec, Context: o.Context},
				func(l xmlrewrite.Link) error { return emit(l.Base)(l) })
		case "manifest":
			o := m.htmlOptions(p)
			_, err = manifest.Links(src, manifest.Options{Spec: o.Spec, Context: o.Context}, emit(p.Base))
		default:
			var d *htmlrewrite.Document
			if d, err = htmlrewrite.Open(src, m.htmlOptions(p)); err == nil {
				_, err = d.Links(emit(thisMessage(d.Base())))
				d.Close()
			}
		}
		if fnErr != nil {
			return fnErr
		}
		if errors.Is(err, htmlrewrite.ErrEncoding) {
			p.Warnings = append(p.Warnings, "not read for links: "+err.Error())
			continue
		}
		if err != nil {
			return &Error{Op: "links of", Where: partName(p.Path), Err: err}
		}
	}
	return nil
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
// type alone: "html" (text/html: the type decides, and the part may
// stream), "?" (a type package base reads by the part's first bytes too:
// CSS, XHTML, SVG, feeds, generic XML, manifests; see settle) or "" (not
// read: another type, or a multipart or message part).
func contentKind(p *Part) string {
	switch {
	case len(p.Parts) > 0 || strings.HasPrefix(p.MediaType, "multipart/") || strings.HasPrefix(p.MediaType, "message/"):
		return ""
	case !base.ReadsType(p.MediaType):
		return ""
	case base.FormatOfType(p.MediaType) == base.HTML:
		return "html"
	}
	return "?"
}

// sniffPart settles a "?" kind from the body's first bytes by package
// base's one rule for typed content (base.FormatOfContent, as WARC payloads
// and materialize's captures are read): "html", "css", "xml",
// "manifest", or "" (not read: another XML vocabulary). A body that
// cannot be of its type (gzip bytes declared image/svg+xml) is "" with a
// *base.FormatError for the part's warning.
func sniffPart(kind string, p *Part, body []byte) (string, error) {
	if kind != "?" {
		return kind, nil
	}
	k, err := base.FormatOfContent(p.MediaType, body)
	switch k {
	case base.HTML:
		return "html", nil
	case base.CSS:
		return "css", nil
	case base.XML:
		return "xml", nil
	case base.Manifest:
		return "manifest", nil
	}
	return "", err
}

// htmlOptions gives htmlrewrite the part's layers below its <base>, as
// package base's Context for the part (see setBases), and its charset.
func (m *Message) htmlOptions(p *Part) htmlrewrite.Options {
	o := m.opts.HTML
	o.Spec, o.Context, o.ContentType, o.Map = m.opts.Spec, *p.ctx, strictType(p.MediaType, p.Params), nil
	return o
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

// Rewrite reads the MIME message src (an MHTML file) and writes it to dst
// with every link of every part read for links (see Links) in absolute
// form. Each
// rewritten part is encoded again in its own Content-Transfer-Encoding
// (quoted-printable and base64 in 76-column lines, in the part's own line
// ends); every other byte, headers and delimiters included, is copied as
// it was, and a part with nothing to change keeps its bytes.
func Rewrite(dst io.Writer, src io.Reader, opts Options) (Stats, error) {
	if opts.Spec == 0 {
		return Stats{}, &Error{Op: "rewrite", Err: errNoSpec}
	}
	m, err := Open(src, opts)
	if err != nil {
		return Stats{}, err
	}
	defer m.Close()
	return m.Rewrite(dst)
}

// Rewrite writes m to dst with every link of every part read for links (HTML, CSS, SVG, feeds, manifests) in
// absolute form; see the function Rewrite.
func (m *Message) Rewrite(dst io.Writer) (Stats, error) {
	var st Stats
	if m.opts.Spec == 0 {
		return st, &Error{Op: "rewrite", Err: errNoSpec}
	}
	last := 0
	for _, p := range m.parts {
		kind := contentKind(p)
		if kind == "" {
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
		if kind == "" {
			continue
		}
		if kind == "html" && m.streams(p) || m.readsDecoded(p, kind) {
			rewrite := m.rewriteStreamed
			if !m.streams(p) || kind != "html" {
				rewrite = m.rewriteDecoded
			}
			changed, err := rewrite(dst, p, kind, last, &st)
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
			st.Warnings = append(st.Warnings, "part "+p.Path+": left as stored: "+err.Error())
			continue
		}
		if kind, err = sniffPart(kind, p, body); err != nil {
			st.Warnings = append(st.Warnings, "part "+p.Path+": left as stored: "+err.Error())
			continue
		}
		if kind == "" {
			continue
		}
		out, hs, err := m.rewritePart(p, kind, body)
		if errors.Is(err, htmlrewrite.ErrEncoding) {
			st.Warnings = append(st.Warnings, "part "+p.Path+": left as stored: "+err.Error())
			continue
		}
		if err != nil {
			return st, &Error{Op: "rewrite", Where: partName(p.Path), Err: err}
		}
		st.addPart(hs)
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

// rewriteStreamed rewrites an HTML part that streams (its body is stored
// as it is: an identity transfer encoding) from the file to dst as it is
// read, after the source bytes from last up to the body: the body is
// never held. A body the rewrite leaves unchanged is the stored one, so
// the result is that of rewriting it held whole. changed reports whether
// dst now holds the part's body (last is then the part's end); a part
// left as stored (an encoding relurl does not rewrite) writes nothing.
func (m *Message) rewriteStreamed(dst io.Writer, p *Part, _ string, last int, st *Stats) (changed bool, err error) {
	opts := m.htmlOptions(p)
	opts.Map = m.linkMap(p)
	from, to := m.fileSpan(p)
	d, err := htmlrewrite.Open(io.NewSectionReader(m.file, m.origin+from, to-from), opts)
	if errors.Is(err, htmlrewrite.ErrEncoding) {
		st.Warnings = append(st.Warnings, "part "+p.Path+": left as stored: "+err.Error())
		return false, nil
	}
	if err != nil {
		return false, &Error{Op: "rewrite", Where: partName(p.Path), Err: err}
	}
	defer d.Close()
	if err := m.copySource(dst, last, p.body); err != nil {
		return false, err
	}
	hs, err := d.Rewrite(dst)
	if err != nil {
		return true, &Error{Op: "rewrite", Where: partName(p.Path), Err: err}
	}
	st.addPart(hs)
	if hs.Changed {
		st.Changed++
	}
	return true, nil
}

// rewriteDecoded rewrites a part whose body is read decoded from the file
// (see readsDecoded) as it is read, and encodes it again as it is
// written, after the source bytes from last up to the body; neither the
// body nor its rewrite is held. As for a part held whole, a body the
// rewrite leaves unchanged keeps its stored bytes (nothing is written:
// changed is false and last stays where it was), and a part in an
// encoding relurl does not rewrite is left as stored with a warning.
func (m *Message) rewriteDecoded(dst io.Writer, p *Part, kind string, last int, st *Stats) (changed bool, err error) {
	src := m.bodyReader(p)
	if kind, err = sniffStream(kind, p, src); err != nil || kind == "" {
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
	hs, err := m.rewriteTo(w, src, p, kind)
	if errors.Is(err, htmlrewrite.ErrEncoding) && w.enc == nil {
		st.Warnings = append(st.Warnings, "part "+p.Path+": left as stored: "+err.Error())
		return false, nil
	}
	if err != nil {
		return w.enc != nil, &Error{Op: "rewrite", Where: partName(p.Path), Err: err}
	}
	st.addPart(hs)
	if changed, err = w.Close(); changed {
		st.Changed++
	}
	return changed, err
}

// settle settles a "?" kind of a part read decoded from the file (see
// decodes) by the first bytes of its decoded body, before the choice
// between streaming it and holding it: an XHTML part that is HTML streams,
// whatever its size, as a text/html part does. Another part's kind is
// settled from its body where it is read.
func (m *Message) settle(p *Part, kind string) (string, error) {
	if kind != "?" || !m.decodes(p) {
		return kind, nil
	}
	return sniffStream(kind, p, m.bodyReader(p))
}

// readsDecoded reports whether a part of this kind is read for links and
// rewritten from a stream of its decoded body (see decodes): always an
// HTML part, which the rewriter streams; another kind, which its reader
// holds whole, only within Limits.DecodedBytes, as Decode bounds it.
func (m *Message) readsDecoded(p *Part, kind string) bool {
	return m.decodes(p) && (kind == "html" || m.rawSize(p) <= m.lim.DecodedBytes)
}

// sniffStream settles a "?" kind as sniffPart does, from the first
// bytes of the decoded body, and goes back to its start. A body that
// cannot be of its type is "" with a *base.FormatError.
func sniffStream(kind string, p *Part, body io.ReadSeeker) (string, error) {
	if kind != "?" {
		return kind, nil
	}
	head := make([]byte, base.ContentSniffLen)
	n, err := io.ReadFull(body, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return "", err
	}
	if _, err := body.Seek(0, io.SeekStart); err != nil {
		return "", err
	}
	return sniffPart(kind, p, head[:n])
}

// rewritePart returns the part's decoded body rewritten.
func (m *Message) rewritePart(p *Part, kind string, body []byte) ([]byte, htmlrewrite.Stats, error) {
	var buf bytes.Buffer
	buf.Grow(len(body) + len(body)/8)
	hs, err := m.rewriteTo(&buf, bytes.NewReader(body), p, kind)
	return buf.Bytes(), hs, err
}

// rewriteTo writes the part's decoded body src to dst rewritten by the
// reader of its kind.
func (m *Message) rewriteTo(dst io.Writer, src io.Reader, p *Part, kind string) (htmlrewrite.Stats, error) {
	opts := m.htmlOptions(p)
	opts.Map = m.linkMap(p)
	rewrite := htmlrewrite.Rewrite
	switch kind {
	case "css":
		rewrite = htmlrewrite.RewriteCSS
	case "xml":
		rewrite = func(dst io.Writer, src io.Reader, o htmlrewrite.Options) (htmlrewrite.Stats, error) {
			return xmlrewrite.Rewrite(dst, src, xmlrewrite.Options{Spec: o.Spec, Context: o.Context, Absolute: o.Absolute, Fragments: o.Fragments, Map: o.Map})
		}
	case "manifest":
		rewrite = func(dst io.Writer, src io.Reader, o htmlrewrite.Options) (htmlrewrite.Stats, error) {
			return manifest.Rewrite(dst, src, manifest.Options{Spec: o.Spec, Context: o.Context, Absolute: o.Absolute, Fragments: o.Fragments, Map: o.Map})
		}
	}
	return rewrite(dst, src, opts)
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
