package htmlrewrite

import (
	"bytes"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
)

// styleSheet handles the text of a <style> element: raw text, so no
// character references are decoded and none are written; a URL that
// would put a "<" in it (and so maybe end the element) is left alone.
func (s *scanner) styleSheet(raw []byte) error {
	return s.sheet(raw, styleName, true)
}

// sheet handles the CSS text raw: a <style> element's when inStyle (for
// links, tag names the element), or a whole stylesheet's.
func (s *scanner) sheet(raw, tag []byte, inStyle bool) error {
	s.subs, s.urls = s.subs[:0], s.urls[:0]
	s.rel = s.rel[:0]
	s.at = site{raw: raw, name: tag, kind: link.CSS, exact: true}
	text, m := s.str(raw), []int32(nil)
	if s.p.enc != nil && !isASCII(raw) {
		// CSS is tokenized as text: in Shift_JIS a trail byte can be "\".
		dec, legacy, ok := s.legacyOffsets(raw)
		if !ok {
			return s.write(raw)
		}
		text, m, s.at.exact = string(dec), legacy, false
	}
	s.css(text, s.res, &s.at, inStyle)
	if s.w == nil || len(s.subs) == 0 {
		return s.pass(raw)
	}
	at := func(d int) int {
		if m == nil {
			return d
		}
		return int(m[d])
	}
	s.scratch = s.scratch[:0]
	prev := 0
	for _, c := range s.subs {
		s.scratch = append(s.scratch, raw[prev:at(c.d0)]...)
		start := len(s.scratch)
		if old := text[c.d0:c.d1]; old != "" && strings.HasSuffix(c.repl, old) {
			// The new prefix before the author's bytes, as in apply.
			s.scratch = append(s.scratch, c.repl[:len(c.repl)-len(old)]...)
			s.scratch = s.encode(s.scratch, start)
			prev = at(c.d0)
			continue
		}
		s.scratch = append(s.scratch, c.repl...)
		s.scratch = s.encode(s.scratch, start)
		prev = at(c.d1)
	}
	s.scratch = append(s.scratch, raw[prev:]...)
	s.stats.Changed = s.stats.Changed || !bytes.Equal(s.scratch, raw)
	return s.write(s.scratch)
}

var styleName = []byte("style")

// srcdoc handles the document in an <iframe srcdoc>: its fallback base is
// the container's base (HTML Standard §7.4.1 "fallback base URL", about:srcdoc).
// Its links are reported at the attribute's position.
func (s *scanner) srcdoc(v string, at *site) {
	if s.depth >= maxSrcdoc {
		return
	}
	opts := s.opts
	opts.Context = base.Context{Spec: s.opts.Context.Spec, Retrieval: s.stats.Base.URL}
	opts.ContentType = "text/html; charset=utf-8"
	opts.Base = BaseKeep
	opts.Anchor = nil // another document's
	if opts.Referrer != nil {
		opts.Referrer = nestedReferrer{opts.Referrer, s.inert > 0}
	}
	var out bytes.Buffer
	var fn func(link.Link) error
	if s.fn != nil {
		line, col := s.position(at.raw, at.pos)
		inert := s.inert > 0
		fn = func(l link.Link) error {
			l.Line, l.Column, l.Offset = line, col, s.off+int64(at.pos)
			l.Inert = l.Inert || inert
			return s.fn(l)
		}
	}
	var w = newWriter(&out)
	if s.w == nil {
		w = nil
	}
	n, r, err := newScanner(strings.NewReader(v), opts, w, fn)
	if err != nil {
		return
	}
	n.depth = s.depth + 1
	err = n.run(r)
	if n.err != nil {
		s.err = n.err
	}
	s.stats.Links += n.stats.Links
	s.stats.Failed += n.stats.Failed
	s.stats.Skipped += n.stats.Skipped
	if s.w == nil || err != nil {
		return
	}
	n.w.Flush()
	if out.String() != v {
		s.stats.Rewritten += n.stats.Rewritten
		s.stats.Mapped += n.stats.Mapped
		s.subs = append(s.subs, sub{0, len(v), out.String()})
	}
}

// nestedReferrer is the Referrer of an <iframe srcdoc> document: its
// loads are the container's (Inert when the iframe is, as Links reports
// them), and its end is not the container's.
type nestedReferrer struct {
	r     Referrer
	inert bool
}

func (n nestedReferrer) Load(l link.Link) {
	l.Inert = l.Inert || n.inert
	n.r.Load(l)
}
func (nestedReferrer) End([]string, string) {}
func (nestedReferrer) Restart()             {}
