package archive

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/resolve"
)

// Limits bound what the input controls. A zero field takes its default.
type Limits struct {
	Depth        int   // nesting of multipart/* and message/* entities; default 32, at most base.MaxNesting
	Parts        int   // entities in one message; default 10,000
	HeaderBytes  int64 // one header block; default 1 MiB
	Size         int64 // a whole MIME message, read into memory; default 512 MiB
	DecodedBytes int64 // one body after transfer and content decoding; default 128 MiB
}

func (l Limits) withDefaults() Limits {
	if l.Depth <= 0 {
		l.Depth = 32
	}
	l.Depth = min(l.Depth, base.MaxNesting)
	if l.Parts <= 0 {
		l.Parts = 10000
	}
	if l.HeaderBytes <= 0 {
		l.HeaderBytes = 1 << 20
	}
	if l.Size <= 0 {
		l.Size = 512 << 20
	}
	if l.DecodedBytes <= 0 {
		l.DecodedBytes = 128 << 20
	}
	return l
}

// ThisMessage is the base RFC 2557 §5(e) prescribes when no other applies.
const ThisMessage = "thismessage:/"

// Options control reading, link extraction and rewriting.
type Options struct {
	// Spec is the resolution mode for header values and links. The zero
	// value is an error, as in package resolve: no rule is applied by
	// accident.
	Spec resolve.Spec
	// Retrieval is the URL the file was retrieved from (§3.3), e.g. the
	// file: URL of a saved page. A Snapshot-Content-Location header
	// (Chrome's record of the page's own URL) comes before it.
	Retrieval string
	// Pipelined lets ScanWARC decode a .warc.gz's gzip members or a
	// .warc.zst's frames on a goroutine of its own, ahead of the parsing
	// (a bounded queue of 2 MiB), when GOMAXPROCS is over 1: r is then
	// read from that goroutine, and ScanWARC returns once a read of it in
	// progress there ends. An input read as it comes whose reader does
	// something before it waits (a filter's, flushing its output) must be
	// given as Stream. The records, links and record errors are the same
	// (see [WARCReader.Pipeline]).
	Pipelined bool
	// Stream is the Stream r reads from, when it does (r may be a
	// bufio.Reader on it): with Pipelined, its Wait is called on
	// ScanWARC's goroutine each time that one waits for the pipeline.
	Stream *Stream
	// EmptyDefault makes the last layer the draft's empty base (§3.4)
	// instead of "thismessage:/" (RFC 2557 §5(e)).
	EmptyDefault bool
	// ContentLocation makes an HTTP Content-Location count as a base, in
	// WARC responses and message/http entities. RFC 2616 §14.14 said it
	// did; RFC 7231 Appendix B and browsers say it does not, so it is
	// opt-in. MIME parts always honour it (RFC 2557 §5(b)).
	ContentLocation bool
	// Strict follows the draft's appendix for <base>: only a BASE in
	// HEAD with an absolute HREF counts.
	Strict bool
	// Local makes Rewrite point every link that names a part of the
	// archive (RFC 2557 §8) at that part, so the saved page stays
	// self-contained; see LocalMode.
	Local LocalMode
	// Limits bound sizes and counts; the zero value is the defaults.
	Limits Limits
}

// A LocalMode says how Rewrite writes a link that names a part of the
// archive.
type LocalMode int

// The ways to point a link at a part.
const (
	// LocalNone writes the absolute URL, as for any other link.
	LocalNone LocalMode = iota
	// LocalCID writes the cid: URL of the part's Content-ID (RFC 2392),
	// which names the part whatever its Content-Location; a part
	// without a Content-ID keeps the absolute URL.
	LocalCID
	// LocalLocation writes the part's Content-Location as resolved
	// (RFC 2557 §8.2(c)): a cid: link becomes the URL the part is filed
	// under.
	LocalLocation
)

// A Part is one entity of a MIME message: the message itself, a body
// part of a multipart/*, or the entity a message/* encloses.
type Part struct {
	// Path names the part: "" for the message, "1", "2", ... for the
	// body parts of a multipart, "2.1" for the first part inside part 2.
	// A message/* part encloses one entity, numbered 1.
	Path      string
	Header    Header
	StartLine string // message/http only: the request or status line
	MediaType string // lower-case; text/plain when there is no Content-Type
	Params    map[string]string
	Encoding  string // Content-Transfer-Encoding, lower-case; "" when absent
	Parts     []*Part
	Parent    *Part
	// Base is the part's base below its own content: the header,
	// enclosing-entity, retrieval or default layer, as package base
	// decides it (its Warnings say which headers were skipped). An HTML
	// part's <base> comes on top of it (see Links). It is set only when
	// Options.Spec is.
	Base base.Result
	// Truncated is set when the part's body ended before its closing
	// delimiter.
	Truncated bool
	// Warnings say what the reader had to skip or assume for this part.
	Warnings []string

	start, body, end int // byte spans in the message
	http             bool
	ctx              *base.Context // the layers below the content
}

