// Package treerewrite rewrites the documents of walked trees and files
// (package tree's walks), each through package extract's reader of its
// kind: to a writer, in place (atomically, through package safewrite),
// into a mirror directory, or nowhere (a dry run). It is what `relurl
// rewrite` runs for each input, kept apart from package tree (which walks
// and maps files to URLs) so that the file layer needs no reader.
package treerewrite

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/internal/countio"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/internal/linkref"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
)

// A Rewriter rewrites the documents of walked trees and files, one call
// per file (Rewrite): to a writer, in place (atomically, through Writer),
// into a mirror directory (Mirror), or nowhere (a dry run, which says
// what would change). Which files are documents is Rewritable's rule; the
// others are copied into the mirror (CopyOthers) or skipped. It is what
// `relurl rewrite` runs for each input, and what a crawler or archive
// author calls to rewrite a saved tree. A Rewriter is safe for concurrent
// use by several goroutines once set up; Claim is to be called in input
// order.
type Rewriter struct {
	// Mapper gives each file the URL it was retrieved from (its links
	// resolve against the base the file's content decides, else that
	// URL); nil: its file: URL.
	Mapper *tree.Mapper
	// Options returns the readers' options for a document retrieved from
	// docURL (package extract picks the one of the document's kind).
	Options func(docURL string) extract.Options
	// MaxSize bounds what is held in memory for one document: a
	// stylesheet, XML document, manifest or module is read whole by its
	// rewriter, up to MaxSize bytes (larger is tree.ErrTooLarge). HTML and
	// MHTML stream whatever their size. Zero means no bound.
	MaxSize int64

	// InPlace replaces each document rewritten by its new content,
	// through Writer; one with nothing to change is not written.
	InPlace bool
	// Mirror, when set, is the directory each input is mirrored into:
	// a file walked in a directory at its path in that tree (Rel), a
	// file named alone at its name (MirrorRel), through Writer (whose
	// KeepSame leaves documents the mirror already holds rewritten
	// alone).
	Mirror string
	// CopyOthers copies the files that are not documents into Mirror as
	// they are; without it they are skipped.
	CopyOthers bool
	// Writer writes the files of InPlace and Mirror.
	Writer safewrite.Writer
	// OnePerPlace says no two inputs of this Rewriter share a mirror
	// place: they come from one walk, or Claim took each one's place.
	// A Mirror this Rewriter made is then written without
	// Writer.KeepSame's look for a file to keep (there can be none).
	// Without it an input whose place an earlier one of the run wrote
	// (a list naming a file twice) finds that file up to date, as in a
	// mirror made again.
	OnePerPlace bool

	mu     sync.Mutex
	places map[string]string // mirror path -> the input that took it
	// made: Mirror was made (or found) by this Rewriter; it is not
	// looked for again for every file.
	made atomic.Bool
	// fresh: Mirror did not exist before this Rewriter made it, so,
	// with OnePerPlace, no file in it can already hold a document's
	// output: Writer.KeepSame need not look for one.
	fresh bool
	// dirs are the mirror's directories open for the documents
	// written into them.
	dirs safewrite.Dirs
}

// Result is what rewriting one file did. Exactly one of Changed,
// UpToDate, Copied and Skipped is set for a file that did not fail (none
// of them: a document rewritten with no byte changed).
type Result struct {
	File tree.File
	// Links, Rewritten and Failed count the document's URL values: seen,
	// changed, and those that could not be resolved (left as written).
	Links, Rewritten, Failed int
	// Warnings are the library's warnings about the document (what was
	// read best effort or left unread).
	Warnings []string
	// Changed: the document's output differs from it (written in place
	// or into the mirror, or what a dry run would write).
	Changed bool
	// UpToDate: Mirror already held the document as rewritten; it was
	// left alone.
	UpToDate bool
	// Copied: a file that is not a document, copied into Mirror;
	// Skipped: one left out.
	Copied, Skipped bool
	// Read: the file was taken for a document (Rewritable) and, its URL
	// known, read as one; a summary counts it among the files read.
	Read bool
	// Err is why the file was not rewritten, or not to its end
	// (link.ErrIncomplete: the rest written as it was), or not
	// written (ErrSymlink, ErrChanged, ErrHardLink: refused for safety).
	Err error
	// CopiedUnchanged: a document that could not be rewritten (Err) was
	// copied into Mirror as it was: what cannot be rewritten is still
	// part of the site.
	CopiedUnchanged bool
}

