package extract_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
)

// alone is what a link says apart from its place in an archive: the
// fields a document read on its own gives too.
func alone(l link.Link) string {
	e := ""
	if l.Err != nil {
		e = l.Err.Error()
	}
	return fmt.Sprintf("%q %q %q %s/%s %v %v %d:%d@%d base %q inert %v", l.Raw, l.URL, e, l.Tag, l.Attr, l.Kind, l.Rel, l.Line, l.Column, l.Offset, l.Base.URL, l.Inert)
}

// TestArchiveKinds reads an MHTML archive and a WARC file (plain, one
// gzip member a record, one zstd frame a record), each holding one
// document of every kind relurl reads (HTML, a page with an import map,
// CSS, SVG, Atom, RSS, a web app manifest, a JS module served as
// text/javascript), through the one call (File): each part's and
// record's links are those of its document read alone (Reader, under the
// same URL and type), in the same order, with the part or record that
// holds it; no kind gives none (a module's imports were lost in WARC and
// MHTML).
func TestArchiveKinds(t *testing.T) {
	dir := t.TempDir()
	if err := testkit.WriteKindArchives(dir); err != nil {
		t.Fatal(err)
	}
	docs := testkit.KindDocs()
	want := map[string][]string{}
	for _, d := range docs {
		_, err := extract.Reader(strings.NewReader(d.Body), d.URL, d.Type, extract.Options{}, func(l link.Link) error {
			want[d.URL] = append(want[d.URL], alone(l))
			return nil
		})
		if err != nil {
			t.Fatalf("%s alone: %v", d.Name, err)
		}
		if len(want[d.URL]) == 0 {
			t.Fatalf("%s alone: no links", d.Name)
		}
	}
	for _, name := range []string{testkit.KindsMHTML, testkit.KindsWARC, testkit.KindsWARCGz, testkit.KindsWARCZst} {
		t.Run(name, func(t *testing.T) {
			got := map[string][]string{}
			res, err := extract.File(filepath.Join(dir, name), extract.Options{}, func(l link.Link) error {
				var u string
				switch {
				case l.Part != "":
					var i int
					fmt.Sscan(l.Part, &i)
					u = docs[i-1].URL // the parts are in KindDocs' order
				case l.Target != "":
					u = l.Target
				default:
					t.Errorf("a link with neither part nor record: %+v", l)
				}
				got[u] = append(got[u], alone(l))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %q", res.Warnings)
			}
			for _, d := range docs {
				if g, w := strings.Join(got[d.URL], "\n"), strings.Join(want[d.URL], "\n"); g != w {
					t.Errorf("%s in %s:\n%s\nalone:\n%s", d.Name, name, g, w)
				}
			}
		})
	}
}

// TestFileAlone: File reads each document by its name, against its file:
// URL, as relurl links does.
func TestFileAlone(t *testing.T) {
	dir := t.TempDir()
	if err := testkit.WriteKindArchives(dir); err != nil {
		t.Fatal(err)
	}
	for _, d := range testkit.KindDocs() {
		n := 0
		_, err := extract.File(filepath.Join(dir, d.Name), extract.Options{}, func(l link.Link) error {
			n++
			if !strings.HasPrefix(l.Base.URL, "file:///") {
				t.Errorf("%s: base %q", d.Name, l.Base.URL)
			}
			return nil
		})
		if err != nil || n == 0 {
			t.Errorf("%s: %d links, %v", d.Name, n, err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "x.bin"), []byte{0, 1, 2}, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := extract.File(filepath.Join(dir, "x.bin"), extract.Options{}, func(link.Link) error { return nil }); err != extract.ErrNotDocument {
		t.Errorf("binary file: %v, want ErrNotDocument", err)
	}
}

// TestReaderStream: a stream with neither name nor type is told by its
// first bytes (a WARC file here), as relurl links - tells it; no bytes
// are an error.
func TestReaderStream(t *testing.T) {
	dir := t.TempDir()
	if err := testkit.WriteKindArchives(dir); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{testkit.KindsWARC, testkit.KindsWARCGz, testkit.KindsMHTML} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var fromFile, fromStream []string
		if _, err := extract.File(filepath.Join(dir, name), extract.Options{}, func(l link.Link) error {
			fromFile = append(fromFile, alone(l))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		// An MHTML stream is told by its name: a saved page starts
		// "From: <Saved by ...>", as text does.
		stream := ""
		if name == testkit.KindsMHTML {
			stream = "saved.mhtml"
		}
		if _, err := extract.Reader(strings.NewReader(string(data)), stream, "", extract.Options{}, func(l link.Link) error {
			fromStream = append(fromStream, alone(l))
			return nil
		}); err != nil {
			t.Fatal(err)
		}
		if strings.Join(fromFile, "\n") != strings.Join(fromStream, "\n") || len(fromFile) == 0 {
			t.Errorf("%s: from the file %d links, from a stream %d", name, len(fromFile), len(fromStream))
		}
	}
	if _, err := extract.Reader(strings.NewReader(""), "", "", extract.Options{}, func(link.Link) error { return nil }); err == nil {
		t.Error("an empty stream: no error")
	}
}
