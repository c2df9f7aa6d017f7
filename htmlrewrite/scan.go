package htmlrewrite

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unsafe"

	"golang.org/x/text/encoding"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/htmltree"
	"github.com/relurl/relurl/internal/lazyref"
	"github.com/relurl/relurl/internal/lazyurl"
	"github.com/relurl/relurl/internal/spare"
	"github.com/relurl/relurl/internal/token"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// readSize is the tokenizer's buffer: a document is read (and unchanged
// tokens passed on, see pass) that many bytes at a time. 32 KiB: fewer
// read calls on files (relurl rewrite -j 1 of corpus B: 17,708 -> 6,798).
const readSize = 32 << 10

// readBuffers holds the tokenizers' read buffers between documents: a
// tree of small pages allocated (and the collector cleared) one per page,
// a sixth of what relurl rewrite -o allocated on corpus A (profile).
// Nothing a pass returns aliases the buffer (strings that outlive a token
// are copied: see str), so it is reused as soon as the pass ends.
var readBuffers = spare.New[[]byte](spareBuffers)

// readBuffer returns an empty buffer of capacity readSize or more.
func readBuffer() []byte {
	if b, ok := readBuffers.Get(); ok {
		return b
	}
	return make([]byte, 0, readSize)
}

// freeReadBuffer keeps b for a later readBuffer, unless enough are kept
// or it is not one: smaller than readSize, or grown by a tokenizer past
// maxReadBuffer. (A tokenizer grows its buffer for a long piece of
// text or script, up to twice chunkSize: a grown buffer dropped was
// a new one allocated for the next document, and the larger one grown
// again for the next long script.) No byte of b may be used after it.
func freeReadBuffer(b []byte) {
	if readSize <= cap(b) && cap(b) <= maxReadBuffer {
		readBuffers.Put(b[:0])
	}
}

// maxReadBuffer is the largest read buffer kept: what a tokenizer grows
// to for text cut in chunkSize pieces (see freeReadBuffer).
const maxReadBuffer = 2 * chunkSize

// spareBuffers is how many buffers of each kind are kept between
// documents: as many as documents are usually read at once (relurl -j).
const spareBuffers = 8

// chunkSize is the piece of text, script or comment held at a time.
const chunkSize = 64 << 10

// streamStyle says whether <style> sheets are cut into pieces (tests
// compare with the sheet held whole).
var streamStyle = true

// maxTemplates bounds the <template> nesting whose inertness is tracked.
const maxTemplates = 256

// maxSrcdoc bounds the nesting of <iframe srcdoc> documents rewritten.
const maxSrcdoc = 4

// sub is a change inside a decoded value: [d0, d1) becomes repl.
type sub struct {
	d0, d1 int
	repl   string
}

// edit is a change of a token's raw bytes: [start, end) becomes
// scratch[r0:r1].
type edit struct {
	start, end int
	r0, r1     int
}

// scanner runs one document through the tokenizer, rewriting (w != nil)
// or reporting links (fn != nil).
type scanner struct {
	cut   *link.IncompleteError // a limit met in the current tag (MaxRewrites)
	opts  Options
	w     *bufio.Writer
	fn    func(link.Link) error
	stats link.Stats
	p     prepared
	// special marks the bytes that keep a raw value from reading as
	// itself in the document's encoding (see plain).
	special *[256]bool
	depth   int // srcdoc nesting

	res    *resolve.Resolver // the document's base
	docURL string            // the document's URL (its fallback base)
	docRes *resolve.Resolver // made when first needed
	ropts  resolve.Options

	z       *token.Tokenizer
	passing bool  // tokens are passed (see pass)
	passed  bool  // the current token was
	off     int64 // offset of the current token
	counted int64 // offset of the first byte whose line is not counted
	line    int   // line of the current token's first byte
	lineOff int64 // offset of that line's first byte
	cur     cursor

	t        tag
	tree     htmltree.Tree // foreign content, integration points (package htmltree)
	attrs    tagAttrs      // the current start tag's, for tree
	template int
	// templates says, for each open <template> (up to maxForeign), whether
	// its contents are inert; inert counts those that are.
	templates  []bool
	inert      int
	styleNext  bool
	scriptNext scriptKind // the next text is a module script's or an import map's
	importKeys []string   // the bare keys of the import maps met so far
	scriptMap  []int32    // decoded to raw offsets of the script being read
	warnedBase bool
	dropTag    bool // the current start tag is removed

	at      site // the value being read
	subs    []sub
	offs    []int32
	refs    references
	edits   []edit
	scratch []byte
	linkBuf []byte // a link's strings, made (see emitRef)
	// lazy is the URL of the link being emitted when it is left for later
	// (emitDeferred): link hands it to the Link.
	lazy   *lazyref.Ref
	urls   []byte // the URLs of s.subs (see reference)
	blocks blocks // where they are kept
	rel    []string
	err    error // from fn
	// onBase is called at the first start tag named "base" (the single
	// passes of Rewrite and Links, once.go, linksonce.go); an error stops
	// the pass.
	onBase func() error
	warn0  int          // the base's warnings before the pass's own (see untouched)
	hold   *hold        // Links' single pass holds links here (emit), else nil
	ranFn  func([]byte) // s.ran, made once per scanner
	// first, when set, is a read buffer holding the document's first
	// bytes, read before run's reader; run's tokenizer takes it over
	// (and frees it).
	first []byte

	// A UTF-16 document (see utf16.go): the writer that encodes the
	// output back, and the offsets of links in the document's own bytes.
	u16w      *utf16Writer
	off16     int64 // offset of the current token
	lineOff16 int64 // of the first byte of its line
	u16cur    struct{ i, u int64 }
	u16line   struct{ dec, off16 int64 }

	// runCounted is how many bytes of the tokenizer's run of passed
	// tokens, not yet handed over, are counted (position).
	runCounted int
}

func newScanner(src io.Reader, opts Options, w *bufio.Writer, fn func(link.Link) error) (*scanner, io.Reader, error) {
	if err := checkSpec(opts); err != nil {
		return nil, nil, err
	}
	p, err := prepare(src, &opts)
	if err != nil {
		return nil, nil, err
	}
	s, err := newScannerPrepared(p, opts, w, fn)
	return s, p.r, err
}

// flush writes what the scanner holds to w, the writer it was made with.
func (s *scanner) flush(w *bufio.Writer) error {
	if s.u16w != nil {
		if err := s.w.Flush(); err != nil {
			return err
		}
		if err := s.u16w.Close(); err != nil {
			return err
		}
	}
	return w.Flush()
}

func checkSpec(opts Options) error {
	switch opts.Context.Spec {
	case resolve.RFC1808, resolve.RFC2396, resolve.RFC3986, resolve.WHATWG:
		// The modes NewResolver knows: no Resolver made (twice per
		// document) to learn it.
		return nil
	}
	if _, err := resolve.NewResolver(opts.Context.Spec, "", resolve.Options{}); err != nil {
		return fmt.Errorf("htmlrewrite: %w", err)
	}
	return nil
}

