package htmlrewrite

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/relurl/relurl/internal/jsonscan"
	"github.com/relurl/relurl/internal/modspec"
	"github.com/relurl/relurl/link"
)

// scriptKind is what an HTML <script> element's text is read as.
type scriptKind uint8

const (
	scriptOther     scriptKind = iota // a classic script, a data block: not read
	scriptModule                      // a module script
	scriptImportMap                   // an import map
)

// maxImportKeys bounds the bare import map keys a document's inline
// modules are matched against.
const maxImportKeys = 1 << 16

// scriptType tells an HTML <script> start tag's kind by its type
// attribute (HTML §4.12.1.1 "prepare the script element", step 8: the
// value with ASCII whitespace stripped, "module" and "importmap" matched
// ASCII case-insensitively).
func (s *scanner) scriptType() scriptKind {
	v, ok := s.attrs.Attr("type")
	if !ok {
		return scriptOther
	}
	switch v = strings.Trim(v, " \t\n\f\r"); {
	case strings.EqualFold(v, "module"):
		return scriptModule
	case strings.EqualFold(v, "importmap"):
		return scriptImportMap
	}
	return scriptOther
}

// script handles the text of an inline module script or import map, held
// whole by the tokenizer (token.HoldRawText). Script text is raw text: no
// character reference is decoded, none is written; what is written is
// escaped for the string it goes in, "<" included, so that it can neither
// end the element nor open a comment in it.
func (s *scanner) script(raw []byte, k scriptKind) error {
	s.subs, s.urls = s.subs[:0], s.urls[:0]
	// The rel tokens are the last start tag's: a <link> or <a> before
	// the script says nothing of what the script imports.
	s.rel = s.rel[:0]
	text, m := s.str(raw), []int32(nil)
	if s.p.enc != nil && !isASCII(raw) {
		dec, legacy, ok := s.legacyOffsets(raw)
		if !ok {
			return s.write(raw)
		}
		text, m = string(dec), legacy
	}
	// The script's base: the document base when it is prepared, the
	// fallback base before the <base href> that decides it (WHATWG).
	res := s.res
	if s.beforeBase() {
		res = s.documentResolver()
	}
	// Offsets in the string's content are offsets in the token, as the
	// author wrote it: exact (a string with escapes is reported at its
	// first byte).
	at := site{raw: raw, name: scriptName, kind: link.Import, exact: true}
	s.scriptMap = m
	pos := s.scriptPos
	// each reads the string whose decoded value is v and whose content is
	// text[c0:c1]: through s.ref, then its change, if any, rewritten as a
	// change of text escaped by esc.
	each := func(v string, c0, c1 int, esc func(string) string) {
		at.pos = pos(c0)
		n := len(s.subs)
		s.ref(v, 0, len(v), res, &at, false, nil)
		if len(s.subs) == n {
			return
		}
		c := s.subs[n]
		if c.repl == v[c.d0:c.d1] {
			s.subs = s.subs[:n] // the identity: nothing to write
			return
		}
		if text[c0:c1] == v {
			s.subs[n] = sub{c0 + c.d0, c0 + c.d1, s.scriptEscape(esc(c.repl))}
			return
		}
		// Escapes in the string: its whole content written anew.
		s.subs[n] = sub{c0, c1, s.scriptEscape(esc(v[:c.d0] + c.repl + v[c.d1:]))}
	}
	switch k {
	case scriptModule:
		s.module(text, &at, each)
	case scriptImportMap:
		s.importMap(text, &at, each)
	}
	if s.w == nil || len(s.subs) == 0 {
		return s.pass(raw)
	}
	s.scratch = s.scratch[:0]
	prev := 0
	for _, c := range s.subs {
		s.scratch = append(s.scratch, raw[prev:pos(c.d0)]...)
		s.scratch = append(s.scratch, c.repl...)
		prev = pos(c.d1)
	}
	s.scratch = append(s.scratch, raw[prev:]...)
	s.stats.Changed = true
	return s.write(s.scratch)
}

var scriptName = []byte("script")

