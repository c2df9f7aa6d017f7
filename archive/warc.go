package archive

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"

	"github.com/relurl/relurl/internal/errtext"
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

// A RecordError is a problem with one record, or with bytes between
// records, that a WARCReader recovered from. Next returns it in place of a
// record; the next call goes on after it. Every byte the reader skips is
// reported by one RecordError, and no record is given bytes of another.
type RecordError struct {
	// Offset is the file offset of the record (of its gzip member or zstd
	// frame, as CDX indexes count) or of the first skipped byte.
	Offset int64
	// Target is the record's WARC-Target-URI, "" when not known.
	Target string
	// Err is the kind of problem: ErrCorrupt, ErrTruncated,
	// ErrContentLength, ErrTooLarge, ErrHeaderTooLarge or ErrNotWARC.
	Err error
	// Detail says what happened, and what the reader did about it.
	Detail string
}

// Message is the error without the record's offset and target.
func (e *RecordError) Message() string {
	if e.Detail == "" {
		return errtext.Of(e.Err)
	}
	return errtext.Of(e.Err) + ": " + e.Detail
}

func (e *RecordError) Error() string { return "archive: " + e.Text() }

// Text is the error without the package's name, as a command shows it.
func (e *RecordError) Text() string {
	s := "record at " + strconv.FormatInt(e.Offset, 10)
	if e.Target != "" {
		s += " (" + e.Target + ")"
	}
	return s + ": " + e.Message()
}

// Unwrap returns the kind of problem, for errors.Is.
func (e *RecordError) Unwrap() error { return e.Err }

// Errors of the WARC reader.
var (
	// ErrContentLength: a record's Content-Length disagrees with where
	// the record ends (its gzip member or zstd frame, or the next record).
	ErrContentLength = errors.New("Content-Length does not match the record")
	// ErrEmpty: the input has no bytes (a WARC file has at least one
	// record, WARC 1.1 §4).
	ErrEmpty = errors.New("empty input")
)

// A WARCReader reads the records of a WARC file from any io.Reader,
// streaming: plain, compressed as one gzip member per record (.warc.gz,
// WARC 1.1 Annex D) or as one gzip stream, or as one zstd frame per record
// with an optional dictionary (.warc.zst, the IIPC WARC-zstd convention),
// which it tells apart by the first bytes. It reads ARC files (.arc,
// .arc.gz, the Internet Archive's format before WARC) too, each record as
// a WARC record would be (Version "ARC/1.0").
//
// It recovers from damage record by record, and reports each problem as a
// *RecordError (see Next):
//   - a gzip member or zstd frame that does not decode: reading resumes at
//     the next member (frame) that decodes to a "WARC/" line, searched from
//     the byte after the damaged one's start;
//   - a malformed header (no Content-Length, too large): the record is
//     skipped up to the next "WARC/" line;
//   - a Content-Length that runs past its gzip member or zstd frame, when
//     the next one starts a record: the member boundary wins, and the
//     block ends there; one that runs past the next record's "WARC/1."
//     line in a plain file: the block ends there, and the records it
//     swallowed are read again;
//   - bytes that start no record (after a Content-Length that is too
//     short): skipped up to the next "WARC/" line;
//   - a file that ends inside a record: the record ends there.
type WARCReader struct {
	// Limits bound header sizes (HeaderBytes) and the payloads ScanWARC
	// decodes (DecodedBytes). Set it before the first Next.
	Limits Limits

	src     rawSource
	m       members
	in      replayReader
	br      *bufio.Reader
	pos     int64 // decoded bytes consumed
	block   *blockReader
	cur     *Record      // the record whose block is being read
	curAt   int64        // the file offset of the member cur's header was in
	last    *Record      // the record just finished, until a skip is reported
	pending []error      // record errors to return before the next record
	marks   []gzipMember // where recent members start, file and decoded
	quiet   bool         // skipping the rest of a record already reported
	damaged bool         // the reader resynchronized at least once
	ended   bool         // the input ended
	n       int          // records returned
	arc     bool         // an ARC file
	arcN    int          // fields of its header lines
	arcInfo bool         // its version block was read
	found   bool         // a record start was seen
	err     error
	inited  bool
}

