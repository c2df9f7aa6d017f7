//go:build !(linux || darwin || freebsd || netbsd)

package safewrite

import "os"

// copyXattrs does nothing where relurl reads no extended attributes: they
// are dropped (docs/cli/README.md says so).
func copyXattrs(dst, src *os.File) {}
