//go:build !linux

package tree

import (
	"io"
	"os"
)

func closeFD(int) {}

// walkDir: no directory is held here (describeHeld never holds).
type walkDir struct{}

func (walkDir) close() {}

// describeHeld: here the walk describes each file by its path
// (describe) and holds no descriptor.
func (*handoff) describeHeld(path, rel, root string) (File, bool) { return File{}, false }

func takeReader(File) io.ReadCloser { return nil }

func takeFile(File) *os.File { return nil }

func readWalked(f File, max int64) ([]byte, error) { return ReadFile(f.Path, max) }
