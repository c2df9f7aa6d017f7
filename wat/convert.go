package wat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/net/html"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/internal/errtext"
)

// linkRecord is the part of a `relurl links` JSON record a WAT entry
// needs.
type linkRecord struct {
	Raw        string   `json:"raw"`
	Tag        string   `json:"tag"`
	Attr       string   `json:"attr"`
	Kind       string   `json:"kind"`
	Rel        []string `json:"rel"`
	File       string   `json:"file"`
	Record     *int64   `json:"record"`
	Base       string   `json:"base"`
	BaseSource string   `json:"base_source"`
	Status     *string  `json:"status"`
}

// A Converter writes a WAT file from the JSON Lines link records of
// `relurl links` over WARC files, given to Write as they are printed.
// The records come in file order, a file's in record order; for each
// file the Converter reads the WARC file again (by the records' "file"
// field) alongside, for what the link records do not hold: each record's
// WARC-Record-ID, date, HTTP status and headers, and the page's title and
// metas. It writes one metadata record for every response, revisit and
// resource record, those without links too.
type Converter struct {
	w       *Writer
	partial []byte
	started bool

	file string
	f    *os.File
	wr   *archive.WARCReader
	cur  *pending
	err  error
	// heads are the heads of the HTML records written, by WARC-Record-ID,
	// for the revisit records that refer to them (whose payload is the
	// earlier record's); at most maxHeads, the oldest dropped first.
	heads map[string]Head
	order []string
}

// maxHeads bounds the heads kept for revisit records.
const maxHeads = 4096

// pending is the metadata record of one WARC record, its links still
// being gathered.
type pending struct {
	offset int64
	target string
	date   string
	id     string
	env    Envelope
}

// NewConverter returns a Converter writing to w, each record gzipped when
// gz is set.
func NewConverter(w io.Writer, gz bool) *Converter {
	return &Converter{w: NewWriter(w, gz)}
}

// Write takes JSON Lines link records, in any pieces.
func (c *Converter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n := len(p)
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			c.partial = append(c.partial, p...)
			break
		}
		line := p[:i]
		if len(c.partial) > 0 {
			c.partial = append(c.partial, line...)
			line = c.partial
		}
		if err := c.line(line); err != nil {
			c.err = err
			return 0, err
		}
		c.partial = c.partial[:0]
		p = p[i+1:]
	}
	return n, nil
}

func (c *Converter) line(line []byte) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return nil
	}
	var r linkRecord
	if err := json.Unmarshal(line, &r); err != nil {
		return fmt.Errorf("wat: %w", err)
	}
	if r.Status != nil {
		return errors.New("wat: a status line is not a link")
	}
	if r.Record == nil {
		return fmt.Errorf("wat: %s is not a WARC file: a WAT file describes WARC records", r.File)
	}
	if err := c.start(); err != nil {
		return err
	}
	if r.File != c.file || c.wr == nil {
		if err := c.endFile(); err != nil {
			return err
		}
		f, err := os.Open(r.File)
		if err != nil {
			return fmt.Errorf("wat: %w", err)
		}
		c.file, c.f, c.wr = r.File, f, archive.NewWARCReader(f)
	}
	if c.cur == nil || c.cur.offset != *r.Record {
		if err := c.advance(*r.Record); err != nil {
			return err
		}
	}
	c.cur.add(&r)
	return nil
}

// Warcinfo is the block of the warcinfo record a Converter starts its
// WAT file with (Writer.WriteWarcinfo).
const Warcinfo = "software: relurl\r\nformat: WARC File Format 1.0\r\ndescription: WAT metadata of the links relurl reads\r\n"

// OmitWarcinfo makes the Converter write the metadata records alone,
// without the warcinfo record it starts a WAT file with: for a caller
// that gathers the records of several Converters into WAT files whose
// warcinfo it writes itself (Writer.WriteWarcinfo with Warcinfo). Call it
// before the first Write.
func (c *Converter) OmitWarcinfo() { c.started = true }

// start writes the warcinfo record first.
func (c *Converter) start() error {
	if c.started {
		return nil
	}
	c.started = true
	return c.w.WriteWarcinfo("", Warcinfo)
}

