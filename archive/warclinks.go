package archive

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/countio"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/link"
)

// maxRevisitCache bounds the HTML payloads kept for revisit records (the
// most recent ones): with the garbage collector's headroom, a WARC scan
// stays well under 128 MiB (measured: 32 MiB of cache cost 120 MiB of peak
// RSS on a 300 MB crawl file, 16 MiB about 60).
const maxRevisitCache = 16 << 20

// A WARCHandler is what ScanWARC hands a WARC file's contents to.
type WARCHandler struct {
	// Link is given the record's own links: the redirect of a 3xx
	// response with a Location header (kind link.Redirect, resolved
	// against the target URI, RFC 9110 §10.2.2) and the targets of its
	// HTTP Link header (RFC 8288 §3.1: against the target URI, never a
	// body's base). Nil: they are not read.
	Link func(link.Link) error
	// Document is given every payload of a kind relurl reads (HTML, CSS,
	// SVG, XHTML, feeds, manifests, JS modules: base.FormatOfContent on
	// its Content-Type and first bytes): of response records (HTTP
	// de-chunked and decoded), resource records, and revisit records,
	// whose status and headers come from the revisit and whose payload
	// comes from the earlier record it refers to (by WARC-Refers-To, else
	// WARC-Payload-Digest) when that is in the same file. Its base layers
	// are the HTTP headers (Content-Location only with
	// Options.ContentLocation) and the record's WARC-Target-URI. A
	// *DocumentError it returns is a record error (Unread: a warning).
	Document func(*Document) error
	// RecordError is given each problem with a record (see WARCReader)
	// or with its payload (one over Limits.DecodedBytes, an HTTP head
	// that does not parse), in file order, and the file goes on; nil:
	// the first ends the scan with its error.
	RecordError func(*RecordError) error
}

// WARCStats counts what ScanWARC read.
type WARCStats struct {
	Records      int64 // records read (with a valid header)
	Documents    int64 // payloads given to WARCHandler.Document
	RecordErrors int64 // record errors given to WARCHandler.RecordError
	// Warnings are the first maxWARCWarnings warnings of the records'
	// headers and of their payloads' bases ("record at O: ..."), which
	// skipped nothing; WarningsDropped counts the rest.
	Warnings        []string
	WarningsDropped int64
}

// maxWARCWarnings bounds WARCStats.Warnings.
const maxWARCWarnings = 100

func (st *WARCStats) warn(rec *Record, msgs []string) {
	for _, m := range msgs {
		if len(st.Warnings) < maxWARCWarnings {
			st.Warnings = append(st.Warnings, recordAt(rec.Offset)+": "+m)
		} else {
			st.WarningsDropped++
		}
	}
}

// ScanWARC reads the WARC (or ARC) file r record by record and hands
// each record's own links, each payload of a kind relurl reads and each
// record error to h, in file order; a record with a problem gives nothing
// that is not its own. It stops at the first error a function of h
// returns (a *DocumentError aside), or when the file cannot be read on
// (not WARC, a read error): that error is returned.
func ScanWARC(r io.Reader, opts Options, h WARCHandler) (WARCStats, error) {
	return scanWARC(r, opts, h, opts.Pipelined && runtime.GOMAXPROCS(0) > 1)
}

// scanWARC is ScanWARC; pipelined decodes a compressed file's members on
// a goroutine of its own, ahead of the parsing (warcpipe.go).
func scanWARC(r io.Reader, opts Options, h WARCHandler, pipelined bool) (WARCStats, error) {
	var st WARCStats
	if opts.Spec == 0 {
		return st, &Error{Op: "WARC links", Err: errNoSpec}
	}
	onError := h.RecordError
	if onError == nil {
		onError = func(e *RecordError) error { return e }
	}
	w := NewWARCReader(r)
	w.Limits = opts.Limits
	if pipelined {
		w.pipeline(opts.Stream)
	}
	defer w.Close()
	x := &warcExtractor{opts: opts, lim: opts.Limits.withDefaults(), cache: map[string]cached{}, h: h}
	for {
		rec, err := w.Next()
		if err == io.EOF {
			return st, nil
		}
		var re *RecordError
		if errors.As(err, &re) {
			st.RecordErrors++
			if err := onError(re); err != nil {
				return st, err
			}
			continue
		}
		if err != nil {
			return st, err
		}
		st.Records++
		st.warn(rec, rec.Warnings)
		x.stats = &st
		if err := x.record(rec); err != nil {
			if errors.As(err, &re) {
				st.RecordErrors++
				if err := onError(re); err != nil {
					return st, err
				}
				continue
			}
			return st, err
		}
	}
}

