// Package tree is the part of relurl that deals with document trees
// rather than single documents: it walks inputs (files and directories,
// HTML found by extension or by content sniffing, MHTML, WARC), maps each
// file to the URL it was retrieved from (the draft's §3.3 retrieval URL,
// for a mirrored site the tree's root URL plus the file's relative path),
// replaces files atomically and mirrors a tree into another directory.
// Checking whether a tree can be moved, and fixing what pins it, is
// package linkcheck's.
package tree
