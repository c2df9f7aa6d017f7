// Package referral reads what the documents of a tree tell of its other
// files, for a walk of package tree (its Referrals): the kinds only a
// referring document gives (HTML §8.1.5: a JavaScript file a page loads
// as a module script, by modulepreload, an import map address or an
// inline module's import, or a module of the tree imports, is a module;
// §4.6.7: a file a page names in <link rel=manifest> is a web app
// manifest), the import map in force for each module (HTML §8.1.5.3),
// and each stylesheet's environment encoding (CSS Syntax §3.2: that of a
// page not in UTF-8 that links it). The walk holds no reader; this
// package reads the pages through package extract's readers.
package referral

import (
	"bytes"
	"io"
	"iter"
	"os"
	"sync"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/tree"
)

// A Reader makes a walk tell the kinds that only a document referring to
// a file tells: a JavaScript file is a module
// when an HTML page of the tree loads it as one (<script type=module src>,
// <link rel=modulepreload href>, an import map address, a specifier of an
// inline module) or a module of the tree imports it; a JSON file (or
// another candidate: see tree.File.Candidate) is a web app manifest when a page names it in
// <link rel=manifest href>. A classic <script src> says nothing: the file
// stays Other.
//
// Set as tree.Walker.Refer, it makes the walk read the tree's HTML pages and then, transitively, its modules
// for those links, resolved against each file's URL (Mapper) and mapped
// back to the tree, when it first meets a file they could concern (a
// candidate, a module, a stylesheet), before yielding it; a tree without
// one is walked once and no page is read for referrals. With Gather, the
// run's passes over the pages tell the same instead, and the pages are
// read once. Files named on their own and --from-list lines are not
// classified this way (the pages referring to them are not known).
//
// The same reading tells each module of the tree (a .js file so
// classified, or a .mjs file) the import map in force (ImportMap).
type Reader struct {
	Mapper *tree.Mapper // each file's URL; nil: its file: URL
	// HTML and Module give the options a page or a module retrieved from
	// a URL is read with (their Spec, Context, ContentType, Scripting).
	HTML    func(docURL string) htmlrewrite.Options
	Module  func(docURL string) jsmodule.Options
	MaxSize int64 // the largest file read; 0 is 256 MiB

	// Gather takes the referrals from the run's own pass over each page
	// instead of reading the pages before: in a directory walked, a page
	// is yielded at once, carrying the htmlrewrite.Referrer its pass
	// reports to (tree.File.Referrer), and the files whose kind, import map or
	// encoding the pages tell (stylesheets, modules, candidates) are held
	// back, by name, until every page of the tree yielded before is done
	// (tree.File.Release), then yielded after them, in walk order, classified.
	// Every page of a tree is then read once. The consumer of the walk
	// must Release every page it yields, even when it does not read it
	// (the walk reads such a page itself); Rewriter, Checker and harvest
	// do. It may work on several files at once: the walk waits for the
	// passes, not for the order of their results.
	Gather bool

	mu       sync.Mutex
	charsets map[string]string   // stylesheet URL -> its environment encoding
	imports  map[string][]string // module URL -> the bare import map keys in force
}

// ImportMap returns the bare specifier keys of the import map in force
// for the module of the tree at docURL (HTML §8.1.5.3: a module's
// specifiers resolve through the import map of the document that loads
// it): those of the import maps of the page that loads it (<script
// type=module src>, <link rel=modulepreload>, an import map address, an
// inline module's import), carried to the modules it imports,
// transitively. When several pages load a module with different maps,
// the first page in walk order wins (a module the tree's pages load with
// several maps is resolved with one). nil when no page gives one. It is
// known once the walk of the module's directory has begun; set it as
// jsmodule.Options.ImportMap.
func (r *Reader) ImportMap(docURL string) []string {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.imports[docURL]
}