type gzipMember struct{ file, out int64 }

// NewWARCReader returns a reader of the WARC file r.
func NewWARCReader(r io.Reader) *WARCReader {
	w := &WARCReader{}
	w.src.r = r
	w.m.src = &w.src
	w.in.m = &w.m
	return w
}

// Pipeline makes the reader decode a compressed file's gzip members or
// zstd frames on a goroutine of its own, ahead of Next and the reads of
// the records' blocks, into a bounded queue (2 MiB), when GOMAXPROCS is
// over 1: decompression and what is done with the records run on
// different cores. The records and record errors are the same. The
// input is then read on that goroutine; s, when not nil, is the stream
// it comes from (see [Stream]): a stream's pieces are handed on as they
// are decoded, and its Wait is called where Next is. A plain file, and
// what follows damage until the next member opens, are read as without
// it. Call Pipeline before the first Next, and Close when leaving the
// reader before Next has returned io.EOF or an error that ends the file.
func (w *WARCReader) Pipeline(s *Stream) {
	if runtime.GOMAXPROCS(0) > 1 {
		w.pipeline(s)
	}
}

func (w *WARCReader) pipeline(s *Stream) {
	w.m.pipeOK = true
	w.m.stream = s
}

// Close stops the goroutine of Pipeline, once a read of the input in
// progress there ends. It does not close the input.
func (w *WARCReader) Close() error {
	w.m.stopPipe()
	return nil
}

// replayReader gives the bytes to read again first, then the members'.
type replayReader struct {
	front []byte
	m     *members
}

func (r *replayReader) Read(p []byte) (int, error) {
	if len(r.front) > 0 {
		n := copy(p, r.front)
		r.front = r.front[n:]
		return n, nil
	}
	return r.m.Read(p)
}

func (w *WARCReader) init() error {
	w.inited = true
	w.Limits = w.Limits.withDefaults()
	w.br = bufio.NewReaderSize(&w.in, 64<<10)
	p := w.src.peek(4)
	switch {
	case len(p) == 0:
		if w.src.err != nil && w.src.err != io.EOF {
			return w.src.err
		}
		return &Error{Op: "read", Where: "WARC file", Err: ErrEmpty}
	case bytes.HasPrefix(p, gzipMagic[:2]):
		w.m.kind = gzipFile
	case bytes.HasPrefix(p, zstdMagic), bytes.HasPrefix(p, dictMagic):
		w.m.kind = zstdFile
	default:
		if !w.damagedStart() {
			w.src.noKeep = true
		}
	}
	w.m.isRecord = func(head []byte) bool { return bytes.HasPrefix(head, []byte("WARC/")) }
	err := w.m.next()
	switch {
	case err == nil:
		w.opened()
		if p, _ := w.br.Peek(len(filedesc)); bytes.Equal(p, filedesc) {
			w.arc, w.arcN = true, arcFields
			w.m.isRecord = func(head []byte) bool { return looksLikeARCRecord(head, w.arcN) }
		}
	case errors.Is(err, ErrCorrupt) || errors.Is(err, ErrTruncated):
		if w.m.opens == 0 && w.m.kind == zstdFile && w.m.zd == nil {
			return err // the dictionary frame: nothing can be read
		}
		w.damage()
	default:
		return err
	}
	return nil
}

// opened notes where the member just opened starts.
func (w *WARCReader) opened() {
	w.marks = append(w.marks, gzipMember{file: w.m.start, out: w.pos})
}

// fileOffset returns the file offset of decoded position pos: itself in a
// plain file, else the start of the member holding it.
func (w *WARCReader) fileOffset(pos int64) int64 {
	if w.m.kind == plainFile {
		return pos
	}
	for i := len(w.marks) - 1; i >= 0; i-- {
		if w.marks[i].out <= pos {
			return w.marks[i].file
		}
	}
	return 0
}

