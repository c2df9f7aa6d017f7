package materialize

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestStale runs over one DIR with the fixture, then with another capture
// of the site: the files only the first run wrote are stale. They are
// reported and kept (and stay known in urls.jsonl) unless RemoveStale, which
// removes only those still holding the bytes the first run wrote — never a
// file changed since, a symbolic link, a file relurl did not write, or
// anything a forged urls.jsonl line names outside DIR.
func TestStale(t *testing.T) {
	src := t.TempDir()
	writeFixture(t, src)
	top := t.TempDir()
	out := filepath.Join(top, "out")
	materialized(t, []string{filepath.Join(src, "fixture.warc")}, Options{Dir: out})
	first := readURLs(t, out)

	// The second capture: the home page again, and a page the first lacks.
	var second bytes.Buffer
	for i, r := range []fixtureRecord{
		{uri: "http://site.test/", headers: []string{htmlType}, body: `<a href="/fresh">fresh</a> <a href="/docs">docs</a>`},
		{uri: "http://site.test/fresh", headers: []string{htmlType}, body: `<a href="/">home</a>`},
	} {
		second.Write(r.bytes(i))
	}
	in2 := filepath.Join(src, "second.warc")
	must(t, os.WriteFile(in2, second.Bytes(), 0o644))

	// Every file of the first run but the home page is stale.
	var want []string
	for _, r := range first {
		if r.File != "site.test/index.html" {
			want = append(want, r.File)
		}
	}
	slices.Sort(want)
	run := func(remove bool) (Summary, map[string]string) {
		t.Helper()
		notes := map[string]string{}
		sum, err := Run([]string{in2}, Options{Dir: out, RemoveStale: remove, Warn: func(w Warning) {
			switch {
			case w.Stale:
				notes[w.Where] = w.Message
			case w.Problem:
				t.Errorf("problem: %v", w)
			default:
				t.Logf("warning: %v", w)
			}
		}})
		must(t, err)
		return sum, notes
	}
	sum, notes := run(false)
	if got := slices.Sorted(maps.Keys(notes)); !slices.Equal(got, want) {
		t.Errorf("stale files reported:\n%v\nwant\n%v", got, want)
	}
	if sum.Stale != len(want) || sum.Removed != 0 || sum.Warnings != 0 {
		t.Errorf("summary %+v", sum)
	}
	for _, f := range want {
		if _, err := os.Lstat(filepath.Join(out, filepath.FromSlash(f))); err != nil {
			t.Errorf("stale file not kept: %v", err)
		}
		if !strings.HasSuffix(notes[f], ": kept") {
			t.Errorf("%s: %s", f, notes[f])
		}
	}
	// Known again on the next run: urls.jsonl lists them as stale.
	if sum, _ := run(false); sum.Stale != len(want) {
		t.Errorf("third run: %d stale, want %d", sum.Stale, len(want))
	}

	// What must survive --remove-stale: a file of the user's, a stale
	// file changed since, a stale file replaced by a symbolic link, and a
	// file outside DIR that a forged urls.jsonl line names.
	mine := filepath.Join(out, "site.test", "mine.txt")
	must(t, os.WriteFile(mine, []byte("mine"), 0o644))
	changed := filepath.Join(out, "site.test", "img", "logo.png")
	must(t, os.WriteFile(changed, []byte("edited"), 0o644))
	link := filepath.Join(out, "site.test", "style.css")
	must(t, os.Remove(link))
	must(t, os.Symlink(mine, link))
	outside := filepath.Join(top, "outside.txt")
	must(t, os.WriteFile(outside, []byte("outside"), 0o644))
	f, err := os.OpenFile(filepath.Join(out, "urls.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	f.WriteString(`{"url":"http://x.test/","file":"../outside.txt","kind":"stale","file_digest":"` + fileDigest(sha256Of("outside")) + `"}` + "\n")
	f.WriteString(`{"url":"http://x.test/","file":"site.test/mine.txt","kind":"stale","file_digest":"sha256:00"}` + "\n")
	f.Close()

	sum, notes = run(true)
	kept := map[string]string{"site.test/img/logo.png": "changed since relurl wrote it", "site.test/style.css": "not a regular file", "site.test/mine.txt": "changed since relurl wrote it"}
	for _, f := range append(want, "site.test/mine.txt") {
		_, err := os.Lstat(filepath.Join(out, filepath.FromSlash(f)))
		if why, ok := kept[f]; ok {
			if err != nil || !strings.Contains(notes[f], "kept: "+why) {
				t.Errorf("%s: %v; note %q, want kept: %s", f, err, notes[f], why)
			}
			continue
		}
		if !os.IsNotExist(err) || notes[f] != "stale (an earlier run wrote it; this one does not): removed" {
			t.Errorf("%s: not removed (%v): %q", f, err, notes[f])
		}
	}
	if sum.Stale != len(want)+1 || sum.Removed != len(want)-2 {
		t.Errorf("summary %+v (%d stale of the first run)", sum, len(want))
	}
	if b, err := os.ReadFile(outside); err != nil || string(b) != "outside" {
		t.Errorf("file outside DIR: %q %v", b, err)
	}
	// Directories emptied by the removal go too; the tree that is left
	// holds no link to a file that is not there.
	for _, d := range []string{"cdn.test", filepath.Join("site.test", "docs"), filepath.Join("site.test", "js")} {
		if _, err := os.Stat(filepath.Join(out, d)); !os.IsNotExist(err) {
			t.Errorf("%s: not removed (%v)", d, err)
		}
	}
	checkLinks(t, out)
	if got := readFile(t, out, "site.test/index.html"); !strings.HasSuffix(got, `<a href="fresh.html">fresh</a> <a href="http://site.test/docs">docs</a>`) {
		t.Errorf("home page: %s", got)
	}
}

func sha256Of(s string) [32]byte { return sha256.Sum256([]byte(s)) }

// TestReadLine: a line of urls.jsonl over the bound is skipped whole, the
// next one read.
func TestReadLine(t *testing.T) {
	in := "a\r\n" + strings.Repeat("x", maxURLsLine+10) + "\nb\nc"
	br := bufio.NewReaderSize(strings.NewReader(in), 4096)
	var got []string
	for {
		line, err := readLine(br)
		if err == errLineTooLong {
			got = append(got, "(too long)")
			continue
		}
		if len(line) > 0 {
			got = append(got, string(line))
		}
		if err != nil {
			break
		}
	}
	if want := []string{"a", "(too long)", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}