// Rewritable reports whether rewriting reads a file of kind k as a
// document and rewrites its links (HTML, MHTML, CSS, XML, manifests,
// modules), rather than copy or skip it (Other; WARC files are read by
// `relurl links`, not rewritten).
func Rewritable(k base.Format) bool { return k != base.Other && k != base.WARC }

// MirrorRel is where the file f goes in a mirror, relative to it: its
// path in its tree, or for a file given alone its name.
func MirrorRel(f tree.File) string {
	if f.Rel == "" {
		return filepath.Base(f.Path)
	}
	return f.Rel
}

// MirrorPath is where the file f goes in the mirror dir.
func MirrorPath(dir string, f tree.File) string {
	return filepath.Join(dir, filepath.FromSlash(MirrorRel(f)))
}

// CheckMirror fails when mirroring the input in into the directory out
// would write over in, read its own output, or overwrite in with its
// mirror: out and a directory in, with every link resolved, are the same
// or one holds the other (Disjoint); or in is a file in out itself, where
// its mirror would replace it.
func CheckMirror(out, in string) error {
	info, err := os.Stat(in)
	if err != nil || info.IsDir() {
		return tree.Disjoint(out, in)
	}
	// A file given alone is mirrored at its name: in its own
	// directory, that is the input itself.
	ro, err1 := tree.RealPath(out)
	rd, err2 := tree.RealPath(filepath.Dir(in))
	if err1 == nil && err2 == nil && ro == rd {
		return fmt.Errorf("-o %s would overwrite the input %s", out, in)
	}
	return nil
}

// Claim takes the file f's place in the mirror, or fails when an earlier
// input took it (two trees with the same paths, two files with the same
// name), so that no output silently replaces another. Within one tree
// paths are distinct: only several inputs need claims, made in input
// order before the files are rewritten. A file that is not a document
// takes a place only when copied.
func (r *Rewriter) Claim(f tree.File) error {
	if !Rewritable(f.Kind) && !r.CopyOthers {
		return nil
	}
	dst := MirrorPath(r.Mirror, f)
	r.mu.Lock()
	defer r.mu.Unlock()
	if prev, ok := r.places[dst]; ok {
		f.Release() // not rewritten: the walk reads it for referrals
		return fmt.Errorf("not mirrored: %s is already the mirror of %s", dst, prev)
	}
	if r.places == nil {
		r.places = map[string]string{}
	}
	r.places[dst] = f.Path
	return nil
}

// All rewrites the files of a walk (Walk, Walker.Walk, WalkList) as
// Rewrite(nil, f) does, jobs at a time, and yields each file's result in
// walk order; a path the walk could not read is yielded with its error.
// With a Mirror, each file claims its place first (Claim: one entry a
// file is held), so that no input's mirror replaces another's. Stopping the iteration stops the walk once the files under
// way are done.
func (r *Rewriter) All(files iter.Seq2[tree.File, error], jobs int) iter.Seq[Result] {
	type item struct {
		f   tree.File
		err error
	}
	items := func(yield func(item) bool) {
		for f, err := range files {
			if err == nil && r.Mirror != "" {
				err = r.Claim(f)
			}
			if !yield(item{f, err}) {
				return
			}
		}
	}
	return func(yield func(Result) bool) {
		errStop := errors.New("stopped")
		ordered.Results(jobs, items, func(it item) Result {
			if it.err != nil {
				return Result{File: it.f, Err: it.err}
			}
			return r.Rewrite(nil, it.f)
		}, func(_ item, res Result) error {
			if !yield(res) {
				return errStop
			}
			return nil
		})
	}
}

