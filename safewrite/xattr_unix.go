//go:build linux || darwin || freebsd || netbsd

package safewrite

import (
	"os"

	"golang.org/x/sys/unix"
)

// copyXattrs gives dst the extended attributes of src, as far as the
// system lets this user set them (security.* and trusted.* need
// privileges; a file system without them has none to copy). Bounded: a
// file's attributes fit in 64 KiB each on the systems that have them.
func copyXattrs(dst, src *os.File) {
	list := make([]byte, 64<<10)
	n, err := unix.Flistxattr(int(src.Fd()), list)
	if err != nil || n <= 0 {
		return
	}
	val := make([]byte, 64<<10)
	for _, name := range splitNames(list[:n]) {
		m, err := unix.Fgetxattr(int(src.Fd()), name, val)
		if err != nil {
			continue
		}
		unix.Fsetxattr(int(dst.Fd()), name, val[:m], 0)
	}
}

// splitNames splits a list of NUL-terminated attribute names.
func splitNames(b []byte) []string {
	var out []string
	start := 0
	for i, c := range b {
		if c == 0 {
			if i > start {
				out = append(out, string(b[start:i]))
			}
			start = i + 1
		}
	}
	return out
}
