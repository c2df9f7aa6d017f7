package inputs

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// MaxLine bounds one line of a stream of lines (a JSON request, a URL, a
// path).
const MaxLine = 1 << 20

// ErrLineTooLong is the error of a line over MaxLine.
var ErrLineTooLong = errors.New("line longer than 1 MiB")

// A LineReader reads lines of at most MaxLine bytes. A longer line is
// skipped whole and reported as ErrLineTooLong, so one bad line does not
// end a stream.
type LineReader struct{ r *bufio.Reader }

// NewLineReader returns a LineReader reading r.
func NewLineReader(r io.Reader) *LineReader { return &LineReader{bufio.NewReaderSize(r, 64<<10)} }

// Next returns the next line without its "\n" or "\r\n", or io.EOF at
// the end. The slice is valid until the next call.
func (l *LineReader) Next() ([]byte, error) {
	var long []byte
	tooLong := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if !tooLong && len(long)+len(chunk) <= MaxLine {
				long = append(long, chunk...)
			} else {
				tooLong, long = true, nil
			}
			continue
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		if errors.Is(err, io.EOF) && len(chunk) == 0 && long == nil && !tooLong {
			return nil, io.EOF
		}
		if tooLong || len(long)+len(chunk) > MaxLine {
			return nil, ErrLineTooLong
		}
		line := chunk
		if long != nil {
			line = append(long, chunk...)
		}
		line = bytes.TrimSuffix(line, []byte("\n"))
		line = bytes.TrimSuffix(line, []byte("\r"))
		return line, nil
	}
}
