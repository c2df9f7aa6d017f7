// Package tree is the part of relurl that deals with document trees
// rather than single documents: it walks inputs (files and directories,
// HTML found by extension or by content sniffing, MHTML, WARC), maps each
// file to the URL it was retrieved from (the draft's §3.3 retrieval URL,
// for a mirrored site the tree's root URL plus the file's relative path),
// replaces files atomically, mirrors a tree into another directory, runs
// the work on a pool of goroutines with results in input order, and checks
// whether a tree can be moved as a whole (the draft's §1: "trees that can
// be moved") and fixes the links that pin it. The check also finds the
// links that are broken in place: targets the host would not serve (host
// profiles model index documents, extensionless URLs, trailing slashes
// and redirect files), letter case that only a case-insensitive file
// system forgives, and fragments that name no element of their target
// (the HTML Standard's "find a potential indicated element").
package tree

import (
	"bytes"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/relurl/relurl/xmlrewrite"
)

// Kind says how a file is to be read.
type Kind int

// The kinds of file the walk tells apart.
const (
	Other    Kind = iota // not a document relurl reads: copied or skipped
	HTML                 // text/html
	MHTML                // multipart/related, RFC 2557 (.mht, .mhtml)
	WARC                 // WARC 1.1 (.warc, .warc.gz, .warc.zst) and ARC (.arc, .arc.gz)
	CSS                  // a stylesheet, text/css (.css)
	XML                  // SVG, Atom or RSS (.svg, .atom, .rss; .xml by its root element): package xmlrewrite
	Manifest             // a web app manifest (.webmanifest): package manifest
	Module               // a JavaScript module (.mjs, RFC 9239): package jsmodule
)

// String returns "other", "html", "mhtml", "warc", "css", "xml",
// "manifest" or "module".
func (k Kind) String() string {
	switch k {
	case Manifest:
		return "manifest"
	case Module:
		return "module"
	case CSS:
		return "css"
	case XML:
		return "xml"
	case HTML:
		return "html"
	case MHTML:
		return "mhtml"
	case WARC:
		return "warc"
	}
	return "other"
}

// SniffLen is how many leading bytes KindOf looks at.
const SniffLen = 512

// KindOf returns the kind of the file called name whose first bytes are
// head (up to SniffLen of them). The extension decides when it names a
// kind; otherwise the content is sniffed by the WHATWG MIME Sniffing
// Standard's rules for HTML (§7.1, the "<!DOCTYPE HTML", "<html", "<head",
// ... signatures after leading whitespace), as net/http implements them.
// A file whose extension says HTML but whose head is binary (a NUL byte,
// the sniffing standard's binary-data byte that no HTML text has) is Other:
// rewriting it could only damage it. A .xhtml or .xht file whose root
// element is XHTML's html is XML (application/xhtml+xml), read by
// xmlrewrite; another is HTML.
func KindOf(name string, head []byte) Kind {
	lower := strings.ToLower(filepath.Base(name))
	switch {
	case strings.HasSuffix(lower, ".warc"), strings.HasSuffix(lower, ".warc.gz"), strings.HasSuffix(lower, ".warc.zst"),
		strings.HasSuffix(lower, ".arc"), strings.HasSuffix(lower, ".arc.gz"):
		return WARC
	}
	switch filepath.Ext(lower) {
	case ".mht", ".mhtml":
		return MHTML
	case ".xhtml", ".xht":
		// application/xhtml+xml (RFC 3236): read as XML when its root
		// is XHTML's html (formats.md §3.2, tokenized as XML: no
		// optional end tags, XML entities, CDATA); a file whose root is
		// not in the XHTML namespace, or not found in the first bytes,
		// is read as HTML, as before.
		if f, ok := xmlrewrite.Sniff(head); ok && f == xmlrewrite.XHTML {
			return text(head, XML)
		}
		if bytes.IndexByte(head, 0) >= 0 && !utf16BOM(head) {
			return Other
		}
		return HTML
	case ".html", ".htm", ".shtml":
		if bytes.IndexByte(head, 0) >= 0 && !utf16BOM(head) {
			return Other
		}
		return HTML
	case ".css":
		return text(head, CSS)
	case ".svg", ".atom", ".rss":
		return text(head, XML)
	case ".webmanifest":
		return text(head, Manifest)
	case ".mjs":
		// A .js file is a module only when a document says so
		// (type=module, modulepreload, an import): not told by name.
		return text(head, Module)
	}
	if len(head) > SniffLen {
		head = head[:SniffLen]
	}
	switch ct := http.DetectContentType(head); {
	case strings.HasPrefix(ct, "text/html"):
		return HTML
	case strings.HasPrefix(ct, "text/xml"), strings.HasPrefix(ct, "text/plain"):
		// MIME Sniffing leaves XML vocabularies alone (§7); the root
		// element tells SVG, XHTML, Atom and RSS apart (formats.md §9).
		if f, ok := xmlrewrite.Sniff(head); ok && f != xmlrewrite.XML {
			return XML
		}
	}
	return Other
}

// text returns k for a head that is text, else Other (a NUL byte: binary,
// e.g. a gzipped .svgz saved as .svg).
func text(head []byte, k Kind) Kind {
	if bytes.IndexByte(head, 0) >= 0 && !utf16BOM(head) {
		return Other
	}
	return k
}

// utf16BOM reports whether head starts with a UTF-16 byte order mark: such
// HTML has NUL bytes and is still text.
func utf16BOM(head []byte) bool {
	return bytes.HasPrefix(head, []byte{0xFE, 0xFF}) || bytes.HasPrefix(head, []byte{0xFF, 0xFE})
}
