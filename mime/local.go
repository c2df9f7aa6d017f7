package mime

import (
	"bytes"
	"html"
	"net/url"
	"strings"

	"github.com/relurl/relurl/htmlrewrite"
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

// localize points the links of a rewritten HTML document (or <style>
// wrapped stylesheet) that name a part of the archive at that part. It
// edits a value only where the document's bytes at the link's offset are
// exactly the value htmlrewrite reports (no character references, no
// transcoding), which is how htmlrewrite writes the URLs it rewrote; any
// other link is left as it is and counted in skipped.
func (m *Message) localize(p *Part, doc []byte, opts htmlrewrite.Options) (out []byte, changed, skipped int, err error) {
	type edit struct {
		off, end int
		s        string
	}
	var edits []edit
	_, err = htmlrewrite.Links(bytes.NewReader(doc), opts, func(l htmlrewrite.Link) error {
		if l.Err != nil || l.URL == "" {
			return nil
		}
		t := m.Find(l.URL)
		if t == nil || t == p {
			return nil
		}
		frag := ""
		if i := strings.IndexByte(l.URL, '#'); i >= 0 {
			frag = l.URL[i:]
		}
		repl := m.localName(t, frag)
		if repl == "" || repl == l.Raw {
			return nil
		}
		off, end := int(l.Offset), int(l.Offset)+len(l.Raw)
		if off < 0 || end > len(doc) || string(doc[off:end]) != l.Raw || (len(edits) > 0 && off < edits[len(edits)-1].end) {
			skipped++
			return nil
		}
		if l.Attr != "" {
			// In an attribute value; a <style> sheet is raw text.
			repl = html.EscapeString(repl)
		}
		edits = append(edits, edit{off, end, repl})
		return nil
	})
	if err != nil || len(edits) == 0 {
		return doc, 0, skipped, err
	}
	var b bytes.Buffer
	b.Grow(len(doc))
	last := 0
	for _, e := range edits {
		b.Write(doc[last:e.off])
		b.WriteString(e.s)
		last = e.end
	}
	b.Write(doc[last:])
	return b.Bytes(), len(edits), skipped, nil
}
