package archive

import (
	"bytes"
	"encoding/base64"
	"errors"
	"io"
)

// This file holds the transfer encodings of encoding.go as streams: a
// part's body is decoded as it is read from the file and encoded again as
// it is written, a piece at a time, never held whole. Each stream gives
// exactly the bytes of its whole-body counterpart (decodeQP, decodeBase64,
// encodeBody), which the differential tests and fuzz targets check.

// streamChunk is how much a stream decodes or encodes before handing it on.
const streamChunk = 32 << 10

// newDecoder returns a reader of the body stored in raw (a part's byte
// range) with its Content-Transfer-Encoding cte undone, or nil when cte is
// not one this package decodes. An identity encoding reads raw itself.
func newDecoder(cte string, raw *io.SectionReader) io.Reader {
	switch cte {
	case QuotedPrintable:
		return newQPReader(raw, raw.Size(), streamChunk)
	case Base64:
		return newBase64Reader(raw, streamChunk)
	case "", SevenBit, EightBit, Binary:
		return raw
	}
	return nil
}

// A decodedBody is a part's decoded body as an io.ReadSeeker, so that the
// readers that look ahead in a seekable input (htmlrewrite's <base> and
// encoding decisions) read it as they read the body held in memory:
// seeking back decodes again from the start.
type decodedBody struct {
	open func() io.Reader
	r    io.Reader
	pos  int64
}

func newDecodedBody(open func() io.Reader) *decodedBody {
	return &decodedBody{open: open, r: open()}
}

func (d *decodedBody) Read(p []byte) (int, error) {
	n, err := d.r.Read(p)
	d.pos += int64(n)
	return n, err
}

var errSeek = errors.New("archive: decoded body: unsupported seek")

// Seek tells the position (0, io.SeekCurrent) and goes to an absolute one
// (io.SeekStart), decoding again from the start.
func (d *decodedBody) Seek(offset int64, whence int) (int64, error) {
	switch {
	case whence == io.SeekCurrent && offset == 0:
		return d.pos, nil
	case whence == io.SeekStart && offset >= 0:
		d.r, d.pos = d.open(), 0
		n, err := io.CopyN(io.Discard, d.r, offset)
		d.pos = n
		if err == io.EOF {
			err = nil
		}
		return n, err
	}
	return d.pos, errSeek
}

// A qpReader decodes quoted-printable (RFC 2045 §6.7) as decodeQP does,
// a window of the body at a time. What decodeQP decides by looking at a
// whole line (trailing whitespace dropped, a final "=" a soft line break)
// waits here until the line's next byte that is not a space or tab: the
// pending "=" and the run of whitespace after it are held as a flag and
// a span of the body, read again from the body when they turn out to be
// content, so a line of any length is decoded in bounded memory.
type qpReader struct {
	src  io.ReaderAt
	size int64
	off  int64  // body offset of buf[0]
	buf  []byte // a window of the body
	i    int    // the next byte of buf to decode

	eq       bool  // an "=" that is a soft line break if only whitespace follows on its line
	ws, wsN  int64 // the pending whitespace: body offset and length
	out      []byte
	o        int // out[o:] is not read yet
	limit    int // how much to decode at a time
	err      error
	finished bool
}

// newQPReader decodes the size bytes of src through a window of n bytes.
func newQPReader(src io.ReaderAt, size int64, n int) *qpReader {
	return &qpReader{src: src, size: size, buf: make([]byte, 0, max(n, 3)), limit: n}
}

func (q *qpReader) Read(p []byte) (int, error) {
	for q.o == len(q.out) {
		if q.err != nil {
			return 0, q.err
		}
		if q.finished {
			return 0, io.EOF
		}
		q.out, q.o = q.out[:0], 0
		q.decode()
	}
	n := copy(p, q.out[q.o:])
	q.o += n
	return n, nil
}

// fill makes at least n bytes from buf[i] on available, unless the body
// ends first; it reports whether they are.
func (q *qpReader) fill(n int) bool {
	if len(q.buf)-q.i >= n {
		return true
	}
	if q.err != nil {
		return false
	}
	rest := copy(q.buf[:cap(q.buf)], q.buf[q.i:])
	q.off += int64(q.i)
	q.buf, q.i = q.buf[:rest], 0
	for len(q.buf) < n {
		at := q.off + int64(len(q.buf))
		if at >= q.size {
			return false
		}
		want := min(int64(cap(q.buf)-len(q.buf)), q.size-at)
		m, err := q.src.ReadAt(q.buf[len(q.buf):len(q.buf)+int(want)], at)
		q.buf = q.buf[:len(q.buf)+m]
		if m == 0 {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			q.err = err
			return false
		}
	}
	return true
}

