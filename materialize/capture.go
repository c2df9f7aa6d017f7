package materialize

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/base32"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/mail"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/resolve"
)

// A capture is one capture of a URL: a WARC response, resource or revisit
// record, or an MHTML part.
type capture struct {
	url      string // absolute, without the fragment
	key      string // url with http and https merged (see keyOf), sharing url's bytes
	date     time.Time
	status   int    // HTTP status; 200 for resource records and MHTML parts
	ctype    string // Content-Type of the payload
	location string // a 3xx response's Location, resolved against url
	digest   string // WARC-Payload-Digest, or the SHA-1 of the payload
	id       string // WARC-Record-ID
	revisit  bool
	ref      *revisitRef // a revisit's reference to its original; nil for others
	stream   int         // index in run.streams
	pos      int64       // the record's Position in its stream; -1 for an MHTML part
	part     string      // the MHTML part's Path
	seq      int         // order of reading, for ties
	orig     *capture    // where the payload comes from: itself or, for a revisit, the original
}

// A revisitRef is what a revisit record says of the record holding its
// payload (WARC 1.1 §6.7); only revisits carry one.
type revisitRef struct {
	refersTo string // WARC-Refers-To
	uri      string // WARC-Refers-To-Target-URI
	date     string // WARC-Refers-To-Date
}

// A stream is one WARC file (or one WARC inside a WACZ) or one MHTML file.
type stream struct {
	input  string // the input path as given
	member string // the WARC's name inside a WACZ, or ""
	mhtml  bool
}

func (s stream) String() string {
	if s.member != "" {
		return s.input + ":" + s.member
	}
	return s.input
}

// inputKind says how an input is read: "warc", "wacz" or "mhtml", from
// its first bytes (gzip and zstd magic, "WARC/", a zip header), else from
// its name.
func inputKind(name string, head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return "wacz"
	case bytes.HasPrefix(head, []byte("WARC/")),
		bytes.HasPrefix(head, []byte{0x1f, 0x8b}),
		bytes.HasPrefix(head, []byte{0x28, 0xb5, 0x2f, 0xfd}), // zstd
		bytes.HasPrefix(head, []byte{0x5d, 0x2a, 0x4d, 0x18}): // zstd dictionary frame
		return "warc"
	}
	lower := strings.ToLower(name)
	for _, ext := range []string{".warc", ".warc.gz", ".warc.zst"} {
		if strings.HasSuffix(lower, ext) {
			return "warc"
		}
	}
	if strings.HasSuffix(lower, ".wacz") {
		return "wacz"
	}
	return "mhtml"
}

// openStreams lists the streams of an input: itself, or the WARCs a WACZ
// holds under archive/ (WACZ 1.2.0 §"Directory Layout").
func (r *run) openStreams(input string) error {
	f, err := os.Open(input)
	if err != nil {
		return err
	}
	head := make([]byte, 8)
	n, _ := io.ReadFull(f, head)
	f.Close()
	switch inputKind(input, head[:n]) {
	case "warc":
		r.streams = append(r.streams, stream{input: input})
	case "mhtml":
		r.streams = append(r.streams, stream{input: input, mhtml: true})
	case "wacz":
		z, err := zip.OpenReader(input)
		if err != nil {
			return err
		}
		defer z.Close()
		found := 0
		for _, f := range z.File {
			name := strings.ToLower(f.Name)
			if path.Dir(f.Name) != "archive" || !(strings.HasSuffix(name, ".warc") || strings.HasSuffix(name, ".warc.gz") || strings.HasSuffix(name, ".warc.zst")) {
				continue
			}
			r.streams = append(r.streams, stream{input: input, member: f.Name})
			found++
		}
		if found == 0 {
			return errors.New("a zip without archive/*.warc[.gz]: not a WACZ")
		}
	}
	return nil
}

// open returns a reader of the stream's bytes.
func (s stream) open() (io.ReadCloser, error) {
	if s.member == "" {
		return os.Open(s.input)
	}
	z, err := zip.OpenReader(s.input)
	if err != nil {
		return nil, err
	}
	for _, f := range z.File {
		if f.Name == s.member {
			rc, err := f.Open()
			if err != nil {
				z.Close()
				return nil, err
			}
			return &zipMember{ReadCloser: rc, z: z}, nil
		}
	}
	z.Close()
	return nil, fmt.Errorf("%s: no longer in the archive", s.member)
}

type zipMember struct {
	io.ReadCloser
	z *zip.ReadCloser
}

func (m *zipMember) Close() error {
	m.ReadCloser.Close()
	return m.z.Close()
}

