// CountOpens counts, for tests, how many times each file of a
// directory tree is opened, by whatever code opens it: the kernel's
// inotify (inotify(7), IN_OPEN) watches the tree's directories, so a test
// can prove that a run reads a file once without a hook in the code that
// opens it. Linux only.

package testkit

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"syscall"
	"unsafe"
)

// OpenCounter watches the directories of one tree.
type OpenCounter struct {
	fd   int
	dirs map[int32]string // watch descriptor -> directory, relative to the tree
}

// Start watches dir and every directory below it. The files of
// directories made later are not counted.
func CountOpens(dir string) (*OpenCounter, error) {
	fd, err := syscall.InotifyInit1(syscall.IN_CLOEXEC | syscall.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	c := &OpenCounter{fd: fd, dirs: map[int32]string{}}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		// With the closes and reads watched too, the kernel does not
		// merge an open into the same event before it (it merges
		// identical events that follow each other unread): open, close,
		// open count two, and so do open, read, open (a descriptor
		// still open when the file is opened again).
		wd, err := syscall.InotifyAddWatch(fd, p, syscall.IN_OPEN|syscall.IN_CLOSE|syscall.IN_ACCESS)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		c.dirs[int32(wd)] = filepath.ToSlash(rel)
		return nil
	})
	if err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return c, nil
}

// Stop ends the watch and returns how many times each file was opened
// since Start, by its slash-separated path in the tree. Directories are
// not counted. Two opens of one file with no close between them (two
// goroutines at once) may count as one: the kernel merges identical
// events. An overflow of the kernel's queue is an error.
func (c *OpenCounter) Stop() (map[string]int, error) {
	defer syscall.Close(c.fd)
	opens := map[string]int{}
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(c.fd, buf)
		if errors.Is(err, syscall.EAGAIN) || n == 0 {
			return opens, nil
		}
		if err != nil {
			return opens, err
		}
		for b := buf[:n]; len(b) >= syscall.SizeofInotifyEvent; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&b[0]))
			end := syscall.SizeofInotifyEvent + int(ev.Len)
			name := b[syscall.SizeofInotifyEvent:end]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[end:]
			switch {
			case ev.Mask&syscall.IN_Q_OVERFLOW != 0:
				return opens, errors.New("opencount: inotify queue overflow")
			case ev.Mask&syscall.IN_OPEN == 0 || ev.Mask&syscall.IN_ISDIR != 0 || len(name) == 0:
				continue
			}
			p := string(name)
			if d := c.dirs[ev.Wd]; d != "." {
				p = d + "/" + p
			}
			opens[p]++
		}
	}
}
