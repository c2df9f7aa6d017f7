package linkcheck

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/relurl/relurl/referral"
	"github.com/relurl/relurl/tree"

	"golang.org/x/text/unicode/norm"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/internal/modspec"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/manifest"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/xmlrewrite"
)

// Problem is what makes a link break when its tree moves.
type Problem int

// The problems Check reports.
const (
	// Absolute: an absolute URL (or "//host/...") to a file of the tree; it keeps
	// pointing at the old place. Its relative form would not.
	Absolute Problem = iota + 1
	// RootRelative: a "/..." link; it breaks when the tree moves under
	// another path or host.
	RootRelative
	// ClimbsOut: a relative link that leaves the tree ("../.."): the tree
	// is not self-contained.
	ClimbsOut
	// Missing: a link to a file of the tree that is not there.
	Missing
	// BasePin: a <base href> element, which pins every relative link of
	// its document to one place (HTML "document base URL").
	BasePin
	// Invalid: a URL the chosen grammar rejects.
	Invalid
	// MissingAnchor: a link whose fragment names no element of its target,
	// an HTML or SVG file of the tree (no id, no <a name>).
	MissingAnchor
	// CaseMismatch: a link to a file of the tree that exists only under
	// another letter case ("About.html" for about.html): it works on a
	// case-insensitive file system (APFS, NTFS) and is a 404 on Linux,
	// S3 and the static hosts.
	CaseMismatch
	// CaseCollision: two names of one directory of the tree that are one
	// name on a case-insensitive file system (APFS, NTFS): moved there,
	// one file overwrites the other.
	CaseCollision
	// Orphan: a page of the tree that no page leads to from the entry
	// pages (Checker.Orphans): a reader of the site never reaches it.
	Orphan
)

var problemNames = [...]string{Absolute: "absolute", RootRelative: "root-relative", ClimbsOut: "climbs-out", Missing: "missing", BasePin: "base", Invalid: "invalid", MissingAnchor: "missing-anchor", CaseMismatch: "case-mismatch", CaseCollision: "case-collision", Orphan: "orphan"}

// Problems lists every problem, in the order of their values.
func Problems() []Problem {
	ps := make([]Problem, 0, len(problemNames)-1)
	for p := Absolute; int(p) < len(problemNames); p++ {
		ps = append(ps, p)
	}
	return ps
}

// String returns "absolute", "root-relative", "climbs-out", "missing",
// "base", "invalid", "missing-anchor", "case-mismatch" or
// "case-collision".
func (p Problem) String() string {
	if p > 0 && int(p) < len(problemNames) {
		return problemNames[p]
	}
	return fmt.Sprintf("Problem(%d)", int(p))
}

// MarshalText writes the name String returns.
func (p Problem) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// A Finding is one problem of one link. Its JSON names are those of the
// link records of relurl links where they say the same thing: Link, the
// reference as written, is "raw".
type Finding struct {
	File     string  `json:"file"`
	Line     int     `json:"line"`
	Column   int     `json:"column"`
	Link     string  `json:"raw"`
	URL      string  `json:"url,omitempty"`
	Problem  Problem `json:"problem"`
	Reason   string  `json:"reason"`
	Relative string  `json:"relative,omitempty"` // for Absolute, RootRelative and CaseMismatch: the reference that would not break
	Offset   int64   `json:"offset"`
	// Target is, for a link into the tree, the tree-relative path of what
	// it names: the file the host serves, or the path that is missing; for
	// MissingAnchor the file, "#" and the fragment.
	Target string `json:"target,omitempty"`
	// Before marks, when Checker.To is set, a link that is broken before
	// the move already (Missing, MissingAnchor, CaseMismatch): not a
	// finding of that move.
	Before bool `json:"before,omitempty"`
	// Column16 is Column counted in UTF-16 code units, as SARIF's default
	// column kind and GitHub count; 0 when unknown.
	Column16 int `json:"-"`
	// served: a relative link to a directory or an extensionless URL,
	// which Fix writes as its file's path under Checker.ToServed; no
	// finding of check's, never shown.
	served bool
}

