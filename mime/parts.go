package mime

import "github.com/relurl/relurl/htmlrewrite"

// Location returns the URL part p is found under (RFC 2557 §8): its
// Content-Location resolved against its enclosing base, without the
// fragment, or "" when p has none (or another part took it first); a
// part named only by its Content-ID is found by "cid:" URLs (see Find).
func (m *Message) Location(p *Part) string {
	if u, ok := m.locationOf[p]; ok {
		return u
	}
	return ""
}

// ContentID returns part p's Content-ID without its angle brackets, or "".
func (p *Part) ContentID() string { return contentID(p.Header.Get("Content-ID")) }

// HTMLOptions returns the options that read part p as Links and Rewrite
// do: Options.HTML with the part's spec, its layers below its own <base>
// (package base's Context for the part) and its Content-Type, and no Map.
// A caller that rewrites parts its own way sets Map on the result.
func (m *Message) HTMLOptions(p *Part) htmlrewrite.Options { return m.htmlOptions(p) }
