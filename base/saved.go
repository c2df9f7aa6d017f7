package base

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/relurl/relurl/resolve"
)

// Local is where a saved page lies, when the URL it is read under is
// another: the live URL its mark of the web names (SavedFrom). A browser's
// "Webpage, complete" save leaves two kinds of relative links in the page:
// those to the files it saved beside it (NAME_files/...), which must stay
// local for the page to keep working offline, and those it left as the
// site wrote them, which name the live site. [Context.LocalTarget] tells
// them apart.
type Local struct {
	// URL is the page's own URL where it lies: its file: URL, or its URL
	// in a tree served from a root URL.
	URL string
	// Path is the page's file on disk.
	Path string

	own, file *resolve.Resolver // against URL and against Path's file: URL, made on first use
	failed    bool              // one of them cannot be made: nothing is local
}

// LocalTarget returns the URL a saved page's link ref stays local at, ref
// resolved against the page's own URL (Local.URL), when c.Local is set and
// ref is a path-relative reference that names a file beside the page: one
// that exists (a saved page's own files win over the live site's, which
// relurl never asks), or any path in the page's NAME_files folder (where
// browsers save a page's resources: one missing there is missing locally,
// never a file of the live site). An absolute, scheme-relative or
// root-relative reference, and one naming the page itself (empty or a
// fragment alone), is not local: it resolves against the live URL.
func (c *Context) LocalTarget(ref string) (string, bool) {
	l := c.Local
	if l == nil || l.failed {
		return "", false
	}
	ref = strings.Trim(ref, "\t\n\f\r ")
	if ref == "" || ref[0] == '#' || ref[0] == '/' || ref[0] == '\\' {
		return "", false
	}
	if _, abs := resolve.Scheme(ref); abs {
		return "", false
	}
	if l.own == nil {
		if !l.prepare(c.Spec, c.Options) {
			return "", false
		}
	}
	f, err := l.file.Reference(ref)
	if err != nil {
		return "", false
	}
	p, ok := localPath(f)
	if !ok || !l.beside(p) {
		return "", false
	}
	u, err := l.own.Reference(ref)
	if err != nil {
		return "", false
	}
	return u, true
}

// prepare makes the resolvers of l; false when either cannot be made.
func (l *Local) prepare(spec resolve.Spec, opts resolve.Options) bool {
	fu, err := FileURL(l.Path)
	if err == nil {
		l.file, err = resolve.NewResolver(spec, fu, opts)
	}
	if err == nil {
		l.own, err = resolve.NewResolver(spec, l.URL, opts)
	}
	l.failed = err != nil
	return !l.failed
}

// beside reports whether the file at p counts as the saved page's: it
// exists, or it is in the page's NAME_files folder.
func (l *Local) beside(p string) bool {
	if _, err := os.Stat(p); err == nil {
		return true
	}
	dir, name := filepath.Split(l.Path)
	folder := filepath.Join(dir, strings.TrimSuffix(name, filepath.Ext(name))+"_files") + string(filepath.Separator)
	abs, err := filepath.Abs(folder)
	return err == nil && strings.HasPrefix(p, abs)
}

// localPath returns the path on disk a file: URL names, without its query
// and fragment.
func localPath(fileURL string) (string, bool) {
	u, err := url.Parse(fileURL)
	if err != nil || u.Scheme != "file" || u.Host != "" && u.Host != "localhost" {
		return "", false
	}
	return filepath.FromSlash(u.Path), true
}