// Rewrite rewrites the walked file f: to dst when dst is not nil (a
// file that is not a document is then an error), else in place, into the
// mirror, or nowhere (a dry run), as the Rewriter says. HTML and MHTML go
// through as they are read.
func (r *Rewriter) Rewrite(dst io.Writer, f tree.File) Result {
	defer f.Release()
	res := Result{File: f}
	doc := Rewritable(f.Kind)
	switch {
	case !doc && dst != nil:
		res.Err = extract.ErrNotDocument
		return res
	case !doc && r.Mirror != "" && r.CopyOthers:
		res.Err = r.copy(f)
		res.Copied = res.Err == nil
		return res
	case !doc:
		res.Skipped = true
		return res
	}
	docURL, err := r.url(f)
	if err != nil {
		res.Err = err
		return res
	}
	res.Read = true
	switch {
	case r.InPlace:
		// Streamed into a temporary file beside the original, which
		// is left alone when nothing changed.
		res.Changed, res.Err = r.Writer.UpdateStream(f.Walked(), func(dst io.Writer, src io.Reader) error {
			return r.stream(&res, dst, src, f.Kind, docURL, false)
		})
	case r.Mirror != "":
		r.mirror(&res, docURL)
	default:
		// To dst or nowhere (a dry run): streamed.
		if dst == nil {
			dst = io.Discard
		}
		in, err := os.Open(f.Path)
		if err != nil {
			res.Err = err
			return res
		}
		defer in.Close()
		if dst == io.Discard {
			res.Err = r.stream(&res, dst, in, f.Kind, docURL, false)
			break
		}
		cw := &countio.Writer{W: dst}
		res.Err = r.stream(&res, cw, in, f.Kind, docURL, true)
		if cw.N == 0 && tree.Incomplete(res.Err) {
			// A reader that stopped at a limit before writing (an
			// MHTML archive of too many parts): the output says "left
			// as written", so it is the file as written.
			if _, err := in.Seek(0, io.SeekStart); err == nil {
				if _, werr := io.Copy(dst, in); werr != nil {
					res.Err = werr
				}
			}
		}
	}
	if res.Err != nil || res.UpToDate {
		res.Changed = false
	}
	return res
}

// Stream rewrites the document src of kind k, retrieved from docURL
// ("" for none), to dst as it is read. Kind Other means src's own kind:
// MHTML or XML by its first bytes, else HTML (a stream is taken for an
// HTML page). Its result has no File.
func (r *Rewriter) Stream(dst io.Writer, src io.Reader, k base.Format, docURL string) Result {
	if k == base.Other {
		br, ok := src.(*bufio.Reader)
		if !ok {
			br = bufio.NewReaderSize(src, 64<<10)
		}
		head, _ := br.Peek(base.SniffLen)
		k = StreamKind(head)
		src = br
	}
	res := Result{File: tree.File{Path: "-", Kind: k}, Read: true}
	res.Err = r.stream(&res, dst, src, k, docURL, true)
	if res.Err != nil {
		res.Changed = false
	}
	return res
}

// StreamKind is the kind rewriting takes a stream with no name for,
// from its first bytes (up to SniffLen): MHTML (also a bare
// "MIME-Version:" header block), XML (SVG, Atom, RSS by their root), else
// HTML.
func StreamKind(head []byte) base.Format {
	k := base.FormatOf("-", head)
	if k != base.MHTML && bytes.HasPrefix(bytes.TrimLeft(head, " \t\r\n"), []byte("MIME-Version:")) {
		k = base.MHTML
	}
	if k != base.MHTML && k != base.XML {
		k = base.HTML
	}
	return k
}

// url is the URL the file f was retrieved from.
func (r *Rewriter) url(f tree.File) (string, error) { return r.mapper().URL(f) }

// mapper is the Rewriter's Mapper; nil is the zero Mapper (file: URLs).
func (r *Rewriter) mapper() *tree.Mapper {
	if r.Mapper == nil {
		return &tree.Mapper{}
	}
	return r.Mapper
}

