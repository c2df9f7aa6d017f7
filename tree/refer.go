package tree

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
)

// Referrals makes a walk tell the kinds that only a document referring to
// a file tells (docs/formats.md §9: "Context"): a JavaScript file is a module
// when an HTML page of the tree loads it as one (<script type=module src>,
// <link rel=modulepreload href>, an import map address, a specifier of an
// inline module) or a module of the tree imports it; a JSON file (or
// another candidate: see referable) is a web app manifest when a page names it in
// <link rel=manifest href>. A classic <script src> says nothing: the file
// stays Other.
//
// Walk reads the tree's HTML pages and then, transitively, its modules
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
type Referrals struct {
	Mapper *Mapper // each file's URL; nil: its file: URL
	// HTML and Module give the options a page or a module retrieved from
	// a URL is read with (their Spec, Context, ContentType, Scripting).
	HTML    func(docURL string) htmlrewrite.Options
	Module  func(docURL string) jsmodule.Options
	MaxSize int64 // the largest file read; 0 is 256 MiB

	// Gather takes the referrals from the run's own pass over each page
	// instead of reading the pages before: in a directory walked, a page
	// is yielded at once, carrying the htmlrewrite.Referrer its pass
	// reports to (File.Referrer), and the files whose kind, import map or
	// encoding the pages tell (stylesheets, modules, candidates) are held
	// back, by name, until every page of the tree yielded before is done
	// (File.Release), then yielded after them, in walk order, classified.
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
func (r *Referrals) ImportMap(docURL string) []string {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.imports[docURL]
}

// setImportMap gives the module at u the keys, unless it has some;
// it reports whether it did.
func (r *Referrals) setImportMap(u string, keys []string) bool {
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
func (r *Referrals) SheetEnvironment(docURL string) string {
	if r == nil {
		return ""
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.charsets[docURL]
}

func (r *Referrals) setCharset(u, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.charsets == nil {
		r.charsets = map[string]string{}
	}
	if _, ok := r.charsets[u]; !ok {
		r.charsets[u] = name
	}
}

// referred maps the paths of the files the referring documents classify
// to their kinds.
type referred map[string]base.Format

// candidate reports whether a referring document may change f's kind:
// a file of no kind of its own that is text (no NUL byte) and whose name
// a module or a manifest has (referable). A README, a robots.txt or a
// dotfile is none, so a tree holding only such files is not read twice.
func candidate(f File) bool {
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

// needsReferrals reports whether what the tree's documents tell can
// concern f: its kind (a candidate), its import map (a module) or its
// environment encoding (a stylesheet). Until a walk meets such a file it
// has no reason to read the tree's documents (Walker.Walk reads them
// there, once).
func needsReferrals(f File) bool {
	return f.Kind == base.Module || f.Kind == base.CSS || candidate(f)
}

// classify gives f the kind its referring documents tell, if any.
func (k referred) classify(f File) File {
	if kind, ok := k[filepath.Clean(f.Path)]; ok && candidate(f) {
		f.Kind = kind
	}
	return f
}

// scan reads the tree under dir for the kinds its documents tell: a walk
// of its own, then its pages in walk order, then its modules.
func (r *Referrals) scan(dir string) referred {
	m := r.Mapper
	if m == nil {
		m = &Mapper{}
	}
	type pageAt struct {
		f        File
		u, env   string
		urlKnown bool
	}
	var pages []pageAt
	files := newTreeFiles()
	legacy := false
	for f, err := range (Walker{unheld: true}).Walk([]string{dir}) {
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
		case f.Kind == base.Module || f.Kind == base.CSS || candidate(f):
			var u urlOf
			if f.Kind == base.Module {
				u.u, u.err = m.URL(f)
			}
			files.add(f.Path, f.Kind, candidate(f), u)
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

// scanHook, when set (by tests), is told of each page scan reads for
// referrals.
var scanHook func(path string)

// small reports whether f is within MaxSize.
func (r *Referrals) small(f File) bool {
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

// Referrals returns the Referrals a walk of the checker's tree uses: the
// pages and modules read as Check reads them.
func (c *Checker) Referrals() *Referrals {
	if err := c.Prepare(); err != nil {
		return nil
	}
	m, err := NewMapper(c.root)
	if err != nil {
		return nil
	}
	c.refer = &Referrals{
		Mapper: m,
		HTML:   func(u string) htmlrewrite.Options { return c.optionsAt(u) },
		Module: func(u string) jsmodule.Options {
			o := c.optionsAt(u)
			return jsmodule.Options{Document: link.Document{Context: o.Context}}
		},
		MaxSize: c.MaxSize,
	}
	return c.refer
}
