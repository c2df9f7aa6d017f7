package tree

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/resolve"
)

// Problem is what makes a link break when its tree moves.
type Problem int

// The problems Check reports.
const (
	// Absolute: an absolute URL (or "//host/...") into the tree; it keeps
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
)

var problemNames = [...]string{Absolute: "absolute", RootRelative: "root-relative", ClimbsOut: "climbs-out", Missing: "missing", BasePin: "base", Invalid: "invalid"}

// String returns "absolute", "root-relative", "climbs-out", "missing",
// "base" or "invalid".
func (p Problem) String() string {
	if p > 0 && int(p) < len(problemNames) {
		return problemNames[p]
	}
	return fmt.Sprintf("Problem(%d)", int(p))
}

// MarshalText writes the name String returns.
func (p Problem) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// A Link is what Check needs to know of one link of a document.
type Link struct {
	Raw          string // the value as written, character references decoded
	URL          string // resolved against the document's base; "" when Err is set
	Err          error
	Tag, Attr    string
	Line, Column int
	Offset       int64 // byte offset of the value's first byte in the file
}

// A Finding is one problem of one link.
type Finding struct {
	File     string  `json:"file"`
	Line     int     `json:"line"`
	Column   int     `json:"column"`
	Link     string  `json:"link"`
	URL      string  `json:"url,omitempty"`
	Problem  Problem `json:"problem"`
	Reason   string  `json:"reason"`
	Relative string  `json:"relative,omitempty"` // for Absolute and RootRelative: the reference that would not break
	Offset   int64   `json:"offset"`
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

	once     sync.Once
	prepErr  error
	root, to string
}

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
		u, err := dirURL(u)
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
	c.to, err = norm(to)
	return err
}

