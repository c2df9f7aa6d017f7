package links

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
)

// TestArchiveKinds runs the job on prism over an MHTML archive and a WARC
// file (plain, .warc.gz, .warc.zst) each holding one document of every
// kind relurl reads (HTML, a page with an import map, CSS, SVG, Atom,
// RSS, a web app manifest, a JS module served as text/javascript), and
// over each document as a file of its own: every link is the line relurl
// links writes for it (whose archives give each document's links as the
// document alone does: cmd/relurl's TestLinksArchiveKinds), and nothing
// is a dead letter. The job read HTML only, in archives and alone: the
// others were dead letters ("not yet") or, in archives, silently lost.
func TestArchiveKinds(t *testing.T) {
	in := t.TempDir()
	if err := testkit.WriteKindArchives(in); err != nil {
		t.Fatal(err)
	}
	archives := []string{testkit.KindsMHTML, testkit.KindsWARC, testkit.KindsWARCGz, testkit.KindsWARCZst}
	var inputs []string
	for _, a := range archives {
		inputs = append(inputs, filepath.Join(in, a))
	}
	for _, d := range testkit.KindDocs() {
		inputs = append(inputs, filepath.Join(in, d.Name))
	}
	out := filepath.Join(t.TempDir(), "out") + "/"
	runJob(t, Job{Inputs: inputs, Output: out})
	got := readShards(t, OutputName(out, OutputLinks))
	var want []string
	for _, f := range inputs {
		want = append(want, cliLinks(t, f)...)
	}
	sameMultiset(t, "links vs relurl links", got, want)
	for _, a := range archives {
		// The module's imports, in each archive.
		if !slices.ContainsFunc(got, func(l string) bool {
			return strings.Contains(l, `"url":"https://site.example/js/dep.mjs"`) && strings.Contains(l, a+`"`)
		}) {
			t.Errorf("%s: no import of the module", a)
		}
	}
	if errs := readShards(t, OutputName(out, OutputErrors)); len(errs) > 0 {
		t.Errorf("dead letters: %q", errs)
	}
}
