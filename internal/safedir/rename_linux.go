package safedir

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// RenameNew renames from to the name to in d only when to does not
// exist (renameat2 RENAME_NOREPLACE), in one system call: nothing stands
// at to, so no link can stand there, and the check for one (IsLink) is
// not needed. It returns false, having done nothing, when to exists or
// the file system cannot say (then rename is for the caller to do, after
// its checks).
func (d *Dir) RenameNew(from, to string) (bool, error) {
	err := unix.Renameat2(d.fd, from, d.fd, to, unix.RENAME_NOREPLACE)
	switch err {
	case nil:
		return true, nil
	case unix.EEXIST, unix.EINVAL, unix.ENOSYS, unix.EOPNOTSUPP:
		return false, nil
	}
	return false, &os.LinkError{Op: "rename", Old: filepath.Join(d.path, from), New: filepath.Join(d.path, to), Err: err}
}
