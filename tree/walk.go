package tree

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/safedir"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/safewrite"
)

// File is one input file found by Walk.
type File struct {
	Path string // the path to open
	// Rel is the slash-separated path of the file from the directory the
	// walk started at; "" when the file was named itself.
	Rel  string
	Root string // the input the file was found under: a directory, or the file itself
	Kind base.Format
	Mode fs.FileMode // permission bits, kept by in-place replacement
	Size int64
	Head []byte // the first bytes, up to HeadLen, as FormatOf saw them

	// info is what the walk saw of the file: the writer checks that the
	// file it replaces is still this one.
	info fs.FileInfo
	// page is set on a page a walk gathering referrals from the run's
	// passes yielded (a Gathering): see Referrer and Release.
	page Page
	// held is the descriptor the walk read the head through, for Open
	// to take (see heldFD); nil when the walk holds none.
	held *heldFD
}

// Info returns what the walk saw of the file when it described it; nil
// for a file it could not (one yielded with its error).
func (f File) Info() fs.FileInfo { return f.info }

// ReadHeld reads the walked file f whole as ReadFile reads its path,
// through the descriptor the walk holds for it when it still holds one:
// no second open. Unlike ReadWalked it makes no writer's checks (a link
// swapped in, a file changed since the walk): it is for a run that only
// reads, as the checker without --fix does.
func ReadHeld(f File, max int64) ([]byte, error) { return readWalked(f, max) }

// HeadLen is how many leading bytes Walk reads from each file: enough for
// FormatOf and for a "saved from url" comment.
const HeadLen = 1024

// Walk yields the files under each path, in order: a file as itself (a
// symbolic link named on the command line is followed), a directory
// recursively in lexical order. Inside directories, symbolic links and
// other non-regular files are skipped (replacing a link in place would
// turn it into a file, and following one could lead out of the tree), and
// so are the writer's temporary files and the directories of version
// control systems (.git, .hg, .svn, ...). A path that cannot be read is
// yielded with its error; the walk goes on. Stopping the iteration stops
// the walk.
func Walk(paths []string) iter.Seq2[File, error] { return Walker{}.Walk(paths) }

// A Walker walks trees as Walk does, with options.
type Walker struct {
	// RemoveStale removes the temporary files that writers provably dead
	// left in the trees walked (written on this host by a process that is
	// gone, before this run started); see the writer's temporary names.
	// Another run's files, live or on another host, stay.
	RemoveStale bool
	// Removed, if set, is told the path of each stale temporary file
	// removed, or the error of a removal that failed.
	Removed func(path string, err error)

	// Refer, when set, gives the files of a directory walked the kinds
	// the tree's documents tell (a .js file a page loads as a module, a
	// manifest.json a page names): see Referrals.
	Refer Referrals

	// Under, when set, makes the paths given parts of one tree rooted at
	// this directory, as WalkList's lines are: a path under it is walked
	// with its place there (a file's Rel is its path from Under, Root is
	// Under), so that several inputs map to URLs by their paths, not
	// each to the tree's root. A path outside it is its own tree.
	Under string

	kinds referred // the directory's, found by Refer
	// referDir is the directory walked whose referrals Refer has not read
	// yet: they are read when the walk first meets a file they could
	// concern (needsReferrals), so a tree without one is walked once.
	referDir string
	// gather is the directory's when Refer.Gathers: the run's passes
	// over its pages tell the referrals.
	gather *gathering

	// count: yield each file without reading it (Count).
	count bool
	// handoff holds the descriptors of the files this walk yielded,
	// for Open to take (see heldFD); unheld: none (a walk whose files
	// are read by path).
	handoff *handoff
	unheld  bool
}

