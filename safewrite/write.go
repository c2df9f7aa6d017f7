package safewrite

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/relurl/relurl/internal/behind"
	"github.com/relurl/relurl/internal/safedir"
	"github.com/relurl/relurl/internal/spare"
)

// Errors of the writer for a file it will not write. Each comes wrapped in
// an *fs.PathError naming the file; the file is left as it was.
var (
	// ErrSymlink: a symbolic link stands where the walk found a file or a
	// directory (swapped in since, or named in a path below the tree's
	// root). Writing through it could write outside the tree.
	ErrSymlink = safedir.ErrSymlink
	// ErrChanged: another file stands where the walk found this one.
	ErrChanged = errors.New("file replaced since the walk: skipped")
	// ErrHardLink: the file has other names (hard links), and the Writer's
	// HardLinks is SkipHardLinks.
	ErrHardLink = errors.New("file has several hard links: skipped (see --hardlinks)")
	// ErrOwner: the file's owner or group could not be given to its
	// replacement (only root may give a file away), and the Writer's
	// AllowOwnerChange is false.
	ErrOwner = errors.New("its owner and group cannot be kept: skipped (see --allow-owner-change)")
	// ErrTooLarge: the file holds more than Update may read (its max).
	ErrTooLarge = safedir.ErrTooLarge
)

var errNotRegular = errors.New("not a regular file")

// A File is a file as a walk found it, for the writer to reach again
// and to check it is still the same: a walk's result (package tree's
// File gives one) or a path the user named.
type File struct {
	// Path is the file's path, as named or as the walk joined it.
	Path string
	// Root is the tree the file was found in, Rel its slash-separated
	// path there. With Rel empty, the file was named alone: it is the
	// one Path names now, through links.
	Root, Rel string
	// Info, when set, is what the walk saw of the file: a file that is
	// no longer it (same device and inode) is not read or replaced
	// (ErrChanged).
	Info fs.FileInfo
}

// HardLinks says what Update does with a file that has more than one name.
type HardLinks int

// The ways of treating a file with several names (hard links).
const (
	// SkipHardLinks leaves the file as it is and fails with ErrHardLink:
	// replacing it would split it (its other names would keep the old
	// content), and writing into it changes files elsewhere.
	SkipHardLinks HardLinks = iota
	// KeepHardLinks writes the new content into the same inode, so every
	// name sees it. It cannot be atomic: a process killed in the middle
	// leaves the file partly written.
	KeepHardLinks
	// SplitHardLinks replaces the name as any file is replaced: it gets
	// the new content, its other names keep the old.
	SplitHardLinks
)

// String returns "skip", "keep" or "split".
func (h HardLinks) String() string {
	switch h {
	case KeepHardLinks:
		return "keep"
	case SplitHardLinks:
		return "split"
	}
	return "skip"
}

// ParseHardLinks returns the HardLinks named "skip", "keep" or "split".
func ParseHardLinks(s string) (HardLinks, error) {
	for _, h := range []HardLinks{SkipHardLinks, KeepHardLinks, SplitHardLinks} {
		if h.String() == s {
			return h, nil
		}
	}
	return 0, fmt.Errorf(`want "skip", "keep" or "split", not %q`, s)
}

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

// A Writer writes files atomically, as WriteFile does, and never outside
// the tree it writes: its In methods and Update open every directory
// below the tree's root and the file itself relative to their parent
// without following symbolic links (openat(2) with O_NOFOLLOW; an os.Root
// and identity checks where that is missing), so a link swapped into the
// tree between the walk and the write fails with ErrSymlink instead of
// leading elsewhere. The zero Writer also makes the writes durable.
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
	// HardLinks is what Update does with a file of several names.
	HardLinks HardLinks
	// Behind makes the streamed writes (UpdateStream, WriteInStream)
	// write each file's content on a goroutine of their own, a buffer
	// behind the caller, which goes on producing the next one: with a
	// core to spare (relurl rewrite -j 1 on two), writing the file
	// overlaps with rewriting it. While writes are fast (a page cache
	// copy), the first 256 KiB of a file are written by the caller, so a
	// file of usual size costs no hand-off; once writes were slow, every
	// file goes behind from its start. What is written, when a write
	// fails and what a failure leaves are the same as without it.
	Behind bool
	// AllowOwnerChange lets a file be replaced by one owned by this
	// process's user and group when its own cannot be kept (ErrOwner
	// otherwise): replacing a file is giving it a new inode, and only
	// root may give an inode away.
	AllowOwnerChange bool
	// Dirs, when set, holds the directories WriteInStream writes into
	// open from one write to the next (see Dirs).
	Dirs *Dirs
}