// newScannerPrepared makes the scanner of a document whose base and
// encoding are known.
func newScannerPrepared(p prepared, opts Options, w *bufio.Writer, fn func(link.Link) error) (*scanner, error) {
	if err := checkSpec(opts); err != nil {
		return nil, err
	}
	s := newScannerReused()
	s.opts, s.w, s.fn, s.p, s.line, s.special = opts, w, fn, p, 1, &specialUTF8
	switch {
	case p.enc != nil:
		s.special = &specialLegacy
	case p.utf16 != nil:
		s.special = &specialUTF16
	}
	s.tree.Scripting = opts.Scripting
	s.stats.Base = p.base
	s.stats.Charset = p.encName
	s.ropts = opts.Context.Options
	s.ropts.QueryEncoding = p.enc // the document's, as decided (nil: UTF-8)
	if p.fallback {
		s.docURL = p.base.URL // Fallback() itself (startOnce)
	} else {
		s.docURL = opts.Context.Fallback().URL
	}
	s.res = s.resolver(p.base.URL)
	s.warn0 = len(s.stats.Base.Warnings)
	return s, nil
}

// scanners keeps scanners between documents, with the memory of their
// scratch slices, tree and tokenizer (see free): the per-document
// scanner, its slices grown anew, its tree's stack and its tokenizer
// were a fifth of what a rewrite of a tree of small pages allocated
// (TestAllocsPerSmallDocument).
var scanners keptScanners

// keptScanners is a stack of at most spareBuffers scanners: the one
// freed last is used next, so that a run reading one document at a time
// reuses one scanner whose slices have grown to what its documents need
// (a queue, as spare.Pool is, would go round all of them).
type keptScanners struct {
	mu   sync.Mutex
	kept []*scanner
}

// Get returns the scanner kept last, and true, or nil and false.
func (k *keptScanners) Get() (*scanner, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	n := len(k.kept)
	if n == 0 {
		return nil, false
	}
	s := k.kept[n-1]
	k.kept[n-1] = nil
	k.kept = k.kept[:n-1]
	return s, true
}

// Put keeps s, unless spareBuffers are kept.
func (k *keptScanners) Put(s *scanner) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if len(k.kept) < spareBuffers {
		k.kept = append(k.kept, s)
	}
}

// maxKept bounds each scratch slice a scanner keeps between documents
// (elements, not bytes): a huge tag's or script's are let go.
const maxKept = 16 << 10

// newScannerReused returns a scanner in its zero state but for the
// memory of a kept one's scratch slices.
func newScannerReused() *scanner {
	if s, ok := scanners.Get(); ok {
		return s
	}
	return &scanner{}
}

// free gives s back for a later document: nothing of it may be used
// afterwards, and nothing the pass returned may refer to its scratch
// (Stats and Links do not: a link's strings are carved from blocks,
// which are only appended to, and importKeys is not kept). The slices are
// cut to length zero and cleared of pointers, so that a kept scanner
// holds nothing of the document; the tree's stack and the tokenizer's
// attribute memory are bounded by MaxOpen and maxKept.
func (s *scanner) free() {
	k := scanner{
		subs: keep(s.subs), offs: keep(s.offs), edits: keep(s.edits),
		scratch: keep(s.scratch), linkBuf: keep(s.linkBuf), urls: keep(s.urls),
		rel: keep(s.rel), templates: keep(s.templates), scriptMap: keep(s.scriptMap),
		blocks: s.blocks, refs: s.refs, tree: s.tree, ranFn: s.ranFn,
	}
	k.t.attrs = keep(s.t.attrs)
	k.tree.Reset()
	k.tree.Scripting = false
	if s.z != nil {
		s.z.ResetBuffer(nil, nil)
		k.z = s.z
	}
	*s = k
	scanners.Put(s)
}

// keep returns b empty, its elements cleared, or nil when it is too
// large to keep.
func keep[T any](b []T) []T {
	if cap(b) > maxKept {
		return nil
	}
	clear(b[:cap(b)])
	return b[:0]
}

// resolver returns a Resolver for base, or one with no base (§3.4) when
// base cannot serve: its relative references then fail one by one.
func (s *scanner) resolver(b string) *resolve.Resolver {
	r, err := resolve.NewResolver(s.opts.Context.Spec, b, s.ropts)
	if err != nil {
		s.stats.Base.Warnings = append(s.stats.Base.Warnings,
			fmt.Sprintf("base %q unusable: %v", b, err))
		r, _ = resolve.NewResolver(s.opts.Context.Spec, "", s.ropts)
	}
	return r
}

func (s *scanner) documentResolver() *resolve.Resolver {
	if s.docRes == nil {
		if s.docURL == s.res.Base() {
			s.docRes = s.res
		} else {
			s.docRes = s.resolver(s.docURL)
		}
	}
	return s.docRes
}

func (s *scanner) warn(format string, args ...any) {
	s.stats.Base.Warnings = append(s.stats.Base.Warnings, fmt.Sprintf(format, args...))
}

func (s *scanner) write(b []byte) error {
	if s.w == nil {
		return nil
	}
	s.flushRun()
	_, err := s.w.Write(b)
	return err
}

// pass lets the current token, raw, out as written. While the tokenizer
// keeps the run of passed tokens (see token.Tokenizer.Pass), they are
// written and their lines counted in one go when the run ends (ran):
// most tokens are passed, and a Write and a line count per token were a
// tenth of a rewrite.
func (s *scanner) pass(raw []byte) error {
	if s.passing {
		s.z.Pass()
		s.passed = true
		return nil
	}
	return s.write(raw)
}

// flushRun ends the run of passed tokens: what uses the bytes or lines
// of a token not passed comes after them.
func (s *scanner) flushRun() {
	if s.passing {
		s.z.Flush()
	}
}

// ran receives a run of passed tokens from the tokenizer.
func (s *scanner) ran(b []byte) {
	if s.fn != nil || s.opts.Map != nil {
		// Its first runCounted bytes were counted already (position).
		if k := s.runCounted; k > 0 {
			s.runCounted = 0
			b = b[min(k, len(b)):]
		}
		s.count(b)
	} else {
		// Only the line, for an error that names where it stopped.
		s.line += bytes.Count(b, newline)
	}
	if s.w != nil {
		if _, err := s.w.Write(b); err != nil && s.err == nil {
			s.err = err
		}
	}
}