// A Checker finds what breaks in a document tree when it moves.
type Checker struct {
	Spec    resolve.Spec
	Options resolve.Options
	Dir     string // the tree on disk
	// Root is the URL the tree is served from now (a final "/" is
	// added); Check maps each file to Root plus its relative path.
	Root string
	// To is the URL the tree will move to. Given, Check reports the links
	// whose target changes in that move; empty, it reports every link that
	// breaks in some move (to another host and another path depth).
	To string
	// Grammar, if set, rejects URLs; each rejection is an Invalid finding.
	Grammar func(raw string) error
	// ContentType is the Content-Type the tree's HTML files are served
	// with, if known: its charset outranks a <meta> declaration.
	ContentType string
	// Scripting reads <noscript> as a browser running scripts does (see
	// htmlrewrite.Options.Scripting).
	Scripting bool
	// Host is how the server maps URL paths to files; nil is the "file"
	// profile (see HostProfile).
	Host *Host
	// NoAnchors turns off the checking of fragments (MissingAnchor).
	NoAnchors bool
	// SavedFrom reads a page saved by a browser, with a "<!-- saved from
	// url=(NNNN)URL -->" comment, at that URL (Mapper.SavedFrom): its
	// links to the files saved beside it stay in the tree and are checked
	// there; its other links lead to the live site, out of the tree.
	SavedFrom bool
	// FixMissing lets Fix rewrite a link whose target is missing from the
	// tree. By default such a link is left as written: after a move its
	// relative form points nowhere, while "/search" may still reach a
	// route of the server.
	FixMissing bool
	// ToServed makes Fix's relative form of a link into the tree name the
	// file that serves it (a directory's index file, an extensionless
	// URL's file, by Host), as a mirror read from file: needs: a browser
	// opening "docs/" from disk shows a listing, not docs/index.html.
	// rewrite --relative sets it; check --fix keeps the link's own path.
	ToServed bool
	// AbsoluteMissing, with FixMissing, makes an absolute link into the
	// tree whose file is missing relative too (wget -k's
	// --relative-missing counterpart); by default it keeps reaching what
	// the old place serves.
	AbsoluteMissing bool
	// MissingToSite makes Fix write a link to a file missing from the
	// tree as its absolute URL on the site the tree came from (wget -k's
	// conversion), so that it still reaches that site; without FixMissing
	// only, and not when the tree's URL is a file: URL.
	MissingToSite bool
	// Readers read the kinds of file other than HTML (which is built in)
	// for Check: a stylesheet's or a feed's links plug in here.
	Readers map[base.Format]Reader
	// MaxSize bounds a file Finish reads for its anchors; 0 is 256 MiB.
	MaxSize int64
	// Orphans makes Finish report the pages (HTML files) that no chain
	// of links leads to from the entry pages (Orphan findings).
	Orphans bool
	// Entries are the tree-relative paths of the pages a reader starts
	// from; empty, the tree's index page (the host's index file, or
	// index.html).
	Entries []string

	refer    *referral.Reader // made by Referrals: the stylesheets' environment encodings
	once     sync.Once
	prepErr  error
	root, to string
	rootPath string // the URL path of the tree's root: "/" for file: URLs
	host     *Host
	list     listing
	anchors  anchorIndex
	graph    pageGraph
	rules    []redirect
	rulesSrc string // the redirect file's name, for reasons
	warnMu   sync.Mutex
	warnings []string
	lookups  struct {
		mu sync.Mutex
		m  map[string]target
	}
}

// A Document is what Check reads of one file: the base its links resolve
// against, the links, and the names its fragments can indicate.
type Document struct {
	Base    string
	Links   []link.Link
	Anchors []string
	// MapNames are the names and ids of its <map> elements, which a
	// usemap="#name" indicates (and nothing else does).
	MapNames []string
	// HasAnchors says that Anchors is the document's whole list, so that
	// links into it with a fragment can be checked.
	HasAnchors bool
	// Own is, for a saved page read at its live URL (Checker.SavedFrom),
	// its URL in the tree: the Base of its local links.
	Own string
}

// A Reader reads the file f, whose URL in the tree is url, for Check.
type Reader func(f tree.File, url string, data []byte) (Document, error)

// anywhere is the move Check assumes when Checker.To is empty: another
// scheme, host and depth, so that any link tied to the current place
// changes.
const anywhere = "https://relurl.invalid/moved/tree/"

// Prepare checks the root URLs and normalizes them, so that links resolved
// by the same rules compare equal to them. Check, Analyze and Fix call it; the
// fields must not change afterwards. A Checker is safe for concurrent use.
func (c *Checker) Prepare() error {
	c.once.Do(func() { c.prepErr = c.prepare() })
	return c.prepErr
}

func (c *Checker) prepare() error {
	norm := func(u string) (string, error) {
		u, err := tree.DirURL(u)
		if err != nil {
			return "", err
		}
		r, err := resolve.NewResolver(c.Spec, u, c.Options)
		if err != nil {
			return "", err
		}
		return r.Reference(u)
	}
	var err error
	if c.root, err = norm(c.Root); err != nil {
		return err
	}
	to := c.To
	if to == "" {
		to = anywhere
	}
	if c.to, err = norm(to); err != nil {
		return err
	}
	c.host = c.Host
	if c.host == nil {
		c.host = hosts["file"]
	}
	c.rootPath = "/"
	if u, err := url.Parse(c.root); err == nil && u.Scheme != "file" && u.EscapedPath() != "" {
		c.rootPath = u.EscapedPath()
	}
	c.loadRedirects()
	return nil
}

// loadRedirects reads the host's redirect file at the root of the tree.
func (c *Checker) loadRedirects() {
	if c.host.Redirects == "" || c.Dir == "" {
		return
	}
	name := c.host.Redirects
	data, err := tree.ReadFile(filepath.Join(c.Dir, name), maxRedirectFile)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		c.warnings = append(c.warnings, fmt.Sprintf("%s not read: %s", name, errtext.Of(err)))
		return
	}
	c.rulesSrc = name
	if name == ".htaccess" {
		c.rules, c.warnings = parseHtaccess(string(data), name)
	} else {
		c.rules, c.warnings = parseNetlifyRedirects(string(data), name)
	}
}

