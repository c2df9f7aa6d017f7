//go:build unix

package safedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Dir is a directory of a tree, open for the writer. It was reached
// from the tree's root one component at a time with openat(2) and
// O_NOFOLLOW|O_DIRECTORY, so no symbolic link was followed on the way, and
// every operation on it names a single component relative to its
// descriptor: a link swapped in for a directory or a file after the walk
// can neither redirect the write nor be written through.
type Dir struct {
	fd   int
	path string // for messages
}

// openRoot opens the root of a tree as named (a root the user names
// through a link is the user's choice).
func openRoot(root string) (*Dir, error) {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	return &Dir{fd: fd, path: root}, nil
}

// Sub opens the directory name in d, made when missing with create; a
// symbolic link there fails with ErrSymlink.
func (d *Dir) Sub(name string, create bool) (*Dir, error) {
	p := filepath.Join(d.path, name)
	for {
		fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err == nil {
			return &Dir{fd: fd, path: p}, nil
		}
		if errors.Is(err, unix.ENOENT) && create {
			if err := unix.Mkdirat(d.fd, name, 0o755); err != nil && !errors.Is(err, unix.EEXIST) {
				return nil, &fs.PathError{Op: "mkdir", Path: p, Err: err}
			}
			create = false // once: a loop of races ends in an error
			continue
		}
		if d.IsLink(name) {
			return nil, &fs.PathError{Op: "open", Path: p, Err: ErrSymlink}
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
}

// IsLink reports whether name in d is a symbolic link. O_NOFOLLOW fails
// on one with ELOOP on Linux, EMLINK on FreeBSD, EFTYPE on NetBSD: asking
// is simpler than knowing each.
func (d *Dir) IsLink(name string) bool {
	var st unix.Stat_t
	return unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK
}

// Open opens the file name in d without following a symbolic link; a link
// fails with ErrSymlink.
func (d *Dir) Open(name string, flag int, perm uint32) (*os.File, error) {
	p := filepath.Join(d.path, name)
	fd, err := unix.Openat(d.fd, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm)
	if err != nil {
		// No entry is no link (O_NOFOLLOW fails on one, dangling or
		// not, with another error): a file new to a mirror costs no
		// second look.
		if err != unix.ENOENT && d.IsLink(name) {
			err = ErrSymlink
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	return os.NewFile(uintptr(fd), p), nil
}

// Create makes the new file name in d, failing with fs.ErrExist when it is
// there (or is a link).
func (d *Dir) Create(name string) (*os.File, error) {
	f, err := d.Open(name, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL, 0o600)
	if pe, ok := errors.AsType[*fs.PathError](err); ok && errors.Is(pe.Err, ErrSymlink) {
		pe.Err = unix.EEXIST
	}
	return f, err
}

// Rename renames from to to, both names in d.
func (d *Dir) Rename(from, to string) error {
	if err := unix.Renameat(d.fd, from, d.fd, to); err != nil {
		return &os.LinkError{Op: "rename", Old: filepath.Join(d.path, from), New: filepath.Join(d.path, to), Err: err}
	}
	return nil
}

// Remove removes the file name in d.
func (d *Dir) Remove(name string) error {
	if err := unix.Unlinkat(d.fd, name, 0); err != nil {
		return &fs.PathError{Op: "remove", Path: filepath.Join(d.path, name), Err: err}
	}
	return nil
}

// Sync makes the renames in d durable. Some systems cannot sync a
// directory; that weakens durability, never atomicity, so a failure is
// ignored.
func (d *Dir) Sync() { unix.Fsync(d.fd) }

// Close closes d.
func (d *Dir) Close() { unix.Close(d.fd) }

// FD is d's descriptor, for an openat(2) of the caller's own (the walk
// reads its files through a descriptor alone).
func (d *Dir) FD() int { return d.fd }

// SameEntry reports whether name in d is still the file info describes
// (same device and inode) and not a link.
func (d *Dir) SameEntry(name string, info fs.FileInfo) bool {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return false
	}
	dev, ino, ok := FileID(info)
	return ok && uint64(st.Dev) == dev && uint64(st.Ino) == ino
}

// OpenInTree opens the file rel of the tree at root for reading, following
// no link below root. A file at the top of the tree is opened by its path
// in one call, O_NOFOLLOW guarding its name: root's own path is resolved
// as named, as openRoot resolves it (not cleaned first: root/a/..
// is the kernel's, not the lexical parent), and there is no directory
// between. Deeper files go through their directories (openThroughDirs).
func OpenInTree(root, rel string) (*os.File, error) {
	c, err := Components(rel)
	if err != nil || len(c) != 1 {
		return openThroughDirs(root, rel)
	}
	p := filepath.Join(root, c[0])
	fd, err := unix.Open(root+string(filepath.Separator)+c[0], unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|ReadFlags, 0)
	if err != nil {
		var st unix.Stat_t
		if err != unix.ENOENT && unix.Lstat(root+string(filepath.Separator)+c[0], &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			err = ErrSymlink
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: err}
	}
	return os.NewFile(uintptr(fd), p), nil
}
