package resolve

import (
	"strings"
)

// Scope is where a tree stands on the web: the URL of its root, written
// once as the resolver writes URLs (lower-case scheme and host, ...), so
// that the links resolved in its documents compare with it as strings.
type Scope struct {
	root string
}

// NewScope returns the scope of the tree whose root URL is root, written
// as a reference resolved under spec and opts would be. A root the
// resolver cannot read is kept as given.
func NewScope(spec Spec, opts Options, root string) Scope {
	if r, err := NewResolver(spec, root, opts); err == nil {
		if n, err := r.Reference(root); err == nil {
			root = n
		}
	}
	return Scope{root: root}
}

// Root returns the scope's root URL, normalized.
func (s Scope) Root() string { return s.root }

// Contains reports whether the absolute URL u, as the resolver writes it,
// is inside the tree: under its root.
func (s Scope) Contains(u string) bool {
	return s.root != "" && u != "" && strings.HasPrefix(u, s.root)
}

// SameOrigin reports whether the absolute URLs a and b have the same
// scheme and host (with its port), ASCII case-insensitively, as the
// draft's §2.4 parse splits them; false when either has no host. It is
// the scope of a document in an archive, which has no tree root.
func SameOrigin(a, b string) bool {
	oa, ob := origin(a), origin(b)
	return oa != "" && strings.EqualFold(oa, ob)
}

// origin returns scheme "://" host[:port] of u, or "" when it has none.
func origin(u string) string {
	p := Parse(u)
	if !p.HasScheme || !p.HasNetLoc {
		return ""
	}
	host := p.NetLoc
	if i := strings.LastIndexByte(host, '@'); i >= 0 {
		host = host[i+1:] // §2.4.3's net_loc may hold user information
	}
	if host == "" {
		return ""
	}
	return p.Scheme + "://" + host
}