// decode decodes up to about a streamChunk into out.
func (q *qpReader) decode() {
	for len(q.out) < q.limit {
		if !q.fill(1) {
			if q.err == nil {
				// The body's end ends its last line: a pending "=" is a
				// soft line break, pending whitespace trailing.
				q.eq, q.wsN, q.finished = false, 0, true
			}
			return
		}
		c := q.buf[q.i]
		switch {
		case c == ' ' || c == '\t':
			if q.wsN == 0 {
				q.ws = q.off + int64(q.i)
			}
			q.wsN++
			q.i++
		case c == '\n':
			q.lineBreak(q.buf[q.i : q.i+1])
			q.i++
		case c == '\r' && q.fill(2) && q.buf[q.i+1] == '\n':
			q.lineBreak(q.buf[q.i : q.i+2])
			q.i += 2
		case q.eq || q.wsN > 0:
			// Content follows: what was pending is content too.
			if !q.flush() {
				return
			}
		case c == '=' && !(q.fill(3) && isHex(q.buf[q.i+1]) && isHex(q.buf[q.i+2])):
			q.eq = true
			q.i++
		default:
			// Content (an =XX, a lone CR, any other byte), and what
			// follows it in the window while it is plainly content:
			// whitespace with content after it on its line, =XX.
			buf, start, i := q.buf, q.i, q.i
			if c == '\r' {
				i++
			}
			for i < len(buf) {
				c := buf[i]
				if qpRun[c] {
					i++
					continue
				}
				if c == ' ' || c == '\t' {
					k := i + 1
					for k < len(buf) && (buf[k] == ' ' || buf[k] == '\t') {
						k++
					}
					if k < len(buf) && (qpRun[buf[k]] || buf[k] == '=' && k+2 < len(buf) && isHex(buf[k+1]) && isHex(buf[k+2])) {
						i = k
						continue
					}
				} else if c == '=' && i+2 < len(buf) && isHex(buf[i+1]) && isHex(buf[i+2]) {
					q.out = append(q.out, buf[start:i]...)
					q.out = append(q.out, unhex(buf[i+1])<<4|unhex(buf[i+2]))
					i += 3
					start = i
					continue
				}
				break
			}
			q.out = append(q.out, buf[start:i]...)
			q.i = i
		}
	}
}

// lineBreak ends a line at the hard line break brk, or at a soft one when
// an "=" is pending; the whitespace before it is dropped (§6.7 rule 3).
func (q *qpReader) lineBreak(brk []byte) {
	if !q.eq {
		q.out = append(q.out, brk...)
	}
	q.eq, q.wsN = false, 0
}

// flush writes the pending "=" and whitespace as content, as far as out
// has room; it reports whether all of it is written.
func (q *qpReader) flush() bool {
	if q.eq {
		q.out = append(q.out, '=')
		q.eq = false
	}
	for q.wsN > 0 && len(q.out) < q.limit {
		n := min(q.wsN, int64(q.limit-len(q.out)))
		if q.ws >= q.off && q.ws+n <= q.off+int64(len(q.buf)) {
			q.out = append(q.out, q.buf[q.ws-q.off:q.ws-q.off+n]...)
		} else {
			// The run began before the window: read it again.
			at := len(q.out)
			q.out = append(q.out, make([]byte, n)...)
			if m, err := q.src.ReadAt(q.out[at:], q.ws); int64(m) < n {
				if err == nil || err == io.EOF {
					err = io.ErrUnexpectedEOF
				}
				q.out, q.err = q.out[:at+m], err
				return false
			}
		}
		q.ws += n
		q.wsN -= n
	}
	return q.wsN == 0
}

// qpRun marks the bytes a qpReader copies as they are without a second
// look: all but the line-end, whitespace and "=" bytes.
var qpRun = func() (t [256]bool) {
	for c := range t {
		t[c] = c != '\n' && c != '\r' && c != ' ' && c != '\t' && c != '='
	}
	return t
}()