// setImportMap gives the module at u the keys, unless it has some;
// it reports whether it did.
func (r *Reader) setImportMap(u string, keys []string) bool {
	if len(keys) == 0 {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.imports == nil {
		r.imports = map[string][]string{}
	}
	if _, ok := r.imports[u]; ok {
		return false
	}
	r.imports[u] = keys
	return true
}

// SheetEnvironment returns the environment encoding (CSS Syntax §3.2) of
// the stylesheet of the tree at docURL: the encoding of a page that links
// it with <link rel=stylesheet>, when that page is not in UTF-8 (the
// first such page in walk order); "" when none. It is known once the walk
// of the stylesheet's directory has begun; set it as
// htmlrewrite.Options.SheetEnvironment.
func (r *Reader) SheetEnvironment(docURL string) string {
	if r == nil {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.charsets[docURL]
}

func (r *Reader) setCharset(u, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.charsets == nil {
		r.charsets = map[string]string{}
	}
	if _, ok := r.charsets[u]; !ok {
		r.charsets[u] = name
	}
}

// referWords are what a page that classifies a candidate must contain:
// type=module, rel=modulepreload, type=importmap, rel=manifest. A page
// with none of them (ASCII case-insensitively, so also behind character
// references) is not tokenized for referrals.
var referWords = []string{"module", "importmap", "manifest"}

// mentions reports whether r holds one of words, ASCII case-insensitively,
// reading it in pieces (never whole).
func mentions(r io.Reader, words []string) bool {
	const piece, overlap = 64 << 10, 16 // overlap: longer than any word
	buf := make([]byte, overlap+piece)
	n := 0
	for {
		m, err := io.ReadFull(r, buf[n:])
		n += m
		if containsFold(buf[:n], words) {
			return true
		}
		if err != nil {
			return false
		}
		n = copy(buf, buf[n-overlap:n])
	}
}

// containsFold reports whether b contains one of words (lower-case ASCII)
// in any ASCII case.
func containsFold(b []byte, words []string) bool {
	for i := 0; i < len(b); i++ {
		j := bytes.IndexAny(b[i:], "iImM")
		if j < 0 {
			return false
		}
		i += j
		for _, w := range words {
			if len(b)-i >= len(w) && bytes.EqualFold(b[i:i+len(w)], []byte(w)) {
				return true
			}
		}
	}
	return false
}

// Gathers reports whether r gathers the referrals from the run's passes
// (Gather); false for a nil Reader.
func (r *Reader) Gathers() bool { return r != nil && r.Gather }

// Gathering begins gathering what the run's passes over the pages of
// the tree under dir tell (Reader.Gather); nil when its URL is unknown.
func (r *Reader) Gathering(dir string) tree.Gathering {
	if r == nil {
		return nil
	}
	if g := newGathering(r, dir); g != nil {
		return g
	}
	return nil
}

// Scan reads the tree under dir, whose files are those files yields, for
// the kinds its documents tell: its pages in walk order, then its
// modules. A nil Reader tells nothing.
func (r *Reader) Scan(dir string, walk iter.Seq2[tree.File, error]) map[string]base.Format {
	if r == nil {
		return nil
	}
	m := r.Mapper
	if m == nil {
		m = &tree.Mapper{}
	}
	type pageAt struct {
		f        tree.File
		u, env   string
		urlKnown bool
	}
	var pages []pageAt
	files := newTreeFiles()
	legacy := false
	for f, err := range walk {
		if err != nil {
			continue
		}
		switch {
		case f.Kind == base.HTML:
			pg := pageAt{f: f}
			if u, err := m.URL(f); err == nil {
				pg.u, pg.urlKnown = u, true
				// The encoding the page is read in (htmlrewrite.Encoding:
				// BOM, Content-Type, <meta>; ASCII without one is UTF-8).
				if pg.env = legacyEncoding(f.Head, r.HTML(u).ContentType); pg.env != "" {
					legacy = true
				}
			}
			pages = append(pages, pg)
		case f.Kind == base.Module || f.Kind == base.CSS || f.Candidate():
			var u urlOf
			if f.Kind == base.Module {
				u.u, u.err = m.URL(f)
			}
			files.add(f.Path, f.Kind, f.Candidate(), u)
		}
	}
	if len(files.cands) == 0 && len(files.mods) == 0 && (len(files.sheets) == 0 || !legacy) {
		return nil
	}
	st := newReferState(r, dir)
	if st == nil {
		return nil
	}
	modules := len(files.cands) > 0 || len(files.mods) > 0
	for i, pg := range pages {
		if pg.urlKnown {
			st.readPage(pg.f, i, pg.u, pg.env, true, modules)
		}
	}
	return st.finish(files)
}

// scanHook, when set (by tests), is told of each page Scan reads for
// referrals.
var scanHook func(path string)

// small reports whether f is within MaxSize.
func (r *Reader) small(f tree.File) bool {
	max := r.MaxSize
	if max <= 0 {
		max = 256 << 20
	}
	if f.Size == 0 {
		if info, err := os.Stat(f.Path); err == nil {
			f.Size = info.Size()
		}
	}
	return f.Size <= max
}
