//go:build !unix

package tree

import "io/fs"

// fileID is not known portably here; os.SameFile is used instead.
func fileID(fs.FileInfo) (dev, ino uint64, ok bool) { return 0, 0, false }

// linkCount cannot be read portably here: every file counts as having one
// name, so hard links are not detected (README says so).
func linkCount(fs.FileInfo) uint64 { return 1 }

// processDead cannot prove a process gone here, so stale temporary files
// are never removed (README says so).
func processDead(int) bool { return false }

// readFlags: no non-blocking open here.
const readFlags = 0
