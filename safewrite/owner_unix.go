//go:build unix

package safewrite

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// euid and egid are this process's, read once (each is a system call; a
// Go program does not change them while it writes).
var euid, egid = os.Geteuid(), os.Getegid()

// keepOwner gives tmp the owner and group of the file info describes, when
// they differ from its own: replaced by root, a file owned by a web
// server's user would otherwise become root's. Only root may give a file
// away (anyone may give it a group of theirs): when that fails the error
// wraps ErrOwner and says whose the file is.
func keepOwner(tmp *os.File, info fs.FileInfo) error {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == euid && int(st.Gid) == egid) {
		return nil
	}
	if err := tmp.Chown(int(st.Uid), int(st.Gid)); err != nil {
		return fmt.Errorf("owned by %d:%d, writing as %d:%d: %w", st.Uid, st.Gid, euid, egid, ErrOwner)
	}
	return nil
}
