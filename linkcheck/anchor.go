package linkcheck

import (
	"cmp"
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/relurl/relurl/tree"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/link"
)

// anchorIndex holds the anchors of the tree's documents, as Check reads
// them, and the fragment links into other files that wait for them until
// Finish: a link may come before the file it points into is read.
type anchorIndex struct {
	mu      sync.Mutex
	names   map[string]anchorSet // by tree-relative path; nil: not readable
	pending map[string][]pending // by the referring file's path
}

// anchorSet is the set of names a document's fragments can indicate.
type anchorSet map[string]struct{}

// pending is a fragment link into another file, checked by Finish: only
// what a finding needs of the link, as many wait.
type pending struct {
	raw, url     string
	line, column int32
	column16     int32
	before       bool // Finding.Before
	offset       int64
	target       string // the tree-relative path of the file it points into
	frag         string // the fragment of the resolved URL, without "#"
}

func newPending(l link.Link, col16 int, target, frag string, before bool) pending {
	return pending{raw: l.Raw, url: l.URL, line: int32(l.Line), column: int32(l.Column), column16: int32(col16),
		offset: l.Offset, target: target, frag: frag, before: before}
}

// known returns the names of the file rel if they are known already.
func (x *anchorIndex) known(rel string) (anchorSet, bool) {
	x.mu.Lock()
	defer x.mu.Unlock()
	n, ok := x.names[rel]
	return n, ok
}

func (x *anchorIndex) set(rel string, n anchorSet) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.names == nil {
		x.names = map[string]anchorSet{}
	}
	x.names[rel] = n
}

// wait records the fragment links of the file path into other files,
// replacing what an earlier Check of that file recorded.
func (x *anchorIndex) wait(path string, p []pending) {
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.pending == nil {
		x.pending = map[string][]pending{}
	}
	if len(p) == 0 {
		delete(x.pending, path)
		return
	}
	x.pending[path] = p
}

// anchorTarget reports whether the file rel, when Check has not read it,
// is a kind whose fragments Finish can look up by reading it: HTML and
// SVG, by name.
func anchorTarget(rel string) bool {
	switch strings.ToLower(path.Ext(rel)) {
	case ".html", ".htm", ".xhtml", ".shtml", ".svg":
		return true
	}
	return false
}

// Finish returns the findings that need the whole tree, sorted by file
// and position: a MissingAnchor finding for each fragment link into
// another file of the tree (Check defers those until every file has been
// read) whose fragment names nothing in its target, and a CaseCollision
// finding for each name that is one with another of its directory on a
// case-insensitive file system (in the directories that hold a file Check
// read or a link's target). A target the walk did not read
// (an SVG image, a file beyond the size limit) is read here once; one
// that cannot be read leaves its links unchecked. Finish forgets what it
// checked: a Checker can be used for another pass.
func (c *Checker) Finish() []Finding {
	x := &c.anchors
	x.mu.Lock()
	waiting := x.pending
	x.pending = nil
	x.mu.Unlock()
	files := make([]string, 0, len(waiting))
	for f := range waiting {
		files = append(files, f)
	}
	slices.Sort(files)
	var out []Finding
	for _, file := range files {
		for _, p := range waiting[file] {
			n := c.namesOf(p.target)
			if n == nil || n.indicates(p.frag, isSVG(p.target)) {
				continue
			}
			out = append(out, c.anchorFinding(file, p))
		}
	}
	out = append(out, c.collisions()...)
	if c.Orphans {
		out = append(out, c.orphans()...)
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Offset, b.Offset))
	})
	return out
}

func (c *Checker) anchorFinding(file string, p pending) Finding {
	return Finding{File: file, Line: int(p.line), Column: int(p.column), Column16: int(p.column16), Link: p.raw, URL: p.url,
		Problem: MissingAnchor, Reason: "no id or <a name> \"" + fragmentName(p.frag) + "\" in " + p.target,
		Target: p.target + "#" + p.frag, Offset: p.offset, Before: p.before}
}

func isSVG(rel string) bool { return strings.EqualFold(path.Ext(rel), ".svg") }

// fragmentName is the fragment as the reader knows it: percent-decoded
// when that gives UTF-8.
func fragmentName(frag string) string {
	if d := percentDecode(frag); utf8.ValidString(d) {
		return d
	}
	return frag
}

// namesOf returns the names of the file rel, reading it when Check has
// not; nil when it cannot be read.
func (c *Checker) namesOf(rel string) anchorSet {
	x := &c.anchors
	x.mu.Lock()
	n, ok := x.names[rel]
	x.mu.Unlock()
	if ok {
		return n
	}
	if !anchorTarget(rel) {
		return nil // not a document with anchors: fragments unchecked
	}
	n = c.readNames(rel)
	x.set(rel, n)
	return n
}

