package tree

import (
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/relurl/relurl/base"
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
	return DirURL(m.root)
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
	root, err := DirURL(m.root)
	if err != nil {
		return "", err
	}
	return root + EscapePath(f.Rel), nil
}

// Local returns, with SavedFrom, where the file f lies when it belongs to
// a page a browser saved: the page itself, whose URL is the one its mark
// of the web names, or a file in the page's NAME_files folder (its
// stylesheets and scripts link their neighbours there). It holds f's URL
// without the mark and its path, so that f's links to the files saved
// beside it stay local (base.Context.LocalTarget); nil for any other
// file.
func (m *Mapper) Local(f File) *base.Local {
	if !m.SavedFrom || f.Path == "" || f.Path == "-" {
		return nil
	}
	if _, ok := SavedFrom(f.Head); !ok && !inSavedFolder(f.Path) {
		return nil
	}
	own := *m
	own.SavedFrom = false
	u, err := own.URL(f)
	if err != nil {
		return nil
	}
	return &base.Local{URL: u, Path: f.Path}
}

// inSavedFolder reports whether the file at path lies in a folder
// NAME_files beside a page NAME.html or NAME.htm: where browsers save a
// page's resources.
func inSavedFolder(path string) bool {
	for d := filepath.Dir(path); ; {
		if stem, ok := strings.CutSuffix(filepath.Base(d), "_files"); ok && stem != "" {
			for _, ext := range []string{".html", ".htm"} {
				if info, err := os.Stat(filepath.Join(filepath.Dir(d), stem+ext)); err == nil && info.Mode().IsRegular() {
					return true
				}
			}
		}
		up := filepath.Dir(d)
		if up == d {
			return false
		}
		d = up
	}
}

// DirURL returns root with a final "/" on its path. A root with a query
// or fragment cannot be a directory.
func DirURL(root string) (string, error) {
	if strings.ContainsAny(root, "?#") {
		return "", fmt.Errorf("base URL %q of a tree has a query or fragment", root)
	}
	if !strings.HasSuffix(root, "/") {
		root += "/"
	}
	return root, nil
}

// PathOf returns the path of the URL u in the tree whose root URL is root
// (Mapper.Root's: no query or fragment), percent-decoded, without u's
// query or fragment ("" or ending in "/" for a directory); false when u
// is not under root or its path does not decode.
func PathOf(u, root string) (string, bool) {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	rest, ok := strings.CutPrefix(u, root)
	if !ok {
		return "", false
	}
	rel, err := url.PathUnescape(rest)
	if err != nil {
		return "", false
	}
	return rel, true
}

// EscapePath percent-encodes each segment of the slash-separated path
// rel, so that a file named "a b?.html" maps to "a%20b%3F.html".
func EscapePath(rel string) string {
	segs := strings.Split(rel, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// fileURL returns the file: URL of path (RFC 8089), as base.FileURL
// makes it, with a final "/" for a directory.
func fileURL(path string, dir bool) (string, error) {
	u, err := base.FileURL(path)
	if err != nil {
		return "", err
	}
	if dir && !strings.HasSuffix(u, "/") {
		u += "/"
	}
	return u, nil
}

// SavedFrom returns the URL of a "<!-- saved from url=(NNNN)URL -->"
// comment at the top of head, as base.SavedFrom reads it: the one parser
// of the comment, shared by relurl base, links, rewrite and check.
func SavedFrom(head []byte) (string, bool) {
	u, _, ok := base.SavedFrom(head)
	return u, ok
}