// WriteFile is the package's WriteFile, with w's durability. The path is
// taken as the user named it (its directory may be reached through
// links); WriteIn keeps a write inside a tree.
func (w Writer) WriteFile(path string, data []byte, perm fs.FileMode) error {
	return w.WriteIn(filepath.Dir(path), filepath.Base(path), data, perm)
}

// WriteIn writes data to the file rel (slash-separated) of the tree rooted
// at root, as WriteFile does: missing directories are made, and no
// symbolic link below root is followed (ErrSymlink).
func (w Writer) WriteIn(root, rel string, data []byte, perm fs.FileMode) error {
	_, err := w.WriteInKept(root, rel, data, perm)
	return err
}

// WriteInKept is WriteIn that also says whether the file was left alone
// because it already held the data (KeepSame): an up-to-date file.
func (w Writer) WriteInKept(root, rel string, data []byte, perm fs.FileMode) (kept bool, err error) {
	d, name, err := safedir.OpenParent(root, rel, true)
	if err != nil {
		return false, err
	}
	defer d.Close()
	if w.KeepSame && holdsIn(d, name, data, perm) {
		return true, nil
	}
	return false, w.replace(d, name, perm, nil, func(f *os.File) error {
		_, err := f.Write(data)
		return err
	})
}

// CopyFile copies the file src to dst as WriteFile writes, streaming, with
// src's permission bits.
func CopyFile(dst, src string) error { return Writer{}.CopyFile(dst, src) }

// CopyFile is the package's CopyFile, with w's durability.
func (w Writer) CopyFile(dst, src string) error {
	return w.CopyIn(filepath.Dir(dst), filepath.Base(dst), src)
}

// CopyIn copies the file src to the file rel of the tree rooted at root,
// as WriteIn writes, streaming, with src's permission bits.
func (w Writer) CopyIn(root, rel, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return w.copyIn(root, rel, in)
}

// CopyFrom copies what the open file in holds, from its current offset
// on, with its permission bits, to the file rel of the tree rooted at
// root, as CopyIn does: for a file the caller opened as a walk found it
// (so that a link swapped in for it since is not read).
func (w Writer) CopyFrom(root, rel string, in *os.File) error {
	return w.copyIn(root, rel, in)
}

func (w Writer) copyIn(root, rel string, in *os.File) error {
	info, err := in.Stat()
	if err != nil {
		return err
	}
	d, name, err := safedir.OpenParent(root, rel, true)
	if err != nil {
		return err
	}
	defer d.Close()
	return w.replace(d, name, info.Mode().Perm(), nil, func(f *os.File) error {
		_, err := io.Copy(f, in)
		return err
	})
}

// Update replaces the content of the file at path by fn(old), in place and
// atomically as WriteFile does, keeping its permission bits and, as far as
// the system lets it, its owner and group and extended attributes. When
// fn returns the content unchanged the file is not written at all (its
// modification time stays). max bounds the size of the file read. A
// symbolic link named as path stays a link: the file it points to is
// replaced (the user named it). A file with several names is skipped
// (ErrHardLink); Writer.Update chooses otherwise.
func Update(path string, max int64, fn func(old []byte) ([]byte, error)) (changed bool, err error) {
	return Writer{}.Update(File{Path: path}, max, fn)
}

// Update replaces the content of the file f, as a walk found it, by
// fn(old), as the package's Update does, with w's treatment of hard links.
// A file found in a tree (f.Rel set) is reached from its root f.Root
// without following any symbolic link, and must still be the file the walk
// saw (same device and inode), else the write is skipped with ErrSymlink
// or ErrChanged; a file named alone (f.Rel empty) is the one its path
// names now, through links.
func (w Writer) Update(f File, max int64, fn func(old []byte) ([]byte, error)) (changed bool, err error) {
	d, name, in, info, err := openWalked(f)
	if err != nil {
		return false, err
	}
	defer d.Close()
	defer in.Close()
	hardLinked, err := w.hardLinked(in, info)
	if err != nil {
		return false, err
	}
	old, err := safedir.ReadOpen(in, max)
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
	if testHookBeforeWrite != nil {
		testHookBeforeWrite(f)
	}
	if hardLinked {
		return true, w.writeThrough(d, name, info, bytes.NewReader(data))
	}
	return true, w.replace(d, name, info.Mode().Perm(), &source{in, info}, func(t *os.File) error {
		_, err := t.Write(data)
		return err
	})
}