// Count returns how many items (files and errors) Walk(paths) yields,
// without reading the files: the total of a progress display, counted
// while the walk that reads them goes on. It stops early, with ctx's
// error, when ctx is done.
func Count(ctx context.Context, paths []string) (int, error) {
	n := 0
	for range (Walker{count: true}).Walk(paths) {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}

// Walk is the package's Walk, with w's options.
func (w Walker) Walk(paths []string) iter.Seq2[File, error] {
	return func(yield func(File, error) bool) {
		if !w.count && !w.unheld && safedir.RoomToHold() {
			h := &handoff{}
			defer h.end()
			w.handoff = h
		}
		for _, p := range paths {
			w := w
			switch {
			case w.Refer != nil && w.Refer.Gathers():
				if g := w.Refer.Gathering(p); g != nil {
					w.gather = &gathering{g: g}
				}
			case w.Refer != nil:
				w.referDir = p
			}
			root, rel := p, ""
			if w.Under != "" {
				if r, ok := Within(w.Under, p); ok {
					root, rel = w.Under, r
				}
			}
			if !w.walkOne(p, root, rel, yield) {
				return
			}
		}
	}
}

// Within returns the slash-separated path of p in the directory root ("",
// for root itself), and whether p is in it at all (not above it, and both
// relative or both absolute).
func Within(root, p string) (string, bool) {
	if filepath.IsAbs(root) != filepath.IsAbs(p) {
		a, err1 := filepath.Abs(root)
		b, err2 := filepath.Abs(p)
		if err1 != nil || err2 != nil {
			return "", false
		}
		root, p = a, b
	}
	r, err := filepath.Rel(root, p)
	if err != nil || !filepath.IsLocal(r) && r != "." {
		return "", false
	}
	if r == "." {
		return "", true
	}
	return filepath.ToSlash(r), true
}

// WalkList walks paths that arrive one by one, such as the lines of a list
// read from standard input, each as it comes. The paths are parts of one
// tree rooted at the directory root ("" for the current directory), and
// relative to it: a file's Path is root joined with its line, its Rel the
// cleaned line ("a/b.html"), its Root root. A path that is absolute or
// climbs out of root is its own tree, as in Walk.
func WalkList(root string, paths iter.Seq[string]) iter.Seq2[File, error] {
	if root == "" {
		root = "."
	}
	return func(yield func(File, error) bool) {
		for p := range paths {
			if filepath.IsAbs(p) || !filepath.IsLocal(p) {
				if !(Walker{}).walkOne(p, p, "", yield) {
					return
				}
				continue
			}
			rel := filepath.ToSlash(filepath.Clean(p))
			if !(Walker{}).walkOne(filepath.Join(root, p), root, rel, yield) {
				return
			}
		}
	}
}

// walkOne walks the path p, which is at rel in the tree rooted at root
// (rel is "" when p is that root).
func (w Walker) walkOne(p, root, rel string, yield func(File, error) bool) bool {
	info, err := os.Stat(p)
	if err != nil {
		return yield(File{Path: p, Root: root}, err)
	}
	if !info.IsDir() {
		if !info.Mode().IsRegular() {
			return yield(File{Path: p, Root: root}, &fs.PathError{Op: "read", Path: p, Err: errNotRegular})
		}
		if w.count {
			return yield(File{Path: p, Rel: rel, Root: root}, nil)
		}
		f, err := describe(p, rel, root, info)
		return yield(f, err)
	}
	// WalkDir does not follow a root that is a symbolic link; with a
	// final separator the system resolves it.
	walkRoot := p
	if li, err := os.Lstat(p); err == nil && li.Mode()&fs.ModeSymlink != 0 {
		walkRoot = p + string(filepath.Separator)
	}
	stopped := false
	err = filepath.WalkDir(walkRoot, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			// An unreadable directory: report it and skip its contents.
			if !yield(File{Path: path, Root: root}, err) {
				stopped = true
				return fs.SkipAll
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() && path != walkRoot && vcsDirs[d.Name()] {
			return fs.SkipDir
		}
		if !d.Type().IsRegular() {
			return nil // directories, links, devices
		}
		sub, err := filepath.Rel(p, path)
		if err != nil {
			return err
		}
		if safewrite.IsTemp(d.Name()) {
			// A killed run's leftovers: never input.
			if w.RemoveStale {
				w.removeStale(p, sub, d)
			}
			return nil
		}
		sub = filepath.ToSlash(sub)
		if rel != "" && rel != "." {
			sub = rel + "/" + sub
		}
		if w.count {
			if !yield(File{Path: path, Rel: sub, Root: root}, nil) {
				stopped = true
				return fs.SkipAll
			}
			return nil
		}
		// Described through a descriptor held for Open, else by path
		// (which says in the usual words what is wrong).
		f, held := w.describeWalked(path, sub, root)
		err = nil
		if !held {
			var info fs.FileInfo
			if info, err = d.Info(); err == nil {
				f, err = describe(path, sub, root, info)
			} else {
				f = File{Path: path, Rel: sub, Root: root}
			}
		}
		if f.info != nil { // d.Info did not fail
			if g := w.gather; g != nil && err == nil {
				switch {
				case needsReferrals(f):
					// Yielded once the tree's pages are done.
					g.hold(f)
					return nil
				case f.Kind == base.HTML:
					f.page = g.g.Page(f)
				}
			}
			if err == nil && w.referDir != "" && needsReferrals(f) {
				// The first file the tree's documents could tell
				// something of: read them now, once, before it is
				// yielded (the files before it are not concerned).
				w.kinds = w.Refer.Scan(w.referDir, Walker{unheld: true}.Walk([]string{w.referDir}))
				w.referDir = ""
			}
			f = w.kinds.classify(f)
		}
		if !yield(f, err) {
			stopped = true
			return fs.SkipAll
		}
		return nil
	})
	if w.gather != nil && !stopped && !w.gather.flush(root, yield) {
		return false
	}
	if err != nil && !stopped {
		return yield(File{Path: p, Root: root}, err)
	}
	return !stopped
}

var errNotRegular = errors.New("not a regular file")

// removeStale removes the temporary file d, at sub under the directory p,
// if its writer is provably dead.
func (w Walker) removeStale(p, sub string, d fs.DirEntry) {
	info, err := d.Info()
	if err != nil {
		return
	}
	stale, err := safewrite.RemoveStale(p, sub, info)
	if stale && w.Removed != nil {
		w.Removed(filepath.Join(p, sub), err)
	}
}

// vcsDirs are the directories of version control systems, which a walk
// skips: their files are not the site's, and must never be rewritten.
var vcsDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, ".bzr": true, "_darcs": true, "CVS": true}