func (s *scanner) run(r io.Reader) (err error) {
	if s.opts.Referrer != nil && s.depth == 0 {
		defer func() {
			if s.err == nil && (err == nil || errors.As(err, new(*link.IncompleteError))) {
				s.opts.Referrer.End(s.importKeys, s.stats.Charset)
			}
		}()
	}
	z := s.z
	if z == nil {
		z = new(token.Tokenizer)
	}
	if s.first != nil {
		// The single passes' first read (startOnce), read as it stands.
		z.ResetRead(r, s.first)
		s.first = nil
	} else {
		z.ResetBuffer(r, readBuffer())
	}
	// After the deferred Flush below: the last run is written.
	defer func() { freeReadBuffer(z.ReadBuffer()) }()
	maxTok := s.opts.MaxSize
	if maxTok <= 0 {
		maxTok = link.DefaultMaxToken
	}
	z.SetMaxBuf(maxTok)
	// Text, scripts, comments and <style> sheets pass in pieces: only a
	// tag (and a CSS token or rule without a ";", "{" or "}" to cut
	// after) is held, up to maxTok.
	z.SetChunk(max(1, min(chunkSize, maxTok/2)))
	if s.p.enc == nil && streamStyle {
		// A <style> sheet too, cut between CSS rules and declarations.
		// (In a legacy encoding a trail byte can be "}" or "\": such a
		// sheet is held whole, decoded.)
		z.SetStyleSplit(cssCut)
	}
	s.z = z
	// A UTF-16 document's offsets are counted token by token (advance).
	if s.passing = s.p.utf16 == nil; s.passing {
		if s.ranFn == nil {
			s.ranFn = s.ran // kept with s (free): a method value is an allocation
		}
		z.SetPass(s.ranFn)
		// Text before a tag is passed as every text token outside raw
		// text is (the TextToken case below): in the tokenizer, without
		// a token of its own.
		z.SetPassText(true)
		defer z.Flush()
	}
	for {
		tt := z.Next()
		raw := z.Raw()
		s.off += int64(z.Before())
		styleNext, scriptNext := s.styleNext, s.scriptNext
		s.styleNext, s.scriptNext = false, scriptOther
		var err error
		switch tt {
		case token.ErrorToken:
			if err := s.write(raw); err != nil {
				return err
			}
			switch err := z.Err(); {
			case err == io.EOF:
				return nil
			case errors.Is(err, token.ErrBufferExceeded):
				// What was held when the buffer ran out: the text of a
				// <style> or <script> element, or else a tag.
				what := "a tag"
				switch {
				case styleNext:
					what = "a <style> element"
				case scriptNext != scriptOther:
					what = "a <script> element"
				}
				line, _ := s.position(raw, 0)
				return s.stop(r, &link.IncompleteError{What: what, Line: line, Offset: s.off, Limit: maxTok, Unit: "bytes"})
			default:
				return err
			}
		case token.StartTagToken, token.SelfClosingTagToken:
			if z.AttrsCut() {
				// Its attributes past link.MaxAttrs were not kept: the tag
				// is not read, nor the rest.
				line, _ := s.position(raw, 0)
				if err := s.write(raw); err != nil {
					return err
				}
				return s.stop(r, &link.IncompleteError{What: "a tag", Line: line, Offset: s.off, Limit: link.MaxAttrs, Unit: "attributes"})
			}
			err = s.startTag(raw, tt == token.SelfClosingTagToken)
			if cut := s.cut; cut != nil && err == nil {
				s.cut = nil
				cut.Line, _ = s.position(raw, 0)
				cut.Offset = s.off
				if err := s.write(raw); err != nil {
					return err
				}
				return s.stop(r, cut)
			}
			z.AllowCDATA(s.tree.Foreign()) // only tags move the tree
		case token.EndTagToken:
			s.endTag(raw)
			err = s.pass(raw)
			z.AllowCDATA(s.tree.Foreign())
		case token.TextToken:
			switch {
			case styleNext:
				err = s.styleSheet(raw)
				// The sheet may go on in the next text token (a piece
				// of it: see SetStyleSplit); its end tag comes next
				// otherwise.
				s.styleNext = true
			case scriptNext != scriptOther:
				err = s.script(raw, scriptNext)
			default:
				err = s.pass(raw)
			}
		default:
			err = s.pass(raw)
		}
		if err != nil {
			return err
		}
		if s.err != nil {
			return s.err
		}
		s.advance(raw)
	}
}

// stop ends the reading at a limit: Rewrite copies what the tokenizer
// holds and the rest of r as written; both return incomplete.
func (s *scanner) stop(r io.Reader, incomplete *link.IncompleteError) error {
	if s.w == nil {
		return incomplete
	}
	if err := s.write(s.z.Buffered()); err != nil {
		return err
	}
	if _, err := io.Copy(s.w, r); err != nil {
		return err
	}
	return incomplete
}

// advance moves the position past raw. Lines are counted only when a
// Link is made: for Links and Options.Map.
//
// Small enough to be inlined in run's loop, which calls it for every
// token; a token not passed is counted by advanceHeld. (A passed token
// is not UTF-16's: a decoded document's tokens are not passed.)
func (s *scanner) advance(raw []byte) {
	if s.passed {
		s.passed = false // counted with its run
	} else {
		s.advanceHeld(raw)
	}
	s.off += int64(len(raw))
	s.cur = cursor{}
}

// advanceHeld counts the lines of raw, a token not passed, and starts
// the next token's UTF-16 offsets.
func (s *scanner) advanceHeld(raw []byte) {
	if s.fn != nil || s.opts.Map != nil {
		s.flushRun()
		s.count(raw)
	} else {
		s.line += bytes.Count(raw, newline)
	}
	s.u16cur.i, s.u16cur.u = 0, 0
}

var newline = []byte{'\n'}

// count moves the line count past b, the bytes that follow those
// counted so far.
func (s *scanner) count(b []byte) {
	if n := bytes.Count(b, []byte{'\n'}); n > 0 {
		s.line += n
		last := lastNewline(b)
		s.lineOff = s.counted + int64(last) + 1
		if s.p.utf16 != nil {
			s.lineOff16 = s.off16 + 2*utf16Units(b[:last+1])
		}
	}
	if s.p.utf16 != nil {
		s.off16 += 2 * utf16Units(b)
	}
	s.counted += int64(len(b))
}

// lastNewline returns the index of the last "\n" in b, or -1. It is
// bytes.LastIndexByte eight bytes at a time: that is a loop a byte at a
// time on amd64, long where the last newline of a run is far from its
// end (minified HTML).
func lastNewline(b []byte) int {
	const ones, highs, nl = 0x0101010101010101, 0x8080808080808080, 0x0a0a0a0a0a0a0a0a
	i := len(b)
	for i >= 8 {
		// A word without "\n" has no zero byte once xored with nl.
		x := binary.LittleEndian.Uint64(b[i-8:i]) ^ nl
		if (x-ones)&^x&highs != 0 {
			break
		}
		i -= 8
	}
	for i--; i >= 0; i-- {
		if b[i] == '\n' {
			return i
		}
	}
	return -1
}

// utf16Position returns the offset in a UTF-16 document's bytes of byte
// pos of the current (decoded) token, and its 1-based column in bytes;
// position must have been called for pos. Links come in order, so the
// code units are counted from the last link on.
func (s *scanner) utf16Position(raw []byte, pos int) (int64, int) {
	c := &s.u16cur
	if int64(pos) < c.i {
		c.i, c.u = 0, 0
	}
	c.u += utf16Units(raw[c.i:pos])
	c.i = int64(pos)
	off := s.off16 + 2*c.u
	ls := s.cur.lineOff // the decoded offset of pos's line
	switch {
	case ls == s.lineOff:
		s.u16line.dec, s.u16line.off16 = ls, s.lineOff16
	case ls != s.u16line.dec:
		s.u16line.dec, s.u16line.off16 = ls, off-2*utf16Units(raw[ls-s.off:pos])
	}
	return off, int(off-s.u16line.off16) + 1
}

// cursor is the last position computed in the current token: the links
// of a long token (a style sheet, a srcset) come in order, and counting
// lines from it rather than from the token's start keeps placing them
// linear in the token's length.
type cursor struct {
	i, line int // line 0: none yet
	lineOff int64
}

// position returns the line and column of byte i of the current token.
func (s *scanner) position(raw []byte, i int) (line, col int) {
	// The lines of the tokens before. Without a writer (Links) the run
	// of passed tokens before goes on: its bytes not counted yet are
	// counted where they are, and the run is handed over (ran) when the
	// tokenizer's buffer moves, or a token is not passed, as without
	// links. Ending the run at every link was a fifth of Links' line
	// counting: a Flush, a call of ran and a shorter run each time.
	if s.w == nil && s.passing {
		if p := s.z.Pending(); len(p) > s.runCounted {
			s.count(p[s.runCounted:])
			s.runCounted = len(p)
		}
	} else {
		s.flushRun()
	}
	c := s.cur
	if c.line == 0 || i < c.i {
		c = cursor{0, s.line, s.lineOff}
	}
	if n := bytes.Count(raw[c.i:i], []byte{'\n'}); n > 0 {
		c.line += n
		c.lineOff = s.off + int64(c.i+bytes.LastIndexByte(raw[c.i:i], '\n')) + 1
	}
	c.i = i
	s.cur = c
	return c.line, int(s.off+int64(i)-c.lineOff) + 1
}

