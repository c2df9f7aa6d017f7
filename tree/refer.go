package tree

import (
	"io/fs"
	"iter"
	"path/filepath"
	"slices"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
)

// Referrals tell a walk the kinds that only a document referring to a
// file gives it: a JavaScript file is a module when a page of the tree
// loads it as one, a JSON file a web app manifest when a page names it
// (see Candidate). The walk holds no reader: it asks Referrals, which
// read the tree's pages (package referral's Reader is one). A walk asks
// them only about a directory it walks: files named on their own and
// WalkList's lines are not classified this way.
type Referrals interface {
	// Gathers reports whether the run's own passes over the pages tell
	// (Gathering), rather than a reading of the pages before the files they
	// concern are yielded (Scan).
	Gathers() bool
	// Scan reads the documents of the tree under dir, whose files are
	// those files yields (a walk of its own, without referrals), and
	// returns the kinds they give its files, by cleaned path. A walk
	// calls it when it first meets a file the documents could concern
	// (a candidate, a module, a stylesheet), before yielding that file:
	// a tree without one is walked once.
	Scan(dir string, files iter.Seq2[File, error]) map[string]base.Format
	// Gathering begins gathering what the run's passes over the pages
	// of the tree under dir tell; nil when nothing can be told of it
	// (its URL is unknown).
	Gathering(dir string) Gathering
}

// A Gathering is what the pages of one tree tell, gathered from the
// run's passes over them while the walk goes on: the walk yields each
// page at once (Page), holds back the files whose kind, import map or
// encoding the pages tell (Hold), and yields those after every page of
// the tree is done, with the kinds Kinds gives.
type Gathering interface {
	// Page registers the page f, about to be yielded, and returns what
	// its pass reports to (File.Referrer) and File.Release ends.
	Page(f File) Page
	// Hold registers the file f, held back until the tree's pages are
	// done.
	Hold(f File)
	// Kinds waits until every page registered is released, and returns
	// the kinds the pages give the files held, by cleaned path.
	Kinds() map[string]base.Format
}

// A Page is a page a gathering walk yielded.
type Page interface {
	// Listener returns what the page's pass reports to, or nil when the
	// page is done or its pass is over.
	Listener() Listener
	// Release ends the page: its pass is over, whatever its outcome, or
	// it will not be read. It does nothing when called again.
	Release()
}

// A Listener hears, from the one pass that reads a page, what it tells
// of the files it loads. It has the methods of htmlrewrite.Referrer, and
// is set as htmlrewrite.Options.Referrer: the file layer names no
// reader's types.
type Listener interface {
	Load(link.Link)
	End(importMap []string, charset string)
	Restart()
}

// Referrer returns what to set as htmlrewrite.Options.Referrer when the
// page f is read as HTML, for a walk with a Gathering that yielded f and
// waits for its pass; nil for any other file (leave the option as it is
// then). The pass must end with f.Release.
func (f File) Referrer() Listener {
	if f.page == nil {
		return nil
	}
	return f.page.Listener()
}

// Release tells the walk with a Gathering that yielded the page f that
// its pass is over, whatever its outcome, or that it will not be read:
// call it once for every page such a walk yields (Rewriter.Rewrite and
// Claim, the checker's CheckFile and FixFile and harvest's Reader.File
// do). A page no pass read to its end through its Referrer is read by
// the Gathering itself. It does nothing for other files, or when called
// again.
func (f File) Release() {
	if f.page != nil {
		f.page.Release()
	}
}

// gathering is a walk's state for one tree whose pages the run's own
// passes read: the Gathering, and the files held back until its pages
// are done (by name and what the walk saw of them, not their contents:
// each is described again when yielded).
type gathering struct {
	g    Gathering
	held []heldFile
}

type heldFile struct {
	path, rel string
	info      fs.FileInfo
}

// hold holds back the walked file f until the tree's pages are done.
func (g *gathering) hold(f File) {
	f.held.drop() // described again when yielded
	g.held = append(g.held, heldFile{f.Path, f.Rel, f.info})
	g.g.Hold(f)
}

// flush waits until every page yielded is done and yields the files held
// back, in walk order, with the kinds the pages tell. It returns false
// when yield does.
func (g *gathering) flush(root string, yield func(File, error) bool) bool {
	kinds := referred(g.g.Kinds())
	for _, h := range g.held {
		f, err := describe(h.path, h.rel, root, h.info)
		if err == nil {
			f = kinds.classify(f)
		} else {
			f = File{Path: h.path, Rel: h.rel, Root: root}
		}
		if !yield(f, err) {
			return false
		}
	}
	return true
}

// referred maps the paths of the files the referring documents classify
// to their kinds.
type referred map[string]base.Format

// classify gives f the kind its referring documents tell, if any.
func (k referred) classify(f File) File {
	if kind, ok := k[filepath.Clean(f.Path)]; ok && f.Candidate() {
		f.Kind = kind
	}
	return f
}

// Candidate reports whether a referring document may change f's kind:
// a file of no kind of its own that is text (no NUL byte) and whose name
// a module or a manifest has (a .js, .cjs or .json file, or a name
// without an extension that is not a dotfile). A README, a robots.txt or
// a dotfile is none, so a tree holding only such files is not read
// twice.
func (f File) Candidate() bool {
	return f.Kind == base.Other && referable(f.Path) && !slices.Contains(f.Head, 0)
}

// referable reports whether a file called name may be a module or a web
// app manifest that only a referring document can tell: a .js, .cjs or
// .json file (a query string that a mirror kept in the name aside), or a
// name without an extension that is not a dotfile.
func referable(name string) bool {
	name = filepath.Base(name)
	if i := strings.IndexByte(name, '?'); i > 0 {
		name = name[:i]
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".js", ".cjs", ".json":
		return true
	case "":
		return !strings.HasPrefix(name, ".")
	}
	return false
}

// needsReferrals reports whether what the tree's documents tell can
// concern f: its kind (a candidate), its import map (a module) or its
// environment encoding (a stylesheet). Until a walk meets such a file it
// has no reason to read the tree's documents.
func needsReferrals(f File) bool {
	return f.Kind == base.Module || f.Kind == base.CSS || f.Candidate()
}