// advance writes the record being gathered and the records before the
// one at offset, and makes that one current. A record that is not found
// (the link records are not of this file, or not in its order) is an
// error.
func (c *Converter) advance(offset int64) error {
	if err := c.flush(); err != nil {
		return err
	}
	for {
		rec, err := c.wr.Next()
		if err == io.EOF {
			return fmt.Errorf("wat: %s: no record at %d after the last one written", c.file, offset)
		}
		var re *archive.RecordError
		if errors.As(err, &re) {
			continue // relurl links reported it
		}
		if err != nil {
			return &fileError{file: c.file, err: err}
		}
		if !described(rec) {
			continue
		}
		p := c.newPending(rec)
		if rec.Offset == offset {
			c.cur = p
			return nil
		}
		if rec.Offset > offset {
			return fmt.Errorf("wat: %s: no record at %d", c.file, offset)
		}
		if err := c.writePending(p); err != nil {
			return err
		}
	}
}

// described reports whether a WAT file has a metadata record for rec.
func described(rec *archive.Record) bool {
	switch rec.Type {
	case "response", "revisit", "resource":
		return true
	}
	return false
}

// newPending reads what a metadata record says of rec: its WARC headers,
// its HTTP response and, for HTML, its head (a revisit's is the head of
// the record it refers to).
func (c *Converter) newPending(rec *archive.Record) *pending {
	p := readPending(rec)
	m := p.env.Envelope.PayloadMetadata.HTTPResponseMetadata
	if m == nil || m.HTMLMetadata == nil {
		return p
	}
	if rec.Type == "revisit" {
		if h, ok := c.heads[strings.TrimSpace(rec.Header.Get("WARC-Refers-To"))]; ok {
			m.HTMLMetadata.Head = h
		}
		return p
	}
	if c.heads == nil {
		c.heads = map[string]Head{}
	}
	if len(c.order) == maxHeads {
		delete(c.heads, c.order[0])
		c.order = c.order[1:]
	}
	c.heads[p.id] = m.HTMLMetadata.Head
	c.order = append(c.order, p.id)
	return p
}

// readPending is newPending of rec alone.
func readPending(rec *archive.Record) *pending {
	p := &pending{offset: rec.Offset, target: rec.TargetURI, date: rec.Header.Get("WARC-Date"), id: rec.Header.Get("WARC-Record-ID")}
	b := &p.env.Envelope
	b.Format = "WARC"
	b.WARCHeaderMetadata = map[string]string{}
	for _, f := range rec.Header {
		b.WARCHeaderMetadata[f.Name] = f.Value
	}
	if rec.Type == "resource" {
		b.PayloadMetadata.ActualContentType = rec.Header.Get("Content-Type")
		return p
	}
	resp, err := archive.ReadResponse(rec, archive.Limits{})
	if err != nil {
		return p // no HTTP response (a dns: record, a revisit without one)
	}
	b.PayloadMetadata.ActualContentType = "application/http; msgtype=response"
	m := &HTTPResponseMetadata{Headers: map[string]string{}}
	version, rest, _ := strings.Cut(resp.StatusLine, " ")
	status, reason, _ := strings.Cut(rest, " ")
	m.ResponseMessage = ResponseMessage{Version: version, Status: status, Reason: reason}
	for _, f := range resp.Header {
		if v, ok := m.Headers[f.Name]; ok {
			m.Headers[f.Name] = v + ", " + f.Value
		} else {
			m.Headers[f.Name] = f.Value
		}
	}
	mt, _ := archive.ParseMediaType(resp.Header.Get("Content-Type"))
	if mt == "text/html" || mt == "application/xhtml+xml" {
		m.HTMLMetadata = &HTMLMetadata{Links: []Link{}}
		readHead(resp.Payload, &m.HTMLMetadata.Head)
	}
	b.PayloadMetadata.HTTPResponseMetadata = m
	return p
}

