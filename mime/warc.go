package mime

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strconv"
	"strings"
)

// A Record is one WARC record (WARC 1.1 §4; WARC 1.0 is read the same
// way). Block is valid until the next call to Next.
type Record struct {
	// Offset is where the record starts in the file: for a plain file the
	// offset of its "WARC/" line; for a gzip file the offset of the gzip
	// member its first byte is in, which for the usual one-member-per-
	// record file is the record's own member (the offset CDX indexes use).
	Offset int64
	// Position is the offset of the "WARC/" line in the uncompressed
	// stream (equal to Offset for a plain file).
	Position      int64
	Version       string // "WARC/1.0", "WARC/1.1"
	Header        Header
	Type          string // WARC-Type, lower-case
	TargetURI     string // WARC-Target-URI without the <...> WARC 1.0 wrote, spaces as %20
	ContentLength int64
	Block         io.Reader
	Warnings      []string
}

// A WARCReader reads the records of a WARC file: plain, compressed as one
// gzip member per record (.warc.gz), or as one gzip stream, which it
// tells apart by itself.
type WARCReader struct {
	// Limits bound header sizes (HeaderBytes) and the payloads WARCLinks
	// decodes (DecodedBytes). Set it before the first Next.
	Limits Limits

	src    *bufio.Reader // the file
	count  *countingReader
	gz     *gzipStream // nil for a plain file
	br     *bufio.Reader
	pos    int64 // uncompressed bytes consumed
	block  *blockReader
	n      int // records returned
	err    error
	inited bool
}

// NewWARCReader returns a reader of the WARC file r.
func NewWARCReader(r io.Reader) *WARCReader {
	c := &countingReader{r: r}
	return &WARCReader{count: c, src: bufio.NewReader(c)}
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

func (w *WARCReader) init() {
	w.inited = true
	w.Limits = w.Limits.withDefaults()
	if magic, _ := w.src.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		w.gz = &gzipStream{src: w.src, count: w.count}
		w.br = bufio.NewReaderSize(w.gz, 64<<10)
		return
	}
	w.br = w.src
}

// Next returns the next record, or io.EOF after the last one. Bytes that
// do not start a record (left behind by a wrong Content-Length) are
// skipped up to the next "WARC/" line and reported in the next record's
// Warnings. A record cut short by the end of the file reads as far as the
// file goes; its Block then ends with an error wrapping ErrTruncated.
func (w *WARCReader) Next() (*Record, error) {
	if !w.inited {
		w.init()
	}
	if w.err != nil {
		return nil, w.err
	}
	if w.block != nil {
		if _, err := io.Copy(io.Discard, w.block); err != nil && !errors.Is(err, ErrTruncated) {
			return nil, w.fail(err)
		}
		w.block = nil
	}
	var (
		warn    []string
		skipped int64
		skipAt  = w.pos
	)
	for {
		start := w.pos
		line, err := w.readLine()
		if err == io.EOF && len(line) == 0 {
			if skipped > 0 {
				return nil, w.fail(&Error{Op: "read WARC record", Where: "at " + strconv.FormatInt(skipAt, 10), Err: ErrNotWARC, Detail: strconv.FormatInt(skipped, 10) + " bytes without a WARC/ line"})
			}
			w.err = io.EOF
			return nil, io.EOF
		}
		if err != nil && err != io.EOF {
			return nil, w.fail(err)
		}
		t := bytes.TrimRight(line, "\r\n")
		if bytes.HasPrefix(t, []byte("WARC/")) {
			if skipped > 0 {
				warn = append(warn, "skipped "+strconv.FormatInt(skipped, 10)+" bytes before this record (wrong Content-Length of the one before?)")
			}
			return w.record(start, string(t), warn)
		}
		if len(t) > 0 {
			skipped += int64(len(line))
			if w.n == 0 && skipped > w.Limits.HeaderBytes {
				return nil, w.fail(&Error{Op: "read WARC record", Where: "at 0", Err: ErrNotWARC})
			}
		}
	}
}

func (w *WARCReader) fail(err error) error {
	w.err = err
	return err
}