func (s *scanner) endTag(raw []byte) {
	n := s.z.TagName() // as far as the tokenizer read it: no second look
	var buf [maxName]byte
	var name string // valid during the call of End, which keeps no name
	if b := raw[n[0]:n[1]]; s.z.NameLower() {
		name = unsafe.String(unsafe.SliceData(b), len(b))
	} else {
		name = tagName(&buf, b)
	}
	open := s.tree.Templates()
	s.tree.End(name)
	if s.tree.Templates() < open && s.template > 0 {
		s.template--
		if k := len(s.templates); k > 0 && k > s.template {
			if s.templates[k-1] {
				s.inert--
			}
			s.templates = s.templates[:k-1]
		}
	}
}

// tagName returns the lower-cased name b, in buf when it fits.
func tagName(buf *[maxName]byte, b []byte) string {
	n := lower(buf, b)
	if n < 0 {
		return string(bytes.ToLower(b))
	}
	return unsafe.String(&buf[0], n)
}

// asciiEqualFold reports whether b and the lower-case key are equal,
// ignoring ASCII case.
func asciiEqualFold(b []byte, key string) bool {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != key[i] {
			return false
		}
	}
	return true
}

// tagAttrs gives htmltree the attributes of the current start tag, read
// only when it asks (font's color, face and size, annotation-xml's
// encoding).
type tagAttrs struct {
	s   *scanner
	raw []byte
}

func (a *tagAttrs) Attr(key string) (string, bool) {
	z := a.s.z
	for i := range z.AttrCount() {
		if k0, k1 := z.AttrKey(i); k1-k0 == len(key) && asciiEqualFold(a.raw[k0:k1], key) {
			v0, v1 := z.AttrVal(i)
			return a.s.decoded(a.raw[v0:v1]), true
		}
	}
	return "", false
}

func (s *scanner) startTag(raw []byte, selfClosing bool) error {
	t := &s.t
	tagOf(raw, s.z, t)
	if t.id == tagBase && s.onBase != nil {
		on := s.onBase
		s.onBase = nil
		if err := on(); err != nil {
			return err
		}
	}
	name := t.name
	// tn is valid during the call of Start, which copies it: t.name is
	// the token's raw bytes or t.lower, both kept until the next token.
	var tn string
	if name != nil {
		tn = unsafe.String(unsafe.SliceData(name), len(name))
	} else {
		n := s.z.TagName()
		tn = string(bytes.ToLower(raw[n[0]:n[1]]))
	}
	s.attrs = tagAttrs{s, raw}
	ns := s.tree.Start(tn, &s.attrs, selfClosing)
	math := ns == htmltree.MathML
	isForeign := ns != htmltree.HTML
	if isForeign {
		// Inside svg and math, <style>, <title>, <script> ... hold markup.
		s.z.NextIsNotRawText()
	} else {
		switch t.id {
		case tagNoscript:
			if !s.tree.RawText("noscript") {
				s.z.NextIsNotRawText() // scripting disabled: markup
			}
		case tagStyle:
			s.styleNext = true
		case tagScript:
			// A module script's or an import map's text is read whole,
			// bounded by MaxSize as a <style> sheet is.
			if s.scriptNext = s.scriptType(); s.scriptNext != scriptOther {
				s.z.HoldRawText()
			}
		case tagTemplate:
			// The self-closing flag does not apply to <template> (HTML
			// §13.2.6.4.4): "<template/>" opens one, as htmltree says.
			s.template++
			if len(s.templates) < maxTemplates {
				// HTML §13.2.6.4.4 "in head", a template start tag: a
				// declarative shadow root (shadowrootmode) becomes part
				// of the document; other contents are inert.
				inert := s.inert > 0 || !s.shadowRoot(raw)
				s.templates = append(s.templates, inert)
				if inert {
					s.inert++
				}
			}
		}
	}
	if len(t.attrs) == 0 {
		return s.pass(raw)
	}
	if s.opts.Anchor != nil && s.template == 0 {
		s.anchors(raw, t.id == tagA && !isForeign)
	}
	if s.opts.MapName != nil && t.id == tagMap && !isForeign && s.template == 0 {
		s.mapNames(raw)
	}
	s.edits = s.edits[:0]
	s.scratch = s.scratch[:0]
	s.rel = s.rel[:0]
	relDone := false
	var codebase *resolve.Resolver
	counts := [5]int{s.stats.Links, s.stats.Rewritten, s.stats.Failed, s.stats.Skipped, s.stats.Mapped}
	for i := range t.attrs {
		a := &t.attrs[i]
		r := ruleFor(t.id, a.id, isForeign, isForeign && linking(math, name), &s.opts)
		if r.syn == synNone {
			if a.id == attrHref && t.id == tagBase && !isForeign {
				s.baseElement(raw, a)
			}
			continue
		}
		res := s.res
		switch {
		case t.id == tagMeta && a.id == attrContent:
			if !s.is(raw, t.get(attrHTTPEquiv), "refresh") {
				continue
			}
			if s.beforeBase() {
				res = s.documentResolver()
			}
		case t.id == tagParam && a.id == attrValue:
			if !s.paramURL(raw) {
				continue
			}
		case r.codebase && !(a.id == attrData && s.opts.Context.Spec == resolve.WHATWG):
			// HTML 4.01 §13.3 resolves data, classid and archive against
			// codebase. The HTML Standard resolves <object data> against
			// the node document (§4.8.7) and makes codebase obsolete
			// (§16.2), so the WHATWG mode keeps the old rule only for the
			// attributes it no longer defines.
			if cb := t.get(attrCodebase); cb != nil {
				if codebase == nil {
					codebase = s.codebase(raw, cb)
				}
				res = codebase
			}
		case r.docURL && a.id == attrManifest:
			res = s.documentResolver()
		}
		if !relDone && (t.id == tagA || t.id == tagArea || t.id == tagLink || t.id == tagForm) && !isForeign {
			relDone = true
			s.relTokens(raw, t.get(attrRel))
		}
		kind := r.kind
		if t.id == tagLink && a.id == attrHref && !isForeign {
			kind = link.Navigation
			for _, rel := range s.rel {
				if resourceRels[rel] && kind != link.Import {
					kind = link.Resource
				}
				if rel == "modulepreload" {
					kind = link.Import // a module (HTML §4.6.7.13)
				}
			}
		}
		if t.id == tagScript && a.id == attrSrc && s.scriptNext == scriptModule {
			kind = link.Import // an external module script
		}
		s.value(raw, name, a, r, kind, res)
		if s.err != nil {
			return nil
		}
		if s.cut != nil {
			// The tag is left as written (run stops there): its
			// values are not counted as rewritten.
			s.stats.Links, s.stats.Rewritten, s.stats.Failed, s.stats.Skipped, s.stats.Mapped = counts[0], counts[1], counts[2], counts[3], counts[4]
			return nil
		}
	}
	if s.dropTag {
		s.dropTag = false
		s.stats.Changed = s.stats.Changed || s.w != nil
		return nil
	}
	return s.writeEdits(raw)
}

// anchors reports the id of the current start tag, and its name when it
// is an HTML <a>, to Options.Anchor.
func (s *scanner) anchors(raw []byte, anchor bool) {
	report := func(a *attr) {
		if a == nil || a.v1 == a.v0 {
			return
		}
		name := strings.Clone(s.decoded(raw[a.v0:a.v1])) // s.str aliases the buffer
		s.opts.Anchor(name)
	}
	report(s.t.get(attrIdent))
	if anchor {
		report(s.t.get(attrName))
	}
}

