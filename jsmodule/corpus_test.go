package jsmodule

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// TestCorpus reads every ES module (.mjs, *.esm.js) under
// $RELURL_FORMATS_CORPUS (the npm package bootstrap@5.3.8, unpacked, holds
// three): each must lex with no error; without a base nothing changes;
// with one, a second rewrite changes nothing.
func TestCorpus(t *testing.T) {
	dir := os.Getenv("RELURL_FORMATS_CORPUS")
	if dir == "" {
		t.Skip("RELURL_FORMATS_CORPUS not set")
	}
	var n, links int
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := strings.ToLower(d.Name())
		if !strings.HasSuffix(name, ".mjs") && !strings.Contains(name, ".esm.") || !strings.HasSuffix(name, "js") {
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		u := "https://cdn.example/pkg/" + filepath.ToSlash(path[len(dir):])
		opts := Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: u}}}
		if _, err := Links(bytes.NewReader(data), opts, func(link.Link) error { links++; return nil }); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		var out, again, none bytes.Buffer
		if _, err := Rewrite(&none, bytes.NewReader(data), Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG}}}); err != nil || !bytes.Equal(none.Bytes(), data) {
			t.Errorf("%s: without a base: changed or %v", path, err)
		}
		if _, err := Rewrite(&out, bytes.NewReader(data), opts); err != nil {
			t.Errorf("%s: %v", path, err)
		}
		if st, err := Rewrite(&again, bytes.NewReader(out.Bytes()), opts); err != nil || st.Rewritten != 0 {
			t.Errorf("%s: second rewrite: %+v %v", path, st, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatalf("no module under %s", dir)
	}
	t.Logf("%d modules, %d specifiers", n, links)
}
