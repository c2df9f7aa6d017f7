package xmlrewrite

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// TestCorpus reads every .css and .svg under $RELURL_FORMATS_CORPUS (for
// instance the npm packages bootstrap@5.3.8 and bootstrap-icons@1.13.2,
// unpacked): each must go through with no error and no warning, its
// identity rewrite must reproduce it byte for byte (SVG), and a second
// rewrite must change nothing.
func TestCorpus(t *testing.T) {
	dir := os.Getenv("RELURL_FORMATS_CORPUS")
	if dir == "" {
		t.Skip("RELURL_FORMATS_CORPUS not set")
	}
	var nCSS, nSVG, links int
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		ext := strings.ToLower(filepath.Ext(path))
		if ext != ".css" && ext != ".svg" {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		u := "https://cdn.example/pkg/" + filepath.ToSlash(path[len(dir):])
		var out, again bytes.Buffer
		var st, st2 link.Stats
		if ext == ".css" {
			nCSS++
			o := htmlrewrite.Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: u}}}
			st, err = htmlrewrite.RewriteCSS(&out, bytes.NewReader(data), o)
			if err == nil {
				st2, err = htmlrewrite.RewriteCSS(&again, bytes.NewReader(out.Bytes()), o)
			}
		} else {
			nSVG++
			o := opts(u)
			st, err = Rewrite(&out, bytes.NewReader(data), o)
			if err == nil {
				st2, err = Rewrite(&again, bytes.NewReader(out.Bytes()), o)
			}
			o.identity = true
			var id bytes.Buffer
			if _, ierr := Rewrite(&id, bytes.NewReader(data), o); ierr != nil || !bytes.Equal(id.Bytes(), data) {
				t.Errorf("%s: identity rewrite differs (%v)", path, ierr)
			}
		}
		links += st.Links
		switch {
		case err != nil:
			t.Errorf("%s: %v", path, err)
		case st.Failed > 0 || len(st.Base.Warnings) > 0:
			t.Errorf("%s: %d failed, warnings %q", path, st.Failed, st.Base.Warnings)
		case st2.Rewritten > 0 || !bytes.Equal(again.Bytes(), out.Bytes()):
			t.Errorf("%s: the second rewrite changed %d links", path, st2.Rewritten)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d stylesheets and %d SVG files, %d links", nCSS, nSVG, links)
}