// mapNames reports the name and the id of the current <map> start tag to
// Options.MapName.
func (s *scanner) mapNames(raw []byte) {
	for _, a := range [...]*attr{s.t.get(attrName), s.t.get(attrIdent)} {
		if a != nil && a.v1 != a.v0 {
			s.opts.MapName(strings.Clone(s.decoded(raw[a.v0:a.v1])))
		}
	}
}

func (s *scanner) writeEdits(raw []byte) error {
	if s.w == nil || len(s.edits) == 0 {
		// A tag left as written (in Links, every tag) joins the run of
		// passed tokens, whose lines are counted in one go: in Links, a
		// flush and a count per tag with attributes were 2 % of the pass.
		return s.pass(raw)
	}
	s.flushRun()
	prev := 0
	for _, e := range s.edits {
		if !s.stats.Changed && !bytes.Equal(raw[e.start:e.end], s.scratch[e.r0:e.r1]) {
			s.stats.Changed = true
		}
		s.w.Write(raw[prev:e.start])
		s.w.Write(s.scratch[e.r0:e.r1])
		prev = e.end
	}
	_, err := s.w.Write(raw[prev:])
	return err
}

// baseElement applies Options.Base to a <base href>.
func (s *scanner) baseElement(raw []byte, a *attr) {
	if s.template > 0 {
		return
	}
	deciding := s.p.elem.Found && s.off == s.p.elem.Offset
	if !s.p.elem.Found && s.p.truncated && !s.warnedBase {
		s.warnedBase = true
		line, _ := s.position(raw, 0)
		s.warn("a <base href> at byte %d (line %d) lies beyond the %d bytes of the stream pre-scanned: the links used the fallback base", s.off, line, s.p.limit)
	}
	if s.w == nil {
		return
	}
	if s.opts.BaseHref != "" {
		if deciding && s.stats.Base.Source == base.Embedded {
			if dec := s.decoded(raw[a.v0:a.v1]); dec != s.opts.BaseHref {
				s.subs = append(s.subs[:0], sub{0, len(dec), s.opts.BaseHref})
				s.apply(raw, a, dec, s.asWritten(raw[a.v0:a.v1]))
			}
		}
		return
	}
	switch s.opts.Base {
	case BaseRemove:
		s.dropTag = true
	case BaseAbsolute:
		if deciding && s.stats.Base.Source == base.Embedded {
			dec := s.decoded(raw[a.v0:a.v1])
			if dec != s.stats.Base.URL {
				s.subs = append(s.subs[:0], sub{0, len(dec), s.stats.Base.URL})
				s.apply(raw, a, dec, s.asWritten(raw[a.v0:a.v1]))
			}
		}
	}
}

// is reports whether attribute a's value is v, ASCII case-insensitively.
func (s *scanner) is(raw []byte, a *attr, v string) bool {
	if a == nil {
		return false
	}
	return strings.EqualFold(strings.TrimSpace(s.decoded(raw[a.v0:a.v1])), v)
}

// beforeBase reports whether, in the WHATWG mode, the current token comes
// before the <base href> that decides the document base. A refresh pragma
// parses its URL when its <meta> is inserted (HTML §4.2.5.3, "shared
// declarative refresh steps", step 11: "relative to document"), against
// the document base URL of that moment: with no <base href> inserted
// yet, the fallback base URL. (Elements are inserted in token order, and
// a <base> is never moved before an earlier one.) The RFC modes keep one
// base for the whole document, as the draft does.
func (s *scanner) beforeBase() bool {
	return s.opts.Context.Spec == resolve.WHATWG && s.p.elem.Found &&
		s.stats.Base.Source == base.Embedded && s.off < s.p.elem.Offset
}

// shadowRoot reports whether the <template> start tag raw declares a
// shadow root: a shadowrootmode attribute of "open" or "closed", ASCII
// case-insensitively (HTML §4.12.3, "declarative shadow roots").
func (s *scanner) shadowRoot(raw []byte) bool {
	for i := range s.z.AttrCount() {
		k0, k1 := s.z.AttrKey(i)
		if k := raw[k0:k1]; len(k) == len("shadowrootmode") && strings.EqualFold(string(k), "shadowrootmode") {
			v0, v1 := s.z.AttrVal(i)
			v := strings.TrimSpace(s.decoded(raw[v0:v1]))
			return strings.EqualFold(v, "open") || strings.EqualFold(v, "closed")
		}
	}
	return false
}

// paramURL reports whether the <param> holds a URL in its value.
func (s *scanner) paramURL(raw []byte) bool {
	if s.is(raw, s.t.get(attrValuetype), "ref") {
		return true
	}
	if n := s.t.get(attrName); n != nil {
		switch strings.ToLower(strings.TrimSpace(s.decoded(raw[n.v0:n.v1]))) {
		case "movie", "src", "url", "filename", "data", "href":
			return true
		}
	}
	return false
}

// codebase returns the resolver for an object's or applet's codebase.
func (s *scanner) codebase(raw []byte, a *attr) *resolve.Resolver {
	ref := clean(s.decoded(raw[a.v0:a.v1]))
	u, err := s.res.Reference(ref)
	if err != nil {
		return s.res
	}
	r, err := resolve.NewResolver(s.opts.Context.Spec, u, s.ropts)
	if err != nil {
		return s.res
	}
	return r
}

func (s *scanner) relTokens(raw []byte, a *attr) {
	if a == nil {
		return
	}
	for f := range strings.FieldsSeq(s.decoded(raw[a.v0:a.v1])) {
		s.rel = append(s.rel, strings.ToLower(f))
	}
}

// plain reports whether the raw value v reads as itself: no character
// reference, CR or NUL to decode, and no byte the document's encoding
// would decode to something else.
func (s *scanner) plain(v []byte) bool {
	return s.special1(v) < 0
}

// clean reports whether the raw value v is plain and has no tab, LF or
// CR: the common short URL, for which one pass eight bytes at a time
// replaces plain's and then ref's (cleanTrimmed) byte loops.
func (s *scanner) clean(v []byte) bool {
	if s.special != &specialUTF8 && s.special != &specialLegacy {
		return false
	}
	highs := uint64(0)
	if s.special == &specialLegacy {
		highs = wordHighs
	}
	i := 0
	for ; i+8 <= len(v); i += 8 {
		if x := word(v, i); hasByteBelow(x, '\r'+1) || hasByte(x, '&') || x&highs != 0 {
			return false
		}
	}
	for ; i < len(v); i++ {
		if c := v[i]; s.special[c] || tabOrNewline[c] {
			return false
		}
	}
	return true
}

// special1 returns the index of the first byte of v plain stops at, or
// -1.
func (s *scanner) special1(v []byte) int {
	special := s.special
	if special == nil {
		special = &specialUTF8 // a scanner made by hand, in tests
	}
	if special == &specialUTF8 && len(v) >= 64 {
		// Long values (data: URLs, srcsets) are searched with vector
		// instructions, three times, rather than a byte at a time.
		i := bytes.IndexByte(v, '&')
		for _, c := range []byte{'\r', 0} {
			if j := bytes.IndexByte(v, c); j >= 0 && (i < 0 || j < i) {
				i = j
			}
		}
		return i
	}
	i := 0
	if special != &specialUTF16 {
		// Eight bytes at a time while none can be special: no control
		// character up to CR, no "&", and in a legacy encoding nothing
		// over 0x7F.
		highs := uint64(0)
		if special == &specialLegacy {
			highs = wordHighs
		}
		for ; i+8 <= len(v); i += 8 {
			if x := word(v, i); hasByteBelow(x, '\r'+1) || hasByte(x, '&') || x&highs != 0 {
				break
			}
		}
	}
	for ; i < len(v); i++ {
		if special[v[i]] {
			return i
		}
	}
	return -1
}

