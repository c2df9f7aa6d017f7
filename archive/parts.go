package archive

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