// UpdateStream replaces the content of the file f, as a walk found it, by
// what fn writes to dst while it reads the old content from src, as
// Update does (the same checks, the same atomic replacement keeping
// permission bits, owner and extended attributes, the same treatment of
// hard links), but holding neither version in memory: the new content
// goes straight into the temporary file beside f. src is f itself, open
// for reading (an *os.File: a reader may seek it). When fn wrote exactly
// the old content, the temporary file is removed and f is not touched
// (changed is false; its inode and modification time stay). When fn
// fails, f is left as it was. dst also has a method Rewind() error
// (htmlrewrite.Rewinder) that takes back what was written so far.
func (w Writer) UpdateStream(f File, fn func(dst io.Writer, src io.Reader) error) (changed bool, err error) {
	d, name, in, info, err := openWalked(f)
	if err != nil {
		return false, err
	}
	defer d.Close()
	defer in.Close()
	hardLinked, err := w.hardLinked(in, info)
	if err != nil {
		return false, err
	}
	write := func(dst io.Writer) error { return fn(dst, in) }
	if hardLinked {
		return w.streamThrough(d, name, f, in, info, write)
	}
	old := &source{in, info}
	t, err := stream(in, func() (*temp, error) { return w.newTemp(d, old) }, write, w.Behind)
	if err != nil || t == nil {
		return false, err
	}
	if testHookBeforeWrite != nil {
		testHookBeforeWrite(f)
	}
	return true, w.commit(t, name, info.Mode().Perm(), old)
}

// WriteInStream is WriteInKept with the content streamed: fn writes it to
// dst, which goes straight into the temporary file beside rel. With
// KeepSame, a file rel that already holds what fn wrote, with permission
// bits perm, is left alone (kept). When fn fails nothing is written. dst
// can be rewound, as UpdateStream's.
func (w Writer) WriteInStream(root, rel string, perm fs.FileMode, fn func(dst io.Writer) error) (kept bool, err error) {
	if w.Dirs != nil {
		d, name, done, err := w.Dirs.parent(root, rel)
		if err != nil {
			return false, err
		}
		defer done()
		return w.writeInStream(d, name, perm, fn)
	}
	d, name, err := safedir.OpenParent(root, rel, true)
	if err != nil {
		return false, err
	}
	defer d.Close()
	return w.writeInStream(d, name, perm, fn)
}

// writeInStream is WriteInStream into the file name of the open
// directory d.
func (w Writer) writeInStream(d *safedir.Dir, name string, perm fs.FileMode, fn func(dst io.Writer) error) (kept bool, err error) {
	var old *os.File
	if w.KeepSame {
		old = openHolding(d, name, perm)
		if old != nil {
			defer old.Close()
		}
	}
	t, err := stream(old, func() (*temp, error) { return w.newTemp(d, nil) }, fn, w.Behind)
	if err != nil || t == nil {
		return t == nil && err == nil, err
	}
	return false, w.commit(t, name, perm, nil)
}

// openWalked opens the file f, as a walk found it, for reading and for
// replacing: its directory, its name there, the open file and what it
// is now. A file found in a tree (f.Rel set) is reached from its root
// without following any symbolic link and must still be the file the
// walk saw; a file named alone is the one its path names now, through
// links.
func openWalked(f File) (d *safedir.Dir, name string, in *os.File, info fs.FileInfo, err error) {
	root, rel := f.Root, f.Rel
	if rel == "" {
		// Renaming over a link would turn it into a copy and leave
		// the file it names as it was: resolve the user's path once.
		p, err := filepath.EvalSymlinks(f.Path)
		if err != nil {
			return nil, "", nil, nil, err
		}
		root, rel = filepath.Dir(p), filepath.Base(p)
	}
	d, name, err = safedir.OpenParent(root, rel, false)
	if err != nil {
		return nil, "", nil, nil, err
	}
	in, err = d.Open(name, os.O_RDONLY|safedir.ReadFlags, 0)
	if err == nil {
		info, err = in.Stat()
		switch {
		case err != nil:
		case !info.Mode().IsRegular():
			err = &fs.PathError{Op: "read", Path: in.Name(), Err: errNotRegular}
		case f.Info != nil && !safedir.SameFile(f.Info, info):
			err = &fs.PathError{Op: "write", Path: in.Name(), Err: ErrChanged}
		}
		if err != nil {
			in.Close()
		}
	}
	if err != nil {
		d.Close()
		return nil, "", nil, nil, err
	}
	return d, name, in, info, nil
}