// asWritten reports whether the raw value v decodes to itself, byte for
// byte: it is plain, or its only special bytes are "&"s that start no
// character reference the decoder replaces (a lone "&", "&#" without
// digits, "&name=": "?a=1&b=2" is common in URLs, and decoding it, with
// the map of its offsets, cost a copy and a thousand instructions).
func (s *scanner) asWritten(v []byte) bool {
	for {
		i := s.special1(v)
		switch {
		case i < 0:
			return true
		case v[i] != '&':
			return false
		}
		n, d := s.refs.reference(v[i:])
		if d != string(v[i:i+n]) {
			return false
		}
		v = v[i+n:]
	}
}

// The bytes plain stops at: "&", CR and NUL; in a legacy encoding any
// byte over 0x7F; in a UTF-16 document (read as UTF-8) the lead byte of
// an encoded surrogate, 0xED.
var specialUTF8, specialLegacy, specialUTF16 [256]bool

func init() {
	for _, c := range []byte{'&', '\r', 0} {
		specialUTF8[c], specialLegacy[c], specialUTF16[c] = true, true, true
	}
	for c := 0x80; c < 0x100; c++ {
		specialLegacy[c] = true
	}
	specialUTF16[0xED] = true
}

// decoded returns the value of the raw attribute value v the way a
// browser reads it: decoded from the document's encoding, then with its
// character references decoded in attribute mode.
func (s *scanner) decoded(v []byte) string {
	if s.asWritten(v) {
		return s.str(v)
	}
	if s.p.enc != nil && !isASCII(v) {
		if d, err := s.p.enc.NewDecoder().Bytes(v); err == nil {
			v = d
		}
	}
	if s.p.utf16 != nil {
		v = replaceSurrogates(v)
	}
	return s.refs.unescape(v)
}

// str returns b as a string that aliases the tokenizer's buffer and so
// lives only until the next token: what outlives it (a Link's strings,
// an anchor name) is copied there (ref, link, anchors). Most values read
// are never a link's (rel, type, http-equiv, class names in a srcset
// that turns out empty): copying each cost an allocation.
func (s *scanner) str(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// clean is [link.Clean] on the reader's hot path: it finds tabs and
// newlines a word at a time (TestCleanAsLink holds the two equal).
func clean(v string) string {
	i, j := trimmed(v, 0, len(v))
	return cleanTrimmed(v[i:j])
}

// cleanTrimmed is Clean for a v without white space around it.
func cleanTrimmed(v string) string {
	if hasTabOrNewline(v) {
		v = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, v)
	}
	return v
}

// hasTabOrNewline reports whether v holds a tab, LF or CR: a short v is
// checked a byte at a time, a long one (a data: URL) with vector
// instructions.
func hasTabOrNewline(v string) bool {
	if len(v) >= 64 {
		return strings.IndexByte(v, '\t') >= 0 || strings.IndexByte(v, '\n') >= 0 || strings.IndexByte(v, '\r') >= 0
	}
	i := 0
	// Eight bytes at a time while none is a control character up to CR
	// (a URL value rarely has one): a third of the loop a byte at a time.
	for ; i+8 <= len(v); i += 8 {
		if hasByteBelow(stringWord(v, i), '\r'+1) {
			break
		}
	}
	for ; i < len(v); i++ {
		if tabOrNewline[v[i]] {
			return true
		}
	}
	return false
}

var tabOrNewline = [256]bool{'\t': true, '\n': true, '\r': true}

// trimmed returns the span of v without the ASCII whitespace around it.
func trimmed(v string, d0, d1 int) (int, int) {
	for d0 < d1 && isSpace(v[d0]) {
		d0++
	}
	for d1 > d0 && isSpace(v[d1-1]) {
		d1--
	}
	return d0, d1
}

// site says where a URL value is, for links.
type site struct {
	raw   []byte // the token
	name  []byte // the element
	attr  string
	kind  link.Kind
	pos   int  // byte of the token where the value starts
	exact bool // offsets in the decoded value are offsets in the token
	clean bool // the value has no tab, LF or CR (so ref need not look)
	// m maps offsets in the decoded value to offsets in the raw value when
	// they differ (character references, CRLF, a legacy encoding), for the
	// positions of reported links; nil when unknown.
	m []int32
}

// ref resolves the URL value v[d0:d1] and records the change as a sub, or
// reports it as a link. empty says whether an empty value is a link. A
// link's Raw is the value as written, spaces around it included; what is
// resolved and replaced is the value without them (HTML: "a valid URL
// potentially surrounded by spaces").
func (s *scanner) ref(v string, d0, d1 int, res *resolve.Resolver, at *site, empty bool, ok func(string) bool) {
	raw := v[d0:d1]
	t0, t1 := trimmed(v, d0, d1)
	written := v[t0:t1]
	ref := written
	if !at.clean {
		ref = cleanTrimmed(written)
	}
	if ref == "" && !empty {
		return
	}
	s.stats.Links++
	if ref == "" && at.kind == link.Form {
		res = s.documentResolver()
	}
	if s.opts.Referrer != nil && s.refers(at) {
		u, err := res.Reference(ref)
		s.refer(at, raw, u, err)
	}
	if s.fn != nil {
		// Here, not in emitRef: there the test made every link's
		// emitRef slower when nothing is deferred.
		if s.opts.deferred != nil && written == ref && s.p.enc == nil && s.p.utf16 == nil {
			s.emitDeferred(at, d0, raw, t0-d0, len(ref), res)
		} else {
			s.emitRef(at, d0, raw, ref, written == ref, t0-d0, res)
		}
		return
	}
	if s.opts.identity {
		s.subs = append(s.subs, sub{t0, t1, written})
		return
	}
	_, abs := resolve.Scheme(ref)
	leave := !s.opts.Absolute && abs || !s.opts.Fragments && strings.HasPrefix(ref, "#")
	if leave && s.opts.Map == nil {
		s.stats.Skipped++
		return
	}
	u, err := s.reference(res, ref)
	mapped := false
	if err == nil && s.opts.Map != nil {
		// raw may alias the tokenizer's buffer, and so may u (resolve
		// returns an absolute reference that needs no change as it is):
		// Map gets copies.
		var l link.Link
		s.link(&l, at, d0, strings.Clone(raw), strings.Clone(u), nil)
		if m, ok := s.opts.Map(l); ok {
			if m == raw {
				return // Link.Raw: the value as written
			}
			u, leave, mapped = m, false, true
		}
	}
	if leave {
		s.stats.Skipped++
		return
	}
	if err != nil || ok != nil && !ok(u) {
		s.stats.Failed++
		return
	}
	if u == written {
		return
	}
	s.stats.Rewritten++
	if mapped {
		s.stats.Mapped++
	}
	s.subs = append(s.subs, sub{t0, t1, u})
}

// refers reports whether the link of at is one Options.Referrer is told
// of: of kind Import, or of a <link rel=manifest>, or of a <link
// rel=stylesheet> in a document not in UTF-8 (names and rel tokens are
// lower-cased; enc is nil for UTF-8, and for UTF-16, which is decoded).
func (s *scanner) refers(at *site) bool {
	if at.kind == link.Import {
		return true
	}
	if string(at.name) != "link" {
		return false
	}
	for _, r := range s.rel {
		if r == "manifest" || r == "stylesheet" && s.p.enc != nil {
			return true
		}
	}
	return false
}

