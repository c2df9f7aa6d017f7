package archive

import (
	"net/url"
	"strings"

	"github.com/relurl/relurl/link"
)

// localName returns what a link to part t is written as under mode, with
// fragment appended, or "" to leave the link alone.
func (m *Message) localName(t *Part, fragment string) string {
	switch m.opts.Local {
	case LocalCID:
		if id := contentID(t.Header.Get("Content-ID")); id != "" {
			// RFC 2392 §2: characters a URL cannot hold, "/" among
			// them, are %-escaped.
			return "cid:" + url.PathEscape(id) + fragment
		}
	case LocalLocation:
		if u, ok := m.locationOf[t]; ok && !strings.HasPrefix(strings.ToLower(u), "cid:") {
			return u + fragment
		}
	}
	return ""
}

// linkMap returns the Document.Map of part p's rewrite, or
// nil when the defaults serve. A link that names another part of the
// archive (RFC 2557 §8) is written as Options.Local says. A reference
// that resolves against thismessage:/ is left as written: that base
// exists to match references inside the archive (RFC 2557 §5(e)), and a
// thismessage: URL means nothing outside it.
func (m *Message) linkMap(p *Part) func(link.Link) (string, bool) {
	if m.opts.Local == LocalNone && !strings.HasPrefix(p.Base.URL, ThisMessage) {
		return nil
	}
	return func(l link.Link) (string, bool) {
		if t := m.Find(l.URL); t != nil && t != p && m.opts.Local != LocalNone {
			frag := ""
			if i := strings.IndexByte(l.URL, '#'); i >= 0 {
				frag = l.URL[i:]
			}
			if name := m.localName(t, frag); name != "" && name != l.URL {
				return name, true
			}
		}
		if strings.HasPrefix(l.URL, ThisMessage) {
			return l.Raw, true
		}
		return "", false
	}
}
