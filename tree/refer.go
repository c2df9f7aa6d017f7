package tree

import (
	"bytes"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/jsmodule"
)

// Referrals makes a walk tell the kinds that only a document referring to
// a file tells (formats.md §9: "Context"): a JavaScript file is a module
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
// one is walked once and no page is read for referrals. Files named on their own and --from-list lines are not
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
type referred map[string]Kind

// candidate reports whether a referring document may change f's kind:
// a file of no kind of its own that is text (no NUL byte) and whose name
// a module or a manifest has (referable). A README, a robots.txt or a
// dotfile is none, so a tree holding only such files is not read twice.
func candidate(f File) bool {
	return f.Kind == Other && referable(f.Path) && !slices.Contains(f.Head, 0)
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
	return f.Kind == Module || f.Kind == CSS || candidate(f)
}

// classify gives f the kind its referring documents tell, if any.
func (k referred) classify(f File) File {
	if kind, ok := k[filepath.Clean(f.Path)]; ok && candidate(f) {
		f.Kind = kind
	}
	return f
}

// scan reads the tree under dir for the kinds its documents tell.
func (r *Referrals) scan(dir string) referred {
	m := r.Mapper
	if m == nil {
		m = &Mapper{}
	}
	var pages, modules []File
	cands := map[string]bool{}
	mods := map[string]bool{} // the files of kind Module
	sheets := map[string]bool{}
	legacy := map[string]string{} // page path -> its encoding, when not UTF-8
	for f, err := range Walk([]string{dir}) {
		if err != nil {
			continue
		}
		switch {
		case f.Kind == HTML:
			pages = append(pages, f)
			if u, err := m.URL(f); err == nil {
				// The encoding the page is read in (htmlrewrite.Encoding:
				// BOM, Content-Type, <meta>; ASCII without one is UTF-8).
				if _, name, err := htmlrewrite.Encoding(f.Head, r.HTML(u).ContentType); err == nil && name != "utf-8" {
					legacy[f.Path] = name
				}
			}
		case f.Kind == Module:
			modules = append(modules, f)
			mods[filepath.Clean(f.Path)] = true
		case f.Kind == CSS:
			sheets[filepath.Clean(f.Path)] = true
		case candidate(f):
			cands[filepath.Clean(f.Path)] = true
		}
	}
	if len(sheets) == 0 || len(legacy) == 0 {
		sheets = nil // no stylesheet takes an encoding from a page
	}
	if len(cands) == 0 && len(mods) == 0 && sheets == nil {
		return nil
	}
	root, err := m.Root(dir)
	if err != nil {
		return nil
	}
	// target returns the candidate file u names, if any.
	target := func(u string) (string, bool) {
		if i := strings.IndexAny(u, "?#"); i >= 0 {
			u = u[:i]
		}
		rest, ok := strings.CutPrefix(u, root)
		if !ok {
			return "", false
		}
		rel, err := url.PathUnescape(rest)
		if err != nil || !filepath.IsLocal(filepath.FromSlash(rel)) {
			return "", false
		}
		p := filepath.Join(dir, filepath.FromSlash(rel))
		return p, cands[p] || sheets[p]
	}
	// fileAt is the file of the tree at p, as a module.
	fileAt := func(p string) File {
		f := File{Path: p, Root: dir, Kind: Module}
		if rel, err := filepath.Rel(dir, p); err == nil {
			f.Rel = filepath.ToSlash(rel)
		}
		return f
	}
	// fileURL is the URL a file's own reading is given.
	fileURL := func(p string) string {
		u, _ := m.URL(fileAt(p))
		return u
	}
	found := referred{}
	var queue []File
	mark := func(p string, k Kind) {
		if _, done := found[p]; done {
			return
		}
		found[p] = k
		if k == Module {
			queue = append(queue, fileAt(p))
		}
	}
	// inherit gives the module at p the import map keys; a module read
	// before it had them is read again, to pass them on.
	read := map[string]bool{}
	anyKeys := false
	inherit := func(p string, keys []string) {
		if !r.setImportMap(fileURL(p), keys) {
			return
		}
		anyKeys = true
		if read[p] {
			queue = append(queue, fileAt(p))
		}
	}
	for _, f := range pages {
		env := legacy[f.Path]
		if len(cands) == 0 && len(mods) == 0 && env == "" {
			continue // read for its stylesheets only, and it gives none an encoding
		}
		u, err := m.URL(f)
		if err != nil || !r.small(f) {
			continue
		}
		opts := r.HTML(u)
		opts.Spool = false
		src, err := os.Open(f.Path)
		if err != nil {
			continue
		}
		if env == "" && !mentions(src, referWords) {
			src.Close()
			continue // it cannot classify a candidate, and gives no sheet an encoding
		}
		if _, err := src.Seek(0, io.SeekStart); err != nil {
			src.Close()
			continue
		}
		if scanHook != nil {
			scanHook(f.Path)
		}
		var loaded []string // the modules the page loads
		if d, err := htmlrewrite.Open(src, opts); err == nil {
			d.Links(func(l htmlrewrite.Link) error {
				if l.Err != nil || l.Inert {
					return nil
				}
				p, ok := target(l.URL)
				asModule := l.Kind == htmlrewrite.Import && l.Attr != "importmap:key" && l.Attr != "importmap:scope" && l.Attr != "importmap:integrity"
				switch {
				case asModule && mods[p]:
					loaded = append(loaded, p)
				case !ok:
				case sheets[p]:
					if env != "" && l.Tag == "link" && slices.Contains(l.Rel, "stylesheet") {
						r.setCharset(fileURL(p), env)
					}
				case !cands[p]:
				case asModule:
					mark(p, Module)
					loaded = append(loaded, p)
				case l.Tag == "link" && slices.Contains(l.Rel, "manifest"):
					mark(p, Manifest)
				}
				return nil
			})
			// The document's import map (HTML §8.1.5.3), for the
			// modules it loads.
			if keys := d.ImportMap(); len(keys) > 0 {
				for _, p := range loaded {
					inherit(p, keys)
				}
			}
			d.Close()
		}
		src.Close()
	}
	// The modules, transitively: what a module imports is a module, and
	// has the import map its importer has.
	if len(cands) > 0 || anyKeys {
		queue = append(queue, modules...)
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		read[filepath.Clean(f.Path)] = true
		u, err := m.URL(f)
		if err != nil || !r.small(f) {
			continue
		}
		src, err := os.Open(f.Path)
		if err != nil {
			continue
		}
		keys := r.ImportMap(u)
		jsmodule.Links(src, r.Module(u), func(l htmlrewrite.Link) error {
			if l.Err == nil && l.Kind == htmlrewrite.Import {
				if p, ok := target(l.URL); ok && cands[p] {
					mark(p, Module)
					inherit(p, keys)
				} else if mods[p] {
					inherit(p, keys)
				}
			}
			return nil
		})
		src.Close()
	}
	return found
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
			return jsmodule.Options{Spec: o.Spec, Context: o.Context}
		},
		MaxSize: c.MaxSize,
	}
	return c.refer
}
