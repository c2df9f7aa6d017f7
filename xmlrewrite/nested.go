package xmlrewrite

import (
	"bufio"
	"bytes"
	"io"
	"strconv"
	"strings"
	"unsafe"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/link"
)

// Sentinels stand for the replacements htmlrewrite writes inside nested
// text, so that each replaced span can be found and mapped back through
// the XML escaping layer (private-use characters, refused in the input).
const (
	sentinelOpen  = "\uE000"
	sentinelClose = "\uE001"
)

// neverURL names the XHTML attributes that never hold a URL: a start tag
// with only these is not handed to htmlrewrite.
var neverURL = map[string]bool{
	"id": true, "class": true, "lang": true, "xml:lang": true, "dir": true, "title": true,
	"alt": true, "type": true, "rel": true, "name": true, "width": true, "height": true,
	"role": true, "xmlns": true,
}

// xhtmlTag reads an XHTML start tag's attributes by the HTML Standard,
// through htmlrewrite (XHTML is tokenized as XML, but its elements and
// attributes are HTML's).
func (s *scanner) xhtmlTag(t token, f scope) {
	may := false
	for _, a := range t.attrs {
		if !neverURL[a.name] && !strings.HasPrefix(a.name, "xmlns:") && !strings.HasPrefix(a.name, "aria-") {
			may = true
			break
		}
	}
	if !may {
		return
	}
	// The tag as it is: one piece, whatever its length.
	n := t.b - t.a
	d := decoded{text: s.src[t.a:t.b], pieces: []piece{{d0: 0, s0: int32(t.a), s1: int32(t.b)}}, segs: []segment{{d0: 0, d1: n, raw: true}}}
	s.nested(&d, false, f, "", "")
}