// refer tells Options.Referrer of the link of the value raw, which
// resolves to u (or fails with err). Its strings outlive the token
// (str): they are copies.
func (s *scanner) refer(at *site, raw, u string, err error) {
	l := link.Link{Raw: strings.Clone(raw), URL: strings.Clone(u), Err: err, Tag: elementName(at.name), Attr: at.attr, Kind: at.kind,
		Inert: s.inert > 0, Base: s.stats.Base}
	if len(s.rel) > 0 {
		l.Rel = make([]string, len(s.rel))
		for i, r := range s.rel {
			l.Rel[i] = relName(r)
		}
	}
	s.opts.Referrer.Load(l)
}

// reference resolves ref as res.Reference does, into s.urls instead of a
// string of its own: a rewrite made a string per rewritten value, a third
// of its allocations. The result is valid until s.urls is reset, which
// happens only where s.subs is reset too (value, sheet, script): until
// then the result is only read (compared, checked, escaped into scratch
// by apply).
func (s *scanner) reference(res *resolve.Resolver, ref string) (string, error) {
	n := len(s.urls)
	b, err := res.AppendReference(s.urls, ref)
	if err != nil {
		return "", err
	}
	s.urls = b
	// Safe: b[n:] is never written again before s.urls is reset (only
	// appended to), and nothing keeps the string past that (see above).
	return unsafe.String(unsafe.SliceData(b[n:]), len(b)-n), nil
}

// emitRef reports the link of the value raw, whose reference ref is
// raw[t:t+len(ref)] when inRaw says so (no tab or newline taken out).
// The link's strings outlive the token, whose bytes raw and ref may alias
// (see str): they are one string, made once, of the value as written and
// the URL, where the URL is not the reference itself, a part of the value
// (an absolute URL as written). One allocation per link: the resolver
// appends the URL after the value (resolve.AppendReference).
func (s *scanner) emitRef(at *site, d0 int, raw, ref string, inRaw bool, t int, res *resolve.Resolver) {
	b := append(s.linkBuf[:0], raw...)
	b, err := res.AppendReference(b, ref)
	s.linkBuf = b
	if err != nil {
		// Rare: the error quotes the reference, which must not alias
		// the token either.
		s.stats.Failed++
		raw = strings.Clone(raw)
		if inRaw {
			ref = raw[t : t+len(ref)]
		} else {
			ref = strings.Clone(ref)
		}
		_, err = res.Reference(ref)
		s.emit(at, d0, raw, "", err)
		return
	}
	var u string
	if u0 := len(raw); inRaw && string(b[u0:]) == ref {
		raw = s.blocks.string(b[:u0])
		u = raw[t : t+len(ref)]
	} else {
		all := s.blocks.string(b)
		raw, u = all[:u0], all[u0:]
	}
	s.emit(at, d0, raw, u, nil)
}

// emitDeferred is emitRef with the URL left to lazyurl.Resolve
// (Options.deferred), for a reference that is a part of the value as
// written, raw[t:t+n]: the link's one string is the value.
func (s *scanner) emitDeferred(at *site, d0 int, raw string, t, n int, res *resolve.Resolver) {
	s.linkBuf = append(s.linkBuf[:0], raw...)
	s.lazy = s.opts.deferred.New(res, t, n)
	s.emit(at, d0, s.blocks.string(s.linkBuf), "", nil)
	s.lazy = nil
}

func (s *scanner) emit(at *site, d0 int, raw, u string, err error) {
	if s.err != nil {
		return
	}
	if h := s.hold; h != nil {
		// Links' single pass: filled in the hold's own slot, or its
		// own Link once links go directly, and handed on by pointer
		// where the caller takes one (linksRef).
		s.link(h.next(), at, d0, raw, u, err)
		s.err = h.filled()
		return
	}
	var l link.Link
	s.link(&l, at, d0, raw, u, err)
	s.err = s.fn(l)
}

// link sets l, zero, to the Link of the value raw, at d0 in the decoded
// value at. (Filled in place: a Link returned was copied once more, a
// tenth of a link's cost.)
func (s *scanner) link(l *link.Link, at *site, d0 int, raw, u string, err error) {
	pos := at.pos
	switch {
	case at.exact:
		pos += d0
	case d0 < len(at.m):
		pos += int(at.m[d0])
	}
	line, col := s.position(at.raw, pos)
	off := s.off + int64(pos)
	if s.p.utf16 != nil {
		off, col = s.utf16Position(at.raw, pos)
	}
	l.Raw, l.URL, l.Err, l.Tag, l.Attr, l.Kind = raw, u, err, elementName(at.name), at.attr, at.kind
	l.Line, l.Column, l.Offset, l.Inert, l.Base = line, col, off, s.inert > 0, s.stats.Base
	if s.lazy != nil {
		lazyurl.Defer(l, s.lazy)
	}
	if len(s.rel) > 0 {
		// The rel tokens may alias the token's bytes (str).
		l.Rel = s.blocks.strings(len(s.rel))
		for i, r := range s.rel {
			l.Rel[i] = relName(r)
		}
	}
}

// value handles one URL-bearing attribute.
func (s *scanner) value(raw, name []byte, a *attr, r rule, kind link.Kind, res *resolve.Resolver) {
	rv := raw[a.v0:a.v1]
	clean := s.clean(rv)
	plain := clean || s.asWritten(rv)
	var dec string
	if plain {
		dec = s.str(rv)
	} else {
		dec = s.decoded(rv)
	}
	s.at = site{raw: raw, name: name, attr: attrNames[a.id], kind: kind, pos: a.v0, exact: plain, clean: clean}
	at := &s.at
	if !plain && (s.fn != nil || s.opts.Map != nil) {
		// Links report where each URL of the value stands.
		at.m, _ = s.offsets(rv, false)
	}
	s.subs, s.urls = s.subs[:0], s.urls[:0]
	switch r.syn {
	case synURL:
		empty := a.id == attrHref && (s.t.id == tagA || s.t.id == tagArea) || kind == link.Form
		s.ref(dec, 0, len(dec), res, at, empty, nil)
	case synSpace:
		s.list(dec, res, at, isSpace)
	case synComma:
		s.list(dec, res, at, func(c byte) bool { return c == ',' })
	case synSrcset:
		n := 0
		for u0, u1 := range srcsetURLs(dec) {
			if n++; n > MaxRewrites {
				// What each candidate holds until the tag is written
				// (its edit, its new URL) is bounded by design.
				s.cut = &link.IncompleteError{What: "a srcset", Limit: MaxRewrites, Unit: "srcset candidates"}
				break
			}
			s.ref(dec, u0, u1, res, at, false, srcsetSafe)
		}
	case synRefresh:
		if u0, u1, ok := refreshURL(dec); ok {
			s.ref(dec, u0, u1, res, at, false, nil)
		}
	case synCSS:
		at.kind = link.CSS
		s.css(dec, res, at, false)
	case synHTML:
		s.srcdoc(dec, at)
	}
	if len(s.subs) > 0 {
		s.apply(raw, a, dec, plain)
	}
}

// list handles a value of URLs separated by sep.
func (s *scanner) list(v string, res *resolve.Resolver, at *site, sep func(byte) bool) {
	for i := 0; i < len(v); {
		for i < len(v) && sep(v[i]) {
			i++
		}
		j := i
		for j < len(v) && !sep(v[j]) {
			j++
		}
		if j > i {
			s.ref(v, i, j, res, at, false, nil)
		}
		i = j
	}
}

