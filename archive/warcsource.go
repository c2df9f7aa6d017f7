package archive

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/klauspost/compress/gzip"
	"github.com/relurl/relurl/internal/errtext"

	"github.com/klauspost/compress/zstd"
)

// ErrCorrupt marks compressed data that does not decode: a damaged gzip
// member (RFC 1952) or zstd frame (RFC 8878).
var ErrCorrupt = errors.New("corrupt compressed data")

// maxRetain bounds the compressed bytes of one member kept so that a
// damaged member can be rescanned from its start (and the bytes of a
// block kept for replay after a lying Content-Length).
const maxRetain = 16 << 20

// rawSource reads the file, counting offsets. It keeps the bytes read
// since the last mark (up to maxRetain) so that reading can go back to
// any offset after the mark: a damaged member is rescanned from the byte
// after its start, not from wherever the decoder gave up.
type rawSource struct {
	r       io.Reader
	arr     []byte // the buffer
	start   int    // arr[start:end] are the bytes from the mark on, as far as read
	pos     int    // the read position in arr
	end     int
	markOff int64 // file offset of arr[start]
	lost    bool  // bytes after the mark were dropped (past maxRetain)
	noKeep  bool  // keep nothing before the read position (a plain file)
	err     error // the reader's error, once seen
}

func (s *rawSource) offset() int64 { return s.markOff + int64(s.pos-s.start) }

// mark forgets the bytes before the read position.
func (s *rawSource) mark() {
	s.markOff += int64(s.pos - s.start)
	s.start = s.pos
	s.lost = false
}

// rewind moves the read position to file offset off, within the bytes
// kept since the mark; it fails when they are no longer kept.
func (s *rawSource) rewind(off int64) bool {
	i := off - s.markOff
	if s.lost || i < 0 || i > int64(s.end-s.start) {
		return false
	}
	s.pos = s.start + int(i)
	return true
}

// fill reads more bytes; it returns the reader's error when no byte came.
func (s *rawSource) fill() error {
	if s.err != nil {
		return s.err
	}
	if s.noKeep {
		s.mark()
	}
	if len(s.arr)-s.end < 4<<10 {
		kept := s.end - s.start
		switch {
		case s.arr == nil:
			s.arr = make([]byte, 64<<10)
		case kept >= maxRetain:
			s.mark() // forget the mark: too much to keep
			s.lost = true
			kept = s.end - s.start
			fallthrough
		case kept <= len(s.arr)/2:
			copy(s.arr, s.arr[s.start:s.end])
		default:
			nb := make([]byte, 2*len(s.arr))
			copy(nb, s.arr[s.start:s.end])
			s.arr = nb
		}
		s.pos -= s.start
		s.end = kept
		s.start = 0
	}
	for range 100 {
		n, err := s.r.Read(s.arr[s.end:])
		s.end += n
		if err != nil {
			s.err = err
		}
		if n > 0 {
			return nil
		}
		if err != nil {
			return err
		}
	}
	s.err = io.ErrNoProgress
	return s.err
}

func (s *rawSource) ReadByte() (byte, error) {
	if s.pos >= s.end {
		if err := s.fill(); err != nil {
			return 0, err
		}
	}
	b := s.arr[s.pos]
	s.pos++
	return b, nil
}

func (s *rawSource) Read(p []byte) (int, error) {
	if s.pos >= s.end {
		if err := s.fill(); err != nil {
			return 0, err
		}
	}
	n := copy(p, s.arr[s.pos:s.end])
	s.pos += n
	return n, nil
}

// peek returns the next n bytes without consuming them (fewer at the end
// of the input).
func (s *rawSource) peek(n int) []byte {
	for s.end-s.pos < n {
		if s.fill() != nil {
			break
		}
	}
	return s.arr[s.pos:min(s.end, s.pos+n)]
}

// find advances to the next occurrence of magic and returns its offset,
// or io.EOF when the input ends first. Bytes before it are forgotten.
func (s *rawSource) find(magic []byte) (int64, error) {
	for {
		if i := bytes.Index(s.arr[s.pos:s.end], magic); i >= 0 {
			s.pos += i
			s.mark()
			return s.markOff, nil
		}
		s.pos = max(s.pos, s.end-len(magic)+1)
		s.mark()
		if err := s.fill(); err != nil {
			return 0, err
		}
	}
}

// The compressions a WARC file comes in.
type compression int

const (
	plainFile compression = iota
	gzipFile              // record-at-time gzip (WARC 1.1 Annex D), or one stream
	zstdFile              // IIPC WARC-zstd: a frame per record, optional dictionary
)