// stream rewrites src of kind k to dst through package extract, counting
// into res: HTML, MHTML and CSS as they are read (an MHTML archive's
// headers first, then a part at a time; a stylesheet a rule at a time),
// the other kinds held whole, up to MaxSize and what their reader may
// hold. When one of those is larger, nothing is written unless
// passThrough (dst is the output itself, not a file to be discarded on
// failure): then its bytes are copied to dst as written.
func (r *Rewriter) stream(res *Result, dst io.Writer, src io.Reader, k base.Format, docURL string, passThrough bool) error {
	var o extract.Options
	if r.Options != nil {
		o = r.Options(docURL)
	}
	if l := r.mapper().Local(res.File); l != nil {
		o.HTML.Context.Local = l
	}
	if k == base.HTML {
		// What the page tells of the tree's other files, for the walk
		// (a Gathering: see Referrals).
		if ref := res.File.Referrer(); ref != nil {
			o.HTML.Referrer = ref
		}
	}
	whole := k == base.XML || k == base.Manifest || k == base.Module
	if whole {
		// Read up to what its reader may hold, never more: a larger one
		// is refused by name before it is read whole.
		limit := extract.HoldLimit(k, o)
		if r.MaxSize > 0 {
			limit = min(limit, r.MaxSize)
		}
		data, err := linkref.ReadDocument(src, int(limit))
		if long := (*linkref.TooLongError)(nil); errors.As(err, &long) {
			err = extract.TooLarge(k, limit)
			if limit == r.MaxSize {
				err = tree.ErrTooLarge
			}
			if passThrough {
				// Left as written means the output holds the input.
				if _, werr := dst.Write(data); werr != nil {
					return werr
				}
				if werr := long.CopyRest(dst); werr != nil {
					return werr
				}
			}
			return err
		}
		if err != nil {
			return err
		}
		src = linkref.NewHeld(data) // held once, not copied by the readers
	}
	st, err := extract.Rewrite(dst, src, k, o)
	res.Warnings = st.Warnings
	if err != nil && whole {
		return err // nothing written
	}
	res.Links, res.Rewritten, res.Failed = st.Links, st.Rewritten, st.Failed
	res.Changed = st.Changed
	return err
}

// mirror streams the document res.File, opened as the walk found it (not
// through a link swapped in since, whose target could be outside the
// tree), through rewrite into its mirror. The writer makes the
// directories below Mirror and follows no link there: a link planted in
// the mirror cannot send the write elsewhere. A document that cannot be
// read or rewritten is copied into the mirror as it was.
func (r *Rewriter) mirror(res *Result, docURL string) {
	f := res.File
	src, err := openSource(f)
	if err != nil {
		res.Err = err
		r.copyUnchanged(res)
		return
	}
	defer src.Close()
	if err := r.makeMirror(); err != nil {
		res.Err = err
		return
	}
	var rerr error
	w := r.Writer
	if r.fresh && r.OnePerPlace {
		w.KeepSame = false // nothing there to keep: no look per file
	}
	w.Dirs = &r.dirs
	res.UpToDate, res.Err = w.WriteInStream(r.Mirror, MirrorRel(f), f.Mode, func(dst io.Writer) error {
		rerr = r.stream(res, dst, src, f.Kind, docURL, false)
		return rerr
	})
	if res.Err != nil && rerr != nil {
		r.copyUnchanged(res)
	}
}

// copyUnchanged copies the document res.File, which could not be read or
// rewritten, into the mirror as it was.
func (r *Rewriter) copyUnchanged(res *Result) {
	if err := r.copy(res.File); err != nil {
		res.Err = fmt.Errorf("%s; copying it unchanged: %w", errtext.Of(res.Err), err)
		return
	}
	res.CopiedUnchanged = true
}

// copy copies the file f, as the walk found it, into the mirror.
func (r *Rewriter) copy(f tree.File) error {
	if err := r.makeMirror(); err != nil {
		return err
	}
	return tree.CopyWalked(r.Writer, r.Mirror, MirrorRel(f), f)
}

// makeMirror makes the directory Mirror, once, and notes whether it is
// new (fresh): the writer makes the directories below it.
func (r *Rewriter) makeMirror() error {
	if r.made.Load() {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.made.Load() {
		return nil
	}
	_, err := os.Lstat(r.Mirror)
	fresh := errors.Is(err, fs.ErrNotExist)
	if err := os.MkdirAll(r.Mirror, 0o755); err != nil {
		return err
	}
	r.fresh = fresh
	r.made.Store(true)
	return nil
}

// openSource opens the file f as tree.Open does, for reading from its
// start: through the descriptor the walk read its head from when it
// still holds it (no second open), else with tree.Open.
func openSource(f tree.File) (io.ReadCloser, error) {
	if r := tree.TakeHeld(f); r != nil {
		return r, nil
	}
	return tree.Open(f)
}