// Check returns the findings for the HTML document data, the file f of the
// tree. Links are found by htmlrewrite.Links with f's URL in the tree as
// the retrieval URL, and the <base> element by base.ScanHTML.
func (c *Checker) Check(f File, data []byte) ([]Finding, error) {
	if err := c.Prepare(); err != nil {
		return nil, err
	}
	docURL := c.docURL(f)
	var links []Link
	if e, _, err := base.ScanHTML(bytes.NewReader(data), false); err == nil && e.Found {
		links = append(links, Link{Raw: e.Href, Tag: "base", Attr: "href", Line: e.Line, Column: e.Column, Offset: e.Offset})
	}
	res, err := htmlrewrite.Links(bytes.NewReader(data), c.htmlOptions(f), func(l htmlrewrite.Link) error {
		links = append(links, Link{Raw: reference(l.Raw), URL: l.URL, Err: l.Err, Tag: l.Tag, Attr: l.Attr, Line: l.Line, Column: l.Column, Offset: l.Offset})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return c.Analyze(f.Path, docURL, res.URL, links), nil
}

// docURL returns the URL of the file f in the tree at its current place.
func (c *Checker) docURL(f File) string { return c.root + escapePath(f.Rel) }

// htmlOptions are the options under which Check reads the file f and Fix
// rewrites it: the same links, resolved against the same base.
func (c *Checker) htmlOptions(f File) htmlrewrite.Options {
	return htmlrewrite.Options{
		Spec:        c.Spec,
		Context:     base.Context{Spec: c.Spec, Options: c.Options, Retrieval: c.docURL(f)},
		ContentType: c.ContentType,
	}
}

// reference returns the reference in a URL value as written: without the
// ASCII whitespace around it (HTML: "a valid URL potentially surrounded by
// spaces"), which htmlrewrite.Link.Raw keeps.
func reference(raw string) string { return strings.Trim(raw, "\t\n\f\r ") }

// Analyze returns the findings for links, found in the file path whose URL
// is docURL and whose base URL (after any <base>) is baseURL.
func (c *Checker) Analyze(path, docURL, baseURL string, links []Link) []Finding {
	if err := c.Prepare(); err != nil {
		return []Finding{{File: path, Problem: Invalid, Reason: err.Error()}}
	}
	newBase := c.move(baseURL)
	relativizer, _ := resolve.NewResolver(c.Spec, baseURL, c.Options)
	mover, _ := resolve.NewResolver(c.Spec, newBase, c.Options)
	var out []Finding
	add := func(l Link, p Problem, reason string) *Finding {
		out = append(out, Finding{File: path, Line: l.Line, Column: l.Column, Link: l.Raw, URL: l.URL, Problem: p, Reason: reason, Offset: l.Offset})
		return &out[len(out)-1]
	}
	for _, l := range links {
		if l.Tag == "base" && l.Attr == "href" {
			add(l, BasePin, "<base href> pins every relative link of the file to "+baseURL)
			continue
		}
		if c.Grammar != nil {
			if err := c.Grammar(l.Raw); err != nil {
				add(l, Invalid, err.Error())
			}
		}
		if l.Err != nil || l.URL == "" || mover == nil {
			continue
		}
		rel, inTree := c.inTree(l.URL)
		climbs := c.check(l, rel, inTree, mover, relativizer, add)
		if inTree && !climbs && c.missing(rel) {
			add(l, Missing, "no file "+rel+" in the tree")
		}
	}
	return out
}

// check adds the finding of a link whose target changes when the tree
// moves, and reports whether the link climbs out of the tree.
func (c *Checker) check(l Link, rel string, inTree bool, mover, relativizer *resolve.Resolver, add func(Link, Problem, string) *Finding) bool {
	moved, err := mover.Reference(l.Raw)
	if err != nil || moved == c.move(l.URL) {
		return false
	}
	switch form := formOf(l.Raw); {
	case inTree && (form == absoluteForm || form == networkForm):
		f := add(l, Absolute, "absolute link into the tree breaks when the tree moves")
		f.Relative = relative(relativizer, l.URL)
	case form == pathForm:
		f := add(l, RootRelative, "root-relative link breaks when the tree moves under another path or host")
		if inTree {
			f.Relative = relative(relativizer, l.URL)
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
// "/x" pins a tree as much as an absolute URL does.
func relative(r *resolve.Resolver, target string) string {
	if r == nil {
		return ""
	}
	ref, err := r.RelativePath(target)
	if err != nil {
		return ""
	}
	return ref
}

// inTree reports whether u lies in the tree and returns its path there
// (percent-decoded, "" or ending in "/" for a directory), without query or
// fragment.
func (c *Checker) inTree(u string) (string, bool) {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	if !strings.HasPrefix(u, c.root) {
		return "", false
	}
	p, err := url.PathUnescape(u[len(c.root):])
	if err != nil {
		return "", false
	}
	return p, true
}

// move returns where the URL u is after the tree moves: its place in the
// new tree, or u itself when it is outside the tree.
func (c *Checker) move(u string) string {
	if strings.HasPrefix(u, c.root) {
		return c.to + u[len(c.root):]
	}
	return u
}

// missing reports whether the tree has no file (or directory) at rel.
func (c *Checker) missing(rel string) bool {
	if rel == "" || c.Dir == "" {
		return false
	}
	for _, seg := range strings.Split(rel, "/") {
		if seg == ".." {
			return false // RFC 3986 §5.2.4 removed these; a raw "%2e%2e" is a name
		}
	}
	_, err := os.Stat(filepath.Join(c.Dir, filepath.FromSlash(rel)))
	return err != nil
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

// Fix rewrites, in the HTML document data (the file f of the tree, as
// given to Check), each Absolute or RootRelative link of findings that has
// a relative form to that form, and returns the new document and the
// number of links changed. The document goes through htmlrewrite.Rewrite,
// so a link is found wherever Check found it (an attribute, one candidate
// of a srcset, a CSS url(), a refresh) and the new reference is escaped
// for that place; every other byte stays as it was. A finding whose link
// is no longer at its offset is left alone.
func (c *Checker) Fix(f File, data []byte, findings []Finding) ([]byte, int, error) {
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
	for _, fd := range findings {
		if (fd.Problem == Absolute || fd.Problem == RootRelative) && fd.Relative != "" {
			fixes[at{fd.Offset, fd.Link}] = fd.Relative
		}
	}
	if len(fixes) == 0 {
		return data, 0, nil
	}
	opts := c.htmlOptions(f)
	opts.Map = func(l htmlrewrite.Link) (string, bool) {
		if rel, ok := fixes[at{l.Offset, reference(l.Raw)}]; ok {
			return rel, true
		}
		return l.Raw, true // every other value as written
	}
	var b bytes.Buffer
	b.Grow(len(data))
	st, err := htmlrewrite.Rewrite(&b, bytes.NewReader(data), opts)
	if err != nil {
		return nil, 0, err
	}
	return b.Bytes(), st.Rewritten, nil
}
