package tree

import (
	"io"
	"os"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/safewrite"
)

// Walked is f as package safewrite takes a file a walk found: to read it
// (safewrite.Open), or to replace it (safewrite.Writer's Update and
// UpdateStream) only while it is still the file the walk saw.
func (f File) Walked() safewrite.File {
	return safewrite.File{Path: f.Path, Root: f.Root, Rel: f.Rel, Info: f.info}
}

// CopyWalked copies the file f, as a walk found it, to the file rel of
// the tree rooted at root, through w (as safewrite.Writer.CopyIn does);
// f is opened as Open opens it, so a link swapped in for it since is not
// read.
func CopyWalked(w safewrite.Writer, root, rel string, f File) error {
	in, err := Open(f)
	if err != nil {
		return err
	}
	defer in.Close()
	return w.CopyFrom(root, rel, in)
}

// Open opens the file f, as a walk found it, for reading: a file found in
// a tree is reached from f.Root without following any symbolic link and
// must be the file the walk saw (else safewrite.ErrSymlink or
// safewrite.ErrChanged), so that a link swapped in since cannot make a
// run read, and copy or rewrite into its output, a file from outside the
// tree. A file named alone is opened by its path. The walk's own
// descriptor is taken when it still holds it (no second open).
func Open(f File) (*os.File, error) {
	if in := takeFile(f); in != nil {
		return in, nil // the walk's, opened as below
	}
	return safewrite.Open(f.Walked())
}

// TakeHeld returns the file f, as the walk that yielded it opened it, for
// reading from its start, when the walk still holds its descriptor (Walk
// holds the last few files' until they are opened), else nil. The
// caller closes it. It is the file the walk saw and read the head of,
// opened relative to its directory without following a link: reading it
// costs no second open. An MHTML or WARC file comes as an *os.File.
func TakeHeld(f File) io.ReadCloser {
	if f.Kind == base.WARC {
		if in := takeFile(f); in != nil {
			return in
		}
		return nil
	}
	return takeReader(f)
}

// ReadWalked reads the file f, opened as Open opens it, as ReadFile
// reads.
func ReadWalked(f File, max int64) ([]byte, error) {
	in, err := Open(f)
	if err != nil {
		return nil, err
	}
	defer in.Close()
	return readOpen(in, max)
}