// hardLinked reports whether the file in, with several names, is to be
// written through its inode (KeepHardLinks); with SkipHardLinks such a
// file is an ErrHardLink.
func (w Writer) hardLinked(in *os.File, info fs.FileInfo) (bool, error) {
	links := safedir.LinkCount(info)
	if links <= 1 {
		return false, nil
	}
	switch w.HardLinks {
	case SkipHardLinks:
		return false, &fs.PathError{Op: "write", Path: in.Name(), Err: fmt.Errorf("%w: %d names", ErrHardLink, links)}
	case KeepHardLinks:
		return true, nil
	}
	return false, nil
}

// Open opens the file f, as a walk found it, for reading: a file found in
// a tree is reached from f.Root without following any symbolic link and
// must be the file the walk saw (else ErrSymlink or ErrChanged), so that a
// link swapped in since cannot make a run read, and copy or rewrite into
// its output, a file from outside the tree. A file named alone is opened
// by its path.
func Open(f File) (*os.File, error) {
	if f.Rel == "" {
		return os.OpenFile(f.Path, os.O_RDONLY|safedir.ReadFlags, 0)
	}
	in, err := safedir.OpenInTree(f.Root, f.Rel)
	if err != nil {
		return nil, err
	}
	if f.Info != nil {
		if now, err := in.Stat(); err != nil || !safedir.SameFile(f.Info, now) {
			in.Close()
			return nil, &fs.PathError{Op: "open", Path: in.Name(), Err: ErrChanged}
		}
	}
	return in, nil
}

// testHookBeforeWrite, set by tests, runs between reading a file and
// writing its new content: the moment a swapped link would do harm.
var testHookBeforeWrite func(File)

// source is the file a replacement replaces: its owner and extended
// attributes go to the new file, and it must still stand at its name when
// the new one is renamed there.
type source struct {
	f    *os.File
	info fs.FileInfo
}

