package tree

import (
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"syscall"
	"time"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/safedir"
	"golang.org/x/sys/unix"
)

func closeFD(fd int) { unix.Close(fd) }

// walkDir is the directory of a tree a walk last opened files in,
// reached from the tree's root as safedir.OpenTree reaches it (no link below
// the root followed): the files of a directory, walked one after the
// other, are opened relative to it, one openat each. The descriptor
// stays the directory's while the walk is in it: a directory moved away
// meanwhile is still the one the walk lists (WalkDir reads it by path
// only once), and one removed has no file left to open.
type walkDir struct {
	root, rel string
	d         *safedir.Dir
}

// in returns the directory rel of the tree at root, open.
func (w *walkDir) in(root, rel string) (*safedir.Dir, error) {
	if w.d != nil && w.root == root && w.rel == rel {
		return w.d, nil
	}
	w.close()
	d, err := safedir.OpenTree(root, rel, false)
	if err != nil {
		return nil, err
	}
	w.root, w.rel, w.d = root, rel, d
	return d, nil
}

func (w *walkDir) close() {
	if w.d != nil {
		w.d.Close()
		w.d = nil
	}
}

// describeHeld is describe for the file rel of the tree at root (path is
// its path), found by a walk as a regular file: it opens the file as Open
// does (from the tree's root, following no link below it), describes it
// from that descriptor (fstat, the head read at offset 0) and keeps the
// descriptor for Open (h.hold). It returns false when it could not; the
// caller then describes the file as before (lstat, an open by path),
// which says what went wrong in the same words.
func (h *handoff) describeHeld(path, rel, root string) (File, bool) {
	dir, name := path2dir(rel)
	d, err := h.dir.in(root, dir)
	if err != nil {
		return File{}, false
	}
	fd, err := unix.Openat(d.FD(), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC|safedir.ReadFlags, 0)
	if err != nil {
		return File{}, false
	}
	info := &statInfo{name: name}
	if err := syscall.Fstat(fd, &info.st); err != nil || info.st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		unix.Close(fd)
		return File{}, false
	}
	f, err := described(path, rel, root, info, func(head []byte) (int, error) {
		// No read past the size fstat told (a file smaller than
		// HeadLen costs no read that finds its end); one that grew
		// since is a file changing under the walk, whose head is what
		// it was.
		return preadFull(fd, head[:min(int64(HeadLen), max(info.Size(), 0))], 0)
	})
	if err != nil {
		unix.Close(fd)
		return File{}, false
	}
	f.held = h.hold(fd)
	return f, true
}

// path2dir splits the slash-separated rel into its directory ("" at the
// top) and name.
func path2dir(rel string) (dir, name string) {
	dir, name = path.Split(rel)
	if dir != "" {
		dir = dir[:len(dir)-1]
	}
	return dir, name
}

// preadFull reads into p from offset off up to len(p) bytes, fewer at the
// end of the file, leaving the descriptor's own offset alone.
func preadFull(fd int, p []byte, off int64) (int, error) {
	n := 0
	for n < len(p) {
		m, err := unix.Pread(fd, p[n:min(len(p), n+maxRead)], off+int64(n))
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return n, err
		case m == 0:
			return n, nil
		}
		n += m
	}
	return n, nil
}

// statInfo is the fs.FileInfo of an fstat, as os.Stat would give it
// (Sys is the *syscall.Stat_t); safedir.FileID reads it, safedir.SameFile compares it.
type statInfo struct {
	name string
	st   syscall.Stat_t
}

func (s *statInfo) Name() string       { return s.name }
func (s *statInfo) Size() int64        { return s.st.Size }
func (s *statInfo) ModTime() time.Time { return time.Unix(s.st.Mtim.Unix()) }
func (s *statInfo) IsDir() bool        { return s.Mode().IsDir() }
func (s *statInfo) Sys() any           { return &s.st }