// apply writes the subs of attribute a's decoded value dec as edits of
// the token's raw bytes. Where the raw bytes of each sub can be found
// (always, unless the value holds a named reference other than &amp;
// &lt; &gt; &quot; &apos; or is not ASCII in a legacy encoding), only
// those bytes change, and a new URL that ends with the old reference is
// written as its new prefix inserted before the author's bytes, keeping
// their escapes (notes §5.3, "minimal diff"). Otherwise the value is
// written back whole, escaped again.
func (s *scanner) apply(raw []byte, a *attr, dec string, plain bool) {
	if s.w == nil || s.opts.identity && !a.hasVal {
		return
	}
	rv := raw[a.v0:a.v1]
	m, ok := s.offsets(rv, plain)
	// A sub whose new URL ends with the old reference is the new
	// prefix, inserted before the author's bytes.
	kept := func(c sub) bool {
		return c.d1 > c.d0 && strings.HasSuffix(c.repl, dec[c.d0:c.d1])
	}
	for _, c := range s.subs {
		if c.repl != dec[c.d0:c.d1] {
			ok = ok && !splitsReference(rv, m, c.d0) && (kept(c) || !splitsReference(rv, m, c.d1))
		}
	}
	if ok && a.hasVal {
		q, wrap := a.quote, false
		if q == 0 {
			// An unquoted value (never empty) needs quotes only if the new
			// text cannot stand in one (§13.1.2.3); what the author wrote
			// in it stands.
			for _, c := range s.subs {
				text := c.repl
				if kept(c) {
					text = c.repl[:len(c.repl)-(c.d1-c.d0)]
				}
				wrap = wrap || text != "" && needsQuotes(text)
			}
			switch {
			case !wrap:
			case !bytes.ContainsRune(rv, '"'):
				q = '"'
			case !bytes.ContainsRune(rv, '\''):
				q = '\''
			default:
				ok = false
			}
		}
		if ok {
			at := func(d int) int {
				if m == nil {
					return a.v0 + d
				}
				return a.v0 + int(m[d])
			}
			if wrap {
				s.scratch = append(s.scratch, q)
				s.edits = append(s.edits, edit{a.v0, a.v0, len(s.scratch) - 1, len(s.scratch)})
			}
			for _, c := range s.subs {
				r0 := len(s.scratch)
				if kept(c) {
					s.scratch = s.escape(s.scratch, c.repl[:len(c.repl)-(c.d1-c.d0)], q)
					s.edits = append(s.edits, edit{at(c.d0), at(c.d0), r0, len(s.scratch)})
				} else {
					s.scratch = s.escape(s.scratch, c.repl, q)
					s.edits = append(s.edits, edit{at(c.d0), at(c.d1), r0, len(s.scratch)})
				}
			}
			if wrap {
				s.scratch = append(s.scratch, q)
				s.edits = append(s.edits, edit{a.v1, a.v1, len(s.scratch) - 1, len(s.scratch)})
			}
			return
		}
	}
	if len(s.subs) == 1 && a.hasVal {
		// One URL: its raw bytes are the trimmed value if they decode to it.
		c := s.subs[0]
		old := dec[c.d0:c.d1]
		l0, l1 := trimmedBytes(rv)
		prefix := c.repl[:max(0, len(c.repl)-len(old))]
		if old != "" && strings.HasSuffix(c.repl, old) && s.decoded(rv[l0:l1]) == old &&
			(a.quote != 0 || prefix == "" || !needsQuotes(prefix)) {
			r0 := len(s.scratch)
			s.scratch = s.escape(s.scratch, c.repl[:len(c.repl)-len(old)], a.quote)
			s.edits = append(s.edits, edit{a.v0 + l0, a.v0 + l0, r0, len(s.scratch)})
			return
		}
	}
	v := s.applied(dec)
	r0 := len(s.scratch)
	switch {
	case !a.hasVal:
		s.scratch = append(s.scratch, `="`...)
		s.scratch = s.escape(s.scratch, v, '"')
		s.scratch = append(s.scratch, '"')
		s.edits = append(s.edits, edit{a.k1, a.k1, r0, len(s.scratch)})
		return
	case a.quote == 0 && needsQuotes(v):
		s.scratch = append(s.scratch, '"')
		s.scratch = s.escape(s.scratch, v, '"')
		s.scratch = append(s.scratch, '"')
	default:
		s.scratch = s.escape(s.scratch, v, a.quote)
	}
	s.edits = append(s.edits, edit{a.v0, a.v1, r0, len(s.scratch)})
}

// splitsReference reports whether decoded byte d of the raw value rv (m
// its offsets) cannot be a place to cut rv: it is inside what one
// character reference decodes to ("&#44b" is ",b"), or it follows a
// reference written without ";" ("&quot", "&#34", "&copy" kept as written
// before "="), whose reading depends on the byte after it ("&quot" then
// "h" is no longer a quote). A sub there has the value written back whole.
func splitsReference(rv []byte, m []int32, d int) bool {
	if m == nil || d == 0 {
		return false
	}
	ref, p := int(m[d-1]), int(m[d])
	return p == ref || rv[ref] == '&' && p-ref >= 2 && isAlnum(rv[p-1])
}

// applied returns dec with the subs applied.
func (s *scanner) applied(dec string) string {
	var b strings.Builder
	prev := 0
	for _, c := range s.subs {
		b.WriteString(dec[prev:c.d0])
		b.WriteString(c.repl)
		prev = c.d1
	}
	b.WriteString(dec[prev:])
	return b.String()
}

func trimmedBytes(b []byte) (int, int) {
	i, j := 0, len(b)
	for i < j && isSpace(b[i]) {
		i++
	}
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return i, j
}

// needsQuotes reports whether v cannot stand as an unquoted attribute
// value (HTML Standard §13.1.2.3).
func needsQuotes(v string) bool {
	if v == "" {
		return true
	}
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case ' ', '\t', '\n', '\f', '\r', '"', '\'', '=', '<', '>', '`':
			return true
		}
	}
	return false
}

// escape appends v to dst escaped for an attribute value delimited by
// quote (0: unquoted, already known not to need quotes): "&" and the
// quote become character references, and the result is encoded in the
// document's encoding (unencodable characters as references too).
func (s *scanner) escape(dst []byte, v string, quote byte) []byte {
	start := len(dst)
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c == '&':
			dst = append(dst, "&amp;"...)
		case c == quote && c == '"':
			dst = append(dst, "&#34;"...)
		case c == quote && c == '\'':
			dst = append(dst, "&#39;"...)
		default:
			dst = append(dst, c)
		}
	}
	return s.encode(dst, start)
}

// encode re-encodes dst[start:] (UTF-8) in the document's encoding, a
// character the encoding lacks becoming a numeric character reference, as
// the HTML Standard's serializers do. (The URLs the resolver gives are
// ASCII: this is for what Options.Map writes and the kept bytes of a
// value written back whole.)
func (s *scanner) encode(dst []byte, start int) []byte {
	if s.p.enc == nil || isASCII(dst[start:]) {
		return dst
	}
	e, err := encoding.HTMLEscapeUnsupported(s.p.enc.NewEncoder()).Bytes(dst[start:])
	if err != nil {
		return dst
	}
	return append(dst[:start], e...)
}

// srcsetSafe reports whether u can stand as a srcset URL: no ASCII
// whitespace, not starting or ending with a comma (notes §1.3).
func srcsetSafe(u string) bool {
	return u != "" && !strings.ContainsAny(u, " \t\n\f\r") && u[0] != ',' && u[len(u)-1] != ','
}