// nested reads or rewrites the links of a document carried in the XML:
// escaped HTML (css false) or a style sheet. d is its decoded text; tag
// and attrName say where a CSS value is.
func (s *scanner) nested(d *decoded, css bool, f scope, tag, attrName string) {
	// Not a copy: d.text is not changed while its links are read (and
	// is the document itself for an XHTML tag).
	text := unsafe.String(unsafe.SliceData(d.text), len(d.text))
	opts := htmlrewrite.Options{
		Document: link.Document{Context: base.Context{Spec: s.opts.Context.Spec, Options: s.opts.Context.Options,
			Retrieval: f.base.URL, RetrievalDetail: f.base.Provenance()}, ContentType: "text/html; charset=utf-8", Absolute: s.opts.Absolute, Fragments: s.opts.Fragments},
	}
	if css {
		opts.ContentType = "text/css; charset=utf-8"
	}
	run := func(w io.Writer, fn func(link.Link) error) (link.Stats, error) {
		switch {
		case fn != nil && css:
			_, err := htmlrewrite.CSSLinks(strings.NewReader(text), opts, fn)
			return link.Stats{}, err
		case fn != nil:
			_, err := htmlrewrite.Links(strings.NewReader(text), opts, fn)
			return link.Stats{}, err
		case css:
			return htmlrewrite.RewriteCSS(w, strings.NewReader(text), opts)
		}
		return htmlrewrite.Rewrite(w, strings.NewReader(text), opts)
	}
	at := func(off int64) int {
		switch {
		case off >= 0 && int(off) < len(d.text):
			r0, _ := d.source(int(off))
			return r0
		case len(d.text) > 0:
			_, r1 := d.source(len(d.text) - 1)
			return r1
		}
		return 0
	}
	if s.fn != nil {
		_, err := run(nil, func(l link.Link) error {
			r0 := at(l.Offset)
			l.Line, l.Column = s.lines.Position(r0)
			l.Offset = int64(r0)
			if css {
				l.Tag, l.Attr = tag, attrName
			}
			l.Base = f.base
			s.emit(l)
			return s.err
		})
		if err != nil && s.err == nil {
			line, _ := s.lines.Position(at(0))
			s.warnf("line %d: %s", line, errtext.Of(err))
		}
		return
	}
	if strings.Contains(text, sentinelOpen) {
		line, _ := s.lines.Position(at(0))
		s.warnf("line %d: the text holds U+E000: its links are left as written", line)
		return
	}
	type change struct {
		a, b int    // the span in text
		u    string // the URL to write
		css  bool   // in CSS
		attr bool   // in an HTML attribute
	}
	var changes []change
	opts.Map = func(l link.Link) (string, bool) {
		mk := func(u string) link.Link {
			m := l
			m.URL = u
			m.Offset = int64(at(l.Offset))
			m.Line, m.Column = s.lines.Position(int(m.Offset))
			return m
		}
		u, ok := s.dec.Decide(l.Raw, l.URL, nil, mk)
		if s.opts.identity {
			u, ok = l.Raw, true
		}
		if !ok {
			return l.Raw, true
		}
		c := change{a: int(l.Offset), u: u, css: l.Kind == link.CSS, attr: l.Attr != "" || !css && l.Tag != "style"}
		if c.css && strings.ContainsAny(u, "()'\"\\ \t\n\r\f<") {
			s.unrewritten()
			return l.Raw, true
		}
		changes = append(changes, c)
		return sentinelOpen + strconv.Itoa(len(changes)-1) + sentinelClose, true
	}
	// One 32 KiB writer for every nested run: htmlrewrite's own
	// bufio.NewWriterSize takes it as it is instead of allocating one.
	var out bytes.Buffer
	out.Grow(len(text) + len(text)/8) // the links made longer: no growth's copies
	if s.nestedW == nil {
		s.nestedW = bufio.NewWriterSize(&out, 32<<10)
	}
	s.nestedW.Reset(&out)
	st, err := run(s.nestedW, nil)
	if ferr := s.nestedW.Flush(); err == nil {
		err = ferr
	}
	s.dec.Stats.Links += st.Failed
	s.dec.Stats.Failed += st.Failed
	if err != nil {
		line, _ := s.lines.Position(at(0))
		s.warnf("line %d: %s", line, errtext.Of(err))
		return
	}
	// Map each sentinel back to the span it replaced: the text between
	// two sentinels is the text between the two spans.
	o := unsafe.String(unsafe.SliceData(out.Bytes()), out.Len()) // out is not written again
	var lits []string
	var order []int
	for {
		i := strings.Index(o, sentinelOpen)
		if i < 0 {
			lits = append(lits, o)
			break
		}
		j := strings.Index(o[i:], sentinelClose)
		if j < 0 {
			return
		}
		k, cerr := strconv.Atoi(o[i+len(sentinelOpen) : i+j])
		if cerr != nil || k >= len(changes) {
			return
		}
		lits = append(lits, o[:i])
		order = append(order, k)
		o = o[i+j+len(sentinelClose):]
	}
	bad := func() {
		line, _ := s.lines.Position(at(0))
		s.warnf("line %d: the rewritten links could not be mapped back: left as written", line)
		s.dec.Stats.Rewritten -= len(changes)
		s.dec.Stats.Failed += len(changes)
	}
	prev := 0
	for n, k := range order {
		c := &changes[k]
		if c.a < prev || text[prev:c.a] != lits[n] {
			bad()
			return
		}
		next := len(text)
		if n+1 < len(order) {
			next = changes[order[n+1]].a
		}
		c.b = next - len(lits[n+1])
		if c.b < c.a || !strings.HasPrefix(text[c.b:], lits[n+1]) {
			bad()
			return
		}
		prev = c.b
	}
	for _, k := range order {
		c := changes[k]
		r0, r1, seg, ok := d.span(c.a, c.b)
		if !ok {
			s.unrewritten()
			continue
		}
		if s.opts.identity {
			s.splice.Replace(r0, r1, string(s.src[r0:r1]))
			continue
		}
		v := c.u
		if !css && c.attr {
			v = escapeHTMLAttr(v)
		}
		s.replace(r0, r1, seg, v)
	}
}

// escapeHTMLAttr escapes a URL for any HTML attribute value, quoted or not.
func escapeHTMLAttr(v string) string {
	if !strings.ContainsAny(v, "&\"'<> \t\n\f\r") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#39;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case ' ', '\t', '\n', '\f', '\r':
			b.WriteString("&#" + strconv.Itoa(int(c)) + ";")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