// readHead reads an HTML page's title, base and metas, up to its body.
func readHead(page []byte, h *Head) {
	z := html.NewTokenizer(bytes.NewReader(page))
	inTitle := false
	for {
		switch z.Next() {
		case html.ErrorToken:
			return
		case html.TextToken:
			if inTitle {
				h.Title += string(z.Text())
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			switch string(name) {
			case "title":
				inTitle = false
			case "head":
				return
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, more := z.TagName()
			switch string(name) {
			case "body":
				return
			case "title":
				inTitle = true
			case "base":
				for more {
					var k, v []byte
					k, v, more = z.TagAttr()
					if string(k) == "href" && h.Base == "" {
						h.Base = string(v)
					}
				}
			case "meta":
				m := map[string]string{}
				for more {
					var k, v []byte
					k, v, more = z.TagAttr()
					m[string(k)] = string(v)
				}
				h.Metas = append(h.Metas, m)
			}
		}
	}
}

// add adds a link record to the record's metadata, under the path
// webarchive-commons would give it.
func (p *pending) add(r *linkRecord) {
	m := p.env.Envelope.PayloadMetadata.HTTPResponseMetadata
	if m == nil {
		m = &HTTPResponseMetadata{Headers: map[string]string{}}
		p.env.Envelope.PayloadMetadata.HTTPResponseMetadata = m
	}
	if m.HTMLMetadata == nil {
		m.HTMLMetadata = &HTMLMetadata{Links: []Link{}}
	}
	hm := m.HTMLMetadata
	l := Link{Path: Path(r.Tag, r.Attr), URL: r.Raw, Rel: strings.Join(r.Rel, " "), Kind: r.Kind}
	switch {
	case r.Tag == "" && (r.Kind == "redirect" || r.Kind == "header"):
		// The record's own (a 3xx Location, an HTTP Link header): WAT
		// has them in the HTTP headers, where its readers look.
		return
	case r.Tag == "link":
		hm.Head.Link = append(hm.Head.Link, l)
	case r.Tag == "script" && r.Attr == "src":
		hm.Head.Scripts = append(hm.Head.Scripts, l)
	default:
		hm.Links = append(hm.Links, l)
	}
	if hm.Base == nil && r.Base != "" && r.Tag != "" {
		hm.Base = &BaseDecided{URL: r.Base, Source: r.BaseSource}
	}
}

// Path is the WAT path of a link in element tag's attribute attr:
// "A@/href"; of one in an element's text (attr ""), "STYLE/#text".
func Path(tag, attr string) string {
	if attr == "" {
		return strings.ToUpper(tag) + "/#text"
	}
	return strings.ToUpper(tag) + "@/" + attr
}

// flush writes the record being gathered.
func (c *Converter) flush() error {
	if c.cur == nil {
		return nil
	}
	p := c.cur
	c.cur = nil
	return c.writePending(p)
}

func (c *Converter) writePending(p *pending) error {
	if err := c.w.WriteMetadata(p.target, p.date, p.id, &p.env); err != nil {
		return fmt.Errorf("wat: %w", err)
	}
	return nil
}

// endFile writes the rest of the current file's records.
func (c *Converter) endFile() error {
	if c.wr == nil {
		return nil
	}
	defer func() {
		c.f.Close()
		c.f, c.wr, c.file = nil, nil, ""
	}()
	if err := c.flush(); err != nil {
		return err
	}
	for {
		rec, err := c.wr.Next()
		if err == io.EOF {
			return nil
		}
		var re *archive.RecordError
		if errors.As(err, &re) {
			continue
		}
		if err != nil {
			return &fileError{file: c.file, err: err}
		}
		if described(rec) {
			if err := c.writePending(c.newPending(rec)); err != nil {
				return err
			}
		}
	}
}

// Close writes the records still to write. It does not close the
// underlying writer.
func (c *Converter) Close() error {
	if c.err != nil {
		return c.err
	}
	if len(bytes.TrimSpace(c.partial)) > 0 {
		if err := c.line(c.partial); err != nil {
			c.err = err
			return err
		}
	}
	if err := c.start(); err != nil {
		return err
	}
	err := c.endFile()
	c.err = errors.New("wat: converter closed")
	return err
}

// EndFile says that the link records of the WARC file path have all been
// given: its records not yet written are written, those of a file that
// had no links at all too.
func (c *Converter) EndFile(path string) error {
	if c.err != nil {
		return c.err
	}
	if err := c.start(); err != nil {
		return err
	}
	if c.wr != nil && c.file == path {
		return c.endFile()
	}
	if err := c.endFile(); err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("wat: %w", err)
	}
	c.file, c.f, c.wr = path, f, archive.NewWARCReader(f)
	return c.endFile()
}

// fileError is an error of the WARC file a converter reads again; its
// text says the reader's error as a person reads it (package errtext).
type fileError struct {
	file string
	err  error
}

func (e *fileError) Error() string { return "wat: " + e.file + ": " + errtext.Of(e.err) }
func (e *fileError) Unwrap() error { return e.err }
