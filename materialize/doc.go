// Package materialize turns captures of web pages (WARC files, WACZ
// packages, MHTML files) into a tree of plain files that a browser opens
// from file:// with every captured link working, and that a static host
// can serve as it is.
//
// Layout: one file per captured URL at DIR/HOST[+PORT]/PATH, the port
// after "+" (":" is not portable). Each path segment is percent-decoded,
// then the bytes a common file system cannot hold or that would make the
// mapping ambiguous are written as %XX (see the package's portable rules:
// "/", "\", control characters, < > : " | ? *, "%", ";", a trailing dot or
// space, "." and ".."); a directory URL gets "index"; the query follows
// the name after ";", in its encoded form; an extension a browser types
// the file by is added when the name lacks the one for its Content-Type
// (wget's --adjust-extension: "/a" as HTML is "a.html", "style.php" as
// CSS "style.php.css"); Windows device names (CON, NUL, COM1, ...) get
// "_"; a name over 200 bytes is cut and ends with a hash of the whole.
// Names are then made unique per directory as a case-insensitive,
// normalizing file system compares them (NFC, lower case), directories
// first: a clash gets "~N" before the extension. The order is fixed by the
// URLs, so the same captures give the same tree. DIR/urls.jsonl maps every
// URL to its file (the inverse mapping) and DIR/index.html lists the pages
// by host.
//
// Captures: WARC response, resource and revisit records (a revisit takes
// its payload from the record it refers to: WARC 1.1 §6.7), and the parts
// of MHTML files (RFC 2557), found by Content-Location or Content-ID.
// http and https captures of a URL share one file. Of several captures of a
// URL the latest is kept (or the one closest to Options.At), preferring
// those with a status below 400. A URL captured only as an HTTP error
// (4xx, 5xx) is not written unless Options.ErrorPages: links to it stay
// absolute, and Summary.ErrorResponses counts it.
//
// Links: every HTML, XHTML and SVG document, stylesheet, feed, web app
// manifest and script is rewritten byte-preserving by package htmlrewrite
// (SVG and Atom/RSS feeds by xmlrewrite, a feed's xml:base emptied once its
// links are resolved; manifests by manifest; scripts by jsmodule, their
// specifiers written URL-like), each link resolved against the document's own base
// (its <base href>, then the HTTP or MIME headers, then the captured URL:
// the relative-URL draft's §3), then written as the shortest relative
// reference to the file of the URL it names (fragment kept), or as an
// absolute URL when that URL was not captured; <base> elements are
// removed. A link to a captured redirect goes to the end of the redirect
// chain, and each redirect URL gets a stub page (meta refresh and a link).
// Browsers refuse module scripts from file:// (the page is an opaque
// origin; whatwg/html#8121): module graphs run when the tree is served by
// a static server, or in a Chromium run with --allow-file-access-from-files.
//
// Safety: every name is built from sanitized segments and checked with
// filepath.IsLocal; directories are made through an os.Root on DIR, and
// files are replaced atomically by package tree's writer (a file that
// already holds the bytes is left alone), so running again over DIR
// updates it file by file and nothing is written outside DIR. Run refuses
// to replace a DIR/index.html or DIR/urls.jsonl it did not write
// (ForeignFileError) unless Options.Force.
package materialize