// Warnings returns what the check could not do so far: redirect rules it
// does not model, a redirect file not read (known once prepared), target
// files whose fragments Finish could not check. The list only grows.
func (c *Checker) Warnings() []string {
	c.Prepare()
	c.warnMu.Lock()
	defer c.warnMu.Unlock()
	return slices.Clone(c.warnings)
}

func (c *Checker) warn(format string, args ...any) {
	c.warnMu.Lock()
	defer c.warnMu.Unlock()
	c.warnings = append(c.warnings, fmt.Sprintf(format, args...))
}

// Check returns the findings for the document data, the file f of the
// tree. The document is opened once, through the open step (extract.Open:
// its encoding and base decided there, with f's URL in the tree as the
// retrieval URL), and read by its kind's reader: a page's links, its
// deciding <base href> (as the open step found it) and its anchors (ids
// and <a name>s) in one pass; a stylesheet, SVG or feed, manifest or
// module. A kind that has a Reader in Checker.Readers is read by it, any
// other as HTML. Fragment links into other files are checked by Finish,
// once every file has been read.
func (c *Checker) Check(f tree.File, data []byte) ([]Finding, error) {
	defer f.Release()
	if err := c.Prepare(); err != nil {
		return nil, err
	}
	docURL := c.docURL(f)
	var doc Document
	var err error
	if r := c.Readers[f.Kind]; r != nil {
		doc, err = r(f, docURL, data)
	} else {
		doc, err = c.read(f, data)
	}
	if err != nil {
		return nil, err
	}
	if c.Dir != "" {
		c.list.names(c.Dir, dirOf(f.Rel)) // for Finish's collisions
	}
	if c.Orphans && f.Kind == base.HTML && f.Rel != "" {
		c.graph.page(f.Rel)
	}
	var own anchorSet
	if doc.HasAnchors && !c.NoAnchors {
		own = make(anchorSet, len(doc.Anchors))
		for _, a := range doc.Anchors {
			own[a] = struct{}{}
		}
		c.anchors.set(f.Rel, own)
	}
	var maps anchorSet
	if doc.HasAnchors && !c.NoAnchors {
		maps = make(anchorSet, len(doc.MapNames))
		for _, m := range doc.MapNames {
			maps[m] = struct{}{}
		}
	}
	return c.analyze(f.Path, f.Rel, docURL, doc.Base, doc.Own, doc.Links, own, maps, !c.NoAnchors, data), nil
}

// Reads reports whether Check reads files of kind k: HTML, and the kinds
// of Checker.Readers.
func (c *Checker) Reads(k base.Format) bool {
	return k == base.HTML || k == base.CSS || k == base.XML || k == base.Manifest || k == base.Module || c.Readers[k] != nil
}

// openDocument is the open step Check and Fix read a document through
// (a variable for the tests that count its calls).
var openDocument = extract.Open

// open opens data, the file f, once, through the open step: its kind (a
// kind Check reads, else HTML), its encoding and its base decided there,
// under the options Check reads it with and Fix rewrites it with.
func (c *Checker) open(f tree.File, data []byte, o extract.Options) (*extract.Document, error) {
	k := f.Kind
	switch k {
	case base.CSS, base.XML, base.Manifest, base.Module:
	default:
		k = base.HTML // as Check has always read a kind it has no reader for
	}
	return openDocument(bytes.NewReader(data), k, o)
}

// readers are the options of each kind's reader for the file f: the same
// links, resolved against the same base, in Check and in Fix.
func (c *Checker) readers(f tree.File) extract.Options {
	opts := c.htmlOptions(f)
	if own := c.ownURL(f); own != opts.Context.Retrieval {
		opts.Context.Local = &base.Local{URL: own, Path: f.Path}
	}
	return extract.Options{
		HTML:     opts,
		XML:      xmlrewrite.Options{Document: link.Document{Context: opts.Context}},
		Manifest: manifest.Options{Document: link.Document{Context: opts.Context}},
		Module:   jsmodule.Options{Document: link.Document{Context: opts.Context}, ImportMap: c.refer.ImportMap(opts.Context.Retrieval)},
	}
}

