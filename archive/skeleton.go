package archive

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/relurl/relurl/base"
)

// Open reads the MIME message r (an MHTML file) as Read does, but without
// holding its bodies: r is read through once for the part headers (the
// bodies skipped, each kept as a one-byte stand-in), and each part's body
// is read again from r when it is asked for (Raw, Decode, Links). A
// regular file is read in place from its current offset; any other
// reader that does not tell its length is first spooled to a temporary
// file (base.Spool). The entity a message/* part encloses (RFC 2046
// §5.2) is read the same way: its header from the file, its bodies when
// asked. A message whose structure this pass cannot settle on its own (a
// header block over Limits.HeaderBytes or a header line over 64 KiB, more
// than 64 boundaries) is read whole, as Read does. Close releases the file.
//
// A part's body is never held by Open, Links or Rewrite when its transfer
// encoding is one this package knows (identity, quoted-printable,
// base64): it is decoded as it is read from the file and, when rewritten,
// encoded again as it is written. HTML parts stream through the
// rewriter; the readers of CSS, SVG/feeds and manifests hold their
// document (up to Limits.DecodedBytes, as Decode), and an HTTP entity
// (message/http) is decoded whole.
func Open(r io.Reader, opts Options) (*Message, error) {
	if _, ok := r.(interface{ Len() int }); ok {
		return Read(r, opts)
	}
	f, ok := r.(*os.File)
	var origin int64
	if ok {
		fi, err := f.Stat()
		if err != nil || !fi.Mode().IsRegular() {
			ok = false
		} else if origin, err = f.Seek(0, io.SeekCurrent); err != nil {
			ok = false
		}
	}
	var spool *os.File
	if !ok {
		var err error
		if spool, err = base.Spool(r, ""); err != nil {
			return nil, &Error{Op: "read", Err: err}
		}
		f, origin = spool, 0
	}
	m, err := openFile(f, origin, opts)
	if spool != nil {
		if err != nil || m.file == nil {
			spool.Close()
		} else {
			m.closer = spool
		}
	}
	return m, err
}

// Close releases what Open holds (a spooled copy of the input). It does
// not close a file the caller passed to Open.
func (m *Message) Close() error {
	if m.closer != nil {
		return m.closer.Close()
	}
	return nil
}

func openFile(f *os.File, origin int64, opts Options) (*Message, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, &Error{Op: "read", Err: err}
	}
	size := fi.Size() - origin
	lim := opts.Limits.withDefaults()
	skel, segs, err := skeleton(io.NewSectionReader(f, origin, size), size, lim)
	if errors.Is(err, errWhole) {
		if _, err := f.Seek(origin, io.SeekStart); err != nil {
			return nil, &Error{Op: "read", Err: err}
		}
		return Read(f, opts)
	}
	if errors.Is(err, errSkeletonSize) {
		return nil, &Error{Op: "read", Err: ErrTooLarge, Detail: "headers and delimiters of more than " + strconv.FormatInt(lim.Size, 10) + " bytes"}
	}
	if err != nil {
		return nil, &Error{Op: "read", Err: err}
	}
	m, err := Parse(skel, opts)
	if err != nil {
		return nil, err
	}
	m.file, m.origin, m.segs = f, origin, segs
	return m, nil
}

// errWhole says the message must be read whole.
var errWhole = errors.New("read whole")

// errSkeletonSize says the message's headers and delimiters are over
// Limits.Size.
var errSkeletonSize = errors.New("skeleton too large")

// A seg maps a place in the skeleton to the file: the bytes from skel on
// are the file's from file on, up to the next seg.
type seg struct{ skel, file int64 }

// fileOffset returns where skeleton offset s is in the file.
func (m *Message) fileOffset(s int) int64 {
	i := sort.Search(len(m.segs), func(i int) bool { return m.segs[i].skel > int64(s) }) - 1
	if i < 0 {
		return int64(s)
	}
	return m.segs[i].file + int64(s) - m.segs[i].skel
}

// fileSpan returns the part's body as a span of the file.
func (m *Message) fileSpan(p *Part) (int64, int64) {
	return m.fileOffset(p.body), m.fileOffset(p.end)
}

const maxBoundaries = 64

