package modspec

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestParseImportMap: HTML §8.1.5.3 "parse an import map string" and the
// normalizations it calls: which strings are URLs (addresses, URL-like
// keys, scope prefixes, URL-like integrity keys), which are names (bare
// keys), which entries are null, and where the Standard throws.
func TestParseImportMap(t *testing.T) {
	src := `{"imports":{"lodash":"./vendor/lodash.js","bad":"vendor/x.js","/lib/":"../lib/","app/":"https://cdn.example/app","":"./e.js","n":1},` +
		`"scopes":{"legacy/":{"a":"/a.js","./k.js":"./v.js"}},"integrity":{"./x.js":"sha384-x","bare":"y","./y.js":2},"other":0}`
	m, err := ParseImportMap([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range m.Entries {
		s := e.Role.String() + " " + strings.Join(e.Path, ">") + " " + e.Text
		if e.Err != nil {
			s += " null"
		}
		if src[e.Start:e.End] != e.Text {
			t.Errorf("span of %q: %q", e.Text, src[e.Start:e.End])
		}
		got = append(got, s)
	}
	want := []string{
		"address imports>lodash ./vendor/lodash.js",
		"address imports>bad vendor/x.js null",
		"key imports /lib/",
		"address imports>/lib/ ../lib/",
		"address imports>app/ https://cdn.example/app null",
		"scope scopes legacy/",
		"address scopes>legacy/>a /a.js",
		"key scopes>legacy/ ./k.js",
		"address scopes>legacy/>./k.js ./v.js",
		"integrity integrity ./x.js",
		"integrity integrity ./y.js",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if strings.Join(m.Bare, " ") != "lodash bad app/ n a" {
		t.Errorf("bare keys %q", m.Bare)
	}
	if len(m.Warnings) != 4 {
		t.Errorf("warnings %q, want empty key, n, ./y.js, other", m.Warnings)
	}
	if !errors.Is(m.Entries[1].Err, ErrAddress) || !errors.Is(m.Entries[4].Err, ErrTrailingSlash) {
		t.Errorf("errors %v %v", m.Entries[1].Err, m.Entries[4].Err)
	}
	for _, bad := range []string{`{"imports":`, `[]`, `"x"`, `{"imports":[]}`, `{"scopes":{"a/":[]}}`, `{"integrity":1}`, `{"scopes":1}`} {
		if _, err := ParseImportMap([]byte(bad)); err == nil {
			t.Errorf("%s: no error", bad)
		}
	}
}

// TestBare: HTML "resolve a URL-like module specifier": "/", "./", "../"
// prefixes or an absolute URL; everything else is a name.
func TestBare(t *testing.T) {
	for s, bare := range map[string]bool{
		"./a.js": false, "../a": false, "/a": false, "https://x/": false, "data:text/javascript,": false,
		"a.js": true, "lodash": true, ".a": true, "": true, `.\a`: true, "app/": true,
	} {
		if Bare(s) != bare {
			t.Errorf("Bare(%q) = %v", s, !bare)
		}
	}
}

// FuzzParseImportMap: never panics; every entry's span holds its string,
// decoded as encoding/json decodes it.
func FuzzParseImportMap(f *testing.F) {
	f.Add([]byte(`{"imports":{"a":"./a.js","/b/":"/c/"},"scopes":{"s/":{"x":"https://y/"}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseImportMap(data)
		if err != nil {
			return
		}
		for _, e := range m.Entries {
			if e.Start < 1 || e.End >= len(data) || e.Start > e.End {
				t.Fatalf("bad span %d-%d", e.Start, e.End)
			}
			var want string
			if json.Unmarshal(data[e.Start-1:e.End+1], &want) == nil && want != e.Text && !strings.ContainsRune(want, '\uFFFD') {
				t.Fatalf("%q decoded as %q, want %q", data[e.Start-1:e.End+1], e.Text, want)
			}
		}
	})
}

// TestScanWindow: Scan holds a window of tokens, not the module; what it
// finds does not depend on where the window's edges fall.
func TestScanWindow(t *testing.T) {
	var b strings.Builder
	for i := range 3000 {
		switch i % 5 {
		case 0:
			b.WriteString(`import a` + strings.Repeat(", b", i%13) + ` from "./a` + strings.Repeat("x", i%7) + `.js";` + "\n")
		case 1:
			b.WriteString(`obj.import("./no.js"); new URL("img.png", import.meta.url);` + "\n")
		case 2:
			b.WriteString(`export {` + strings.Repeat("c, ", i%29) + `d} from '../e.js'; import("./f.js")` + "\n")
		case 3:
			b.WriteString(`const s = "import './s.js'" / 2; x = y / z;` + "\n")
		default:
			b.WriteString(`import.meta.resolve("./r.js"); import "./side.js"` + "\n")
		}
	}
	src := []byte(b.String())
	defer func(w int) { window = w }(window)
	window = 1 << 30
	whole, err := Scan(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []int{ahead + 2, ahead + 7, 2*ahead + 1} {
		window = w
		got, err := Scan(src)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(whole) {
			t.Fatalf("window %d: %d refs, want %d", w, len(got), len(whole))
		}
		for i := range got {
			if got[i] != whole[i] {
				t.Fatalf("window %d: ref %d = %+v, want %+v", w, i, got[i], whole[i])
			}
		}
	}
	if len(whole) < 2400 {
		t.Fatalf("only %d refs", len(whole))
	}
}
