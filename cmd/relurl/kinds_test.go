package main

import (
	"encoding/json"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
)

// TestLinksArchiveKinds: `relurl links` of an MHTML archive and of a WARC
// file (plain, .warc.gz, .warc.zst) holding one document of every kind
// relurl reads (HTML, a page with an import map, CSS, SVG, Atom, RSS, a
// manifest, a JS module served as text/javascript) prints for each part
// and record the records `relurl links --base URL FILE` prints for its
// document alone, apart from the fields that name its place (file, part,
// target_part, record, target) and the layer its base came from. A
// module's imports were missing from both archives.
func TestLinksArchiveKinds(t *testing.T) {
	dir := t.TempDir()
	if err := testkit.WriteKindArchives(dir); err != nil {
		t.Fatal(err)
	}
	docs := testkit.KindDocs()
	// strip returns a record without its place; where is its part or
	// record's document URL.
	strip := func(line string) (rec, where string) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if p, ok := m["part"].(string); ok {
			i, _ := strconv.Atoi(p)
			where = docs[i-1].URL // the parts are in KindDocs' order
		}
		if tg, ok := m["target"].(string); ok {
			where = tg
		}
		for _, k := range []string{"file", "part", "target_part", "record", "target", "base_source"} {
			delete(m, k)
		}
		b, _ := json.Marshal(m)
		return string(b), where
	}
	want := map[string]string{}
	for _, d := range docs {
		lines, stderr, code := runRelurl(nil, "links", "-j", "1", "--base", d.URL, filepath.Join(dir, d.Name))
		if code != 0 || len(lines) == 0 {
			t.Fatalf("%s alone: exit %d, %d links: %s", d.Name, code, len(lines), stderr)
		}
		var recs []string
		for _, l := range lines {
			r, _ := strip(l)
			recs = append(recs, r)
		}
		want[d.URL] = strings.Join(recs, "\n")
	}
	for _, name := range []string{testkit.KindsMHTML, testkit.KindsWARC, testkit.KindsWARCGz, testkit.KindsWARCZst} {
		t.Run(name, func(t *testing.T) {
			lines, stderr, code := runRelurl(nil, "links", "-j", "1", filepath.Join(dir, name))
			if code != 0 || stderr != "" {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := map[string][]string{}
			for _, l := range lines {
				r, where := strip(l)
				got[where] = append(got[where], r)
			}
			for _, d := range docs {
				if g := strings.Join(got[d.URL], "\n"); g != want[d.URL] {
					t.Errorf("%s in %s:\n%s\nalone:\n%s", d.Name, name, g, want[d.URL])
				}
			}
		})
	}
}