// Mode is the mode as package os reads st_mode.
func (s *statInfo) Mode() fs.FileMode {
	m := fs.FileMode(s.st.Mode & 0o777)
	switch s.st.Mode & syscall.S_IFMT {
	case syscall.S_IFBLK:
		m |= fs.ModeDevice
	case syscall.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		m |= fs.ModeDir
	case syscall.S_IFIFO:
		m |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		m |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		m |= fs.ModeSocket
	}
	if s.st.Mode&syscall.S_ISGID != 0 {
		m |= fs.ModeSetgid
	}
	if s.st.Mode&syscall.S_ISUID != 0 {
		m |= fs.ModeSetuid
	}
	if s.st.Mode&syscall.S_ISVTX != 0 {
		m |= fs.ModeSticky
	}
	return m
}

// takeReader returns the file f as the walk opened it, for reading from
// its start, when the walk's descriptor is still held (else nil): an
// *os.File for an MHTML archive (package archive reads it as one), else a
// reader of the descriptor alone, which costs no system call to set up.
func takeReader(f File) io.ReadCloser {
	fd := f.held.take()
	if fd < 0 {
		return nil
	}
	if f.Kind == base.MHTML {
		return os.NewFile(uintptr(fd), filepath.Clean(f.Path))
	}
	return &fdReader{fd: fd, path: f.Path, eof: -1}
}

// takeFile returns the file f as the walk opened it when its descriptor
// is still held (else nil).
func takeFile(f File) *os.File {
	fd := f.held.take()
	if fd < 0 {
		return nil
	}
	return os.NewFile(uintptr(fd), filepath.Clean(f.Path))
}

// fdReader reads a regular file through its descriptor alone (pread at
// its own offset): unlike an *os.File it costs no fcntl, no attempt to
// register with the network poller, no finalizer. It is an
// io.ReadSeeker and an io.ReaderAt, as the readers of documents want.
type fdReader struct {
	fd   int
	off  int64
	path string
	// eof is where a read last found the end: a reader asking again
	// there (a document's reader does, after its end) is answered
	// without a system call.
	eof int64
}

func (r *fdReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	if r.off == r.eof {
		return 0, io.EOF
	}
	for {
		n, err := unix.Pread(r.fd, p[:min(len(p), maxRead)], r.off)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: r.path, Err: err}
		case n == 0:
			r.eof = r.off
			return 0, io.EOF
		}
		r.off += int64(n)
		return n, nil
	}
}

// maxRead is as much as one read asks for, as package os reads.
const maxRead = 1 << 30

func (r *fdReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, &fs.PathError{Op: "readat", Path: r.path, Err: fs.ErrInvalid}
	}
	n, err := preadFull(r.fd, p, off)
	switch {
	case err != nil:
		return n, &fs.PathError{Op: "read", Path: r.path, Err: err}
	case n < len(p):
		return n, io.EOF
	}
	return n, nil
}

func (r *fdReader) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
	case io.SeekCurrent:
		offset += r.off
	case io.SeekEnd:
		var st syscall.Stat_t
		if err := syscall.Fstat(r.fd, &st); err != nil {
			return 0, &fs.PathError{Op: "seek", Path: r.path, Err: err}
		}
		offset += st.Size
	default:
		return 0, &fs.PathError{Op: "seek", Path: r.path, Err: fs.ErrInvalid}
	}
	if offset < 0 {
		return 0, &fs.PathError{Op: "seek", Path: r.path, Err: fs.ErrInvalid}
	}
	r.off = offset
	return offset, nil
}

func (r *fdReader) Close() error {
	if r.fd < 0 {
		return fs.ErrClosed
	}
	err := unix.Close(r.fd)
	r.fd = -1
	return err
}

// readWalked reads the file f as ReadFile reads its path, through the
// walk's descriptor when it still holds it.
func readWalked(f File, max int64) ([]byte, error) {
	fd := f.held.take()
	if fd < 0 {
		return ReadFile(f.Path, max)
	}
	r := &fdReader{fd: fd, path: f.Path, eof: -1}
	defer r.Close()
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: f.Path, Err: err}
	}
	return safedir.ReadSized(r, f.Path, st.Size, max)
}