// skeleton reads the message once and returns its structure: every header
// block and every line that is a delimiter of a boundary declared so far
// (RFC 2046 §5.1.1) as they are, each run of other lines (the bodies)
// replaced by "x" and the run's last line end. Parse finds in it the
// same parts as in the whole message, and segs map its offsets back.
func skeleton(r io.Reader, size int64, lim Limits) ([]byte, []seg, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var (
		skel   []byte
		segs   []seg
		delims [][]byte
		off    int64 // file offset of the current line
		header = true
		hstart int // skeleton offset of the header block
		fields bool
		// startLine: the header block is an HTTP message's (message/http),
		// and its start line (RFC 9112 §2.1) comes first.
		startLine bool
		runStart  int64 = -1
		runEnd    int64 // file offset of the run's last line end
		runEOL    []byte
	)
	keep := func(line []byte, at int64) {
		if n := len(segs); n == 0 || segs[n-1].file+int64(len(skel))-segs[n-1].skel != at {
			segs = append(segs, seg{int64(len(skel)), at})
		}
		skel = append(skel, line...)
	}
	flush := func() {
		if runStart < 0 {
			return
		}
		segs = append(segs, seg{int64(len(skel)), runStart})
		skel = append(skel, 'x')
		segs = append(segs, seg{int64(len(skel)), runEnd})
		skel = append(skel, runEOL...)
		runStart = -1
	}
	// endHeader ends the header block from hstart; enclosed reports
	// whether its body is an entity of its own (a message/* part, RFC
	// 2046 §5.2.1), whose header then follows, after a start line when
	// http.
	endHeader := func() (enclosed, http bool, err error) {
		header, startLine = false, false
		h, _, _, err := readHeader(skel[hstart:], lim.HeaderBytes)
		if err != nil {
			return false, false, errWhole
		}
		mt, params := ParseMediaType(h.Get("Content-Type"))
		if enclosed, http = encloses(mt); enclosed {
			return !opaque(strings.ToLower(strings.TrimSpace(h.Get("Content-Transfer-Encoding")))), http, nil
		}
		if b := params["boundary"]; strings.HasPrefix(mt, "multipart/") && b != "" {
			d := []byte("--" + b)
			for _, e := range delims {
				if bytes.Equal(e, d) {
					return false, false, nil
				}
			}
			if len(delims) >= maxBoundaries {
				return false, false, errWhole
			}
			delims = append(delims, d)
		}
		return false, false, nil
	}
	for off < size {
		if int64(len(skel)) > lim.Size {
			// What Open holds of a message is its skeleton: Limits.Size
			// bounds that, not the message.
			return nil, nil, errSkeletonSize
		}
		line, err := br.ReadSlice('\n')
		long := false
		n := int64(len(line))
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer: a body line, unless it could
			// be a delimiter or a header line.
			long = true
			if header || mayDelimit(line, delims) {
				return nil, nil, errWhole
			}
			line = nil
			for errors.Is(err, bufio.ErrBufferFull) {
				var more []byte
				more, err = br.ReadSlice('\n')
				n += int64(len(more))
				line = more
			}
		}
		if err != nil && err != io.EOF {
			return nil, nil, err
		}
		if n == 0 {
			break
		}
		content := bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		eol := line[len(content):]
		delim := false
		if !long {
			for _, d := range delims {
				if isDelimiter(content, d) {
					delim = true
					break
				}
			}
		}
		switch {
		case delim:
			if header {
				// An entity ended by the delimiter: an enclosed one
				// is empty.
				if _, _, err := endHeader(); err != nil {
					return nil, nil, err
				}
			}
			flush()
			keep(line, off)
			if opens(content, delims) {
				header, fields, hstart = true, false, len(skel)
			}
		case header && !long:
			if int64(len(skel)-hstart) > lim.HeaderBytes {
				return nil, nil, errWhole
			}
			keep(line, off)
			switch {
			case startLine:
				startLine = false
				hstart = len(skel)
			case len(content) == 0:
				enclosed, http, err := endHeader()
				if err != nil {
					return nil, nil, err
				}
				if enclosed {
					// The enclosed entity's header (and start line)
					// begins on the next line.
					header, fields, hstart, startLine = true, false, len(skel), http
				}
			case content[0] == ' ' || content[0] == '\t':
			case isField(content):
				fields = true
			case !fields && bytes.HasPrefix(content, []byte("From ")):
			default:
				// The header ends here, at a line readHeader names in
				// its warning: kept as it is, the body after it.
				enclosed, http, err := endHeader()
				if err != nil {
					return nil, nil, err
				}
				switch {
				case enclosed && http:
					// The enclosed HTTP message's start line is this
					// one; its header follows.
					header, fields, hstart = true, false, len(skel)
				case enclosed && bytes.HasPrefix(content, []byte("From ")):
					// The enclosed entity's header begins here, with
					// an mbox From line that readHeader skips.
					header, fields, hstart = true, false, len(skel)-len(line)
				}
				// Else an enclosed entity has no header: readHeader
				// stops at this line too, and its body begins here.
				// That line may be a delimiter of the boundary the
				// header just declared.
				if opens(content, delims) {
					header, fields, hstart = true, false, len(skel)
				}
			}
		default:
			if runStart < 0 {
				runStart = off
			}
			runEnd = off + n - int64(len(eol))
			runEOL = append(runEOL[:0], eol...)
		}
		off += n
	}
	if header {
		if _, _, err := endHeader(); err != nil {
			return nil, nil, err
		}
	}
	flush()
	segs = append(segs, seg{int64(len(skel)), size})
	return skel, segs, nil
}

// mayDelimit reports whether a line whose first bytes are head (a line
// longer than the reader's buffer) may still be a delimiter of one of
// delims: only a delimiter followed by transport padding (RFC 2046
// §5.1.1) as long as the buffer is.
func mayDelimit(head []byte, delims [][]byte) bool {
	head = bytes.TrimSuffix(head, []byte("\r"))
	for _, d := range delims {
		if isDelimiter(head, d) {
			return true
		}
	}
	return false
}

// opens reports whether line is a delimiter, not a close delimiter, of
// one of delims: a part's header follows it.
func opens(line []byte, delims [][]byte) bool {
	for _, d := range delims {
		if isDelimiter(line, d) && !bytes.HasPrefix(line[len(d):], []byte("--")) {
			return true
		}
	}
	return false
}

// isField reports whether line starts a header field, as readHeader reads it.
func isField(line []byte) bool {
	colon := bytes.IndexByte(line, ':')
	return colon > 0 && isFieldName(bytes.TrimRight(line[:colon], " \t"))
}
