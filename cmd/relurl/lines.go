package main

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// maxLine bounds one line of a stdin stream (a JSON request, a URL, a path).
const maxLine = 1 << 20

var errLineTooLong = errors.New("line longer than 1 MiB")

// lineReader reads lines of at most maxLine bytes. A longer line is
// skipped whole and reported as errLineTooLong, so one bad line does not
// end a stream.
type lineReader struct{ r *bufio.Reader }

func newLineReader(r io.Reader) *lineReader { return &lineReader{bufio.NewReaderSize(r, 64<<10)} }

// next returns the next line without its "\n" or "\r\n". The slice is
// valid until the next call.
func (l *lineReader) next() ([]byte, error) {
	var long []byte
	tooLong := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if !tooLong && len(long)+len(chunk) <= maxLine {
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
		if tooLong || len(long)+len(chunk) > maxLine {
			return nil, errLineTooLong
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
