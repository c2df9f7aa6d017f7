// Package tree is the part of relurl that deals with document trees
// rather than single documents: it walks inputs (files and directories,
// HTML found by extension or by content sniffing, MHTML, WARC), maps each
// file to the URL it was retrieved from (the draft's §3.3 retrieval URL,
// for a mirrored site the tree's root URL plus the file's relative path),
// replaces files atomically, mirrors a tree into another directory, and
// checks whether a tree can be moved as a whole (the draft's §1: "trees
// that can be moved") and fixes the links that pin it. The check also finds the
// links that are broken in place: targets the host would not serve (host
// profiles model index documents, extensionless URLs, trailing slashes
// and redirect files), letter case that only a case-insensitive file
// system forgives, and fragments that name no element of their target
// (the HTML Standard's "find a potential indicated element").
package tree
