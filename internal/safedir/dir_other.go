//go:build !unix

package safedir

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Dir is a directory of a tree, open for the writer. Where openat(2)
// and O_NOFOLLOW are not available it is an os.Root, which keeps every
// operation inside the tree (a link cannot lead out of it); each component
// is checked not to be a link before it is used, and a file's identity is
// checked between the walk and the write (os.SameFile).
type Dir struct {
	r    *os.Root
	path string
}

func openRoot(root string) (*Dir, error) {
	r, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	return &Dir{r: r, path: root}, nil
}

func (d *Dir) Sub(name string, create bool) (*Dir, error) {
	p := filepath.Join(d.path, name)
	info, err := d.r.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err := d.r.Mkdir(name, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		info, err = d.r.Lstat(name)
	}
	if err != nil {
		return nil, err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: p, Err: ErrSymlink}
	}
	r, err := d.r.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	if now, err := r.Stat("."); err != nil || !os.SameFile(info, now) {
		r.Close()
		return nil, &fs.PathError{Op: "open", Path: p, Err: ErrSymlink}
	}
	return &Dir{r: r, path: p}, nil
}

func (d *Dir) Open(name string, flag int, perm uint32) (*os.File, error) {
	p := filepath.Join(d.path, name)
	info, err := d.r.Lstat(name)
	if err == nil && info.Mode()&fs.ModeSymlink != 0 {
		return nil, &fs.PathError{Op: "open", Path: p, Err: ErrSymlink}
	}
	f, err := d.r.OpenFile(name, flag, fs.FileMode(perm))
	if err != nil {
		return nil, err
	}
	if info != nil {
		if now, err := f.Stat(); err != nil || !os.SameFile(info, now) {
			f.Close()
			return nil, &fs.PathError{Op: "open", Path: p, Err: ErrSymlink}
		}
	}
	return f, nil
}

func (d *Dir) Create(name string) (*os.File, error) {
	return d.r.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
}

func (d *Dir) Rename(from, to string) error { return d.r.Rename(from, to) }

func (d *Dir) Remove(name string) error { return d.r.Remove(name) }

func (d *Dir) Sync() {}

func (d *Dir) Close() { d.r.Close() }

func (d *Dir) IsLink(name string) bool {
	info, err := d.r.Lstat(name)
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

func (d *Dir) SameEntry(name string, info fs.FileInfo) bool {
	now, err := d.r.Lstat(name)
	return err == nil && now.Mode().IsRegular() && os.SameFile(info, now)
}

// OpenInTree opens the file rel of the tree at root for reading, following
// no link below root.
func OpenInTree(root, rel string) (*os.File, error) { return openThroughDirs(root, rel) }