// readLine reads one line, at most Limits.HeaderBytes long.
func (w *WARCReader) readLine() ([]byte, error) {
	var line []byte
	for {
		frag, err := w.br.ReadSlice('\n')
		line = append(line, frag...)
		w.pos += int64(len(frag))
		if int64(len(line)) > w.Limits.HeaderBytes {
			return nil, &Error{Op: "read WARC record", Where: "at " + strconv.FormatInt(w.pos, 10), Err: ErrHeaderTooLarge}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, err
	}
}

func (w *WARCReader) record(start int64, version string, warn []string) (*Record, error) {
	rec := &Record{Offset: start, Position: start, Version: version, Warnings: warn}
	if w.gz != nil {
		rec.Offset = w.gz.memberAt(start)
	}
	where := recordAt(rec.Offset)
	var head []byte
	for {
		line, err := w.readLine()
		if err != nil && err != io.EOF {
			return nil, w.fail(err)
		}
		head = append(head, line...)
		if int64(len(head)) > w.Limits.HeaderBytes {
			return nil, w.fail(&Error{Op: "read", Where: where, Err: ErrHeaderTooLarge})
		}
		if err == nil && len(bytes.TrimRight(line, "\r\n")) == 0 {
			break
		}
		if err == io.EOF {
			return nil, w.fail(&Error{Op: "read", Where: where, Err: ErrTruncated, Detail: "end of file inside the header"})
		}
	}
	h, _, hw, _ := readHeader(head, w.Limits.HeaderBytes)
	rec.Header = h
	rec.Warnings = append(rec.Warnings, hw...)
	rec.Type = strings.ToLower(strings.TrimSpace(h.Get("WARC-Type")))
	rec.TargetURI = targetURI(h.Get("WARC-Target-URI"))
	n, err := strconv.ParseInt(strings.TrimSpace(h.Get("Content-Length")), 10, 64)
	if err != nil || n < 0 {
		return nil, w.fail(&Error{Op: "read", Where: where, Err: ErrNotWARC, Detail: "no valid Content-Length"})
	}
	rec.ContentLength = n
	w.block = &blockReader{w: w, left: n, where: where}
	rec.Block = w.block
	w.n++
	if w.gz != nil {
		w.gz.forget(start)
	}
	return rec, nil
}

// targetURI returns a WARC-Target-URI value without the angle brackets of
// WARC 1.0's grammar (which wget writes), and with literal spaces
// percent-encoded, as warcio normalises them.
func targetURI(v string) string {
	v = strings.TrimSpace(v)
	if strings.HasPrefix(v, "<") && strings.HasSuffix(v, ">") {
		v = v[1 : len(v)-1]
	}
	return strings.ReplaceAll(v, " ", "%20")
}

// blockReader reads a record's block: Content-Length bytes.
type blockReader struct {
	w     *WARCReader
	left  int64
	where string
}

func (b *blockReader) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.w.br.Read(p)
	b.left -= int64(n)
	b.w.pos += int64(n)
	if err == io.EOF && b.left > 0 {
		return n, &Error{Op: "read block of", Where: b.where, Err: ErrTruncated, Detail: strconv.FormatInt(b.left, 10) + " bytes missing"}
	}
	if err == io.EOF {
		err = nil
	}
	return n, err
}

// gzipStream decompresses a sequence of gzip members (RFC 1952 §2.2) as
// one stream, remembering where each member starts in the file and in the
// output, so records can be given the offset of their member.
type gzipStream struct {
	src     *bufio.Reader
	count   *countingReader
	z       *gzip.Reader
	in      bool // inside a member
	out     int64
	members []gzipMember
}

type gzipMember struct{ file, out int64 }

func (g *gzipStream) offset() int64 { return g.count.n - int64(g.src.Buffered()) }

func (g *gzipStream) Read(p []byte) (int, error) {
	for {
		if !g.in {
			if _, err := g.src.Peek(1); err != nil {
				return 0, err
			}
			off := g.offset()
			var err error
			if g.z == nil {
				g.z, err = gzip.NewReader(g.src)
			} else {
				err = g.z.Reset(g.src)
			}
			if err != nil {
				return 0, &Error{Op: "read", Where: "gzip member at " + strconv.FormatInt(off, 10), Err: err}
			}
			g.z.Multistream(false)
			g.in = true
			g.members = append(g.members, gzipMember{file: off, out: g.out})
		}
		n, err := g.z.Read(p)
		g.out += int64(n)
		if err == io.EOF {
			g.in = false
			if n > 0 {
				return n, nil
			}
			continue
		}
		if err != nil {
			err = &Error{Op: "read", Where: "gzip member at " + strconv.FormatInt(g.members[len(g.members)-1].file, 10), Err: err}
		}
		return n, err
	}
}

// memberAt returns the file offset of the member holding output offset
// pos.
func (g *gzipStream) memberAt(pos int64) int64 {
	for i := len(g.members) - 1; i >= 0; i-- {
		if g.members[i].out <= pos {
			return g.members[i].file
		}
	}
	return 0
}

// forget drops the members that end before output offset pos.
func (g *gzipStream) forget(pos int64) {
	i := 0
	for i+1 < len(g.members) && g.members[i+1].out <= pos {
		i++
	}
	g.members = g.members[i:]
}
