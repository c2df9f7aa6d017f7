package referral

import (
	"cmp"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/tree"
)

// referState is what the pages of one tree (the directory dir, whose URL
// is root) tell of its other files, gathered page by page in any order
// and decided as a reading of the pages in walk order decides: for each
// file, the first page in walk order (and in it the first link) that
// tells something wins.
type referState struct {
	r         *Reader
	m         *tree.Mapper
	dir, root string

	claims map[string]claim     // path -> the first page's word on its kind
	keys   map[string]firstKeys // path -> the import map of the first page loading it as a module
	envs   map[string]firstEnv  // path -> the encoding of the first legacy page linking it as a stylesheet
}

// at is where a page's link stands: the page's place in walk order, the
// link's in the page.
type at struct{ page, link int }

func (a at) before(b at) bool {
	return a.page < b.page || a.page == b.page && a.link < b.link
}

type claim struct {
	at   at
	kind base.Format // Module or Manifest
}

type firstKeys struct {
	at   at
	keys []string
}

type firstEnv struct {
	at  at
	env string
}

// newReferState returns the state of the tree under dir, or nil when its
// URL is unknown (nothing can be mapped back to it).
func newReferState(r *Reader, dir string) *referState {
	m := r.Mapper
	if m == nil {
		m = &tree.Mapper{}
	}
	root, err := m.Root(dir)
	if err != nil {
		return nil
	}
	return &referState{r: r, m: m, dir: dir, root: root,
		claims: map[string]claim{}, keys: map[string]firstKeys{}, envs: map[string]firstEnv{}}
}

// path returns the path of the file of the tree the URL u names, or "".
func (st *referState) path(u string) string {
	rel, ok := tree.PathOf(u, st.root)
	if !ok || !filepath.IsLocal(filepath.FromSlash(rel)) {
		return ""
	}
	return filepath.Join(st.dir, filepath.FromSlash(rel))
}

// load is what one link of a page tells of the file at path: loaded as a
// module, linked as a stylesheet, named as a manifest.
type load struct {
	path                    string
	module, sheet, manifest bool
}

// loadOf returns what the link l of a page tells, and false when it
// tells nothing (HTML §8.1.5: only module scripts, modulepreload and
// import map addresses load modules; a classic <script src> says
// nothing).
func (st *referState) loadOf(l link.Link) (load, bool) {
	if l.Err != nil || l.Inert {
		return load{}, false
	}
	ld := load{
		module: l.Kind == link.Import && l.Attr != "importmap:key" && l.Attr != "importmap:scope" && l.Attr != "importmap:integrity",
	}
	if l.Tag == "link" {
		ld.sheet = slices.Contains(l.Rel, "stylesheet")
		ld.manifest = slices.Contains(l.Rel, "manifest")
	}
	if !ld.module && !ld.sheet && !ld.manifest {
		return load{}, false
	}
	if ld.path = st.path(l.URL); ld.path == "" {
		return load{}, false
	}
	return ld, true
}

// page records what the page at place seq in walk order tells: its
// loads in document order, the bare keys of its import maps, and its
// encoding env when not UTF-8 (a stylesheet it links takes it).
func (st *referState) page(seq int, env string, loads []load, keys []string) {
	for i, ld := range loads {
		a := at{seq, i}
		switch {
		case ld.module:
			if c, ok := st.claims[ld.path]; !ok || a.before(c.at) {
				st.claims[ld.path] = claim{a, base.Module}
			}
			if k, ok := st.keys[ld.path]; len(keys) > 0 && (!ok || a.before(k.at)) {
				st.keys[ld.path] = firstKeys{a, keys}
			}
		case ld.manifest:
			if c, ok := st.claims[ld.path]; !ok || a.before(c.at) {
				st.claims[ld.path] = claim{a, base.Manifest}
			}
		}
		if ld.sheet && env != "" {
			if e, ok := st.envs[ld.path]; !ok || a.before(e.at) {
				st.envs[ld.path] = firstEnv{a, env}
			}
		}
	}
}