// A base64Reader decodes base64 (RFC 2045 §6.8) as decodeBase64 does, a
// piece at a time: characters outside the alphabet are skipped, each four
// of the alphabet make three octets, and at the end a lone sextet is
// dropped and a pair or triple makes one or two octets (no padding needed).
type base64Reader struct {
	src      io.Reader
	quad     []byte // alphabet characters not yet decoded (fewer than 4 between reads)
	out      []byte
	o        int
	raw      []byte
	err      error
	finished bool
}

// newBase64Reader decodes src n bytes at a time.
func newBase64Reader(src io.Reader, n int) *base64Reader {
	n = max(n, 4)
	return &base64Reader{src: src, raw: make([]byte, n), out: make([]byte, 0, n+3)}
}

func (b *base64Reader) Read(p []byte) (int, error) {
	for b.o == len(b.out) {
		if b.err != nil {
			return 0, b.err
		}
		if b.finished {
			return 0, io.EOF
		}
		b.decode()
	}
	n := copy(p, b.out[b.o:])
	b.o += n
	return n, nil
}

func (b *base64Reader) decode() {
	n, err := io.ReadFull(b.src, b.raw)
	for raw := b.raw[:n]; len(raw) > 0; {
		// A run of the alphabet (a line), then what is not.
		i := 0
		for i < len(raw) && base64Alphabet[raw[i]] {
			i++
		}
		b.quad = append(b.quad, raw[:i]...)
		for i < len(raw) && !base64Alphabet[raw[i]] {
			i++
		}
		raw = raw[i:]
	}
	whole := len(b.quad) &^ 3
	if err != nil {
		if err != io.EOF && err != io.ErrUnexpectedEOF {
			b.err = err
			return
		}
		b.finished = true
		whole = len(b.quad)
		if whole%4 == 1 {
			whole-- // a lone sextet carries no whole octet
		}
	}
	m, derr := base64.RawStdEncoding.Decode(b.out[:cap(b.out)], b.quad[:whole])
	b.out, b.o = b.out[:m], 0
	if derr != nil {
		b.err = derr
	}
	b.quad = append(b.quad[:0], b.quad[whole:]...)
}

var base64Alphabet = func() (t [256]bool) {
	for c := range t {
		t[c] = 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '+' || c == '/'
	}
	return t
}()

// newEncoder returns a writer that encodes what it is given in the
// transfer encoding cte to w, as encodeBody encodes a whole body whose
// stored form used the line end eol and ended in a line end when endsLF;
// Close writes the end. An identity encoding writes to w as it is.
func newEncoder(w io.Writer, cte, eol string, endsLF bool) io.WriteCloser {
	switch cte {
	case QuotedPrintable:
		return &qpWriter{w: w, eol: eol, endsLF: endsLF}
	case Base64:
		return &base64Writer{w: w, eol: eol, endsLF: endsLF}
	}
	return nopCloser{w}
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// A qpWriter encodes as encodeQP does. A byte's encoding depends on the
// two after it (is a space at a line end? may a line's last character
// take the 76th column?), so the last two bytes given wait for more; the
// last byte written waits for Close, which may move it to a line of its
// own (see softEnd).
type qpWriter struct {
	w      io.Writer
	eol    string
	endsLF bool
	in     []byte
	out    []byte
	col    int
	any    bool // a byte was encoded
	err    error
}

func (q *qpWriter) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && q.err == nil {
		k := min(len(p), streamChunk)
		q.in = append(q.in, p[:k]...)
		p = p[k:]
		q.encode(false)
		q.flush(false)
	}
	return n, q.err
}

