package tree

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to the file path with permission bits perm so that
// at every moment, even if the process is killed or the machine stops,
// path holds either its old content or data, never a mix: the data goes to
// a temporary file in the same directory (a rename is only atomic within
// one file system), which is synced to disk, given perm, and renamed over
// path; then the directory is synced so the rename itself is durable. On
// failure path is left as it was and the temporary file is removed.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Writer{}.WriteFile(path, data, perm)
}

// A Writer writes files atomically, as WriteFile does. The zero Writer
// also makes them durable.
type Writer struct {
	// NoSync leaves out the fsyncs: a killed process still leaves each
	// file old or new, but a machine that stops may lose the newest
	// writes. For a mirror whose source stays, the speed is worth it.
	NoSync bool
	// KeepSame leaves a file that already holds the data, with the same
	// permission bits, as it is (as Update does): a mirror made again
	// costs a read instead of a new file and a rename, and its unchanged
	// files keep their modification times.
	KeepSame bool
}

// WriteFile is the package's WriteFile, with w's durability.
func (w Writer) WriteFile(path string, data []byte, perm fs.FileMode) error {
	if w.KeepSame && holds(path, data, perm) {
		return nil
	}
	return w.write(path, perm, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// CopyFile copies the file src to dst as WriteFile writes, streaming, with
// src's permission bits.
func CopyFile(dst, src string) error { return Writer{}.CopyFile(dst, src) }

// CopyFile is the package's CopyFile, with w's durability.
func (w Writer) CopyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return err
	}
	return w.write(dst, info.Mode().Perm(), func(f *os.File) error {
		_, err := io.Copy(f, in)
		return err
	})
}

// Update replaces the content of the file at path by fn(old), in place and
// atomically as WriteFile does, keeping its permission bits and, as far as
// the system lets it, its owner and group. When fn returns the content
// unchanged the file is not written at all (its modification time stays).
// max bounds the size of the file read. A symbolic link stays a link: the
// file it points to is replaced.
func Update(path string, max int64, fn func(old []byte) ([]byte, error)) (changed bool, err error) {
	// Renaming over the link itself would turn it into a copy and leave
	// the file it names as it was.
	if path, err = filepath.EvalSymlinks(path); err != nil {
		return false, err
	}
	info, err := os.Stat(path)
	if err != nil {
		return false, err
	}
	old, err := ReadFile(path, max)
	if err != nil {
		return false, err
	}
	data, err := fn(old)
	if err != nil {
		return false, err
	}
	if bytes.Equal(old, data) {
		return false, nil
	}
	return true, Writer{}.write(path, info.Mode().Perm(), func(w *os.File) error {
		keepOwner(w, info)
		_, err := w.Write(data)
		return err
	})
}

// holds reports whether path is a regular file with permission bits perm
// and content data.
func holds(path string, data []byte, perm fs.FileMode) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != perm || info.Size() != int64(len(data)) {
		return false
	}
	var buf [32 << 10]byte
	for len(data) > 0 {
		n, err := f.Read(buf[:min(len(buf), len(data))])
		if n == 0 || !bytes.Equal(buf[:n], data[:n]) {
			return false
		}
		data = data[n:]
		if err != nil && len(data) > 0 {
			return false
		}
	}
	// The file may have grown since Stat.
	n, _ := f.Read(buf[:1])
	return n == 0
}

func (w Writer) write(path string, perm fs.FileMode, write func(*os.File) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tempPrefix+"*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err = write(tmp); err != nil {
		return err
	}
	// CreateTemp makes the file 0600; Chmod is not subject to the umask,
	// so the copy gets exactly the original's bits.
	if err = tmp.Chmod(perm); err != nil {
		return err
	}
	if !w.NoSync {
		if err = tmp.Sync(); err != nil {
			return err
		}
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	if !w.NoSync {
		syncDir(dir)
	}
	return nil
}

// syncDir makes a rename in dir durable. Some systems cannot sync a
// directory; that weakens durability, never atomicity, so a failure is
// ignored: the file is in place either way.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