type cached struct {
	body        []byte
	contentType string
	id          uint64 // which remember call kept it
}

type warcExtractor struct {
	opts      Options
	lim       Limits
	h         WARCHandler
	cache     map[string]cached // by WARC-Record-ID and by WARC-Payload-Digest
	cacheSize int               // bytes held by the cache (remember)
	cacheID   uint64            // the last entry's id
	order     []cacheEntry      // oldest first
	stats     *WARCStats        // where warnings go
}

func (x *warcExtractor) record(rec *Record) error {
	switch rec.Type {
	case "response", "revisit":
		return x.response(rec)
	case "resource":
		ct := rec.Header.Get("Content-Type")
		if !readsType(ct) {
			return nil
		}
		body, err := readMax(rec.Block, x.lim.DecodedBytes)
		body, ok, err := x.blockRead(rec, body, 0, err)
		if !ok {
			return err
		}
		return x.payload(rec, nil, ct, body)
	}
	return nil
}

// blockRead decides what to do with a payload read from a record's block
// (head bytes of it before raw), and the read error: a record cut short
// (its member ends, the file ends, the next record comes first) gives the
// links of what it has; a payload over the bound is a record error; a
// record the reader found damaged gives none (the reader reports it).
func (x *warcExtractor) blockRead(rec *Record, raw []byte, head int64, err error) ([]byte, bool, error) {
	switch {
	case err == nil || errors.Is(err, ErrTruncated):
		return raw, true, nil
	case errors.Is(err, ErrContentLength):
		if end := recordEnd(err) - head; end >= 0 && end <= int64(len(raw)) {
			return raw[:end], true, nil
		}
		return nil, false, nil
	case errors.Is(err, ErrTooLarge):
		return nil, false, x.recordError(rec, ErrTooLarge, "payload over "+strconv.FormatInt(x.lim.DecodedBytes, 10)+" bytes decoded; record skipped")
	}
	return nil, false, nil
}

// recordError is a problem with a record's payload.
func (x *warcExtractor) recordError(rec *Record, kind error, detail string) error {
	return &RecordError{Offset: rec.Offset, Target: rec.TargetURI, Err: kind, Detail: detail}
}