// describeWalked describes the file at sub in the tree at root, which a
// walk found (path is its path) as a regular file, through a descriptor
// the walk holds for Open (describeHeld), or returns false.
func (w Walker) describeWalked(path, sub, root string) (File, bool) {
	if w.handoff == nil {
		return File{}, false
	}
	return w.handoff.describeHeld(path, sub, root)
}

// describe reads the head of the file at path and classifies it.
func describe(path, rel, root string, info fs.FileInfo) (File, error) {
	return described(path, rel, root, info, func(head []byte) (int, error) { return readHead(path, head) })
}

// described is the File of the file at path that info describes, its
// head read by read into a buffer of HeadLen bytes and classified: the
// one description of a walked file, whether the walk reads its head by
// path (describe) or through the descriptor it holds (describeHeld).
func described(path, rel, root string, info fs.FileInfo, read func(head []byte) (int, error)) (File, error) {
	if describeHook != nil {
		describeHook(path)
	}
	f := File{Path: path, Rel: rel, Root: root, Mode: info.Mode().Perm(), Size: info.Size(), info: info}
	head := make([]byte, HeadLen)
	n, err := read(head)
	if err != nil {
		return f, err
	}
	f.Head = head[:n]
	f.Kind = base.FormatOf(path, f.Head)
	return f, nil
}

// describeHook, when set (by tests), is told of each file a walk opens
// to classify.
var describeHook func(path string)

// ErrTooLarge is returned by ReadFile for a file above the size limit. It
// is the writer's (safewrite.ErrTooLarge) too: one error for a file too
// large to read whole, whether to read it or to update it.
var ErrTooLarge = safedir.ErrTooLarge

// Incomplete reports whether err is that of a document not processed to
// its end because it went past a limit: a reader's own
// (link.ErrIncomplete: a tag, rule, element stack or document over
// its bound) or the size bound of a file read whole (ErrTooLarge). It is
// the one rule every command applies: such a document is named, counted
// as failed (and as incomplete), and fails the run; its output, where it
// has one, is the input as written past the limit.
func Incomplete(err error) bool {
	return errors.Is(err, link.ErrIncomplete) || errors.Is(err, ErrTooLarge)
}

// ReadFile reads the file at path, failing with ErrTooLarge when it holds
// more than max bytes: the input decides the size, so it is bounded. The
// buffer is sized from the file's size, so reading a tree makes little
// garbage.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|safedir.ReadFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readOpen(f, max)
}

// readOpen reads the open file f to its end, as ReadFile does.
func readOpen(f *os.File, max int64) ([]byte, error) {
	return safedir.ReadOpen(f, max)
}

// Inside reports whether path is dir or lies under it, comparing absolute
// cleaned paths (no symbolic links are resolved).
func Inside(path, dir string) bool {
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Clean removes, as a walk with RemoveStale does, the stale temporary
// files under dir (a mirror about to be written, which is not walked),
// reading nothing but the names.
func (w Walker) Clean(dir string) {
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() || !safewrite.IsTemp(d.Name()) {
			return nil
		}
		if sub, err := filepath.Rel(dir, path); err == nil {
			w.removeStale(dir, sub, d)
		}
		return nil
	})
}

// RealPath returns the absolute form of path with every symbolic link
// resolved. A path that does not exist yet (an output directory to be
// made) resolves as its longest existing ancestor, resolved, followed by
// the rest as written.
func RealPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rest := ""
	for p := abs; ; {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest), nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// Disjoint fails when the directories out and in, with every symbolic
// link resolved, are the same, or one lies inside the other: a run that
// reads in and writes out would write over its inputs or read its own
// output.
func Disjoint(out, in string) error {
	ro, err := RealPath(out)
	if err != nil {
		return err
	}
	ri, err := RealPath(in)
	if err != nil {
		return err
	}
	switch {
	case ro == ri:
		return fmt.Errorf("the output directory %s is the input %s (%s)", out, in, ro)
	case Inside(ro, ri):
		return fmt.Errorf("the output directory %s is inside the input %s (%s)", out, in, ro)
	case Inside(ri, ro):
		return fmt.Errorf("the output directory %s contains the input %s (%s)", out, in, ri)
	}
	return nil
}