// read reads the links of data, the file f: a page (with its anchors and
// the <base href> the open step decided, which is a link too), a
// stylesheet, an SVG or feed (each link against its element's base), a
// manifest or a module.
func (c *Checker) read(f tree.File, data []byte) (Document, error) {
	var doc Document
	o := c.readers(f)
	if !c.NoAnchors && f.Kind != base.CSS && f.Kind != base.XML && f.Kind != base.Manifest && f.Kind != base.Module {
		doc.HasAnchors = true
		o.HTML.Anchor = func(name string) { doc.Anchors = append(doc.Anchors, name) }
		o.HTML.MapName = func(name string) { doc.MapNames = append(doc.MapNames, name) }
	}
	if f.Kind == base.HTML {
		// What the page tells of the tree's other files, for the walk
		// (referral.Reader.Gather).
		if ref := f.Referrer(); ref != nil {
			o.HTML.Referrer = ref
		}
	}
	if l := o.HTML.Context.Local; l != nil {
		doc.Own = l.URL
	}
	d, err := c.open(f, data, o)
	if err != nil {
		return doc, err
	}
	defer d.Close()
	// The <base href> is a link of its own; the open step found it while
	// deciding the base: the document is not scanned a second time.
	if e := d.Element(); e.Found {
		doc.Links = append(doc.Links, link.Link{Raw: e.Href, Tag: "base", Attr: "href", Line: e.Line, Column: e.Column, Offset: e.Offset})
	}
	res, err := d.Links(func(l link.Link) error {
		l.Raw = reference(l.Raw)
		doc.Links = append(doc.Links, l)
		return nil
	})
	doc.Base = res.Base.URL
	return doc, err
}

// column16 returns the column, in UTF-16 code units, of the byte at
// offset, whose column in bytes is col.
func column16(data []byte, offset int64, col int) int {
	start := offset - int64(col-1)
	if col < 1 || start < 0 || offset > int64(len(data)) {
		return 0
	}
	n := 1
	for b := data[start:offset]; len(b) > 0; {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		n++
		if r >= 0x10000 {
			n++
		}
	}
	return n
}

// docURL returns the URL of the file f in the tree at its current place,
// or with SavedFrom a saved page's live URL.
func (c *Checker) docURL(f tree.File) string {
	if c.SavedFrom {
		if u, ok := tree.SavedFrom(f.Head); ok {
			return u
		}
	}
	return c.ownURL(f)
}

// ownURL returns the URL of the file f in the tree at its current place.
func (c *Checker) ownURL(f tree.File) string { return c.root + tree.EscapePath(f.Rel) }

// htmlOptions are the options under which Check reads the file f and Fix
// rewrites it: the same links, resolved against the same base.
func (c *Checker) htmlOptions(f tree.File) htmlrewrite.Options { return c.optionsAt(c.docURL(f)) }

// optionsAt are the options of a document retrieved from docURL.
func (c *Checker) optionsAt(docURL string) htmlrewrite.Options {
	return htmlrewrite.Options{
		Document:  link.Document{Context: base.Context{Spec: c.Spec, Options: c.Options, Retrieval: docURL}, ContentType: c.ContentType},
		Scripting: c.Scripting,
		// A stylesheet's environment encoding (CSS Syntax §3.2), when
		// a walk with its Referrals found a page giving one.
		SheetEnvironment: c.refer.SheetEnvironment(docURL),
	}
}

// reference returns the reference in a URL value as written: without the
// ASCII whitespace around it (HTML: "a valid URL potentially surrounded by
// spaces"), which link.Link.Raw keeps.
func reference(raw string) string { return strings.Trim(raw, "\t\n\f\r ") }

// Analyze returns the findings for links, found in the file path whose URL
// is docURL and whose base URL (after any <base>) is baseURL. Fragments
// are not checked: Check does that, knowing the documents' anchors.
func (c *Checker) Analyze(path, docURL, baseURL string, links []link.Link) []Finding {
	return c.analyze(path, "", docURL, baseURL, "", links, nil, nil, false, nil)
}

