// Package link defines the one Link type every reader of relurl reports:
// HTML and CSS (htmlrewrite), SVG, XHTML and feeds (xmlrewrite), web app
// manifests (manifest), JS modules (jsmodule), the parts of an MHTML
// archive and the records of a WARC file (archive), the HTTP Link header
// (mime, RFC 8288), the links a tree check reads (tree) and the records of
// `relurl links`. It sits at the bottom of the package graph, beside base
// (whose Result says which §3 layer decided a link's base): it holds data
// and the names of link kinds, and does nothing else.
package link

import (
	"fmt"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/lazyref"
)

// Kind classifies a link by what following it does.
type Kind int

// Link kinds.
const (
	Navigation Kind = iota // a, area, form targets a user follows
	Resource               // embedded: img, script, link rel=stylesheet, ...
	Form                   // form action, button formaction
	Citation               // cite, longdesc
	Refresh                // meta http-equiv=refresh
	CSS                    // url() and @import in CSS
	Redirect               // an HTTP redirect (WARC)
	Import                 // a JS module specifier, import map address or modulepreload
	Manifest               // a URL member of a web app manifest
	Feed                   // a link of a feed's structure (Atom link, RSS link, enclosure, ...)
	Header                 // the target of an HTTP Link header (RFC 8288)
)

var kindNames = [...]string{
	Navigation: "navigation",
	Resource:   "resource",
	Form:       "form",
	Citation:   "citation",
	Refresh:    "refresh",
	CSS:        "css",
	Redirect:   "redirect",
	Import:     "import",
	Manifest:   "manifest",
	Feed:       "feed",
	Header:     "header",
}