// encode encodes in, all of it at the end, else all but what waits for
// the bytes after it.
func (q *qpWriter) encode(end bool) {
	const hexdigits = "0123456789ABCDEF"
	in := q.in
	stop := len(in)
	if !end {
		stop -= 2
	}
	i := 0
	for ; i < stop; i++ {
		c := in[i]
		if qpPlain[c] || (c == ' ' || c == '\t') && !atLineEnd(in, i+1) {
			// A run that stands for itself, a line's room at a time, as
			// encodeQP writes it; only its last character may take the
			// 76th column, when a line end follows.
			j := i + 1
			for j < stop && (qpPlain[in[j]] || (in[j] == ' ' || in[j] == '\t') && !atLineEnd(in, j+1)) {
				j++
			}
			for i < j {
				room := maxLine - 1 - q.col
				if j-i == room+1 && atLineEnd(in, j) {
					room++
				}
				if room <= 0 {
					q.softBreak()
					continue
				}
				n := min(room, j-i)
				q.out = append(q.out, in[i:i+n]...)
				q.col += n
				i += n
			}
			q.any = true
			i--
			continue
		}
		switch {
		case c == '\n':
			q.out = append(q.out, '\n')
			q.col = 0
			q.any = true
			continue
		case c == '\r' && i+1 < len(in) && in[i+1] == '\n':
			q.out = append(q.out, '\r', '\n')
			q.col = 0
			q.any = true
			i++
			continue
		}
		if q.col+3 > maxLine-1 {
			q.softBreak()
		}
		q.out = append(q.out, '=', hexdigits[c>>4], hexdigits[c&15])
		q.col += 3
		q.any = true
	}
	q.in = append(q.in[:0], in[min(i, len(in)):]...)
}

func (q *qpWriter) softBreak() {
	q.out = append(q.out, '=')
	q.out = append(q.out, q.eol...)
	q.col = 0
}

// flush writes out, but for its last byte until the end.
func (q *qpWriter) flush(end bool) {
	n := len(q.out)
	if !end {
		n--
	}
	if n <= 0 || q.err != nil {
		return
	}
	if _, err := q.w.Write(q.out[:n]); err != nil {
		q.err = err
	}
	q.out = append(q.out[:0], q.out[n:]...)
}

// Close encodes what waits and writes the end encodeBody writes: a soft
// line break and the line end when the stored body ended in one.
func (q *qpWriter) Close() error {
	if q.err != nil {
		return q.err
	}
	q.encode(true)
	if q.endsLF && (!q.any || q.out[len(q.out)-1] != '\n') {
		if q.col >= maxLine {
			c := q.out[len(q.out)-1]
			q.out = append(q.out[:len(q.out)-1], '=')
			q.out = append(q.out, q.eol...)
			q.out = append(q.out, c)
		}
		q.out = append(q.out, '=')
		q.out = append(q.out, q.eol...)
	}
	q.flush(true)
	return q.err
}

// A base64Writer encodes as encodeBase64 does: 76 characters to a line,
// each line end written when the next line starts, and the final line end
// of a body that had one (encodeBody) at Close.
type base64Writer struct {
	w      io.Writer
	eol    string
	endsLF bool
	in     []byte // fewer than 3 octets between writes
	enc    [streamChunk / 3 * 4]byte
	out    []byte
	col    int
	err    error
}

func (b *base64Writer) Write(p []byte) (int, error) {
	n := len(p)
	for len(p) > 0 && b.err == nil {
		k := min(len(p), streamChunk/3*3-len(b.in))
		b.in = append(b.in, p[:k]...)
		p = p[k:]
		b.encode(len(b.in) / 3 * 3)
	}
	return n, b.err
}

// encode encodes in[:n] and writes it in lines.
func (b *base64Writer) encode(n int) {
	m := base64.StdEncoding.EncodedLen(n)
	base64.StdEncoding.Encode(b.enc[:m], b.in[:n])
	b.in = append(b.in[:0], b.in[n:]...)
	b.out = b.out[:0]
	for e := b.enc[:m]; len(e) > 0; {
		if b.col == maxLine {
			b.out = append(b.out, b.eol...)
			b.col = 0
		}
		k := min(len(e), maxLine-b.col)
		b.out = append(b.out, e[:k]...)
		b.col += k
		e = e[k:]
	}
	if len(b.out) > 0 && b.err == nil {
		_, b.err = b.w.Write(b.out)
	}
}

func (b *base64Writer) Close() error {
	if b.err == nil && len(b.in) > 0 {
		b.encode(len(b.in))
	}
	if b.err == nil && b.endsLF {
		_, b.err = io.WriteString(b.w, b.eol)
	}
	return b.err
}

// decodes reports whether the part's body is read decoded from the file
// as a stream (see bodyReader) rather than held: a part of an opened
// message in a transfer encoding this package decodes.
func (m *Message) decodes(p *Part) bool {
	if m.file == nil || p.http {
		return false
	}
	switch p.Encoding {
	case "", SevenBit, EightBit, Binary, QuotedPrintable, Base64:
		return true
	}
	return false
}

