//go:build !unix

package tree

import (
	"errors"
	"io"
	"io/fs"
	"os"
)

// fileID is not known portably here; os.SameFile is used instead.
func fileID(fs.FileInfo) (dev, ino uint64, ok bool) { return 0, 0, false }

// linkCount cannot be read portably here: every file counts as having one
// name, so hard links are not detected (README says so).
func linkCount(fs.FileInfo) uint64 { return 1 }

// processDead cannot prove a process gone here, so stale temporary files
// are never removed (README says so).
func processDead(int) bool { return false }

// readFlags: no non-blocking open here.
const readFlags = 0

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

// roomToHold: no descriptor limit to consult here.
func roomToHold() bool { return true }