// analyze returns the findings for the links of the file path (rel in the
// tree), whose own anchors are own and whose image maps are maps (nil:
// not known, usemap unchecked); with anchors, fragment links into
// other files are recorded for Finish. ownURL is a saved page's URL in the
// tree ("" for any other document): its links resolved against it (their
// Base) are the local ones, which move with the tree.
func (c *Checker) analyze(path, rel, docURL, baseURL, ownURL string, links []link.Link, own, maps anchorSet, anchors bool, data []byte) []Finding {
	if err := c.Prepare(); err != nil {
		return []Finding{{File: path, Problem: Invalid, Reason: err.Error()}}
	}
	newBase := c.move(baseURL)
	relativizer, _ := resolve.NewResolver(c.Spec, baseURL, c.Options)
	mover, _ := resolve.NewResolver(c.Spec, newBase, c.Options)
	var ownRelativizer, ownMover *resolve.Resolver
	if ownURL != "" {
		ownRelativizer, _ = resolve.NewResolver(c.Spec, ownURL, c.Options)
		ownMover, _ = resolve.NewResolver(c.Spec, c.move(ownURL), c.Options)
	}
	var out []Finding
	var wait []pending
	before := c.To != ""
	add := func(l link.Link, p Problem, reason string) *Finding {
		out = append(out, Finding{File: path, Line: l.Line, Column: l.Column, Column16: column16(data, l.Offset, l.Column), Link: l.Raw, URL: l.URL, Problem: p, Reason: reason, Offset: l.Offset})
		return &out[len(out)-1]
	}
	for _, l := range links {
		if l.Tag == "base" && l.Attr == "href" {
			f := add(l, BasePin, "<base href> pins every relative link of the file to "+baseURL)
			if _, in := c.inTree(baseURL); c.ToServed && in && formOf(l.Raw) != relativeForm {
				// Made relative to the document (whose URL a <base
				// href> resolves against), the base moves with the
				// tree and the links that lean on it stay right.
				if own, err := resolve.NewResolver(c.Spec, docURL, c.Options); err == nil {
					f.Relative = relative(own, baseURL)
				}
			}
			continue
		}
		if c.Grammar != nil {
			if err := c.Grammar(l.Raw); err != nil {
				add(l, Invalid, err.Error())
			}
		}
		if l.Attr == "usemap" && maps != nil {
			// A hash-name reference names a <map> of this document by its
			// name or id (HTML, image maps), never a URL's fragment.
			if name, ok := strings.CutPrefix(l.Raw, "#"); ok && name != "" {
				if _, found := maps[name]; !found {
					f := add(l, MissingAnchor, "no <map name> or <map id> \""+name+"\" in "+rel)
					f.Target = rel + "#" + name
				}
			}
			continue
		}
		mover, relativizer := mover, relativizer
		if ownURL != "" && l.Base.URL == ownURL {
			mover, relativizer = ownMover, ownRelativizer
		}
		if l.Err != nil || l.URL == "" || mover == nil {
			continue
		}
		p, inTree := c.inTree(l.URL)
		var t target
		switch {
		case inTree && importPrefix(l):
			t = c.lookupPrefix(p)
		case inTree:
			t = c.lookup(p)
		}
		if c.Orphans && rel != "" && t.ok {
			c.graph.link(rel, t.served)
		}
		// A link whose case is wrong is fixed to the right case.
		fixedURL := l.URL
		if t.caseFix != "" {
			fixedURL = c.root + tree.EscapePath(t.caseFix) + urlTail(l.URL)
		}
		n := len(out)
		// An absolute link to a file the tree lacks keeps reaching
		// whatever the old place serves: a move does not change it.
		present := inTree && (t.ok || t.caseFix != "")
		if c.ToServed && t.ok && t.caseFix == "" && t.served.file != "" {
			fixedURL = c.root + tree.EscapePath(strings.TrimPrefix(t.served.file, "./")) + urlTail(l.URL)
		}
		climbs := c.check(l, fixedURL, inTree, present || inTree && c.FixMissing && c.AbsoluteMissing, mover, relativizer, add)
		if c.ToServed && fixedURL != l.URL && formOf(l.Raw) == relativeForm && len(out) == n {
			// "docs/" opened from file: is a listing, "about" no
			// file: the path of the file that serves them is.
			if r := relative(relativizer, fixedURL); r != "" && r != l.Raw {
				f := add(l, Absolute, "")
				f.Relative, f.served = r, true
			}
		}
		for i := n; i < len(out); i++ {
			out[i].Target = t.name
		}
		if !inTree || climbs {
			continue
		}
		switch {
		case t.caseFix != "":
			how := "letter case"
			if !strings.EqualFold(p, t.name) {
				how = "letter case or Unicode normalization (NFC/NFD)"
			}
			f := add(l, CaseMismatch, "no file "+p+" in the tree; "+t.name+" differs in "+how+" only")
			f.Relative, f.Target, f.Before = relative(relativizer, fixedURL), t.name, before
		case !t.ok:
			f := add(l, Missing, t.reason)
			f.Target, f.Before = t.name, before
		case anchors && t.served.dir != "":
			// The file profile counts a directory as there, as a server
			// with an index file would serve it: its fragment is checked
			// in that index file; without one, a browser shows a listing,
			// which has no anchor.
			frag, ok := fragment(l.URL)
			if !ok || frag == "" {
				continue
			}
			index := strings.TrimPrefix(t.served.dir, "./") + "index.html"
			if n := c.namesOf(index); n != nil {
				if !n.indicates(frag, false) {
					f := add(l, MissingAnchor, "")
					*f = c.anchorFinding(path, newPending(l, column16(data, l.Offset, l.Column), index, frag, before))
				}
				continue
			}
			f := add(l, MissingAnchor, "no anchor \""+fragmentName(frag)+"\" in "+t.served.dir+": a directory without index.html opens as a listing")
			f.Target, f.Before = t.served.dir+"#"+frag, before
		case anchors && t.served.file != "":
			// Any file may be HTML (the walk sniffs extensionless
			// ones); Finish reads only HTML and SVG by name.
			frag, ok := fragment(l.URL)
			if !ok {
				continue
			}
			if t.served.file == rel && own != nil {
				if !own.indicates(frag, isSVG(rel)) {
					f := add(l, MissingAnchor, "")
					*f = c.anchorFinding(path, newPending(l, column16(data, l.Offset, l.Column), rel, frag, before))
				}
				continue
			}
			// A target read already is checked now; a finding still waits
			// for Finish, so that the output does not depend on timing.
			if n, ok := c.anchors.known(t.served.file); ok && (n == nil || n.indicates(frag, isSVG(t.served.file))) {
				continue
			}
			wait = append(wait, newPending(l, column16(data, l.Offset, l.Column), t.served.file, frag, before))
		}
	}
	if anchors && rel != "" {
		c.anchors.wait(path, wait)
	}
	return out
}

