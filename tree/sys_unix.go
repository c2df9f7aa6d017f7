//go:build unix

package tree

import (
	"io/fs"

	"github.com/relurl/relurl/internal/safedir"
	"golang.org/x/sys/unix"
)

// readHead reads the first len(head) bytes of the file at path (fewer if
// it is shorter) into head, through the descriptor alone: an *os.File
// would try to add it to the network poller (two failed system calls a
// file) and be closed by a finalizer.
func readHead(path string, head []byte) (int, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC|safedir.ReadFlags, 0)
	if err != nil {
		return 0, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	n := 0
	for n < len(head) {
		m, err := unix.Read(fd, head[n:])
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return n, &fs.PathError{Op: "read", Path: path, Err: err}
		case m == 0:
			return n, nil
		}
		n += m
	}
	return n, nil
}
