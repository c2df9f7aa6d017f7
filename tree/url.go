package tree

import (
	"bytes"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// A Mapper maps files to their retrieval URLs (the draft's §3.3): how a
// mirrored site maps, the URL of the tree's root plus the file's relative
// path. The zero Mapper maps each file to its file: URL.
type Mapper struct {
	root string // "" for file: URLs; else absolute, ends in "/" unless it names a single file
	// SavedFrom makes a "<!-- saved from url=(NNNN)URL -->" comment in a
	// file's head (written by browsers' "save page") its retrieval URL.
	SavedFrom bool
}

// NewMapper returns a Mapper for the tree whose root has the URL root
// ("" for file: URLs). The root must be an absolute hierarchical URL
// ("https://example.org/site/"); a missing final "/" is added for trees,
// because the root is a directory.
func NewMapper(root string) (*Mapper, error) {
	if root == "" {
		return &Mapper{}, nil
	}
	u, err := url.Parse(root)
	switch {
	case err != nil:
		return nil, fmt.Errorf("invalid URL %q: %v", root, errors.Unwrap(err))
	case u.Scheme == "":
		return nil, fmt.Errorf("invalid URL %q: not absolute (no scheme)", root)
	case u.Opaque != "":
		return nil, fmt.Errorf("invalid URL %q: not hierarchical", root)
	}
	return &Mapper{root: root}, nil
}

// Root returns the URL of the tree rooted at the directory dir: the
// Mapper's root with a final "/", or dir's file: URL.
func (m *Mapper) Root(dir string) (string, error) {
	if m.root == "" {
		return fileURL(dir, true)
	}
	return dirURL(m.root)
}

// URL returns f's retrieval URL. A file named on its own (f.Rel == "")
// gets the Mapper's root URL itself: a single file is its own tree.
func (m *Mapper) URL(f File) (string, error) {
	if m.SavedFrom {
		if u, ok := SavedFrom(f.Head); ok {
			return u, nil
		}
	}
	if m.root == "" {
		return fileURL(f.Path, false)
	}
	if f.Rel == "" {
		return m.root, nil
	}
	root, err := dirURL(m.root)
	if err != nil {
		return "", err
	}
	return root + escapePath(f.Rel), nil
}

// dirURL returns root with a final "/" on its path. A root with a query
// or fragment cannot be a directory.
func dirURL(root string) (string, error) {
	if strings.ContainsAny(root, "?#") {
		return "", fmt.Errorf("base URL %q of a tree has a query or fragment", root)
	}
	if !strings.HasSuffix(root, "/") {
		root += "/"
	}
	return root, nil
}

// escapePath percent-encodes each segment of the slash-separated path
// rel, so that a file named "a b?.html" maps to "a%20b%3F.html".
func escapePath(rel string) string {
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// fileURL returns the file: URL of path (RFC 8089), with a final "/" for
// a directory.
func fileURL(path string, dir bool) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // a Windows drive letter: file:///C:/...
	}
	if dir && !strings.HasSuffix(p, "/") {
		p += "/"
	}
	return (&url.URL{Scheme: "file", Path: p}).String(), nil
}

// savedFrom matches the comment browsers write at the top of a saved page
// (Internet Explorer's "Mark of the Web", also written by Chrome's "HTML
// only"): the four digits give the URL's length.
var savedFrom = regexp.MustCompile(`<!-- saved from url=\((\d{4})\)`)

// SavedFrom returns the URL of a "<!-- saved from url=(NNNN)URL -->"
// comment in head, if there is one and its length field matches exactly.
func SavedFrom(head []byte) (string, bool) {
	m := savedFrom.FindSubmatchIndex(head)
	if m == nil {
		return "", false
	}
	n, _ := strconv.Atoi(string(head[m[2]:m[3]]))
	rest := head[m[1]:]
	if n == 0 || n > len(rest) || !bytes.HasPrefix(rest[n:], []byte(" -->")) {
		return "", false
	}
	u := string(rest[:n])
	// "about:internet" marks only the security zone, not a location.
	if p, err := url.Parse(u); err != nil || p.Scheme == "" || p.Scheme == "about" {
		return "", false
	}
	return u, true
}