// fragment returns the fragment of the URL u, without "#".
func fragment(u string) (string, bool) {
	i := strings.IndexByte(u, '#')
	if i < 0 {
		return "", false
	}
	return u[i+1:], true
}

// urlTail returns the query and fragment of u, with their "?" and "#".
func urlTail(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		return u[i:]
	}
	return ""
}

// target is what a link into the tree reaches.
type target struct {
	served
	name    string // the tree-relative path served, or the missing path
	caseFix string // for a case mismatch: the path with the tree's case
	loop    bool   // too many redirects
}

// maxHops bounds the redirects followed for one link.
const maxHops = 10

// lookup returns what the host serves for the tree-relative path p
// (percent-decoded, "" or ending in "/" for a directory), following the
// host's redirect rules, and the case-corrected path when only another
// letter case matches.
func (c *Checker) lookup(p string) target {
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			// RFC 3986 §5.2.4 removed these; a raw "%2e%2e" is a name
			// the host would not serve: not the tree's business.
			return target{served: served{ok: true}, name: p}
		}
	}
	if c.Dir == "" {
		return target{served: served{ok: true}, name: p}
	}
	// Many links share a target: each path is looked up once.
	c.lookups.mu.Lock()
	t, ok := c.lookups.m[p]
	c.lookups.mu.Unlock()
	if ok {
		return t
	}
	t = c.lookupPath(p)
	c.lookups.mu.Lock()
	if c.lookups.m == nil {
		c.lookups.m = map[string]target{}
	}
	if len(c.lookups.m) < maxLookups {
		c.lookups.m[p] = t
	}
	c.lookups.mu.Unlock()
	return t
}

// importPrefix reports whether the link l is an import map's prefix (a
// key or address ending in "/", or a scope): HTML "resolve an imports
// match" joins the rest of a specifier to it, so it names a directory of
// modules, never a page the host serves.
func importPrefix(l link.Link) bool {
	if l.Tag != "script" || !strings.HasPrefix(l.Attr, "importmap:") {
		return false
	}
	return l.Attr == "importmap:scope" || strings.HasSuffix(reference(l.Raw), "/")
}

// lookupPrefix is lookup for an import map prefix: present when the
// tree has the directory, whatever the host serves for it.
func (c *Checker) lookupPrefix(p string) target {
	if c.Dir == "" || p == "" {
		return target{served: served{ok: true, dir: "./"}, name: p}
	}
	d := strings.TrimSuffix(p, "/")
	real, isDir, ok := c.entry(d, false)
	if ok && isDir {
		return target{served: served{ok: true, dir: dirName(real)}, name: dirName(real)}
	}
	return c.lookup(p)
}

// maxLookups bounds the paths whose lookups are remembered.
const maxLookups = 1 << 20

// lookupPath is lookup without the cache.
func (c *Checker) lookupPath(p string) target {
	t := c.follow(p, 0)
	if t.ok || c.host.CaseInsensitive {
		return t
	}
	if s := c.serve(p, true); s.ok {
		fixed := c.correctCase(p)
		if fixed != p {
			return target{served: s, name: fixed, caseFix: fixed}
		}
	}
	return t
}

// follow serves p, applying the first redirect rule that matches it.
func (c *Checker) follow(p string, hops int) target {
	s := c.serve(p, false)
	name := s.file
	if name == "" {
		name = s.dir
	}
	if name == "" {
		name = p
	}
	for i := range c.rules {
		r := &c.rules[i]
		if s.ok && !r.force && !c.host.ForcedRedirects {
			break // a file shadows the rules (Netlify)
		}
		to, ok := r.match(c.rootPath + tree.EscapePath(p))
		if !ok {
			continue
		}
		where := fmt.Sprintf("%s line %d", c.rulesSrc, r.line)
		if r.status == 404 || r.status == 410 || to == "" {
			return target{served: served{reason: fmt.Sprintf("%s answers %s with status %d", where, "/"+p, r.status)}, name: p}
		}
		next, inTree := c.redirectPath(p, to)
		if !inTree {
			return target{served: served{ok: true}, name: p} // leaves the tree: not checked here
		}
		if hops >= maxHops {
			return target{served: served{reason: fmt.Sprintf("more than %d redirects (a loop?)", maxHops)}, name: p, loop: true}
		}
		t := c.follow(next, hops+1)
		if !t.ok && !t.loop {
			t.reason = where + " redirects " + "/" + p + " to " + to + ": " + t.reason
		}
		if t.loop && hops == 0 {
			t.reason = where + " redirects " + "/" + p + " to " + to + ", and so on: " + t.reason
		}
		return t
	}
	return target{served: s, name: name}
}

// redirectPath maps a rule's destination to a tree-relative path.
func (c *Checker) redirectPath(from, to string) (string, bool) {
	to = strings.TrimSpace(to)
	if i := strings.IndexAny(to, "?#"); i >= 0 {
		to = to[:i]
	}
	switch {
	case strings.HasPrefix(to, c.root):
		to = to[len(c.root):]
	case strings.HasPrefix(to, "//"):
		return "", false
	case strings.HasPrefix(to, c.rootPath):
		to = to[len(c.rootPath):]
	case strings.HasPrefix(to, "/"):
		return "", false // elsewhere on the host
	default:
		if _, abs := resolve.Scheme(to); abs {
			return "", false
		}
		to = path.Join(path.Dir("/"+from), to)[1:]
	}
	d, err := url.PathUnescape(to)
	if err != nil {
		return to, true
	}
	return d, true
}