// eachRecord calls fn for every record of the WARC stream s, and
// onError, when set, for each record the reader skipped (it goes on after
// it). A read error that ends the stream is returned; the records before
// it count.
func (r *run) eachRecord(s stream, fn func(*archive.Record) error, onError func(*archive.RecordError)) error {
	rc, err := s.open()
	if err != nil {
		return err
	}
	defer rc.Close()
	w := archive.NewWARCReader(bufio.NewReaderSize(rc, 64<<10))
	w.Limits = r.opts.Limits
	for {
		rec, err := w.Next()
		if re, ok := errors.AsType[*archive.RecordError](err); ok {
			if onError != nil {
				onError(re)
			}
			continue
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
}

// index reads every record of the WARC stream si and adds its captures.
func (r *run) indexWARC(si int) error {
	s := r.streams[si]
	return r.eachRecord(s, func(rec *archive.Record) error {
		for _, w := range rec.Warnings {
			r.warn(s.String(), "record at "+strconv.FormatInt(rec.Offset, 10), w)
		}
		switch rec.Type {
		case "response", "revisit", "resource":
		default:
			return nil
		}
		c, err := r.captureOf(rec)
		if sc, ok := err.(schemeError); ok {
			r.sum.Dropped++
			r.warn(s.String(), "record at "+strconv.FormatInt(rec.Offset, 10), fmt.Sprintf("WARC-Target-URI %q is a %s: URL, not a web capture: not written", clip(rec.TargetURI), string(sc)))
			return nil
		}
		if err != nil {
			r.recordProblem(si, rec.Offset, "record at "+strconv.FormatInt(rec.Offset, 10), errtext.Of(err))
			return nil
		}
		if c == nil {
			return nil
		}
		c.stream, c.pos = si, rec.Position
		r.add(c)
		return nil
	}, func(re *archive.RecordError) {
		r.recordProblem(si, re.Offset, "", re.Error())
	})
}

// schemeError is captureOf's error for a record of a URL whose scheme
// (file, ftp, ...) a tree served over HTTP cannot hold.
type schemeError string

func (e schemeError) Error() string { return "a " + string(e) + ": URL" }

// captureOf reads what a record says about its URL, or nil for a record
// that captures no web resource (a dns: response, a URL the hosts filter
// leaves out); a record of a scheme other than http and https is a
// schemeError.
func (r *run) captureOf(rec *archive.Record) (*capture, error) {
	web, err := resolve.ParseWebURL(rec.TargetURI, nil, resolve.Options{})
	if err != nil {
		return nil, fmt.Errorf("WARC-Target-URI %q: %v", clip(rec.TargetURI), err)
	}
	if s := web.Scheme(); s == "dns" {
		return nil, nil // a DNS answer, no resource
	} else if s != "http" && s != "https" {
		return nil, schemeError(s)
	}
	c := &capture{
		url:     withoutFragment(web.Href()),
		id:      strings.TrimSpace(rec.Header.Get("WARC-Record-ID")),
		digest:  strings.TrimSpace(rec.Header.Get("WARC-Payload-Digest")),
		revisit: rec.Type == "revisit",
	}
	if c.revisit {
		c.ref = &revisitRef{
			refersTo: strings.TrimSpace(rec.Header.Get("WARC-Refers-To")),
			uri:      strings.Trim(strings.TrimSpace(rec.Header.Get("WARC-Refers-To-Target-URI")), "<>"),
			date:     strings.TrimSpace(rec.Header.Get("WARC-Refers-To-Date")),
		}
	}
	if w, err := resolve.ParseWebURL(c.url, nil, resolve.Options{}); err == nil {
		web = w
	}
	c.key = sharedKey(c.url, keyOf(web))
	if !r.hostWanted(web.Hostname()) {
		r.sum.Excluded++
		return nil, nil
	}
	c.date, _ = time.Parse(time.RFC3339Nano, strings.TrimSpace(rec.Header.Get("WARC-Date")))
	if rec.Type == "resource" {
		c.status, c.ctype = 200, r.intern(rec.Header.Get("Content-Type"))
		if c.digest == "" {
			h := sha1.New()
			if _, err := io.Copy(h, io.LimitReader(rec.Block, r.opts.Limits.DecodedBytes+1)); err != nil && !errors.Is(err, archive.ErrTruncated) {
				return nil, err
			}
			c.digest = "sha1:" + base32.StdEncoding.EncodeToString(h.Sum(nil))
		}
		return c, nil
	}
	resp, err := archive.ReadResponse(rec, r.opts.Limits)
	if err != nil {
		if c.revisit {
			// A revisit may hold no HTTP head at all.
			return c, nil
		}
		return nil, err
	}
	c.status, c.ctype = resp.StatusCode, r.intern(resp.Header.Get("Content-Type"))
	if strings.TrimSpace(c.ctype) == "" && len(resp.Payload) > 0 && !c.revisit {
		// What a browser would sniff (MIME Sniffing §7), as Go does it.
		c.ctype = http.DetectContentType(resp.Payload)
	}
	if c.status >= 300 && c.status < 400 {
		if loc := resp.Header.Get("Location"); loc != "" {
			if u, err := resolve.Reference(resolve.WHATWG, c.url, strings.TrimSpace(loc)); err == nil {
				c.location = u
			}
		}
	}
	if !c.revisit && c.digest == "" {
		sum := sha1.Sum(resp.Payload)
		c.digest = "sha1:" + base32.StdEncoding.EncodeToString(sum[:])
	}
	return c, nil
}

// indexMHTML reads the MHTML stream si and adds a capture for each of its
// leaf parts that has a URL (a Content-Location) or a Content-ID.
func (r *run) indexMHTML(si int) error {
	s := r.streams[si]
	m, err := r.readMHTML(s)
	if err != nil {
		return err
	}
	date := time.Time{}
	if d, err := mail.ParseDate(m.Root.Header.Get("Date")); err == nil {
		date = d
	} else if info, err := os.Stat(s.input); err == nil {
		date = info.ModTime()
	}
	for _, p := range m.Parts() {
		for _, w := range p.Warnings {
			r.warn(s.String(), "part "+p.Path, w)
		}
		if len(p.Parts) > 0 || strings.HasPrefix(p.MediaType, "multipart/") || strings.HasPrefix(p.MediaType, "message/") {
			continue
		}
		u := partURL(m, p, si)
		if u == "" {
			continue
		}
		web, err := resolve.ParseWebURL(u, nil, resolve.Options{})
		if err != nil {
			r.warn(s.String(), "part "+p.Path, "no usable URL: "+errtext.Of(err))
			continue
		}
		if sc := web.Scheme(); (sc == "http" || sc == "https") && !r.hostWanted(web.Hostname()) {
			r.sum.Excluded++
			continue
		}
		body, err := m.Decode(p)
		if err != nil {
			r.problem(s.String(), "part "+p.Path, errtext.Of(err))
			continue
		}
		sum := sha1.Sum(body)
		ct := p.MediaType
		if cs := p.Params["charset"]; cs != "" {
			ct += "; charset=" + cs
		}
		r.add(&capture{
			url: withoutFragment(web.Href()), key: keyOf(web), date: date, status: 200,
			ctype: r.intern(ct), digest: "sha1:" + base32.StdEncoding.EncodeToString(sum[:]),
			stream: si, pos: -1, part: p.Path,
		})
	}
	return nil
}

// partURL is the URL a part is captured under: its Content-Location, else
// "cid:" and its Content-ID (RFC 2392), else "". A Content-Location that
// only resolves against "thismessage:/" (RFC 2557 §5(e)) names a part of
// this archive alone: it becomes "thismessage:/N/..." with N the stream's
// number, so that two archives' "thismessage:/index.html" stay apart.
func partURL(m *archive.Message, p *archive.Part, si int) string {
	if u := m.Location(p); u != "" {
		if rest, ok := strings.CutPrefix(u, archive.ThisMessage); ok {
			return archive.ThisMessage + strconv.Itoa(si) + "/" + rest
		}
		return u
	}
	if id := p.ContentID(); id != "" {
		return "cid:" + cidEscape(id)
	}
	return ""
}

// cidEscape writes a Content-ID as a cid: URL does (RFC 2392 §2).
func cidEscape(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`%/?#"<>\^`+"`{|}[]", c) >= 0 {
			fmt.Fprintf(&b, "%%%02X", c)
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// readMHTML reads an MHTML stream. No retrieval URL is given: a part's
// relative Content-Location belongs to its archive (thismessage:/, see
// partURL), not to the directory the file was found in; Chrome's
// Snapshot-Content-Location, when present, gives the page's real URL.
func (r *run) readMHTML(s stream) (*archive.Message, error) {
	f, err := os.Open(s.input)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return archive.Read(f, archive.Options{Spec: resolve.WHATWG, Limits: r.opts.Limits})
}

// keyOf is the URL a capture is filed under: the URL without its scheme
// for http and https, so that both land on one file (the later capture
// wins), and the URL itself for other schemes.
func keyOf(u *resolve.WebURL) string {
	switch u.Scheme() {
	case "http", "https":
		return "//" + u.Host() + u.Pathname() + u.Search()
	}
	return withoutFragment(u.Href())
}

// webURL parses the capture's URL again: the index keeps strings only, as
// it holds one capture per record of the inputs.
func (c *capture) webURL() *resolve.WebURL {
	w, err := resolve.ParseWebURL(c.url, nil, resolve.Options{})
	if err != nil {
		// Not reached: url is the serialization of a parsed URL.
		w, _ = resolve.ParseWebURL("x-unparsable:"+cidEscape(c.url), nil, resolve.Options{})
	}
	return w
}

// sharedKey returns key as a substring of url when it is one (the usual
// case: url without its scheme), so the index stores the bytes once.
func sharedKey(url, key string) string {
	if strings.HasSuffix(url, key) {
		return url[len(url)-len(key):]
	}
	return key
}

// intern returns one copy of a string that many captures share (their
// Content-Type).
func (r *run) intern(s string) string {
	if v, ok := r.strings[s]; ok {
		return v
	}
	if r.strings != nil && len(r.strings) < 10000 {
		r.strings[s] = s
	}
	return s
}

func withoutFragment(u string) string {
	if i := strings.IndexByte(u, '#'); i >= 0 {
		return u[:i]
	}
	return u
}

// clip shortens a value an input controls for a message.
func clip(s string) string {
	if len(s) > 200 {
		return s[:100] + "…" + s[len(s)-100:]
	}
	return s
}