// String returns "navigation", "resource", "form", "citation", "refresh",
// "css", "redirect", "import", "manifest", "feed" or "header".
func (k Kind) String() string {
	if k >= 0 && int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Kinds returns every kind, in order.
func Kinds() []Kind {
	ks := make([]Kind, len(kindNames))
	for i := range ks {
		ks[i] = Kind(i)
	}
	return ks
}

// ParseKind returns the kind String names, and false for an unknown name.
func ParseKind(name string) (Kind, bool) {
	for k, n := range kindNames {
		if n == name {
			return Kind(k), true
		}
	}
	return 0, false
}

// Link is one URL found in a document, with where it stands and the base
// it was resolved against. The first group of fields is set by every
// reader; Part and TargetPart only for the parts of an MHTML archive,
// Record and Target only for the records of a WARC file.
type Link struct {
	// Raw is the value as written, character references decoded: the
	// whole attribute value for an attribute that holds one URL (ASCII
	// whitespace around it and tabs or newlines in it kept, which URL
	// resolution removes), the URL's own characters for a list, srcset,
	// refresh or CSS value.
	Raw    string
	URL    string // the absolute URL; "" when Err is set
	Err    error
	Tag    string // lower-case element name ("style" for a <style> sheet)
	Attr   string // lower-case attribute name; "" for a <style> sheet
	Kind   Kind
	Rel    []string // the element's rel tokens, lower-cased
	Line   int      // 1-based
	Column int      // 1-based, in bytes
	Offset int64    // byte offset of the value's first byte
	// Inert marks a link in the contents of an HTML <template> (not a
	// declarative shadow root): the HTML parser puts them in an inert
	// document, so a browser neither fetches nor follows them until a
	// script clones them into the page; URL is what they resolve to then,
	// against the document base.
	Inert bool

	// Base is the base URL was resolved against and the §3 layer that
	// decided it: the document's (HTML, CSS, manifests, modules), the
	// element's (XML, where each xml:base decides anew), the part's
	// (MHTML) or the payload's (WARC). It is known before the first link
	// of its document is reported; its Warnings are those known then.
	Base base.Result

	// Part is the path of the MHTML part the link is in (Line, Column
	// and Offset count in its decoded body); TargetPart the path of the
	// part of the same archive URL names (RFC 2557 §8), "" when the link
	// leads outside the archive.
	Part, TargetPart string
	// Record is the offset of the WARC record the link is in (CDX
	// convention: its gzip member or zstd frame), Target its
	// WARC-Target-URI.
	Record int64
	Target string

	// lazy, when set, is the URL left to be resolved later, by whoever
	// reads the link last (relurl's command, through its internal package
	// lazyurl): URL is then "" and Err nil until it is.
	lazy *lazyref.Ref
}

// Stats reports what a reader did with one document.
type Stats struct {
	Base      base.Result // the document's base and where it came from
	Links     int         // URL values seen
	Rewritten int         // values changed
	Failed    int         // values that could not be resolved (left as written)
	Skipped   int         // values left as written by choice (scheme, fragment)
	Mapped    int         // values changed as Options.Map said (counted in Rewritten too)
	Charset   string      // the encoding the values were read in
	// Changed reports whether Rewrite wrote anything other than the
	// input's bytes, so that a caller streaming the output need not
	// compare it with the input.
	Changed bool
}

// MaxAttrs bounds the attributes a reader keeps of one tag, HTML or XML:
// past it the document is not read further (an *IncompleteError).
const MaxAttrs = 65536

// DefaultMaxToken is the bound of what a reader holds of one piece of a
// document when its options leave it zero: a token of HTML or CSS, a
// whole XML document, manifest or module.
const DefaultMaxToken = 16 << 20

// Clean returns the reference in the URL value v, as every reader takes
// it: without the ASCII whitespace around it (HTML: "a valid URL
// potentially surrounded by spaces") and without tab, LF and CR inside,
// which the URL Standard removes and RFC 3986 Appendix C says to ignore
// in extracted URIs.
func Clean(v string) string {
	i, j := 0, len(v)
	for i < j && isSpace(v[i]) {
		i++
	}
	for j > i && isSpace(v[j-1]) {
		j--
	}
	v = v[i:j]
	if strings.ContainsAny(v, "\t\n\r") {
		v = strings.Map(func(r rune) rune {
			if r == '\t' || r == '\n' || r == '\r' {
				return -1
			}
			return r
		}, v)
	}
	return v
}

// isSpace reports whether c is ASCII whitespace as HTML defines it.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// Limits are the bounds every reader shares.
type Limits struct {
	// MaxSize bounds what a reader holds of one piece of a document: an
	// HTML or CSS token, a whole XML document, manifest or module. Zero
	// is DefaultMaxToken.
	MaxSize int
}

// Document is what every reader needs to know of a document, whatever
// its kind: each reader's Options embeds it (htmlrewrite, xmlrewrite,
// manifest, jsmodule) and adds only what is its own. Filled once, in
// package extract's Options, it serves each kind's reader.
type Document struct {
	// Context holds the resolution rules (Context.Spec, the one spec of
	// every reader: its zero value is an error, as in package resolve, so
	// that no rule is applied by accident) and the layers below the
	// document's own base (§3.2–§3.4: its retrieval URL, its headers,
	// ...).
	Context base.Context
	// ContentType is the document's declared media type with its
	// parameters (its charset outranks what the document declares).
	ContentType string
	// Absolute also rewrites references that already carry a scheme
	// (normalizing them as the mode does). By default they are left as
	// written: javascript:, mailto:, data: and the like must not change.
	Absolute bool
	// Fragments also rewrites fragment-only references ("#top"). By
	// default they are left alone: absolutized, a saved page's in-page
	// links would navigate to the live site.
	Fragments bool
	// Map, when set, decides what a rewrite writes for each link: it gets
	// the link as the reader's Links reports it (resolved, with its
	// position) and returns the reference to write and true, or false for
	// the default (the absolute URL, or the value as written for the
	// references left alone). It is called for every value that resolves,
	// including the ones the defaults leave alone, so it can point any
	// link elsewhere (package archive points links at the parts of an
	// archive). The text it returns is escaped for its place; returning
	// Link.Raw leaves the value as written.
	Map func(Link) (string, bool)
	Limits
}