// module reads an inline module script (HTML "resolve a module
// specifier": URL-like specifiers against the document base; a bare one
// only through an import map met before it, and then not resolvable here).
func (s *scanner) module(text string, at *site, each func(v string, c0, c1 int, esc func(string) string)) {
	refs, err := modspec.Scan([]byte(text))
	if err != nil {
		s.warn("module script %s: %v (read up to there)", s.where(at.raw), err)
	}
	for _, r := range refs {
		at.attr = r.Form
		at.kind = link.Import
		if r.URL {
			at.kind = link.Resource
		}
		switch {
		case !r.OK:
			s.unresolved(at, r.Start+1, r.Text, fmt.Errorf("bad escape in %q", r.Text))
		case !r.URL && modspec.Bare(r.Text):
			if modspec.Mapped(s.importKeys, r.Text) {
				s.unresolved(at, r.Start+1, r.Text, modspec.ErrBare)
			}
		default:
			q := r.Quote
			each(r.Text, r.Start+1, r.End-1, func(u string) string { return modspec.Escape(u, q, true) })
		}
		if s.err != nil {
			return
		}
	}
}

// importMap reads an import map (HTML §8.1.5.3 "parse an import map
// string"): addresses, URL-like specifier keys, scope prefixes and
// integrity keys, against the document base. Its bare keys are kept for
// the module scripts after it. A map the Standard rejects (not JSON, not
// the right shape) has no links: a warning says why.
func (s *scanner) importMap(text string, at *site, each func(v string, c0, c1 int, esc func(string) string)) {
	im, err := modspec.ParseImportMap([]byte(text))
	if err != nil {
		s.warn("import map %s: %v: ignored", s.where(at.raw), err)
		return
	}
	for _, w := range im.Warnings {
		s.warn("import map %s: %s", s.where(at.raw), strings.TrimPrefix(w, "import map: "))
	}
	if n := maxImportKeys - len(s.importKeys); n > 0 {
		s.importKeys = append(s.importKeys, im.Bare[:min(n, len(im.Bare))]...)
	}
	quote := func(u string) string { return jsonscan.Quote(u, true) }
	for _, e := range im.Entries {
		at.attr = "importmap:" + e.Role.String()
		at.kind = link.Import
		if e.Err != nil {
			s.unresolved(at, e.Start, e.Text, e.Err)
		} else {
			each(e.Text, e.Start, e.End, quote)
		}
		if s.err != nil {
			return
		}
	}
}

// unresolved counts a value that is no URL to resolve and reports it as a
// link with err.
func (s *scanner) unresolved(at *site, c0 int, v string, err error) {
	s.stats.Links++
	s.stats.Failed++
	if s.opts.Referrer != nil && s.refers(at) {
		s.refer(at, v, "", err)
	}
	if s.fn != nil {
		at.pos = s.scriptPos(c0)
		s.emit(at, 0, v, "", err)
	}
}

// where says where the current token starts: its line when lines are
// counted (for links and Options.Map), else its byte offset.
func (s *scanner) where(raw []byte) string {
	if s.fn != nil || s.opts.Map != nil {
		line, _ := s.position(raw, 0)
		return fmt.Sprintf("at line %d", line)
	}
	return fmt.Sprintf("at byte %d", s.off)
}

// scriptPos maps an offset in the script's decoded text to one in its
// raw bytes.
func (s *scanner) scriptPos(d int) int {
	if s.scriptMap == nil {
		return d
	}
	return int(s.scriptMap[d])
}

// scriptEscape makes the text to write in a script ASCII in a document
// in a legacy encoding: JavaScript and JSON strings take \u escapes
// (character references would not be decoded there).
func (s *scanner) scriptEscape(v string) string {
	if s.p.enc == nil || isASCII([]byte(v)) {
		return v
	}
	var b strings.Builder
	for _, r := range v {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xFFFF:
			r -= 0x10000
			fmt.Fprintf(&b, `\u%04X\u%04X`, 0xD800+(r>>10), 0xDC00+(r&0x3FF))
		default:
			fmt.Fprintf(&b, `\u%04X`, r)
		}
	}
	return b.String()
}
