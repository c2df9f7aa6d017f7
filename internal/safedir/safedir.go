// Package safedir opens the directories and files of a tree from its
// root without following a symbolic link below it: each component is
// opened relative to its parent's descriptor (openat(2) with O_NOFOLLOW;
// an os.Root and identity checks where that is missing), so a link
// swapped into the tree cannot lead an open, a write, a rename or a
// removal outside it. It is the ground both the tree's walk (which reads
// the files it yields through it) and package safewrite (which writes
// through it) stand on.
package safedir

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// ErrSymlink: a symbolic link stands where the walk found a file or a
// directory (swapped in since, or named in a path below the tree's
// root). Writing through it could write outside the tree. Package
// safewrite exports it.
var ErrSymlink = errors.New("symbolic link met at write time: skipped")

// OpenTree opens the directory rel (slash-separated; "" or "." for the
// root itself) of the tree rooted at root. The root is opened as named;
// below it, a component that is a symbolic link fails with ErrSymlink.
// With create, missing directories are made (mode 0755 before the umask).
func OpenTree(root, rel string, create bool) (*Dir, error) {
	names, err := Components(rel)
	if err != nil {
		return nil, err
	}
	d, err := openRoot(root)
	if err != nil {
		return nil, err
	}
	for _, c := range names {
		next, err := d.Sub(c, create)
		d.Close()
		if err != nil {
			return nil, err
		}
		d = next
	}
	return d, nil
}

// OpenParent opens the directory of the file rel in the tree at root and
// returns it with the file's name.
func OpenParent(root, rel string, create bool) (*Dir, string, error) {
	c, err := Components(rel)
	if err != nil {
		return nil, "", err
	}
	if len(c) == 0 {
		return nil, "", &fs.PathError{Op: "open", Path: filepath.Join(root, rel), Err: fs.ErrInvalid}
	}
	d, err := OpenTree(root, strings.Join(c[:len(c)-1], "/"), create)
	if err != nil {
		return nil, "", err
	}
	return d, c[len(c)-1], nil
}

// Components splits the slash- (or, on Windows, backslash-) separated
// relative path rel into its names; "." and empty names go. A ".." or an
// absolute path is an error: nothing climbs out of the tree.
func Components(rel string) ([]string, error) {
	if filepath.IsAbs(rel) || path.IsAbs(filepath.ToSlash(rel)) || filepath.VolumeName(rel) != "" {
		return nil, &fs.PathError{Op: "open", Path: rel, Err: errNotLocal}
	}
	var out []string
	for _, c := range strings.Split(filepath.ToSlash(rel), "/") {
		switch c {
		case "", ".":
		case "..":
			return nil, &fs.PathError{Op: "open", Path: rel, Err: errNotLocal}
		default:
			out = append(out, c)
		}
	}
	return out, nil
}

var errNotLocal = errors.New("path leaves the tree")

// openThroughDirs opens the file rel of the tree at root for reading
// through its directories, following no link below root.
func openThroughDirs(root, rel string) (*os.File, error) {
	d, name, err := OpenParent(root, rel, false)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.Open(name, os.O_RDONLY|ReadFlags, 0)
}

// Path is the directory's path, as named when it was opened (for
// messages).
func (d *Dir) Path() string { return d.path }

// SameFile reports whether a and b describe the same file (device and
// inode), as os.SameFile does for what package os returns; a may be a
// walk's own fs.FileInfo whose Sys is a *syscall.Stat_t.
func SameFile(a, b fs.FileInfo) bool {
	da, ia, ok1 := FileID(a)
	db, ib, ok2 := FileID(b)
	if ok1 && ok2 {
		return da == db && ia == ib
	}
	return os.SameFile(a, b)
}
