//go:build !unix

package safedir

import (
	"io/fs"
)

// FileID is not known portably here; os.SameFile is used instead.
func FileID(fs.FileInfo) (dev, ino uint64, ok bool) { return 0, 0, false }

// LinkCount cannot be read portably here: every file counts as having one
// name, so hard links are not detected (docs/cli/README.md says so).
func LinkCount(fs.FileInfo) uint64 { return 1 }

// ReadFlags: no non-blocking open here.
const ReadFlags = 0

// RoomToHold: no descriptor limit to consult here.
func RoomToHold() bool { return true }