// forget drops the member marks that end before decoded position pos.
func (w *WARCReader) forget(pos int64) {
	i := 0
	for i+1 < len(w.marks) && w.marks[i+1].out <= pos {
		i++
	}
	w.marks = w.marks[i:]
}

// Next returns the next record, or io.EOF after the last one. A problem
// the reader recovered from comes back as a *RecordError, in file order
// between the records; call Next again to go on. Any other error (the
// input is not WARC, or reading it failed) ends the file: Next keeps
// returning it.
//
// A record's Block reads Content-Length bytes, or fewer when the record
// ends early (its member ends and the next starts a record; the next
// record's "WARC/1." line comes first in a plain file: then Block's last
// Read returns an error wrapping ErrContentLength, whose End method
// gives the offset in the block where the record really ends; the file
// ends: an error wrapping ErrTruncated; the data is corrupt: an error
// wrapping ErrCorrupt, the rest of the record unread). The reader
// reports each of these as a RecordError from the following Next.
func (w *WARCReader) Next() (*Record, error) {
	if !w.inited {
		if err := w.init(); err != nil {
			return nil, w.fail(err)
		}
	}
	if w.block != nil {
		io.Copy(io.Discard, w.block)
		w.block = nil
	}
	for {
		if len(w.pending) > 0 {
			e := w.pending[0]
			w.pending = w.pending[1:]
			return nil, e
		}
		if w.err != nil {
			return nil, w.err
		}
		if w.ended || !w.seek() {
			if len(w.pending) > 0 {
				continue
			}
			if w.err == nil {
				w.err = io.EOF
			}
			continue
		}
		if len(w.pending) > 0 {
			continue // the problems before this record come first
		}
		rec := (*Record)(nil)
		if w.arc {
			rec = w.arcRecord()
		} else {
			rec = w.record()
		}
		if rec != nil {
			return rec, nil
		}
	}
}

func (w *WARCReader) fail(err error) error {
	w.err = err
	return err
}

// report queues a record error.
func (w *WARCReader) report(off int64, target string, kind error, detail string) {
	w.pending = append(w.pending, &RecordError{Offset: off, Target: target, Err: kind, Detail: detail})
}

// damage handles a read error: the source's own failure ends the file; a
// member that does not decode is reported and reading resumes at the next
// member that starts a record.
func (w *WARCReader) damage() {
	merr := w.m.err
	if merr == nil || (w.src.err != nil && w.src.err != io.EOF) {
		switch {
		case w.src.err != nil && w.src.err != io.EOF:
			w.err = w.src.err
		case merr != nil:
			w.err = merr
		default: // a read error that is no member's damage: end, never loop
			w.err = &Error{Op: "read", Where: w.m.name(), Err: ErrCorrupt}
		}
		return
	}
	target := ""
	if w.cur != nil && w.curAt == w.m.start {
		target = w.cur.TargetURI
	} else if w.last != nil && w.fileOffset(w.last.Position) == w.m.start {
		target = w.last.TargetURI
	}
	at := w.m.start
	cause := merr
	var detail string
	if e, ok := merr.(*Error); ok {
		cause, detail = e.Err, e.Detail
	}
	w.cur, w.last, w.quiet, w.damaged = nil, nil, false, true
	w.in.front = nil
	w.br.Reset(&w.in)
	// A member that runs to the end of the file may be cut short, or its
	// damage (a header flag that asks for a name, say) made the decoder
	// read on: a record start after its start tells them apart.
	next := w.m.resync()
	if errors.Is(merr, ErrTruncated) {
		if next < 0 {
			w.ended = true
			w.report(at, target, ErrTruncated, "the file ends inside the "+w.m.name())
			return
		}
		cause, detail = ErrCorrupt, "it does not end before the next one starts"
	}
	if next < 0 {
		w.ended = true
		w.report(at, target, cause, detail+"; no record after it")
		return
	}
	w.report(at, target, cause, detail+"; resumed at "+strconv.FormatInt(next, 10))
	if err := w.m.next(); err != nil {
		w.err = err // resync checked it decodes
		return
	}
	w.opened()
}

