//go:build !unix

package tree

import (
	"errors"
	"io"
	"os"
)

// readHead reads the first len(head) bytes of the file at path (fewer if
// it is shorter) into head.
func readHead(path string, head []byte) (int, error) {
	r, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return n, err
	}
	return n, nil
}