// A Message is a parsed MIME message, held in memory with its bytes.
type Message struct {
	Root *Part

	src        []byte
	opts       Options
	lim        Limits
	parts      []*Part
	byLocation map[string]*Part
	byID       map[string]*Part
	locationOf map[*Part]string // the inverse of byLocation

	// Set by Open: src is then the skeleton of the message (its headers
	// and delimiters), the bodies are read from file.
	file   io.ReaderAt
	origin int64
	segs   []seg
	closer io.Closer
}

// Read reads a whole RFC 822/MIME message (an MHTML file, a .eml) from r
// and parses its structure. It fails when the input is larger than
// Limits.Size or breaks another bound, and when the top-level multipart
// has no boundary or no body part; problems deeper down are recorded as
// warnings on the part.
func Read(r io.Reader, opts Options) (*Message, error) {
	lim := opts.Limits.withDefaults()
	var size int64 = 512
	if l, ok := r.(interface{ Len() int }); ok {
		size = int64(l.Len())
	} else if f, ok := r.(interface{ Stat() (fs.FileInfo, error) }); ok {
		if fi, err := f.Stat(); err == nil {
			size = fi.Size()
		}
	}
	// Len and Stat tell the real size, so one allocation suffices.
	data, err := readMaxCap(r, size, lim.Size)
	if errors.Is(err, ErrTooLarge) {
		return nil, &Error{Op: "read", Err: ErrTooLarge, Detail: "more than " + strconv.FormatInt(lim.Size, 10) + " bytes"}
	}
	if err != nil {
		return nil, &Error{Op: "read", Err: err}
	}
	return Parse(data, opts)
}

// Parse parses the MIME message in data, which it keeps and does not
// modify. With a zero Options.Spec it reads the structure only: part
// bases and Find need a spec.
func Parse(data []byte, opts Options) (*Message, error) {
	m := &Message{src: data, opts: opts, lim: opts.Limits.withDefaults()}
	root, err := m.parseEntity(0, len(data), "", 0, nil, false)
	if err != nil {
		return nil, err
	}
	m.Root = root
	if opts.Spec != 0 {
		m.setBases(root, m.rootContext())
	}
	m.index()
	return m, nil
}

// Parts returns every part in depth-first order, the message first.
func (m *Message) Parts() []*Part { return m.parts }

// Part returns the part named path, or nil.
func (m *Message) Part(path string) *Part {
	for _, p := range m.parts {
		if p.Path == path {
			return p
		}
	}
	return nil
}

// Raw returns the part's body as stored, transfer encoding and all.
func (m *Message) Raw(p *Part) []byte {
	if m.file == nil {
		return m.src[p.body:p.end]
	}
	from, to := m.fileSpan(p)
	b := make([]byte, to-from)
	n, _ := m.file.ReadAt(b, m.origin+from)
	return b[:n]
}

// rawSize returns the length of the part's body as stored.
func (m *Message) rawSize(p *Part) int64 {
	if m.file == nil {
		return int64(p.end - p.body)
	}
	from, to := m.fileSpan(p)
	return to - from
}

// copySource writes the message's bytes from skeleton offset from to
// skeleton offset to.
func (m *Message) copySource(dst io.Writer, from, to int) error {
	if m.file == nil {
		_, err := dst.Write(m.src[from:to])
		return err
	}
	a, b := m.fileOffset(from), m.fileOffset(to)
	_, err := io.Copy(dst, io.NewSectionReader(m.file, m.origin+a, b-a))
	return err
}

// RawHeader returns the part's header block as stored, up to and
// including the empty line that ends it.
func (m *Message) RawHeader(p *Part) []byte { return m.src[p.start:p.body] }