// readNames reads the anchors of the file rel of the tree with
// htmlrewrite's tokenizer, opened by the open step (Checker.open) (an SVG file's ids too: its root <svg> puts the
// tokenizer in foreign content).
func (c *Checker) readNames(rel string) anchorSet {
	max := c.MaxSize
	if max <= 0 {
		max = 256 << 20
	}
	data, err := tree.ReadFile(filepath.Join(c.Dir, filepath.FromSlash(rel)), max)
	if err == nil {
		n := anchorSet{}
		var o extract.Options
		o.HTML = htmlrewrite.Options{Document: link.Document{Context: base.Context{Spec: c.Spec}, ContentType: c.ContentType}, Anchor: func(s string) { n[s] = struct{}{} }}
		// Through the open step as every document Check reads, and as
		// HTML whatever its kind.
		var d *extract.Document
		if d, err = c.open(tree.File{Rel: rel, Kind: base.HTML}, data, o); err == nil {
			_, err = d.Links(func(link.Link) error { return nil })
			d.Close()
		}
		if err == nil {
			return n
		}
	}
	if !errors.Is(err, fs.ErrNotExist) {
		c.warn("fragments into %s not checked: %s", rel, errtext.Of(err))
	}
	return nil
}

// indicates reports whether the fragment frag (as in a URL, without "#")
// indicates a part of the document whose names are n, by the HTML
// Standard's "find a potential indicated element" and "the indicated part
// of the document": an empty fragment and "top" (ASCII case-insensitive,
// after decoding) are the top of the document; otherwise an id or an
// <a name> equal to the fragment as written, or to its percent-decoded
// UTF-8 form. A text directive (":~:text=", URL Fragment Text
// Directives) is cut off first, as browsers strip it. In SVG (svg is
// true) a view specification "svgView(...)" is not a name (SVG 2
// "Linking").
func (n anchorSet) indicates(frag string, svg bool) bool {
	if i := strings.Index(frag, ":~:"); i >= 0 {
		frag = frag[:i]
	}
	if frag == "" {
		return true
	}
	if _, ok := n[frag]; ok {
		return true
	}
	d := percentDecode(frag)
	if _, ok := n[d]; ok {
		return true
	}
	if svg && strings.HasPrefix(frag, "svgView(") {
		return true
	}
	return strings.EqualFold(d, "top")
}

// percentDecode percent-decodes s to bytes (URL Standard "percent-decode")
// and decodes those by the Encoding Standard's "UTF-8 decode without BOM",
// which the HTML Standard's fragment steps use: each maximal invalid
// subpart becomes one U+FFFD.
func percentDecode(s string) string {
	if strings.IndexByte(s, '%') < 0 && utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
			continue
		}
		b = append(b, s[i])
	}
	if utf8.Valid(b) {
		return string(b)
	}
	return decodeUTF8(b)
}

// decodeUTF8 is the Encoding Standard's UTF-8 decoder (§9.1.1), with
// error mode "replacement".
func decodeUTF8(b []byte) string {
	var out strings.Builder
	needed, seen := 0, 0
	var cp rune
	lower, upper := byte(0x80), byte(0xBF)
	for i := 0; i < len(b); i++ {
		c := b[i]
		if needed == 0 {
			switch {
			case c <= 0x7F:
				out.WriteByte(c)
			case 0xC2 <= c && c <= 0xDF:
				needed, cp = 1, rune(c&0x1F)
			case 0xE0 <= c && c <= 0xEF:
				if c == 0xE0 {
					lower = 0xA0
				}
				if c == 0xED {
					upper = 0x9F
				}
				needed, cp = 2, rune(c&0xF)
			case 0xF0 <= c && c <= 0xF4:
				if c == 0xF0 {
					lower = 0x90
				}
				if c == 0xF4 {
					upper = 0x8F
				}
				needed, cp = 3, rune(c&0x7)
			default:
				out.WriteRune(utf8.RuneError)
			}
			continue
		}
		if c < lower || c > upper {
			// The byte starts over: it is not part of the sequence.
			needed, seen, cp, lower, upper = 0, 0, 0, 0x80, 0xBF
			out.WriteRune(utf8.RuneError)
			i--
			continue
		}
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(c&0x3F)
		if seen++; seen == needed {
			out.WriteRune(cp)
			needed, seen, cp = 0, 0, 0
		}
	}
	if needed != 0 {
		out.WriteRune(utf8.RuneError)
	}
	return out.String()
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}