// correctCase returns p with each segment spelled as in the tree, where
// only its letter case differs.
func (c *Checker) correctCase(p string) string {
	segs := strings.Split(p, "/")
	dir := ""
	for i, seg := range segs {
		if seg == "" {
			continue
		}
		names := c.list.names(c.Dir, dir)
		if _, ok := names[seg]; !ok {
			var match []string
			for n := range names {
				switch {
				case sameName(n, seg):
					match = append(match, n)
				case i == len(segs)-1 && c.host.Extensionless && strings.HasSuffix(n, ".html") && sameName(n[:len(n)-5], seg):
					match = append(match, n[:len(n)-5]) // "About" for about.html
				}
			}
			if len(match) == 0 {
				return p
			}
			slices.Sort(match)
			seg = match[0]
		}
		segs[i] = seg
		dir = path.Join(dir, seg)
	}
	return strings.Join(segs, "/")
}

// sameName reports whether the names a and b are equal once letter case
// (Unicode simple folding) and normalization (NFC; HFS+ stored NFD) are
// set aside: what a case-insensitive, normalization-insensitive file
// system (APFS, NTFS by default) takes for one name.
func sameName(a, b string) bool {
	if strings.EqualFold(a, b) {
		return true
	}
	return strings.EqualFold(norm.NFC.String(a), norm.NFC.String(b))
}

// check adds the finding of a link whose target changes when the tree
// moves, and reports whether the link climbs out of the tree.
func (c *Checker) check(l link.Link, fixedURL string, inTree, present bool, mover, relativizer *resolve.Resolver, add func(link.Link, Problem, string) *Finding) bool {
	moved, err := mover.Reference(l.Raw)
	if err != nil || moved == c.move(l.URL) {
		return false
	}
	switch form := formOf(l.Raw); {
	case form == absoluteForm || form == networkForm:
		if !present {
			break
		}
		f := add(l, Absolute, "absolute link into the tree breaks when the tree moves")
		f.Relative = fitted(l, relative(relativizer, fixedURL))
	case form == pathForm:
		f := add(l, RootRelative, "root-relative link breaks when the tree moves under another path or host")
		if inTree {
			f.Relative = fitted(l, relative(relativizer, fixedURL))
		}
	case form == relativeForm && !strings.HasPrefix(moved, c.to):
		// Out of the tree, or above its root on a host where "../"
		// stops at the top (RFC 3986 §5.2.4, WHATWG).
		add(l, ClimbsOut, "relative link climbs out of the tree")
		return true
	}
	return false
}

// relative returns the shortest relative-path reference (no scheme, no
// "/" in front) that r resolves to target, or "" when there is none:
// "/x" pins a tree as much as an absolute URL does. A link to the base
// document itself gets its last segment ("page.html"), or "./" for a
// directory URL, rather than the empty reference: "" is no link to fix
// to, and a page's own URL has a relative form like any other.
func relative(r *resolve.Resolver, target string) string {
	if r == nil {
		return ""
	}
	ref, err := r.RelativePath(target)
	if err != nil {
		return ""
	}
	if ref == "" {
		ref = selfReference(target)
		if got, err := r.Reference(ref); err != nil || got != target {
			return ""
		}
	}
	return ref
}

// fitted returns the relative reference ref as it can stand where the
// link l stands: a srcset candidate's URL cannot begin with a comma (HTML
// "parse a srcset attribute" skips leading commas), and a "./" in front
// keeps the reference what it was.
func fitted(l link.Link, ref string) string {
	if (l.Attr == "srcset" || l.Attr == "imagesrcset") && strings.HasPrefix(ref, ",") {
		return "./" + ref
	}
	return ref
}

// selfReference returns the last segment of target's path, or "./" when
// it is empty; "./" goes in front of a segment with a ":" (RFC 3986
// §4.2).
func selfReference(target string) string {
	p := target
	if i := strings.IndexByte(p, '?'); i >= 0 {
		p = p[:i]
	}
	seg := p[strings.LastIndexByte(p, '/')+1:]
	if seg == "" || strings.Contains(seg, ":") {
		seg = "./" + seg
	}
	return seg + target[len(p):]
}

// inTree reports whether u lies in the tree and returns its path there
// (percent-decoded, "" or ending in "/" for a directory), without query or
// fragment.
func (c *Checker) inTree(u string) (string, bool) { return tree.PathOf(u, c.root) }

// move returns where the URL u is after the tree moves: its place in the
// new tree, or u itself when it is outside the tree.
func (c *Checker) move(u string) string {
	if strings.HasPrefix(u, c.root) {
		return c.to + u[len(c.root):]
	}
	return u
}