var (
	gzipMagic = []byte{0x1f, 0x8b, 0x08}
	zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}
	dictMagic = []byte{0x5d, 0x2a, 0x4d, 0x18} // skippable frame 0x184D2A5D
	zdicMagic = []byte{0x37, 0xa4, 0x30, 0xec} // zstd dictionary format
)

// members decodes a file one member at a time: a gzip member, a zstd
// frame, or (for a plain file) the whole file. Read returns io.EOF at the
// end of each member; next opens the one after it.
type members struct {
	kind  compression
	src   *rawSource
	gz    *gzip.Reader
	zd    *zstd.Decoder
	frame frameReader
	start int64 // file offset of the current member
	in    bool  // a member is open
	opens int   // members opened
	err   error // the decoding error that ended the current member
	// isRecord reports whether a member's first bytes start a record.
	isRecord func(head []byte) bool
	pipeOK   bool        // decode members ahead on a goroutine
	pipe     *memberPipe // that goroutine, while it runs (warcpipe.go)
	spare    chan []byte // the stopped worker's chunks, for the next
	stream   *Stream     // the input, when it is read as it comes
}

// next opens the member at the read position: io.EOF at the clean end of
// the input, an error wrapping ErrCorrupt for a damaged member header.
func (m *members) next() error {
	if m.pipe != nil {
		return m.pipeNext()
	}
	if m.pipeOK && m.kind != plainFile {
		m.startPipe()
		return m.pipeNext()
	}
	m.in, m.err = false, nil
	m.src.mark()
	m.start = m.src.offset()
	if len(m.src.peek(1)) == 0 {
		if m.src.err != nil && m.src.err != io.EOF {
			return m.src.err
		}
		return io.EOF
	}
	switch m.kind {
	case gzipFile:
		if p := m.src.peek(3); !bytes.Equal(p, gzipMagic[:len(p)]) || len(p) < 3 {
			m.src.ReadByte()
			return m.fail(errors.New("not a gzip member"))
		}
		var err error
		if m.gz == nil {
			m.gz, err = gzip.NewReader(m.src)
		} else {
			err = m.gz.Reset(m.src)
		}
		if err != nil {
			return m.fail(err)
		}
		m.gz.Multistream(false)
	case zstdFile:
		if m.opens == 0 {
			if err := m.dictionary(); err != nil {
				return err
			}
			m.src.mark()
			m.start = m.src.offset()
			if len(m.src.peek(1)) == 0 {
				return io.EOF
			}
		}
		if err := m.frame.begin(m.src); err != nil {
			return m.fail(err)
		}
		if err := m.zd.Reset(&m.frame); err != nil {
			return m.fail(err)
		}
	}
	m.opens++
	m.in = true
	return nil
}