// Decode returns the part's body with its Content-Transfer-Encoding
// undone (and, for the entity of a message/http, its HTTP transfer and
// content codings). An unknown encoding gives the body as stored and an
// error saying so.
func (m *Message) Decode(p *Part) ([]byte, error) {
	if m.rawSize(p) > m.lim.DecodedBytes {
		return nil, &Error{Op: "decode", Where: partName(p.Path), Err: ErrTooLarge}
	}
	raw := m.Raw(p)
	if p.http {
		body, _, err := httpPayload(p.Header, raw, m.lim.DecodedBytes)
		if err != nil {
			return nil, &Error{Op: "decode", Where: partName(p.Path), Err: err}
		}
		return body, nil
	}
	b, known, err := decodeBody(p.Encoding, raw)
	if err != nil {
		return b, &Error{Op: "decode", Where: partName(p.Path), Err: err}
	}
	if !known {
		return b, &Error{Op: "decode", Where: partName(p.Path), Err: fmt.Errorf("unknown Content-Transfer-Encoding %q", p.Encoding)}
	}
	return b, nil
}

func childPath(parent string, i int) string {
	if parent == "" {
		return strconv.Itoa(i)
	}
	return parent + "." + strconv.Itoa(i)
}

func (m *Message) parseEntity(start, end int, path string, depth int, parent *Part, http bool) (*Part, error) {
	if depth > m.lim.Depth {
		return nil, &Error{Op: "read", Where: partName(path), Err: ErrTooDeep, Detail: "more than " + strconv.Itoa(m.lim.Depth) + " levels"}
	}
	if len(m.parts) >= m.lim.Parts {
		return nil, &Error{Op: "read", Where: partName(path), Err: ErrTooManyParts, Detail: "the message has more than " + strconv.Itoa(m.lim.Parts) + ": not read"}
	}
	p := &Part{Path: path, Parent: parent, start: start, end: end, http: http}
	m.parts = append(m.parts, p)
	hstart := start
	if http {
		line, next := nextLine(m.src[:end], start)
		p.StartLine = string(line)
		hstart = next
	}
	h, n, warn, err := readHeader(m.src[hstart:end], m.lim.HeaderBytes)
	if err != nil {
		return nil, &Error{Op: "read", Where: partName(path), Err: err, Detail: "more than " + strconv.FormatInt(m.lim.HeaderBytes, 10) + " bytes"}
	}
	p.Header, p.body, p.Warnings = h, hstart+n, warn
	p.MediaType, p.Params = "text/plain", map[string]string{}
	if ct := h.Get("Content-Type"); ct != "" {
		if mt, params := ParseMediaType(ct); mt != "" {
			p.MediaType, p.Params = mt, params
		}
	}
	p.Encoding = strings.ToLower(strings.TrimSpace(h.Get("Content-Transfer-Encoding")))
	if strings.HasPrefix(p.MediaType, "multipart/") {
		err = m.parseMultipart(p, depth)
	} else if enclosed, http := encloses(p.MediaType); enclosed {
		err = m.parseEnclosed(p, depth, http)
	}
	return p, err
}

// encloses reports whether a part of media type mt carries an entity of
// its own (RFC 2046 §5.2: message/rfc822 and its kin, and message/http
// with its start line, RFC 9112 §10.1).
func encloses(mt string) (enclosed, http bool) {
	switch mt {
	case "message/rfc822", "message/global", "message/news":
		return true, false
	case "message/http":
		return true, true
	}
	return false, false
}

// opaque reports whether a message/* part in the transfer encoding cte is
// read as an opaque body: RFC 2046 §5.2.1 forbids encoding one.
func opaque(cte string) bool { return cte == QuotedPrintable || cte == Base64 }

// parseEnclosed parses the entity a message/* part carries.
func (m *Message) parseEnclosed(p *Part, depth int, http bool) error {
	if opaque(p.Encoding) {
		// RFC 2046 §5.2.1 forbids encoding a message/*; read it as opaque.
		p.Warnings = append(p.Warnings, p.MediaType+" with Content-Transfer-Encoding "+p.Encoding+" read as opaque")
		return nil
	}
	c, err := m.parseEntity(p.body, p.end, childPath(p.Path, 1), depth+1, p, http)
	if err != nil {
		return err
	}
	p.Parts = append(p.Parts, c)
	return nil
}

