package linkcheck

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// A Host models how a web server maps the path of a URL into the tree to
// a file: which files serve a directory URL, whether "/about" serves
// about.html, what a directory URL without its final "/" does, whether
// letter case matters, and which redirect file of the tree it obeys.
// Check reports a link as missing when the host would answer it with an
// error; the same tree can be fine on one host and broken on another.
type Host struct {
	Name string
	// Index lists the files that serve a directory URL ("dir/"), in the
	// order tried. Empty: a directory URL names the directory itself,
	// which exists when the directory does (a file: listing).
	Index []string
	// Extensionless: a path without a file of its name serves the file
	// of that name plus ".html" ("/about" serves about.html).
	Extensionless bool
	// DirRedirect: a directory URL without its final "/" ("/docs")
	// redirects to the one with it, so the link works.
	DirRedirect bool
	// SlashFile: a file's URL with a final "/" ("/about/") redirects to
	// the file (Netlify's and Cloudflare Pages' pretty URLs).
	SlashFile bool
	// CaseInsensitive: the host finds "About.html" for "about.html".
	// Every host modelled here is case-sensitive (docs/cli/check.md); a link
	// that only matches with another case is a case-mismatch.
	CaseInsensitive bool
	// Redirects names the redirect file the host reads at the root of
	// the tree ("_redirects", ".htaccess"), or "" for none.
	Redirects string
	// ForcedRedirects: a redirect rule applies even when a file matches
	// the path (Cloudflare Pages, Apache's mod_alias). Otherwise (Netlify)
	// a file shadows a rule unless the rule ends in "!".
	ForcedRedirects bool
}

// The host profiles, by name. Sources: GitHub Pages, Netlify and
// Cloudflare Pages docs and slorber/trailing-slash-guide
// (docs/Hosting-Providers.md); Apache mod_dir (DirectoryIndex,
// DirectorySlash) and mod_alias (Redirect, RedirectMatch); nginx's index
// and its 301 for a directory without "/"; AWS S3 "Configuring an index
// document". docs/cli/check.md lists them.
var hosts = map[string]*Host{
	// file: the tree opened from disk (file: URLs), relurl check's
	// behaviour before profiles: a path exists when a file or a
	// directory of that exact name does; no index, no pretty URLs.
	"file": {Name: "file"},
	// GitHub Pages: index.html, "/about" serves about.html, "/docs"
	// redirects to "/docs/", "/about.html/" is a 404, no redirect file
	// (jekyll-redirect-from writes HTML pages instead).
	"github-pages": {Name: "github-pages", Index: []string{"index.html"}, Extensionless: true, DirRedirect: true},
	// Netlify: pretty URLs ("/about/" → "/about"), _redirects rules
	// shadowed by existing files unless forced with "!".
	"netlify": {Name: "netlify", Index: []string{"index.html"}, Extensionless: true, DirRedirect: true, SlashFile: true, Redirects: "_redirects"},
	// Cloudflare Pages: "/about.html" ↔ "/about", "/about/" → "/about";
	// "Redirects are always followed, regardless of whether or not an
	// asset matches the incoming request".
	"cloudflare-pages": {Name: "cloudflare-pages", Index: []string{"index.html"}, Extensionless: true, DirRedirect: true, SlashFile: true, Redirects: "_redirects", ForcedRedirects: true},
	// Apache httpd: DirectoryIndex index.html, DirectorySlash On, no
	// MultiViews; mod_alias Redirect/RedirectMatch of .htaccess, which
	// run before files are looked up.
	"apache": {Name: "apache", Index: []string{"index.html"}, DirRedirect: true, Redirects: ".htaccess", ForcedRedirects: true},
	// nginx: index index.html; a directory without "/" gets a 301 to it.
	"nginx": {Name: "nginx", Index: []string{"index.html"}, DirRedirect: true},
	// S3 website endpoint: the index suffix for "/" and "prefix/";
	// "/photos" gets a 302 to "/photos/" when photos/index.html exists.
	"s3": {Name: "s3", Index: []string{"index.html"}, DirRedirect: true},
}