// refForm is the shape of a reference by RFC 3986 §4.2 (and the draft's
// §2.2): what part of the base it takes.
type refForm int

const (
	relativeForm refForm = iota // "g", "../g", "?q", "#f"
	pathForm                    // "/g"
	networkForm                 // "//host/g"
	absoluteForm                // "http://host/g"
)

// formOf classifies raw as the HTML URL parser sees it: leading and
// trailing C0 controls and spaces ignored, "\" as "/" (WHATWG URL
// "special" schemes; harmless for the RFC modes' reading of the usual
// links).
func formOf(raw string) refForm {
	s := strings.TrimFunc(raw, func(r rune) bool { return r <= ' ' })
	s = strings.ReplaceAll(s, `\`, "/")
	_, abs := resolve.Scheme(s)
	switch {
	case abs:
		return absoluteForm
	case strings.HasPrefix(s, "//"):
		return networkForm
	case strings.HasPrefix(s, "/"):
		return pathForm
	}
	return relativeForm
}

// Fix rewrites, in the document data (the file f of the tree, as given
// to Check), each Absolute, RootRelative or CaseMismatch link of findings
// that has a relative form to that form, and returns the new document and
// the number of links changed. A link whose target is missing from the
// tree is left as written unless Checker.FixMissing (or written absolute,
// with Checker.MissingToSite); a file of a kind
// Checker.Readers reads is returned unchanged. The document is opened as
// Check opens it (extract.Open, the same kind, options and decisions) and
// goes through the rewriter of its kind, so a link is found wherever
// Check found it (an attribute, one candidate of a srcset, a CSS url(), a
// refresh, a JSON member, a module specifier) and the new reference is
// escaped for that place; every other byte stays as it was. A module specifier or import
// map address gets a "./" where its relative form would be a bare name.
// A finding whose link is no longer at its offset is left alone.
func (c *Checker) Fix(f tree.File, data []byte, findings []Finding) ([]byte, int, error) {
	if c.Readers[f.Kind] != nil {
		return data, 0, nil // read by a caller's Reader: not rewritten here
	}
	if err := c.Prepare(); err != nil {
		return nil, 0, err
	}
	// Keyed by the value too: the candidates of a srcset whose value has
	// character references all report the offset of the value.
	type at struct {
		offset int64
		raw    string
	}
	fixes := map[at]string{}
	missing := map[at]bool{}
	baseFix := "" // the relative form of an in-tree <base href> (ToServed)
	toSite := c.MissingToSite && !c.FixMissing && !strings.HasPrefix(c.root, "file:")
	for _, fd := range findings {
		if fd.Problem != Missing {
			continue
		}
		missing[at{fd.Offset, fd.Link}] = true
		if toSite && fd.URL != "" && formOf(fd.Link) != absoluteForm {
			fixes[at{fd.Offset, fd.Link}] = fd.URL
		}
	}
	for _, fd := range findings {
		k := at{fd.Offset, fd.Link}
		if fd.Problem == BasePin && fd.Relative != "" {
			// Reported at its element's offset, not its value's.
			baseFix = fd.Relative
			continue
		}
		if (fd.Problem == Absolute || fd.Problem == RootRelative || fd.Problem == CaseMismatch) && fd.Relative != "" && (c.FixMissing || !missing[k]) || fd.served {
			fixes[k] = fd.Relative
		}
	}
	if len(fixes) == 0 && baseFix == "" {
		return data, 0, nil
	}
	fix := func(l link.Link) (string, bool) {
		if rel, ok := fixes[at{l.Offset, reference(l.Raw)}]; ok {
			if moduleSpecifier(l) && modspec.Bare(rel) {
				rel = "./" + rel // "x.js" would be a bare specifier
			}
			return rel, true
		}
		return l.Raw, true // every other value as written
	}
	o := c.readers(f)
	o.HTML.Map, o.XML.Map, o.Manifest.Map, o.Module.Map = fix, fix, fix, fix
	o.HTML.BaseHref = baseFix
	o.Module.Absolute = true // an absolute specifier into the tree is fixed too
	d, err := c.open(f, data, o)
	if err != nil {
		return nil, 0, err
	}
	defer d.Close()
	var b bytes.Buffer
	b.Grow(len(data))
	st, err := d.Rewrite(&b)
	if err != nil {
		return nil, 0, err
	}
	return b.Bytes(), st.Rewritten, nil
}

// moduleSpecifier reports whether the link l is a module specifier or
// an import map address, where a relative reference must be URL-like
// (HTML "resolve a URL-like module specifier").
func moduleSpecifier(l link.Link) bool {
	if l.Kind != link.Import || l.Tag == "link" || l.Attr == "src" {
		return false // <link rel=modulepreload href>, <script src>: plain URLs
	}
	return true
}

// Referrals returns the referral.Reader a walk of the checker's tree uses: the
// pages and modules read as Check reads them.
func (c *Checker) Referrals() *referral.Reader {
	if err := c.Prepare(); err != nil {
		return nil
	}
	m, err := tree.NewMapper(c.root)
	if err != nil {
		return nil
	}
	c.refer = &referral.Reader{
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