// parseMultipart splits a multipart body at its boundary's delimiter lines
// (RFC 2046 §5.1.1): the line break before a delimiter belongs to it, the
// delimiter may be followed by transport padding, and a close delimiter
// ends the parts. A missing close delimiter makes the last part run to
// the end, marked Truncated. The top-level multipart fails without a
// boundary or a delimiter; a nested one is kept as an opaque body.
func (m *Message) parseMultipart(p *Part, depth int) error {
	fail := func(err error, detail string) error {
		if p.Parent == nil {
			return &Error{Op: "read", Where: partName(p.Path), Err: err, Detail: detail}
		}
		p.Warnings = append(p.Warnings, errtext.Of(err)+"; body kept as it is")
		return nil
	}
	b := p.Params["boundary"]
	if b == "" {
		return fail(ErrNoBoundary, p.MediaType)
	}
	delim := []byte("--" + b)
	type span struct{ start, end int }
	var (
		spans  []span
		cur    = -1 // start of the current part's content
		closed bool
		pos    = p.body
	)
	for pos < p.end && !closed {
		line, next := nextLine(m.src[:p.end], pos)
		if isDelimiter(line, delim) {
			isClose := bytes.HasPrefix(line[len(delim):], []byte("--"))
			if cur >= 0 {
				spans = append(spans, span{cur, lineBreakStart(m.src, cur, pos)})
			}
			cur = next
			if isClose {
				closed = true
				cur = -1
			}
		}
		pos = next
	}
	if cur >= 0 {
		// EOF inside a part: it runs to the end (best effort).
		spans = append(spans, span{cur, p.end})
	}
	if len(spans) == 0 {
		return fail(ErrNoParts, "boundary "+strconv.Quote(b))
	}
	for i, s := range spans {
		c, err := m.parseEntity(s.start, s.end, childPath(p.Path, i+1), depth+1, p, false)
		if err != nil {
			return err
		}
		p.Parts = append(p.Parts, c)
	}
	if !closed {
		last := p.Parts[len(p.Parts)-1]
		last.Truncated = true
		last.Warnings = append(last.Warnings, "no closing boundary: the part runs to the end of its enclosing body")
	}
	return nil
}

// isDelimiter reports whether line is a dash-boundary, optionally followed
// by "--" and by transport padding (RFC 2046 §5.1.1). Anything else after
// the boundary means another boundary that merely shares its prefix.
func isDelimiter(line, delim []byte) bool {
	if !bytes.HasPrefix(line, delim) {
		return false
	}
	rest := bytes.TrimPrefix(line[len(delim):], []byte("--"))
	return len(bytes.Trim(rest, " \t")) == 0
}

// lineBreakStart returns where the line break before the delimiter line
// at pos begins, not before from.
func lineBreakStart(src []byte, from, pos int) int {
	end := pos
	if end > from && src[end-1] == '\n' {
		end--
		if end > from && src[end-1] == '\r' {
			end--
		}
	}
	return end
}

// thisMessageDetail describes the RFC 2557 default in provenance.
const thisMessageDetail = "thismessage:/ (RFC 2557 §5(e))"

// rootContext returns the layers below the message's own header (§3.3,
// §3.4): Chrome's Snapshot-Content-Location, else the caller's retrieval
// URL, else thismessage:/ or, on request, the draft's empty base.
func (m *Message) rootContext() *base.Context {
	c := &base.Context{
		Spec:            m.opts.Spec,
		Header:          m.baseHeader(m.Root),
		ContentLocation: true,
		HeaderOf:        partName(""),
		Strict:          m.opts.Strict,
	}
	if v, err := base.HeaderValue(m.Root.Header.Get("Snapshot-Content-Location")); err == nil {
		if _, err := resolve.NewResolver(m.opts.Spec, v, resolve.Options{}); err == nil {
			c.Retrieval, c.RetrievalDetail = v, "Snapshot-Content-Location"
			return c
		}
	}
	switch {
	case m.opts.Retrieval != "":
		c.Retrieval = m.opts.Retrieval
	case !m.opts.EmptyDefault:
		c.Retrieval, c.RetrievalDetail = ThisMessage, thisMessageDetail
	}
	return c
}

// baseHeader returns the header fields of p that package base reads for
// the §3.2 layer. An HTTP entity's Content-Location counts only when
// Options.ContentLocation says so (RFC 7231 Appendix B).
func (m *Message) baseHeader(p *Part) textproto.MIMEHeader {
	h := p.Header.MIME()
	if p.http && !m.opts.ContentLocation {
		h.Del("Content-Location")
	}
	return h
}

