// Package linkfilter chooses, among the links read from documents, those a
// crawler or a site maintainer asked for, and writes their URLs the way
// they are to be compared: by kind, by scheme, inside or outside the
// document's site, with the fragment stripped and the normalizations of
// RFC 3986 §6 ([resolve.Normalize]) applied, so that de-duplication counts
// the URLs that name the same resource once.
//
// The scope of a link — internal or external — is decided one way for
// every kind of input: a document walked in a tree is inside when its URL
// is under the tree's root URL ([resolve.Scope]); any other document (a file
// given alone, standard input, a part of an MHTML archive, a WARC record)
// has no tree, and a link is inside when it has the same origin as the
// document ([resolve.SameOrigin]: scheme, host and port).
package linkfilter

import (
	"strings"

	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// Scope selects links by where they lead.
type Scope int

const (
	// Anywhere keeps links wherever they lead.
	Anywhere Scope = iota
	// Internal keeps the links into the tree, or to the document's origin.
	Internal
	// External keeps the others, and the links that did not resolve.
	External
)

// A Filter chooses links and writes their URLs. The zero Filter keeps
// every link as it is.
type Filter struct {
	// Kinds keeps only links of these kinds; nil keeps every kind.
	Kinds map[link.Kind]bool
	// Schemes keeps only URLs with one of these schemes, compared ASCII
	// case-insensitively; nil keeps every scheme. A link that did not
	// resolve has no URL, so no scheme: it is left out.
	Schemes []string
	// StripFragment removes the fragment ("#..."), which no server sees.
	StripFragment bool
	// Normalize is applied to every URL (after StripFragment).
	Normalize resolve.Normalization
	// Scope keeps the links inside or outside the document's site, decided
	// on the URL as written after StripFragment and Normalize.
	Scope Scope
}

// A Site is where the document a link is in stands: the root of its tree,
// or without one, the document's own URL, whose origin is the site.
type Site struct {
	Tree     resolve.Scope // the tree's root URL; zero for a document alone
	Document string        // the document's URL (of a WARC record: its target URI)
}

// Apply returns the URL u of a link of the given kind, in the document at
// site, as the filter writes it, and whether the link is kept. u is ""
// for a link that did not resolve; it stays "".
func (f *Filter) Apply(kind link.Kind, u string, site Site) (string, bool) {
	if f.Kinds != nil && !f.Kinds[kind] {
		return u, false
	}
	u = f.URL(u)
	if f.Schemes != nil && !f.hasScheme(u) {
		return u, false
	}
	if f.Scope != Anywhere && f.contains(site, u) != (f.Scope == Internal) {
		return u, false
	}
	return u, true
}

// contains is site.Contains, with the tree's root normalized as the URLs
// are, so that they compare.
func (f *Filter) contains(site Site, u string) bool {
	root := site.Tree.Root()
	if f.Normalize == 0 || root == "" {
		return site.Contains(u)
	}
	if n, err := resolve.Normalize(root, f.Normalize&^notForRoots); err == nil {
		root = n
	}
	return under(u, root)
}

// notForRoots are the normalizations a tree's root URL is not given: it is
// a prefix, which these would cut or reorder past its path.
const notForRoots = resolve.SortQuery | resolve.RemoveEmptyQuery | resolve.RemoveFragment | resolve.RemoveDirectoryIndex

// URL returns u with the fragment stripped and normalized as f asks. A
// URL Normalize cannot read (one without a scheme) is left as it is.
func (f *Filter) URL(u string) string {
	if u == "" {
		return u
	}
	if f.StripFragment {
		if i := strings.IndexByte(u, '#'); i >= 0 {
			u = u[:i]
		}
	}
	if f.Normalize != 0 {
		if n, err := resolve.Normalize(u, f.Normalize); err == nil {
			u = n
		}
	}
	return u
}

func (f *Filter) hasScheme(u string) bool {
	p := resolve.Parse(u)
	if !p.HasScheme {
		return false
	}
	for _, s := range f.Schemes {
		if strings.EqualFold(s, p.Scheme) {
			return true
		}
	}
	return false
}

// Contains reports whether the absolute URL u is inside the site: under
// the tree's root, or for a document alone, of the same origin as the
// document's URL. Every file: URL without a host is of the one origin of
// the local files (a saved page without --base links to its neighbours
// that way), which resolve.SameOrigin, having no host to compare, does not
// say.
func (s Site) Contains(u string) bool {
	if u == "" {
		return false
	}
	if root := s.Tree.Root(); root != "" {
		return under(u, root)
	}
	if resolve.SameOrigin(u, s.Document) {
		return true
	}
	return localFile(u) && localFile(s.Document)
}

// under reports whether the URL u is under root: it starts with root, the
// scheme and authority compared ASCII case-insensitively (RFC 3986
// §6.2.2.1: "HTTPS://Example.ORG/site/a" is under "https://example.org/site/",
// which resolve.Scope, comparing the resolver's spelling, does not say in the
// RFC modes), the rest exactly.
func under(u, root string) bool {
	if u == "" || root == "" {
		return false
	}
	nu, nr := authorityEnd(u), authorityEnd(root)
	if nr > 0 && nr == len(root) {
		// A root with no path is the whole site, not a string prefix:
		// "https://example.org" does not hold "https://example.org.evil/".
		return nu > 0 && strings.EqualFold(u[:nu], root)
	}
	if strings.HasPrefix(u, root) {
		return true
	}
	return nu > 0 && nr > 0 && strings.EqualFold(u[:nu], root[:nr]) && strings.HasPrefix(u[nu:], root[nr:])
}

// authorityEnd returns the length of u's scheme "://" authority, or 0 when
// it has none (the draft's §2.4 parse).
func authorityEnd(u string) int {
	p := resolve.Parse(u)
	if !p.HasScheme || !p.HasNetLoc {
		return 0
	}
	n := len(p.Scheme) + len("://") + len(p.NetLoc)
	if n > len(u) || !strings.HasPrefix(u[len(p.Scheme):], "://") {
		return 0
	}
	return n
}

// localFile reports whether u is a file: URL of this machine (no host, or
// "localhost").
func localFile(u string) bool {
	p := resolve.Parse(u)
	if !p.HasScheme || !strings.EqualFold(p.Scheme, "file") {
		return false
	}
	return p.NetLoc == "" || strings.EqualFold(p.NetLoc, "localhost")
}