// fail records err as the damage of the current member.
func (m *members) fail(err error) error {
	m.in = false
	if m.src.err != nil && m.src.err != io.EOF {
		m.err = m.src.err // the reader's own failure, not damage
		return m.err
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || (errors.Is(err, io.EOF) && m.src.err == io.EOF) {
		m.err = &Error{Op: "read", Where: m.name(), Err: ErrTruncated, Detail: "the file ends inside it"}
	} else if errors.Is(err, zstd.ErrWindowSizeExceeded) {
		m.err = &Error{Op: "read", Where: m.name(), Err: &WindowError{Window: m.frame.window(), Limit: maxZstdWindow}, Detail: "a valid frame, not decoded"}
	} else {
		m.err = &Error{Op: "read", Where: m.name(), Err: ErrCorrupt, Detail: errtext.Of(err)}
	}
	return m.err
}

func (m *members) name() string {
	if m.kind == plainFile {
		return "file"
	}
	return m.unit() + " at " + strconv.FormatInt(m.start, 10)
}

// unit names what a member is: "gzip member", "zstd frame" or "file".
func (m *members) unit() string {
	switch m.kind {
	case gzipFile:
		return "gzip member"
	case zstdFile:
		return "zstd frame"
	}
	return "file"
}

func (m *members) Read(p []byte) (int, error) {
	if !m.in {
		if m.err != nil {
			return 0, m.err
		}
		return 0, io.EOF
	}
	if m.pipe != nil {
		return m.pipeRead(p)
	}
	var (
		n   int
		err error
	)
	switch m.kind {
	case gzipFile:
		n, err = m.gz.Read(p)
	case zstdFile:
		n, err = m.zd.Read(p)
	default:
		n, err = m.src.Read(p)
	}
	if err == io.EOF {
		m.in = false
		return n, io.EOF
	}
	if err != nil {
		return n, m.fail(err)
	}
	return n, nil
}

// resync looks for the next member that starts a WARC record, from the
// byte after the damaged member's start (or from where reading stopped,
// when that start is no longer kept). It leaves the source there and
// returns its offset, or -1 at the end of the input.
func (m *members) resync() int64 {
	m.in, m.err = false, nil
	if !m.src.rewind(m.start + 1) {
		m.src.mark()
	}
	magic := gzipMagic
	if m.kind == zstdFile {
		magic = zstdMagic
	}
	for {
		off, err := m.src.find(magic)
		if err != nil {
			return -1
		}
		if m.startsRecord() {
			m.src.rewind(off)
			return off
		}
		m.src.rewind(off + 1)
	}
}

// startsRecord reports whether the member at the read position decodes
// to the start of a record (a WARC version line, an ARC header line).
func (m *members) startsRecord() bool {
	var head [512]byte
	var r io.Reader
	switch m.kind {
	case gzipFile:
		if p := m.src.peek(4); len(p) < 4 || p[3]&0xe0 != 0 { // FLG reserved bits
			return false
		}
		if m.gz == nil {
			z, err := gzip.NewReader(m.src)
			if err != nil {
				return false
			}
			m.gz = z
		} else if m.gz.Reset(m.src) != nil {
			return false
		}
		m.gz.Multistream(false)
		r = m.gz
	case zstdFile:
		if m.frame.begin(m.src) != nil || m.zd.Reset(&m.frame) != nil {
			return false
		}
		r = m.zd
	}
	n, _ := io.ReadFull(r, head[:])
	return m.isRecord(head[:n])
}

// dictionary reads the IIPC WARC-zstd dictionary frame, when the file
// starts with one, and makes the decoder.
func (m *members) dictionary() error {
	var dict []byte
	if p := m.src.peek(8); len(p) == 8 && bytes.Equal(p[:4], dictMagic) {
		size := binary.LittleEndian.Uint32(p[4:])
		if size > maxZstdDict {
			return &Error{Op: "read", Where: "zstd dictionary frame", Err: ErrTooLarge, Detail: strconv.FormatUint(uint64(size), 10) + " bytes"}
		}
		data := make([]byte, 8+size)
		if _, err := io.ReadFull(m.src, data); err != nil {
			return &Error{Op: "read", Where: "zstd dictionary frame", Err: ErrTruncated}
		}
		dict = data[8:]
		if bytes.HasPrefix(dict, zstdMagic) {
			d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(maxZstdDict))
			if err != nil {
				return err
			}
			dict, err = d.DecodeAll(dict, nil)
			d.Close()
			if err != nil {
				return &Error{Op: "read", Where: "zstd dictionary frame", Err: ErrCorrupt, Detail: errtext.Of(err)}
			}
		}
		if !bytes.HasPrefix(dict, zdicMagic) {
			return &Error{Op: "read", Where: "zstd dictionary frame", Err: ErrCorrupt, Detail: "not a zstd dictionary"}
		}
	}
	opts := []zstd.DOption{zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxWindow(maxZstdWindow)}
	if dict != nil {
		opts = append(opts, zstd.WithDecoderDicts(dict))
	}
	zd, err := zstd.NewReader(nil, opts...)
	if err != nil {
		return &Error{Op: "read", Where: "zstd dictionary frame", Err: ErrCorrupt, Detail: errtext.Of(err)}
	}
	m.zd = zd
	return nil
}

// The WARC-zstd convention's bounds: decoders must accept windows and
// dictionaries up to 8 MiB; more is refused.
const (
	maxZstdWindow = 8 << 20
	maxZstdDict   = 8 << 20
)

// frameReader passes exactly one zstd frame (RFC 8878 §3.1.1) through,
// then io.EOF, so that a decoder reset on it decodes one record and the
// next frame's file offset is known. Skippable frames are skipped.
type frameReader struct {
	src   *rawSource
	pend  []byte // header bytes read, not yet passed on
	left  int    // block content bytes still to pass on
	last  bool   // the current block is the frame's last
	check bool   // a 4-byte Content_Checksum follows the last block
	done  bool
	head  [18]byte
}

var errFrame = errors.New("not a zstd frame")