// HostNames lists the host profiles, sorted.
func HostNames() []string {
	names := make([]string, 0, len(hosts))
	for n := range hosts {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// HostProfile returns the host profile called name (see [HostNames]).
func HostProfile(name string) (*Host, error) {
	if h, ok := hosts[name]; ok {
		return h, nil
	}
	return nil, fmt.Errorf("no such host profile %q (want one of %s)", name, strings.Join(HostNames(), ", "))
}

// served is what the host answers for a path of the tree.
type served struct {
	file   string // the tree-relative path of the file served; "" with dir
	dir    string // a directory listing (file profile): its path, "/" at the end ("./" for the root)
	ok     bool
	reason string // why not, when !ok
}

// listing caches the names in the tree's directories: a path is matched
// byte for byte against them (os.Stat would find "About.html" for
// "about.html" on APFS and NTFS), and one ReadDir serves every link into
// a directory.
type listing struct {
	mu       sync.Mutex
	dirs     map[string]map[string]bool // dir → name → is a directory; nil: unreadable
	reported map[string]bool            // dirs whose collisions Finish returned
}

func (l *listing) names(root, dir string) map[string]bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m, ok := l.dirs[dir]; ok {
		return m
	}
	if l.dirs == nil {
		l.dirs = map[string]map[string]bool{}
	}
	var m map[string]bool
	if ents, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(dir))); err == nil {
		m = make(map[string]bool, len(ents))
		for _, e := range ents {
			isDir := e.IsDir()
			if e.Type()&os.ModeSymlink != 0 {
				if info, err := os.Stat(filepath.Join(root, filepath.FromSlash(dir), e.Name())); err == nil {
					isDir = info.IsDir()
				}
			}
			m[e.Name()] = isDir
		}
	}
	l.dirs[dir] = m
	return m
}

// entry finds the tree-relative path p ("a/b.html", no final "/") and
// returns its spelling in the tree and whether it is a directory. With
// fold, a segment with no exact match matches a name equal under Unicode
// case folding (the first in name order).
func (c *Checker) entry(p string, fold bool) (real string, isDir, ok bool) {
	if p == "" {
		return "", true, true
	}
	dir := ""
	segs := strings.Split(p, "/")
	for i, seg := range segs {
		names := c.list.names(c.Dir, dir)
		d, found := names[seg]
		if !found && fold {
			keys := make([]string, 0, len(names))
			for n := range names {
				if sameName(n, seg) {
					keys = append(keys, n)
				}
			}
			if len(keys) > 0 {
				slices.Sort(keys)
				seg, d, found = keys[0], names[keys[0]], true
			}
		}
		if !found || (!d && i < len(segs)-1) {
			return "", false, false
		}
		dir = path.Join(dir, seg)
		isDir = d
	}
	return dir, isDir, true
}

// serve returns what the host answers for the tree-relative path p
// (percent-decoded; "" or ending in "/" for a directory URL), matching
// names exactly, or ignoring case with fold. Redirect files are not
// consulted here.
func (c *Checker) serve(p string, fold bool) served {
	h := c.host
	if p == "" || strings.HasSuffix(p, "/") {
		d := strings.TrimSuffix(p, "/")
		real, isDir, ok := c.entry(d, fold)
		if ok && isDir {
			return c.index(real, fold)
		}
		if h.SlashFile && d != "" {
			if real, isDir, ok := c.entry(d, fold); ok && !isDir {
				return served{file: real, ok: true}
			}
			if real, isDir, ok := c.entry(d+".html", fold); ok && !isDir {
				return served{file: real, ok: true}
			}
		}
		if ok {
			return served{reason: "no directory " + d + " in the tree (" + real + " is a file)"}
		}
		return served{reason: "no directory " + d + " in the tree"}
	}
	real, isDir, ok := c.entry(p, fold)
	if ok && !isDir {
		return served{file: real, ok: true}
	}
	if h.Extensionless {
		if real, isDir, ok := c.entry(p+".html", fold); ok && !isDir {
			return served{file: real, ok: true}
		}
	}
	if ok && isDir {
		if len(h.Index) == 0 {
			return served{dir: dirName(real), ok: true}
		}
		if h.DirRedirect {
			return c.index(real, fold)
		}
		return served{reason: p + " is a directory; the host does not redirect " + p + " to " + p + "/"}
	}
	return served{reason: "no file " + p + " in the tree"}
}