// advance opens the next member after the current one ended; false at
// the end of the input (or after damage, which it handles).
func (w *WARCReader) advance() bool {
	if w.m.err != nil {
		w.damage()
		return false
	}
	if w.m.kind == plainFile {
		w.ended = true
		return false
	}
	err := w.m.next()
	if err == io.EOF {
		w.ended = true
		return false
	}
	if err != nil {
		w.damage()
		return false
	}
	w.opened()
	return true
}

// cross goes on reading a record in the next member, unless that member
// starts a record of its own: member boundaries beat Content-Length.
func (w *WARCReader) cross() bool {
	if !w.advance() {
		return false
	}
	return !w.atRecord(0)
}

// atRecord reports whether a record starts skip bytes after the read
// position: a "WARC/" line, or in an ARC file a header line.
func (w *WARCReader) atRecord(skip int) bool {
	if !w.arc {
		p, _ := w.br.Peek(skip + 5)
		return len(p) == skip+5 && string(p[skip:]) == "WARC/"
	}
	p, _ := w.br.Peek(skip + 4096)
	return len(p) > skip && looksLikeARCRecord(p[skip:], w.arcN)
}

// seek skips to the next "WARC/" line; false when there is none.
func (w *WARCReader) seek() bool {
	var (
		skipped int64
		skipAt  int64
	)
	// flush reports the bytes skipped; found says whether a record
	// follows them (else the input ended: with no record at all, it is no
	// WARC file).
	flush := func(found bool) {
		if !found && !w.found && !w.damaged && w.err == nil && len(w.pending) == 0 {
			if skipped > 0 {
				w.err = &Error{Op: "read WARC record", Where: "at 0", Err: ErrNotWARC}
				return
			}
		}
		if skipped > 0 && !w.quiet {
			target, detail := "", strconv.FormatInt(skipped, 10)+" bytes that start no record skipped"
			if w.last != nil {
				target = w.last.TargetURI
				skipAt = w.last.Offset
				detail += " after the record (its Content-Length too short?)"
			}
			w.report(skipAt, target, ErrContentLength, detail)
		}
		w.last, w.quiet = nil, false
	}
	for {
		p, err := w.br.Peek(5)
		if len(p) > 0 && p[0] != '\r' && p[0] != '\n' && w.atRecord(0) {
			flush(true)
			w.found = true
			return true
		}
		if len(p) > 0 && (p[0] == '\r' || p[0] == '\n') {
			w.br.Discard(1)
			w.pos++
			continue
		}
		if len(p) == 0 && err != nil {
			if err != io.EOF {
				w.damage()
				skipped = 0 // the damaged member's report covers them
				if w.err != nil || w.ended {
					flush(false)
					return false
				}
				continue
			}
			if !w.advance() {
				if w.err != nil || w.ended {
					flush(false)
					return false
				}
			}
			continue
		}
		if skipped == 0 {
			skipAt = w.fileOffset(w.pos)
		}
		if i := w.versionInLine(); i > 0 {
			// A "WARC/1.x" line whose line end before it was damaged.
			w.br.Discard(i)
			w.pos += int64(i)
			skipped += int64(i)
			continue
		}
		n, err := w.discardLine(!w.found && !w.damaged)
		skipped += n
		if !w.found && !w.damaged && skipped > w.Limits.HeaderBytes {
			w.err = &Error{Op: "read WARC record", Where: "at 0", Err: ErrNotWARC}
			return false
		}
		if err != nil && err != io.EOF {
			w.damage()
			skipped = 0
			if w.err != nil {
				return false
			}
		}
	}
}

// discardLine skips to the next line of the current member; bounded
// stops past Limits.HeaderBytes (no record seen yet: maybe not WARC).
func (w *WARCReader) discardLine(bounded bool) (int64, error) {
	var n int64
	for {
		frag, err := w.br.ReadSlice('\n')
		n += int64(len(frag))
		w.pos += int64(len(frag))
		if err != bufio.ErrBufferFull || bounded && n > w.Limits.HeaderBytes {
			return n, err
		}
	}
}

