package safedir

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// ErrTooLarge is the error of a file above the size bound of a read
// whole. Packages tree and safewrite export it.
var ErrTooLarge = errors.New("file too large")

// ReadOpen reads the open file f to its end, failing with ErrTooLarge
// when it holds more than max bytes: the input decides the size, so it is
// bounded. The buffer is sized from the file's size, so reading a tree
// makes little garbage.
func ReadOpen(f *os.File, max int64) ([]byte, error) {
	var size int64
	if info, err := f.Stat(); err == nil {
		size = info.Size()
	}
	return ReadSized(f, f.Name(), size, max)
}

// ReadSized reads f, the file at path, which Stat said holds size bytes,
// to its end, as ReadOpen does.
func ReadSized(f io.Reader, path string, size, max int64) ([]byte, error) {
	if size > max {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	// One byte more than the size, to see the end without growing.
	buf := make([]byte, size+1)
	n, err := io.ReadFull(f, buf)
	switch {
	case err == io.ErrUnexpectedEOF || err == io.EOF:
		return buf[:n], nil
	case err != nil:
		return nil, err
	}
	// The file grew since Stat: read the rest, still bounded.
	rest, err := io.ReadAll(io.LimitReader(f, max+1-int64(n)))
	if err != nil {
		return nil, err
	}
	if int64(n+len(rest)) > max {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	return append(buf, rest...), nil
}