// pageReport gathers what one page tells from a pass over it: it is the
// pass's htmlrewrite.Referrer.
type pageReport struct {
	st      *referState
	loads   []load
	keys    []string
	charset string
	ended   bool
}

func (p *pageReport) Load(l link.Link) {
	if ld, ok := p.st.loadOf(l); ok && !p.ended {
		p.loads = append(p.loads, ld)
	}
}

func (p *pageReport) End(keys []string, charset string) {
	if !p.ended {
		p.keys, p.charset, p.ended = keys, charset, true
	}
}

func (p *pageReport) Restart() { p.loads, p.keys, p.charset, p.ended = nil, nil, "", false }

// env is the environment encoding the page gives the stylesheets it
// links: its own when not UTF-8, as legacyEncoding says (which names no
// UTF-16 encoding: htmlrewrite.Encoding refuses them, the pass decodes
// them).
func (p *pageReport) env() string {
	switch p.charset {
	case "utf-8", "utf-16le", "utf-16be":
		return ""
	}
	return p.charset
}

// readPage reads the page f, at place seq in walk order, for what it
// tells, as a reading of its own (not the run's pass): when a walk does
// not gather referrals from the run's passes, or a pass did not read the
// page. u is its URL, env its encoding when not UTF-8 (with envKnown;
// else the page's first bytes tell it); modules says whether the tree
// has modules or candidates to tell of.
func (st *referState) readPage(f tree.File, seq int, u, env string, envKnown, modules bool) {
	if !modules && envKnown && env == "" {
		return // read for its stylesheets only, and it gives none an encoding
	}
	if !st.r.small(f) {
		return
	}
	opts := st.r.HTML(u)
	opts.Spool = false
	src, err := os.Open(f.Path)
	if err != nil {
		return
	}
	defer src.Close()
	if !envKnown {
		head := make([]byte, tree.HeadLen)
		n, _ := io.ReadFull(src, head)
		env = legacyEncoding(head[:n], opts.ContentType)
		if !modules && env == "" {
			return
		}
		if _, err := src.Seek(0, 0); err != nil {
			return
		}
	}
	if env == "" && !mentions(src, referWords) {
		return // it cannot classify a candidate, and gives no sheet an encoding
	}
	if _, err := src.Seek(0, 0); err != nil {
		return
	}
	if scanHook != nil {
		scanHook(f.Path)
	}
	rep := &pageReport{st: st}
	opts.Referrer = rep
	// The page's pass, through the one dispatcher, for what its
	// Referrer hears; its links are not wanted here.
	extract.Links(src, base.HTML, extract.Options{HTML: opts}, func(link.Link) error { return nil })
	if rep.ended {
		st.page(seq, env, rep.loads, rep.keys)
	}
}

// treeFiles are the files of a tree whose kind, import map or encoding
// its pages may tell.
type treeFiles struct {
	cands   map[string]bool // candidates (see candidate)
	mods    map[string]bool // files of kind Module
	sheets  map[string]bool // stylesheets
	modules []string        // the files of kind Module, in walk order
	// modURL is each module's URL as its walked File gives it (a "saved
	// from" comment in its head counts), with its error.
	modURL map[string]urlOf
}

type urlOf struct {
	u   string
	err error
}

func (t *treeFiles) add(path string, kind base.Format, cand bool, u urlOf) {
	p := filepath.Clean(path)
	switch {
	case kind == base.Module:
		t.mods[p] = true
		t.modules = append(t.modules, path)
		t.modURL[path] = u
	case kind == base.CSS:
		t.sheets[p] = true
	case cand:
		t.cands[p] = true
	}
}

// empty reports whether t holds no file.
func (t *treeFiles) empty() bool {
	return len(t.cands) == 0 && len(t.mods) == 0 && len(t.sheets) == 0
}

func newTreeFiles() treeFiles {
	return treeFiles{cands: map[string]bool{}, mods: map[string]bool{}, sheets: map[string]bool{}, modURL: map[string]urlOf{}}
}

