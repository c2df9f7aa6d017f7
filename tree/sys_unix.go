//go:build unix

package tree

import (
	"errors"
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// fileID returns the device and inode numbers of the file info describes.
func fileID(info fs.FileInfo) (dev, ino uint64, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, 0, false
	}
	return uint64(st.Dev), uint64(st.Ino), true
}

// linkCount returns the number of names (hard links) of the file info
// describes.
func linkCount(info fs.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// processDead reports whether no process with this ID runs on this host:
// kill(pid, 0) fails with ESRCH. A process of another user answers EPERM,
// and is alive.
func processDead(pid int) bool {
	return pid > 0 && errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// readFlags open an input without blocking: a FIFO swapped in for a file
// (or named) would otherwise hang the open until a writer comes. Reads
// of a regular file ignore the flag; a FIFO fails its read, or its
// regular-file check, at once.
const readFlags = syscall.O_NONBLOCK

// readHead reads the first len(head) bytes of the file at path (fewer if
// it is shorter) into head, through the descriptor alone: an *os.File
// would try to add it to the network poller (two failed system calls a
// file) and be closed by a finalizer.
func readHead(path string, head []byte) (int, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC|readFlags, 0)
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

// roomToHold reports whether the process may open enough descriptors
// for a walk and a Rewriter to keep some open between files (handoff,
// openDirs: up to handoffLen + openDirsMax, to save system calls). Under
// a low limit (ulimit -n) they open each file and directory when needed
// and close it after, as before they held any: a run must never fail
// for descriptors it would keep only to be faster.
func roomToHold() bool {
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