// writeThrough writes what src holds into the file name of d itself, so
// that its other names see it too.
func (w Writer) writeThrough(d *safedir.Dir, name string, info fs.FileInfo, src io.Reader) error {
	f, err := d.Open(name, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if now, err := f.Stat(); err != nil || !os.SameFile(info, now) {
		return &fs.PathError{Op: "write", Path: f.Name(), Err: ErrChanged}
	}
	// Writing first and truncating after never leaves the file shorter
	// than both versions while it is written.
	n, err := io.Copy(f, src)
	if err != nil {
		return err
	}
	if err := f.Truncate(n); err != nil {
		return err
	}
	if !w.NoSync {
		return f.Sync()
	}
	return nil
}

// streamThrough is UpdateStream for a file whose names stay together
// (KeepHardLinks). The new content cannot be written into the file as it
// is read (longer output would overwrite bytes not read yet): it goes to a
// temporary file beside it first, and is copied in from there.
func (w Writer) streamThrough(d *safedir.Dir, name string, f File, in *os.File, info fs.FileInfo, write func(io.Writer) error) (changed bool, err error) {
	t, err := stream(in, func() (*temp, error) { return w.newTemp(d, nil) }, write, w.Behind)
	if err != nil || t == nil {
		return false, err
	}
	defer t.abort()
	if _, err := t.f.Seek(0, io.SeekStart); err != nil {
		return false, err
	}
	if testHookBeforeWrite != nil {
		testHookBeforeWrite(f)
	}
	return true, w.writeThrough(d, name, info, t.f)
}

// replace writes a temporary file beside name in d with write, gives it
// perm (and old's owner and extended attributes), syncs it, and renames it
// over name. A link found at name is not replaced (ErrSymlink), nor a file
// other than old when old is given (ErrChanged).
func (w Writer) replace(d *safedir.Dir, name string, perm fs.FileMode, old *source, write func(*os.File) error) error {
	t, err := w.newTemp(d, old)
	if err != nil {
		return err
	}
	if err := write(t.f); err != nil {
		t.abort()
		return err
	}
	return w.commit(t, name, perm, old)
}

// A temp is a temporary file being written in d, to be renamed over a
// file there (commit) or removed (abort).
type temp struct {
	d    *safedir.Dir
	f    *os.File
	name string
}

// newTemp makes a temporary file in d, with old's owner and extended
// attributes when old is given; when old's owner cannot be kept, none
// (ErrOwner) unless AllowOwnerChange.
func (w Writer) newTemp(d *safedir.Dir, old *source) (*temp, error) {
	f, name, err := createTemp(d)
	if err != nil {
		return nil, err
	}
	if old != nil {
		if err := keepOwner(f, old.info); err != nil && !w.AllowOwnerChange {
			f.Close()
			d.Remove(name)
			return nil, err
		}
		copyXattrs(f, old.f)
	}
	return &temp{d: d, f: f, name: name}, nil
}

// abort closes and removes the temporary file.
func (t *temp) abort() {
	t.f.Close()
	t.d.Remove(t.name)
}

// commit gives the temporary file t perm, syncs it, and renames it over
// name, as replace does; on failure t is removed.
func (w Writer) commit(t *temp, name string, perm fs.FileMode, old *source) (err error) {
	defer func() {
		if err != nil {
			t.abort()
		}
	}()
	// A new file is 0600; Chmod is not subject to the umask, so the copy
	// gets exactly the original's bits.
	if err = t.f.Chmod(perm); err != nil {
		return err
	}
	if !w.NoSync {
		if err = t.f.Sync(); err != nil {
			return err
		}
	}
	if err = t.f.Close(); err != nil {
		return err
	}
	d := t.d
	if old == nil {
		// Nothing at name (a new file, the usual case in a mirror):
		// renamed there in one call.
		done, err := d.RenameNew(t.name, name)
		if done || err != nil {
			if err == nil && !w.NoSync {
				d.Sync()
			}
			return err
		}
	}
	target := filepath.Join(d.Path(), name)
	switch {
	case d.IsLink(name):
		return &fs.PathError{Op: "write", Path: target, Err: ErrSymlink}
	case old != nil && !d.SameEntry(name, old.info):
		return &fs.PathError{Op: "write", Path: target, Err: ErrChanged}
	}
	if err = d.Rename(t.name, name); err != nil {
		return err
	}
	if !w.NoSync {
		d.Sync()
	}
	return nil
}

// createTemp makes a new temporary file in d, named by tempName.
func createTemp(d *safedir.Dir) (*os.File, string, error) {
	for range 100 {
		name := tempName()
		f, err := d.Create(name)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, name, err
	}
	return nil, "", &fs.PathError{Op: "createtemp", Path: d.Path(), Err: fs.ErrExist}
}

// holdsIn reports whether name in d is a regular file with permission
// bits perm and content data.
func holdsIn(d *safedir.Dir, name string, data []byte, perm fs.FileMode) bool {
	f, err := d.Open(name, os.O_RDONLY|safedir.ReadFlags, 0)
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

// openHolding opens name in d for reading when it is a regular file with
// permission bits perm (a file WriteInStream may keep), else returns nil.
func openHolding(d *safedir.Dir, name string, perm fs.FileMode) *os.File {
	f, err := d.Open(name, os.O_RDONLY|safedir.ReadFlags, 0)
	if err != nil {
		return nil
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != perm {
		f.Close()
		return nil
	}
	return f
}

// stream runs write, through a buffer, into a temporary file made by
// create, and returns it, or nil when what write wrote is exactly the
// content of old (nil: no content is the same). The comparison is made
// as the bytes come, and the temporary file only at the first byte that
// differs (the identical part before it is copied in from old): an
// unchanged file costs no write at all, not even in its directory.
func stream(old *os.File, create func() (*temp, error), write func(io.Writer) error, async bool) (*temp, error) {
	l := &lazyTemp{old: old, create: create}
	defer func() {
		if l.buf != nil {
			compareBuffers.Put(l.buf)
		}
	}()
	var rw rewindable
	if async {
		bh := behind.NewLazy(l, streamBuffer, behindAfter)
		defer bh.Close()
		rw = rewindable{w: bh, drop: bh.Discard, l: l}
	} else {
		b, ok := streamWriters.Get()
		if ok {
			b.Reset(l)
		} else {
			b = bufio.NewWriterSize(l, streamBuffer)
		}
		defer func() {
			b.Reset(nil)
			streamWriters.Put(b)
		}()
		rw = rewindable{w: b, drop: func() error { b.Reset(l); return nil }, l: l}
	}
	err := write(rw)
	if err == nil {
		err = rw.w.Flush()
	} else {
		rw.drop() // what is handed over is written before l is looked at
	}
	if err == nil && l.t == nil && !l.holdsAll() {
		err = l.start()
	}
	if err != nil {
		if l.t != nil {
			l.t.abort()
		}
		return nil, err
	}
	return l.t, nil
}

// rewindable is the writer a streamed write gets: it can take back what
// was written (htmlrewrite.Rewinder), so that a rewriter may read its
// input once and start its output again in the rare case it must.
type rewindable struct {
	w interface {
		io.Writer
		Flush() error
	}
	drop func() error // drops what w buffers; waits for what it handed over
	l    *lazyTemp
}

func (r rewindable) Write(p []byte) (int, error) { return r.w.Write(p) }

// Rewind discards what was written: the temporary file, if one was made,
// is removed, and what is written next is compared with the old content
// from its start again.
func (r rewindable) Rewind() error {
	if err := r.drop(); err != nil {
		return err
	}
	if r.l.t != nil {
		r.l.t.abort()
		r.l.t = nil
	}
	r.l.off = 0
	return nil
}

// streamWriters and compareBuffers are stream's buffers, reused from file
// to file: a tree of small pages allocated a 64 KiB buffer or two per
// page, a third of what relurl rewrite -o allocated on corpus A
// (profile).
var (
	streamWriters  = spare.New[*bufio.Writer](spareBuffers)
	compareBuffers = spare.New[[]byte](spareBuffers)
)

const (
	streamBuffer = 64 << 10
	spareBuffers = 8
)

// behindAfter is how many bytes of a file the caller writes itself
// before a goroutine takes over, while writes are fast (Behind: see
// behind.NewLazy).
const behindAfter = 4 * streamBuffer

// lazyTemp compares what is written with the file old from its start and,
// from the first difference on, writes it to a temporary file.
type lazyTemp struct {
	old    *os.File
	create func() (*temp, error)
	t      *temp // nil while everything written is old's content
	off    int64 // bytes written so far
	buf    []byte
}

func (l *lazyTemp) Write(p []byte) (int, error) {
	if l.t == nil {
		if l.holds(p) {
			l.off += int64(len(p))
			return len(p), nil
		}
		if err := l.start(); err != nil {
			return 0, err
		}
	}
	n, err := l.t.f.Write(p)
	l.off += int64(n)
	return n, err
}

// start makes the temporary file and copies into it the first l.off
// bytes of old, which is what was written so far.
func (l *lazyTemp) start() error {
	t, err := l.create()
	if err != nil {
		return err
	}
	l.t = t
	if l.off > 0 {
		n, err := io.Copy(t.f, io.NewSectionReader(l.old, 0, l.off))
		if err == nil && n != l.off {
			err = io.ErrUnexpectedEOF // old shrank meanwhile
		}
		return err
	}
	return nil
}

// holds reports whether old holds p at l.off.
func (l *lazyTemp) holds(p []byte) bool {
	if l.old == nil {
		return false
	}
	if l.buf == nil {
		var ok bool
		if l.buf, ok = compareBuffers.Get(); !ok {
			l.buf = make([]byte, streamBuffer)
		}
	}
	off := l.off
	for len(p) > 0 {
		n, err := l.old.ReadAt(l.buf[:min(len(l.buf), len(p))], off)
		if n == 0 || !bytes.Equal(l.buf[:n], p[:n]) {
			return false
		}
		if err != nil && err != io.EOF {
			return false
		}
		p, off = p[n:], off+int64(n)
	}
	return true
}

// holdsAll reports whether everything written so far is all of old.
func (l *lazyTemp) holdsAll() bool {
	if l.old == nil {
		return false
	}
	info, err := l.old.Stat()
	return err == nil && info.Size() == l.off
}

// write replaces the file path with what write writes (tests use it).
func (w Writer) write(path string, perm fs.FileMode, write func(*os.File) error) error {
	d, name, err := safedir.OpenParent(filepath.Dir(path), filepath.Base(path), false)
	if err != nil {
		return err
	}
	defer d.Close()
	return w.replace(d, name, perm, nil, write)
}