// finish decides, once every page has told what it tells, the kinds of
// the candidates, the stylesheets' environment encodings and the
// modules' import maps, reading the modules transitively for what they
// import (a module's import is a module, with its importer's import map).
func (st *referState) finish(t treeFiles) map[string]base.Format {
	r := st.r
	found := map[string]base.Format{}
	// fileAt is the file of the tree at p, as a module.
	fileAt := func(p string) tree.File {
		f := tree.File{Path: p, Root: st.dir, Kind: base.Module}
		if rel, err := filepath.Rel(st.dir, p); err == nil {
			f.Rel = filepath.ToSlash(rel)
		}
		return f
	}
	// fileURL is the URL a file's own reading is given.
	fileURL := func(p string) string {
		u, _ := st.m.URL(fileAt(p))
		return u
	}
	// The pages' word, first page first: the candidates they load as
	// modules are read in that order.
	// A module read for its imports, with its URL when its walked File
	// gave it.
	type item struct {
		f      tree.File
		u      urlOf
		walked bool
	}
	var queue []item
	var marked []string
	for p, c := range st.claims {
		if t.cands[p] {
			found[p] = c.kind
			if c.kind == base.Module {
				marked = append(marked, p)
			}
		}
	}
	slices.SortFunc(marked, func(a, b string) int {
		x, y := st.claims[a].at, st.claims[b].at
		return cmp.Or(cmp.Compare(x.page, y.page), cmp.Compare(x.link, y.link))
	})
	for _, p := range marked {
		queue = append(queue, item{f: fileAt(p)})
	}
	for p, e := range st.envs {
		if t.sheets[p] {
			r.setCharset(fileURL(p), e.env)
		}
	}
	anyKeys := false
	for p, k := range st.keys {
		if (t.mods[p] || t.cands[p]) && r.setImportMap(fileURL(p), k.keys) {
			anyKeys = true
		}
	}
	if len(found) == 0 && len(t.mods) == 0 && len(t.cands) == 0 {
		return found
	}
	mark := func(p string) {
		if _, done := found[p]; done {
			return
		}
		found[p] = base.Module
		queue = append(queue, item{f: fileAt(p)})
	}
	// inherit gives the module at p the import map keys; a module read
	// before it had them is read again, to pass them on.
	read := map[string]bool{}
	inherit := func(p string, keys []string) {
		if !r.setImportMap(fileURL(p), keys) {
			return
		}
		anyKeys = true
		if read[p] {
			queue = append(queue, item{f: fileAt(p)})
		}
	}
	// The modules, transitively: what a module imports is a module, and
	// has the import map its importer has.
	if len(t.cands) > 0 || anyKeys {
		for _, p := range t.modules {
			queue = append(queue, item{f: fileAt(p), u: t.modURL[p], walked: true})
		}
	}
	for len(queue) > 0 {
		it := queue[0]
		f := it.f
		queue = queue[1:]
		read[filepath.Clean(f.Path)] = true
		u, err := it.u.u, it.u.err
		if !it.walked {
			u, err = st.m.URL(f)
		}
		if err != nil || !r.small(f) {
			continue
		}
		src, err := os.Open(f.Path)
		if err != nil {
			continue
		}
		keys := r.ImportMap(u)
		extract.Links(src, base.Module, extract.Options{Module: r.Module(u)}, func(l link.Link) error {
			if l.Err == nil && l.Kind == link.Import {
				if p := st.path(l.URL); t.cands[p] {
					mark(p)
					inherit(p, keys)
				} else if t.mods[p] {
					inherit(p, keys)
				}
			}
			return nil
		})
		src.Close()
	}
	return found
}

// gathering is what the pages of one tree tell, gathered from the run's
// own passes (Reader.Gather): the pages yielded and not yet done, what
// the done ones told, and the files held back until then. It is the
// walk's tree.Gathering.
type gathering struct {
	r  *Reader
	st *referState

	mu      sync.Mutex
	cond    sync.Cond
	pending int // pages yielded whose pass is not over
	seq     int // pages yielded
	unread  []*page
	files   treeFiles // the files held back
}