// WindowError is a valid zstd frame whose window (RFC 8878 §3.1.1.1.2) is
// larger than the decoder holds: it is not read. Reading resumes after
// it as after a damaged one (errors.Is ErrCorrupt); it wraps ErrTooLarge.
type WindowError struct {
	Window uint64 // the frame's window size, 0 when unknown
	Limit  uint64
}

func (e *WindowError) Error() string {
	return fmt.Sprintf("zstd window %d exceeds limit %d", e.Window, e.Limit)
}

// Is reports whether target is ErrCorrupt, for where reading resumes.
func (e *WindowError) Is(target error) bool { return target == ErrCorrupt }

// Unwrap returns ErrTooLarge.
func (e *WindowError) Unwrap() error { return ErrTooLarge }

// window is the window size the current frame's header declares (RFC
// 8878 §3.1.1.1.2): the Window_Descriptor's, or for a single segment
// its Frame_Content_Size; 0 when the header does not say.
func (f *frameReader) window() uint64 {
	// The header stays in f.head once passed on.
	fhd := f.head[4]
	if fhd&0x20 == 0 {
		wd := f.head[5]
		log := 10 + uint(wd>>3)
		base := uint64(1) << log
		return base + base/8*uint64(wd&7)
	}
	// Single_Segment: the window is the content size.
	at := 5 + [4]int{0, 1, 2, 4}[fhd&3]
	switch fhd >> 6 {
	case 0:
		return uint64(f.head[at])
	case 1:
		return uint64(binary.LittleEndian.Uint16(f.head[at:])) + 256
	case 2:
		return uint64(binary.LittleEndian.Uint32(f.head[at:]))
	}
	return binary.LittleEndian.Uint64(f.head[at:])
}

// begin reads the next frame's header, skipping skippable frames.
func (f *frameReader) begin(src *rawSource) error {
	*f = frameReader{src: src}
	for {
		h := f.head[:4]
		if _, err := io.ReadFull(src, h); err != nil {
			return err
		}
		magic := binary.LittleEndian.Uint32(h)
		if magic&0xfffffff0 == 0x184d2a50 { // skippable frame
			var sz [4]byte
			if _, err := io.ReadFull(src, sz[:]); err != nil {
				return err
			}
			if _, err := io.CopyN(io.Discard, src, int64(binary.LittleEndian.Uint32(sz[:]))); err != nil {
				return err
			}
			continue
		}
		if !bytes.Equal(h, zstdMagic) {
			return errFrame
		}
		fhd, err := src.ReadByte()
		if err != nil {
			return err
		}
		if fhd&0x08 != 0 { // Reserved_bit
			return errFrame
		}
		n := 0
		if fhd&0x20 == 0 { // not Single_Segment: Window_Descriptor
			n++
		}
		n += [4]int{0, 1, 2, 4}[fhd&3]
		fcs := [4]int{0, 2, 4, 8}[fhd>>6]
		if fhd>>6 == 0 && fhd&0x20 != 0 {
			fcs = 1
		}
		n += fcs
		f.head[4] = fhd
		if _, err := io.ReadFull(src, f.head[5:5+n]); err != nil {
			return err
		}
		f.pend = f.head[:5+n]
		f.check = fhd&0x04 != 0
		return nil
	}
}

func (f *frameReader) Read(p []byte) (int, error) {
	for {
		if len(f.pend) > 0 {
			n := copy(p, f.pend)
			f.pend = f.pend[n:]
			return n, nil
		}
		if f.left > 0 {
			n, err := f.src.Read(p[:min(len(p), f.left)])
			f.left -= n
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return n, err
		}
		if f.done {
			return 0, io.EOF
		}
		if f.last {
			f.done = true
			if f.check {
				if _, err := io.ReadFull(f.src, f.head[:4]); err != nil {
					return 0, io.ErrUnexpectedEOF
				}
				f.pend = f.head[:4]
				continue
			}
			return 0, io.EOF
		}
		// Block_Header: Last_Block, Block_Type, Block_Size (§3.1.1.2).
		bh := f.head[:3]
		if _, err := io.ReadFull(f.src, bh); err != nil {
			return 0, io.ErrUnexpectedEOF
		}
		v := int(bh[0]) | int(bh[1])<<8 | int(bh[2])<<16
		f.last = v&1 != 0
		size := v >> 3
		switch (v >> 1) & 3 {
		case 1: // RLE_Block: one byte
			f.left = 1
		case 3:
			return 0, errFrame
		default:
			f.left = size
		}
		if size > 128<<10 { // Block_Maximum_Size
			return 0, errFrame
		}
		f.pend = bh
	}
}