// index returns what serves the directory dir of the tree.
func (c *Checker) index(dir string, fold bool) served {
	if len(c.host.Index) == 0 {
		return served{dir: dirName(dir), ok: true}
	}
	for _, name := range c.host.Index {
		if real, isDir, ok := c.entry(path.Join(dir, name), fold); ok && !isDir {
			return served{file: real, ok: true}
		}
	}
	d := dir
	if d == "" {
		d = "the root"
	}
	return served{reason: "no " + strings.Join(c.host.Index, " or ") + " in directory " + d + " of the tree"}
}

// dirName names the directory dir of the tree: "docs/", or "./" for the
// root.
func dirName(dir string) string {
	if dir == "" {
		return "./"
	}
	return dir + "/"
}

// dirOf returns the directory of the tree-relative path rel, "" for the
// root (the key listing uses).
func dirOf(rel string) string {
	d := path.Dir(rel)
	if d == "." || d == "/" {
		return ""
	}
	return d
}

// collisions returns a CaseCollision finding for each name, in the
// directories listed so far and not reported yet, that is one name with
// another (the first in byte order) once letter case (Unicode simple case
// folding, one rune for one, as strings.EqualFold and NTFS's upcase
// table) and normalization (NFC) are set aside, as APFS and NTFS see
// names. File systems' folding tables differ at the edges (ß, dotless ı):
// a heuristic there.
func (c *Checker) collisions() []Finding {
	type listed struct {
		dir   string
		names []string
	}
	var todo []listed
	c.list.mu.Lock()
	if c.list.reported == nil {
		c.list.reported = map[string]bool{}
	}
	for d, m := range c.list.dirs {
		if m == nil || c.list.reported[d] {
			continue
		}
		c.list.reported[d] = true
		l := listed{dir: d}
		for n := range m {
			l.names = append(l.names, n)
		}
		todo = append(todo, l)
	}
	c.list.mu.Unlock()
	slices.SortFunc(todo, func(a, b listed) int { return strings.Compare(a.dir, b.dir) })
	var out []Finding
	for _, l := range todo {
		slices.Sort(l.names)
		first := map[string]string{}
		for _, n := range l.names {
			key := foldKey(norm.NFC.String(n))
			other, ok := first[key]
			if !ok {
				first[key] = n
				continue
			}
			a, b := path.Join(l.dir, other), path.Join(l.dir, n)
			how := "letter case"
			if !strings.EqualFold(other, n) {
				how = "Unicode normalization (NFC, NFD)"
			}
			out = append(out, Finding{File: filepath.Join(c.Dir, filepath.FromSlash(b)), Link: other, Problem: CaseCollision,
				Reason: fmt.Sprintf("%s and %s differ in %s only: one name on a case-insensitive file system (APFS, NTFS), where one overwrites the other", a, b, how),
				Target: a, Before: c.To != ""})
		}
	}
	return out
}

// foldKey maps each rune of s to the smallest rune of its simple case
// folding orbit, so that strings.EqualFold(a, b) iff their keys are equal.
func foldKey(s string) string {
	return strings.Map(func(r rune) rune {
		m := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			m = min(m, f)
		}
		return m
	}, s)
}