// setBases gives every part its context and its base below its content,
// by package base's layers: its own Base, Content-Base or
// Content-Location header (§3.2; RFC 2557 §5(b)), else the base of the
// enclosing entity, recursively (§3.3; RFC 2557 §5(c)), else the
// retrieval URL and the default.
func (m *Message) setBases(p *Part, ctx *base.Context) {
	p.ctx = ctx
	p.Base = thisMessage(ctx.Fallback())
	for _, c := range p.Parts {
		cctx, err := ctx.Part(p.Base, p.MediaType, m.baseHeader(c), partName(c.Path))
		if err != nil {
			// Limits.Depth is at most base.MaxNesting, so this does not
			// happen; keep the enclosing context rather than fail.
			cctx = ctx
		}
		m.setBases(c, cctx)
	}
}

// thisMessage marks a base that is RFC 2557's default, wherever it was
// handed down from, as the default layer.
func thisMessage(r base.Result) base.Result {
	if r.URL == ThisMessage && (r.Source == base.Retrieval || r.Source == base.Composite) {
		return base.Result{URL: ThisMessage, Source: base.Default, Detail: thisMessageDetail, Warnings: r.Warnings}
	}
	return r
}

// isAbsolute reports whether v starts with a scheme (RFC 3986 §3.1).
func isAbsolute(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case c == ':' && i > 0:
			return true
		default:
			return false
		}
	}
	return false
}

// isOpaque reports whether v is an absolute URL whose scheme is not
// followed by "/", the draft's §2.3 test for a URL that cannot carry
// relative references (cid:, mid:, about:, data:).
func isOpaque(v string) bool {
	if !isAbsolute(v) {
		return false
	}
	i := strings.IndexByte(v, ':')
	return !strings.HasPrefix(v[i+1:], "/")
}

// index maps each part's resolved Content-Location and its Content-ID to
// the part, for Find. The first of duplicates wins (RFC 2557 §7 forbids
// them) and the later ones get a warning. Leaf parts come first: a
// multipart's Content-Location names the whole aggregate (§4.3), which
// producers often label with its root part's URL too.
func (m *Message) index() {
	m.byLocation, m.byID, m.locationOf = map[string]*Part{}, map[string]*Part{}, map[*Part]string{}
	for _, leaves := range []bool{true, false} {
		for _, p := range m.parts {
			if (len(p.Parts) == 0) != leaves {
				continue
			}
			m.indexPart(p, leaves)
		}
	}
}

func (m *Message) indexPart(p *Part, warn bool) {
	if id := contentID(p.Header.Get("Content-ID")); id != "" {
		if q, dup := m.byID[id]; !dup {
			m.byID[id] = p
		} else if warn {
			p.Warnings = append(p.Warnings, "Content-ID also on "+partName(q.Path))
		}
	}
	if p.http || m.opts.Spec == 0 {
		return
	}
	v, err := base.HeaderValue(p.Header.Get("Content-Location"))
	if err != nil {
		return
	}
	u := v
	if !isOpaque(v) {
		if u, err = resolve.Reference(m.opts.Spec, m.locationBase(p), v); err != nil {
			return
		}
	}
	u = withoutFragment(u)
	if q, dup := m.byLocation[u]; !dup {
		m.byLocation[u] = p
		m.locationOf[p] = u
	} else if warn {
		p.Warnings = append(p.Warnings, "Content-Location also on "+partName(q.Path))
	}
}

// locationBase returns what a part's own relative Content-Location is
// resolved against: its own Content-Base or Base (RFC 2110 §4.2: "a base
// for relative URIs occurring in other heading fields"), else the
// enclosing entity's base (RFC 2557 §8.2(c)).
func (m *Message) locationBase(p *Part) string {
	enclosing := p.ctx.Retrieval
	if p.Parent != nil {
		enclosing = p.Parent.Base.URL
	}
	for _, name := range []string{"Base", "Content-Base"} {
		if v, err := base.HeaderValue(p.Header.Get(name)); err == nil && !isOpaque(v) {
			if u, err := resolve.Reference(m.opts.Spec, enclosing, v); err == nil {
				return u
			}
		}
	}
	return enclosing
}

// Find returns the part a resolved reference names, or nil (RFC 2557
// §8.2(d), §8.3): a cid: URL matches a Content-ID only, never a
// Content-Location that happens to start with "cid:"; any other URL
// matches a Content-Location resolved the same way, octet by octet,
// ignoring the fragment, which names a place inside the part.
func (m *Message) Find(ref string) *Part {
	if len(ref) > 4 && strings.EqualFold(ref[:4], "cid:") {
		id := ref[4:]
		if u, err := url.PathUnescape(id); err == nil {
			id = u
		}
		return m.byID[id]
	}
	return m.byLocation[withoutFragment(ref)]
}

func withoutFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}
