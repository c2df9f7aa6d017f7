//go:build unix

package safedir

import (
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// FileID returns the device and inode numbers of the file info describes.
func FileID(info fs.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), true
}

// LinkCount returns the number of names (hard links) of the file info
// describes.
func LinkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// ReadFlags open an input without blocking: a FIFO swapped in for a file
// (or named) would otherwise hang the open until a writer comes. Reads
// of a regular file ignore the flag; a FIFO fails its read, or its
// regular-file check, at once.
const ReadFlags = syscall.O_NONBLOCK

// RoomToHold reports whether the process may open enough descriptors
// for a walk and a Rewriter to keep some open between files (a walk's
// descriptors, a writer's directories: a few dozen, to save system calls). Under
// a low limit (ulimit -n) they open each file and directory when needed
// and close it after, as before they held any: a run must never fail
// for descriptors it would keep only to be faster.
func RoomToHold() bool {
	var r unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_NOFILE, &r); err != nil {
		return false
	}
	return r.Cur == unix.RLIM_INFINITY || r.Cur >= holdLimit
}

// holdLimit is the least descriptor limit under which descriptors are
// held between files: the soft limit most systems give a process (Go
// raises it to the hard limit at start), where the few held are a small
// share.
const holdLimit = 1024