func (x *warcExtractor) response(rec *Record) error {
	cr := &countio.Reader{R: rec.Block}
	br := bufio.NewReader(cr)
	if p, _ := br.Peek(5); string(p) != "HTTP/" {
		return nil // not HTTP (dns:, a revisit without headers, ...)
	}
	resp, err := readHTTPHead(br, x.lim.HeaderBytes)
	if err != nil {
		if errors.Is(err, ErrHeaderTooLarge) || errors.Is(err, ErrTooLarge) {
			return x.recordError(rec, ErrHeaderTooLarge, "HTTP header over "+strconv.FormatInt(x.lim.HeaderBytes, 10)+" bytes; record skipped")
		}
		var e *Error
		if errors.As(err, &e) && (errors.Is(err, ErrCorrupt) || errors.Is(err, ErrTruncated) || errors.Is(err, ErrContentLength)) {
			return nil // the reader reports it
		}
		return x.recordError(rec, ErrNotWARC, "HTTP response head: "+errtext.Of(err)+"; record skipped")
	}
	head := cr.N - int64(br.Buffered())
	if loc := resp.Header.Get("Location"); loc != "" && resp.StatusCode >= 300 && resp.StatusCode < 400 {
		if err := x.redirect(rec, loc); err != nil {
			return err
		}
	}
	if vs := resp.Header.Values("Link"); len(vs) > 0 && x.h.Link != nil {
		// RFC 8288 §3.1: against the retrieval URL, never a body <base>.
		b := base.Result{URL: rec.TargetURI, Source: base.Retrieval, Detail: "WARC-Target-URI"}
		if err := HeaderLinks(vs, x.opts.Spec, rec.TargetURI, func(l link.Link) error {
			l.Record, l.Target, l.Base = rec.Offset, rec.TargetURI, b
			return x.h.Link(l)
		}); err != nil {
			return err
		}
	}
	ct := resp.Header.Get("Content-Type")
	if rec.Type == "revisit" {
		c, ok := x.referred(rec)
		if !ok {
			return nil
		}
		if ct == "" {
			ct = c.contentType
		}
		if !readsType(ct) {
			return nil
		}
		return x.payload(rec, resp.Header, ct, c.body)
	}
	if !readsType(ct) {
		return nil
	}
	// A record cut short is read as far as it goes.
	raw, err := readMaxSize(br, rec.ContentLength, x.lim.DecodedBytes)
	raw, ok, err := x.blockRead(rec, raw, head, err)
	if !ok {
		return err
	}
	body, _, err := httpPayload(resp.Header, raw, x.lim.DecodedBytes)
	if err != nil {
		if errors.Is(err, ErrTooLarge) {
			return x.recordError(rec, ErrTooLarge, "payload over "+strconv.FormatInt(x.lim.DecodedBytes, 10)+" bytes decoded; record skipped")
		}
		return x.recordError(rec, ErrNotWARC, "HTTP payload: "+errtext.Of(err)+"; record skipped")
	}
	x.remember(rec, body, ct)
	return x.payload(rec, resp.Header, ct, body)
}

// readsType reports whether a payload of Content-Type ct may have links
// read (base.ReadsType): its kind is then settled by its bytes too.
// The media type is read as this package reads archived headers
// (ParseMediaType, lenient), as for every payload kind.
func readsType(ct string) bool {
	mt, _ := ParseMediaType(ct)
	return base.ReadsType(mt)
}

// payload hands a record's payload to the handler, with the record's
// base layers.
func (x *warcExtractor) payload(rec *Record, h Header, ct string, body []byte) error {
	// One rule for a typed payload (base.FormatOfContent): the type, and
	// for XHTML and generic XML the root element; a payload that cannot
	// be of its type is named in a warning, not read.
	mt, params := ParseMediaType(ct)
	k, err := base.FormatOfContent(mt, body)
	if err != nil {
		if x.stats != nil {
			x.stats.warn(rec, []string{"payload " + errtext.Of(err)})
		}
		return nil
	}
	if !isDocument(k) || x.h.Document == nil {
		return nil
	}
	d := &Document{
		Body: bytes.NewReader(body), Format: k, ContentType: strictType(mt, params),
		Context: x.context(rec, h), Offset: rec.Offset, Record: rec.Offset, Target: rec.TargetURI, warc: true,
	}
	if x.stats != nil {
		x.stats.Documents++
	}
	err = x.h.Document(d)
	if x.stats != nil {
		x.stats.warn(rec, d.Warnings)
	}
	if de, ok := documentError(err); ok {
		if de.Unread {
			x.notRead(rec, de.Err) // as for an MHTML part
			return nil
		}
		return x.recordError(rec, de.Err, "links of the payload; the rest of the record skipped")
	}
	return err
}

// notRead names a record whose payload is in an encoding whose bytes
// cannot be read as they are (ErrEncoding: ISO-2022-JP, UTF-16 declared
// where it cannot be, "replacement"): it gives no links, which is no
// error of the record, but is said, as for an MHTML part.
func (x *warcExtractor) notRead(rec *Record, err error) {
	if x.stats != nil {
		x.stats.warn(rec, []string{"not read for links: " + errtext.Of(err)})
	}
}

