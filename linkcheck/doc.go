// Package linkcheck checks whether a tree of documents can be moved as a
// whole (the draft's §1: "trees that can be moved") and fixes the links
// that pin it: absolute and root-relative links into the tree, relative
// links that climb out of it, a <base> that pins every link. It also
// finds the links that are broken in place: targets the host would not
// serve (host profiles model index documents, extensionless URLs,
// trailing slashes and the redirect files of Netlify, Cloudflare Pages
// and Apache), letter case that only a case-insensitive file system
// forgives, fragments that name no element of their target (the HTML
// Standard's "find a potential indicated element"), and pages no other
// page reaches.
//
// A Checker reads each walked file (package tree yields them, with their
// URLs) through package extract's readers, so every kind relurl reads is
// checked, and fixes it in place through package tree's safe writer.
// Package report writes its findings in the formats continuous
// integration reads.
package linkcheck