// bodyReader returns the part's body with its transfer encoding undone,
// read from the file as it is read (see decodes).
func (m *Message) bodyReader(p *Part) io.ReadSeeker {
	from, to := m.fileSpan(p)
	raw := func() *io.SectionReader { return io.NewSectionReader(m.file, m.origin+from, to-from) }
	switch p.Encoding {
	case QuotedPrintable, Base64:
		return newDecodedBody(func() io.Reader { return newDecoder(p.Encoding, raw()) })
	}
	return raw()
}

// storedLineEnd returns what encodeBody takes from a part's stored body:
// its line end as lineEnd decides it ("\r\n" unless the body has a line
// end and no CRLF at all) and whether it ends in a line end, reading the
// body from the file.
func (m *Message) storedLineEnd(p *Part) (eol string, endsLF bool, err error) {
	from, to := m.fileSpan(p)
	if from == to {
		return "\r\n", false, nil
	}
	var last [1]byte
	if _, err := m.file.ReadAt(last[:], m.origin+to-1); err != nil {
		return "", false, err
	}
	buf := make([]byte, streamChunk)
	lf := false
	var prev byte
	for at := from; at < to; {
		n, err := m.file.ReadAt(buf[:min(int64(len(buf)), to-at)], m.origin+at)
		if n == 0 {
			if err == nil || err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return "", false, err
		}
		b := buf[:n]
		for i := bytes.IndexByte(b, '\n'); i >= 0; i = nextLF(b, i) {
			lf = true
			if i > 0 && b[i-1] == '\r' || i == 0 && prev == '\r' {
				return "\r\n", last[0] == '\n', nil
			}
		}
		prev = b[n-1]
		at += int64(n)
	}
	if lf {
		return "\n", last[0] == '\n', nil
	}
	return "\r\n", last[0] == '\n', nil
}

// nextLF returns the index of the next "\n" in b after i, or -1.
func nextLF(b []byte, i int) int {
	j := bytes.IndexByte(b[i+1:], '\n')
	if j < 0 {
		return -1
	}
	return i + 1 + j
}

// A changeWriter takes a part's rewritten body and writes it encoded
// again only if it differs from the body as stored, as Rewrite does with
// a part held whole: while the two agree it writes nothing and only reads
// the stored body (decoded again) alongside. At the first difference it
// calls start, which writes what comes before the part and returns the
// encoder, gives the encoder the stored body's agreed prefix (decoded
// once more) and from then on the rewritten body itself.
type changeWriter struct {
	stored func() io.Reader // the decoded stored body, from its start
	start  func() (io.WriteCloser, error)
	orig   io.Reader
	same   int64 // rewritten bytes that agreed with the stored body
	enc    io.WriteCloser
	cmp    []byte
	err    error
}

func (c *changeWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	if c.enc != nil {
		return c.enc.Write(p)
	}
	if c.orig == nil {
		c.orig, c.cmp = c.stored(), make([]byte, streamChunk)
	}
	for q := p; len(q) > 0; {
		n, err := io.ReadFull(c.orig, c.cmp[:min(len(q), len(c.cmp))])
		if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
			c.err = err
			return 0, err
		}
		if n < min(len(q), len(c.cmp)) || !bytes.Equal(c.cmp[:n], q[:n]) {
			if err := c.diverge(); err != nil {
				return 0, err
			}
			return c.enc.Write(p)
		}
		q = q[n:]
	}
	c.same += int64(len(p))
	return len(p), nil
}

// diverge starts the encoded output: the bytes before the part, then the
// stored body's first c.same bytes.
func (c *changeWriter) diverge() error {
	enc, err := c.start()
	if err == nil {
		c.enc = enc
		_, err = io.CopyN(enc, c.stored(), c.same)
	}
	c.err = err
	return err
}

// Close ends the part and reports whether its body changed (and was
// written): a rewritten body shorter than the stored one changed too.
func (c *changeWriter) Close() (changed bool, err error) {
	if c.err != nil {
		return c.enc != nil, c.err
	}
	if c.enc == nil {
		if c.orig == nil {
			c.orig = c.stored()
		}
		var one [1]byte
		if n, _ := io.ReadFull(c.orig, one[:]); n == 0 {
			return false, nil
		}
		if err := c.diverge(); err != nil {
			return true, err
		}
	}
	return true, c.enc.Close()
}