func newGathering(r *Reader, dir string) *gathering {
	st := newReferState(r, dir)
	if st == nil {
		return nil
	}
	g := &gathering{r: r, st: st, files: newTreeFiles()}
	g.cond.L = &g.mu
	return g
}

// page is a page a gathering walk yielded: the run's pass over it
// reports to it (tree.File.Referrer), and tree.File.Release ends it.
type page struct {
	g        *gathering
	seq      int
	file     tree.File // what readPage needs of it: no head, no descriptor
	url      string
	skip     bool // not read for referrals (over MaxSize, no URL)
	report   pageReport
	released bool
}

// Page registers the page f, yielded next, and returns it.
func (g *gathering) Page(f tree.File) tree.Page {
	p := &page{g: g, seq: g.seq, report: pageReport{st: g.st}}
	g.seq++
	u, err := g.st.m.URL(f)
	p.url = u
	p.skip = err != nil || !g.r.small(f)
	p.file = tree.File{Path: f.Path, Rel: f.Rel, Root: f.Root, Kind: f.Kind, Mode: f.Mode, Size: f.Size}
	g.mu.Lock()
	g.pending++
	g.mu.Unlock()
	return p
}

// Hold registers the file f, held back by the walk until the tree's
// pages are done.
func (g *gathering) Hold(f tree.File) {
	var u urlOf
	if f.Kind == base.Module {
		u.u, u.err = g.st.m.URL(f)
	}
	g.files.add(f.Path, f.Kind, f.Candidate(), u)
}

// Release ends the page p: what its pass told is recorded, or, when no
// pass read it to its end, it is read at the tree's end.
func (p *page) Release() {
	g := p.g
	g.mu.Lock()
	defer g.mu.Unlock()
	if p.released {
		return
	}
	p.released = true
	switch {
	case p.skip:
	case p.report.ended:
		// The encoding the pass read the page in is the one the
		// page's first bytes and Content-Type tell (legacyEncoding).
		g.st.page(p.seq, p.report.env(), p.report.loads, p.report.keys)
	default:
		g.unread = append(g.unread, p)
	}
	p.report = pageReport{}
	if g.pending--; g.pending == 0 {
		g.cond.Broadcast()
	}
}

// Listener returns the htmlrewrite.Referrer of the page's pass, or nil
// when the page is done or its pass is over.
func (p *page) Listener() tree.Listener {
	g := p.g
	g.mu.Lock()
	defer g.mu.Unlock()
	if p.released || p.skip || p.report.ended {
		return nil
	}
	p.report.Restart()
	return &p.report
}

// Kinds waits until every page yielded is done and decides what they
// tell of the files held back; the pages no pass read to its end are
// read now, in walk order.
func (g *gathering) Kinds() map[string]base.Format {
	g.mu.Lock()
	for g.pending > 0 {
		g.cond.Wait()
	}
	g.mu.Unlock()
	var kinds map[string]base.Format
	if !g.files.empty() {
		modules := len(g.files.cands) > 0 || len(g.files.mods) > 0
		slices.SortFunc(g.unread, func(a, b *page) int { return cmp.Compare(a.seq, b.seq) })
		for _, p := range g.unread {
			g.st.readPage(p.file, p.seq, p.url, "", false, modules)
		}
		kinds = g.st.finish(g.files)
	}
	g.unread = nil
	return kinds
}

// legacyEncoding returns the name of the encoding a page whose first
// bytes are head is read in (htmlrewrite.Encoding: BOM, Content-Type,
// <meta>; ASCII without one is UTF-8), or "" for UTF-8 or an encoding
// that is refused.
func legacyEncoding(head []byte, contentType string) string {
	if _, name, err := htmlrewrite.Encoding(head, contentType); err == nil && name != "utf-8" {
		return name
	}
	return ""
}