func (x *warcExtractor) referred(rec *Record) (cached, bool) {
	if id := strings.TrimSpace(rec.Header.Get("WARC-Refers-To")); id != "" {
		if c, ok := x.cache[id]; ok {
			return c, true
		}
	}
	if d := strings.TrimSpace(rec.Header.Get("WARC-Payload-Digest")); d != "" {
		c, ok := x.cache[d]
		return c, ok
	}
	return cached{}, false
}

// remember keeps an HTML payload for the revisit records that may refer
// to it, the most recent first: past maxRevisitCache bytes the oldest are
// dropped, so memory stays bounded however long the file. The bytes
// counted are the bytes held: a payload's whole buffer (a decoder's or a
// lying Content-Length's spare capacity is cut off by copying), its keys
// and content type (copied: they would hold their header's buffer), and
// the bookkeeping of each entry, so that many small or empty payloads
// are bounded too.
func (x *warcExtractor) remember(rec *Record, body []byte, ct string) {
	if len(body) > maxRevisitCache/4 {
		return
	}
	var keys []string
	for _, k := range []string{rec.Header.Get("WARC-Record-ID"), rec.Header.Get("WARC-Payload-Digest")} {
		if k = strings.TrimSpace(k); k != "" {
			keys = append(keys, strings.Clone(k))
		}
	}
	if len(keys) == 0 {
		return
	}
	if cap(body)-len(body) > len(body)/8+512 {
		body = bytes.Clone(body)
	}
	c := cached{body: body, contentType: strings.Clone(ct)}
	size := cap(body) + len(c.contentType) + cacheEntryCost
	for _, k := range keys {
		size += len(k) + cacheKeyCost
	}
	for x.cacheSize+size > maxRevisitCache && len(x.order) > 0 {
		old := x.order[0]
		x.order = x.order[1:]
		for _, k := range old.keys {
			if c, ok := x.cache[k]; ok && c.id == old.id {
				delete(x.cache, k)
			}
		}
		x.cacheSize -= old.size
	}
	x.cacheID++
	c.id = x.cacheID
	for _, k := range keys {
		x.cache[k] = c
	}
	x.order = append(x.order, cacheEntry{keys: keys, size: size, id: c.id})
	x.cacheSize += size
}

// What an entry of the revisit cache holds besides its bytes: the
// cacheEntry and its keys slice, and per key a map slot (key and cached
// value, with the map's overhead).
const (
	cacheEntryCost = 96
	cacheKeyCost   = 96
)

// cacheEntry is one payload of the revisit cache, in the order kept.
type cacheEntry struct {
	keys []string
	size int    // bytes counted for it
	id   uint64 // identifies the payload: a later one may have the same key
}

func (x *warcExtractor) redirect(rec *Record, loc string) error {
	if x.h.Link == nil {
		return nil
	}
	l := link.Link{Raw: loc, Attr: "location", Kind: link.Redirect}
	u, err := resolveLocation(x.opts.Spec, rec.TargetURI, loc)
	if err != nil {
		l.Err = err
	} else {
		l.URL = u
	}
	l.Record, l.Target = rec.Offset, rec.TargetURI
	l.Base = base.Result{URL: rec.TargetURI, Source: base.Retrieval, Detail: "WARC-Target-URI"}
	return x.h.Link(l)
}

// context is the payload's layers below its <base>: the HTTP headers
// (§3.2; Content-Location only when Options.ContentLocation says so) and
// the record's WARC-Target-URI (§3.3).
func (x *warcExtractor) context(rec *Record, h Header) base.Context {
	c := base.Context{
		Spec:            x.opts.Spec,
		ContentLocation: x.opts.ContentLocation,
		HeaderOf:        "the HTTP response",
		HTTP:            true,
		Retrieval:       rec.TargetURI,
		RetrievalDetail: "WARC-Target-URI",
		Strict:          x.opts.Strict,
	}
	if h != nil {
		c.Header = h.MIME()
	}
	return c
}
