//go:build unix

package tree

import (
	"io/fs"
	"os"
	"syscall"
)

// keepOwner gives tmp the owner and group of the file info describes, when
// they differ from its own: replaced by root, a file owned by a web
// server's user would otherwise become root's. Only root may give a file
// away; for anyone else it is a best effort, as with cp -p.
func keepOwner(tmp *os.File, info fs.FileInfo) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || (int(st.Uid) == os.Geteuid() && int(st.Gid) == os.Getegid()) {
		return
	}
	tmp.Chown(int(st.Uid), int(st.Gid))
}