// readLine reads one line, at most limit bytes, going on into the next
// member when it does not start a record.
func (w *WARCReader) readLine(limit int64) ([]byte, error) {
	var line []byte
	for {
		frag, err := w.br.ReadSlice('\n')
		if int64(len(line)+len(frag)) > limit {
			w.pos += int64(len(frag))
			return nil, ErrHeaderTooLarge
		}
		line = append(line, frag...)
		w.pos += int64(len(frag))
		switch {
		case err == nil:
			return line, nil
		case err == bufio.ErrBufferFull:
		case err == io.EOF:
			if !w.cross() {
				return line, io.EOF
			}
		default:
			return line, err
		}
	}
}

// record reads the record at the "WARC/" line; nil after a problem it
// queued.
func (w *WARCReader) record() *Record {
	start := w.pos
	rec := &Record{Offset: w.fileOffset(start), Position: start}
	at := rec.Offset
	where := recordAt(rec.Offset)
	w.forget(start)
	var head []byte
	mark := len(w.pending)
	fail := func(err error) *Record {
		if len(w.pending) > mark || w.err != nil {
			return nil // crossing into the next member found damage
		}
		switch {
		case errors.Is(err, ErrHeaderTooLarge):
			w.report(at, rec.TargetURI, ErrHeaderTooLarge, "header over "+strconv.FormatInt(w.Limits.HeaderBytes, 10)+" bytes; record skipped")
			w.quiet = true
		case err == io.EOF && w.ended:
			w.report(at, rec.TargetURI, ErrTruncated, "the file ends inside the header")
		case err == io.EOF:
			w.report(at, rec.TargetURI, ErrNotWARC, "the header is cut short by the end of its "+w.m.unit()+"; record skipped")
		default:
			w.damage()
		}
		return nil
	}
	version, err := w.readLine(w.Limits.HeaderBytes)
	if err != nil {
		return fail(err)
	}
	rec.Version = string(bytes.TrimRight(version, "\r\n"))
	for {
		if w.atRecord(0) {
			// A damaged blank line: the header runs into the next record.
			h, _, _, _ := readHeader(head, w.Limits.HeaderBytes)
			rec.TargetURI = targetURI(h.Get("WARC-Target-URI"))
			w.report(at, rec.TargetURI, ErrNotWARC, "the header runs into the next record's WARC/ line; record skipped")
			return nil
		}
		line, err := w.readLine(w.Limits.HeaderBytes - int64(len(head)))
		if err != nil {
			h, _, _, _ := readHeader(append(head, line...), w.Limits.HeaderBytes)
			rec.TargetURI = targetURI(h.Get("WARC-Target-URI"))
			return fail(err)
		}
		head = append(head, line...)
		if len(bytes.TrimRight(line, "\r\n")) == 0 {
			break
		}
	}
	h, _, hw, _ := readHeader(head, w.Limits.HeaderBytes)
	rec.Header = h
	rec.Warnings = hw
	rec.Type = strings.ToLower(strings.TrimSpace(h.Get("WARC-Type")))
	rec.TargetURI = targetURI(h.Get("WARC-Target-URI"))
	n, err := strconv.ParseInt(strings.TrimSpace(h.Get("Content-Length")), 10, 64)
	if err != nil || n < 0 {
		w.report(at, rec.TargetURI, ErrNotWARC, "no valid Content-Length; record skipped")
		w.quiet = true
		return nil
	}
	rec.ContentLength = n
	w.block = &blockReader{w: w, rec: rec, left: n, where: where, cand: -1, tail: []byte{'\n'}} // a record may start the block
	rec.Block = w.block
	w.cur, w.curAt = rec, w.m.start
	w.n++
	return rec
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

// blockReader reads a record's block: Content-Length bytes, unless the
// record ends before (see Next).
type blockReader struct {
	w     *WARCReader
	rec   *Record
	left  int64
	read  int64 // bytes given
	where string
	done  bool
	err   error // what Read returns once done
	// The first "WARC/1." line inside the block (-1: none), and the
	// bytes from there on, read again if the block proves too long.
	cand     int64
	keep     []byte
	keepLost bool
	tail     []byte // the block's last bytes, for a line split across reads
	noScan   bool   // no "WARC/1." lines to look for (ARC)
	head     []byte // an ARC version block's first bytes
}

func (b *blockReader) Read(p []byte) (int, error) {
	if b.done {
		return 0, b.err
	}
	if b.left <= 0 {
		b.finish(b.w.endBlock(b))
		return 0, b.err
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	w := b.w
	n, err := w.br.Read(p)
	b.note(p[:n])
	b.left -= int64(n)
	b.read += int64(n)
	w.pos += int64(n)
	switch {
	case err == nil || n > 0 && err == io.EOF:
		return n, nil
	case err == io.EOF:
		mark := len(w.pending)
		if w.cross() {
			return n, nil
		}
		switch {
		case w.err != nil:
			b.finish(&Error{Op: "read block of", Where: b.where, Err: ErrCorrupt})
		case len(w.pending) > mark:
			// The next member is damaged (reported); the record ends here.
			b.finish(&Error{Op: "read block of", Where: b.where, Err: ErrCorrupt})
		case w.ended && b.cand >= 0 && !b.noScan:
			// The file ends inside the block, but a record starts in
			// it: the Content-Length ran past the record.
			w.ended = false
			b.finish(w.replay(b))
		case w.ended:
			w.report(b.rec.Offset, b.rec.TargetURI, ErrTruncated, "the file ends "+strconv.FormatInt(b.left, 10)+" bytes before the end of the block")
			b.finish(&Error{Op: "read block of", Where: b.where, Err: ErrTruncated, Detail: strconv.FormatInt(b.left, 10) + " bytes missing"})
		default:
			w.report(b.rec.Offset, b.rec.TargetURI, ErrContentLength, "Content-Length "+strconv.FormatInt(b.rec.ContentLength, 10)+
				" but its "+w.m.unit()+" ends after "+strconv.FormatInt(b.read, 10)+" bytes, where the next record starts; block cut there")
			b.finish(&lengthError{end: b.read})
		}
		return n, b.err
	default:
		// What a damaged or cut member decoded is unchecked (its CRC-32
		// or checksum never came): none of it counts.
		w.damage()
		b.finish(&Error{Op: "read block of", Where: b.where, Err: ErrCorrupt})
		return n, b.err
	}
}

func (b *blockReader) finish(err error) {
	b.done, b.err = true, err
	if b.w.cur == b.rec {
		b.w.cur, b.w.last = nil, b.rec
	}
}

// note looks for a "WARC/1." line in the bytes p given, and keeps the
// bytes from the first one on.
func (b *blockReader) note(p []byte) {
	if b.noScan {
		if b.rec.Type == "warcinfo" && len(b.head) < 512 {
			b.head = append(b.head, p[:min(len(p), 512-len(b.head))]...)
		}
		return
	}
	if b.cand >= 0 {
		if !b.keepLost {
			if len(b.keep)+len(p) > maxRetain {
				b.keepLost, b.keep = true, nil
			} else {
				b.keep = append(b.keep, p...)
			}
		}
		return
	}
	if len(b.tail) > 0 && len(p) > 0 {
		j := append(b.tail[:len(b.tail):len(b.tail)], p[:min(len(p), maxStartLen-1)]...)
		if w := firstStart(j); w >= 0 && (w < len(b.tail) || firstStart(p) != w-len(b.tail)) {
			b.cand = b.read - int64(len(b.tail)) + int64(w)
			if w < len(b.tail) {
				b.keep = append(append([]byte(nil), b.tail[w:]...), p...)
			} else {
				b.keep = append([]byte(nil), p[w-len(b.tail):]...)
			}
			return
		}
	}
	if w := firstStart(p); w >= 0 {
		b.cand = b.read + int64(w)
		b.keep = append([]byte(nil), p[w:]...)
		return
	}
	t := append(b.tail, p[max(0, len(p)-maxStartLen+1):]...)
	b.tail = append(b.tail[:0], t[max(0, len(t)-maxStartLen+1):]...)
}

// recordStarts are what marks the start of a record inside a block whose
// Content-Length may be wrong: a version line after a line end, or a
// whole version line anywhere (its line end before it may be damaged).
var recordStarts = [][]byte{[]byte("\nWARC/1."), []byte("WARC/1.1\r\n"), []byte("WARC/1.0\r\n")}

const maxStartLen = 10

// firstStart returns the index of the "W" of the first record start in
// p, or -1.
func firstStart(p []byte) int {
	best := -1
	for _, pat := range recordStarts {
		if i := bytes.Index(p, pat); i >= 0 {
			if pat[0] == '\n' {
				i++
			}
			if best < 0 || i < best {
				best = i
			}
		}
	}
	return best
}

// A lengthError ends a block that is shorter than its Content-Length.
type lengthError struct{ end int64 }

func (e *lengthError) Error() string { return "archive: " + e.Text() }

// Text is the error without the package's name, as a command shows it.
func (e *lengthError) Text() string {
	return ErrContentLength.Error() + ": the record ends at block offset " + strconv.FormatInt(e.end, 10)
}
func (e *lengthError) Unwrap() error { return ErrContentLength }

// recordEnd returns where a block error says the record ends in its
// block, or -1.
func recordEnd(err error) int64 {
	var le *lengthError
	if errors.As(err, &le) {
		return le.end
	}
	return -1
}

// endBlock checks what follows a block of Content-Length bytes: the
// record's CRLF CRLF, then the end of the member or the next record. When
// something else follows and the block holds a "WARC/1." line, the
// Content-Length was too long: the block ends there, and the bytes after
// it are read again as records.
func (w *WARCReader) endBlock(b *blockReader) error {
	// Nine bytes: CRLF CRLF and the next "WARC/", or the end of the
	// member, whose check (gzip's CRC-32, zstd's checksum) comes then.
	p, err := w.br.Peek(9)
	if len(p) < 9 && err != nil && err != io.EOF {
		w.damage() // the member fails its check: its bytes do not count
		return &Error{Op: "read block of", Where: b.where, Err: ErrCorrupt}
	}
	k := 0
	for k < min(4, len(p)) && (p[k] == '\r' || p[k] == '\n') {
		k++
	}
	if w.arc && b.rec.Type == "warcinfo" {
		w.arcLegend(b.head)
	}
	if k == len(p) || w.atRecord(k) {
		return io.EOF
	}
	rec := b.rec
	if b.cand < 0 && w.m.kind != plainFile && len(w.marks) > 0 && w.marks[len(w.marks)-1].out == rec.Position {
		// The record is its member: the rest of the member is its own,
		// and must decode before its links count.
		var skipped int64
		for {
			q, err := w.br.Peek(1)
			if len(q) > 0 && w.atRecord(0) || len(q) == 0 && err == io.EOF {
				break
			}
			n, err := w.discardLine(false)
			skipped += n
			if err != nil && err != io.EOF {
				w.damage()
				return &Error{Op: "read block of", Where: b.where, Err: ErrCorrupt}
			}
		}
		w.report(rec.Offset, rec.TargetURI, ErrContentLength, "Content-Length "+strconv.FormatInt(rec.ContentLength, 10)+
			" is shorter than the record: the "+strconv.FormatInt(skipped, 10)+" bytes after the block up to the end of its "+w.m.unit()+" skipped")
		return io.EOF
	}
	if b.cand < 0 && !b.noScan && len(b.tail) > 0 {
		// The next record's "WARC/1." line may start in the block's
		// last bytes.
		q, _ := w.br.Peek(maxStartLen)
		j := append(append([]byte(nil), b.tail...), q...)
		if i := firstStart(j); i >= 0 && i < len(b.tail) {
			b.cand = b.read - int64(len(b.tail)) + int64(i)
			b.keep = append([]byte(nil), b.tail[i:]...)
		}
	}
	if b.cand < 0 {
		return io.EOF // too short, or garbage after it: seek reports the skip
	}
	return w.replay(b)
}

// replay cuts the block b at the "WARC/1." line inside it and has the
// bytes from there on read again as records: its Content-Length ran past
// the record.
func (w *WARCReader) replay(b *blockReader) error {
	rec := b.rec
	detail := "Content-Length " + strconv.FormatInt(rec.ContentLength, 10) + " runs past the record: a record starts at block offset " +
		strconv.FormatInt(b.cand, 10) + "; block cut there"
	if b.keepLost {
		w.report(rec.Offset, rec.TargetURI, ErrContentLength, detail+", the "+strconv.FormatInt(rec.ContentLength-b.cand, 10)+" bytes after it skipped (too many to read again)")
		return &lengthError{end: b.cand}
	}
	w.report(rec.Offset, rec.TargetURI, ErrContentLength, detail+" and the bytes after it read again")
	buffered, _ := w.br.Peek(w.br.Buffered())
	front := make([]byte, 0, len(b.keep)+len(buffered)+len(w.in.front))
	front = append(append(append(front, b.keep...), buffered...), w.in.front...)
	w.in.front = front
	w.br.Reset(&w.in)
	w.pos -= int64(len(b.keep))
	return &lengthError{end: b.cand}
}

// arcLegend reads the number of fields of the header lines from an ARC
// version block: its second line names them (5 in version 1, 10 in 2).
func (w *WARCReader) arcLegend(block []byte) {
	lines := bytes.SplitN(block, []byte("\n"), 3)
	if len(lines) < 3 {
		return
	}
	if n := len(bytes.Fields(lines[1])); n >= arcFields && n <= 16 {
		w.arcN = n
	}
}

// damagedStart looks, in a file that starts with neither a record nor a
// gzip member nor a zstd frame, for a member or frame in its first 64 KiB
// that starts a record: a compressed file whose first member is damaged.
// It reports the bytes before it and leaves the source there.
func (w *WARCReader) damagedStart() bool {
	head := w.src.peek(64 << 10)
	if bytes.HasPrefix(bytes.TrimLeft(head, "\r\n\t "), []byte("WARC/")) || bytes.HasPrefix(head, filedesc) {
		return false
	}
	head = bytes.Clone(head)
	w.m.isRecord = func(h []byte) bool { return bytes.HasPrefix(h, []byte("WARC/")) || looksLikeARCRecord(h, arcFields) }
	for _, c := range []struct {
		kind  compression
		magic []byte
	}{{gzipFile, gzipMagic}, {zstdFile, zstdMagic}} {
		w.m.kind = c.kind
		for i := bytes.Index(head, c.magic); i > 0; {
			w.src.rewind(int64(i))
			if c.kind == zstdFile && w.m.zd == nil && w.m.dictionary() != nil {
				break
			}
			if w.m.startsRecord() {
				w.src.rewind(int64(i))
				w.damaged = true
				w.report(0, "", ErrCorrupt, "the file starts with "+strconv.Itoa(i)+" bytes that are no record, gzip member or zstd frame; resumed at "+strconv.Itoa(i))
				return true
			}
			j := bytes.Index(head[i+1:], c.magic)
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	w.m.kind = plainFile
	w.src.rewind(0)
	return false
}

// versionInLine returns where a "WARC/1.0" or "WARC/1.1" line end is in
// the buffered rest of the line at the read position, or -1.
func (w *WARCReader) versionInLine() int {
	if w.arc {
		return -1
	}
	p, _ := w.br.Peek(max(w.br.Buffered(), 1))
	if nl := bytes.IndexByte(p, '\n'); nl >= 0 {
		p = p[:nl+1]
	}
	i := bytes.Index(p, []byte("WARC/1."))
	if i <= 0 || i+10 > len(p) || p[i+7] != '0' && p[i+7] != '1' || p[i+8] != '\r' && p[i+8] != '\n' {
		return -1
	}
	return i
}
