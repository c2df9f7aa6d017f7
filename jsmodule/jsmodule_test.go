package jsmodule

import (
	"bytes"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

const moduleURL = "https://www.example/app/js/main.mjs"

func opts() Options {
	return Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: moduleURL}}, ImportMap: []string{"lodash", "lib/"}}
}

// TestLinks: docs/formats.md §6.2 and checklist #14 (HTML "resolve a module
// specifier": URL-like specifiers against the module URL, bare ones only
// through an import map), and the traps: strings, comments, regular
// expressions and templates that look like imports are not links.
func TestLinks(t *testing.T) {
	src := `import "./util.mjs"; import "utils.js";
import def, { a as b } from '../lib/x.js';
import * as ns from "lodash"; import y from "lib/y.js";
export * from "./re.mjs"; export { c } from "/abs.mjs";
import data from "./d.json" with { type: "json" };
const m = await import("./lazy.mjs"), n = import(` + "`./tpl.mjs`" + `), v = import(name);
const logo = new URL("../img/logo.png", import.meta.url), other = new URL("x.png", base);
const r = import.meta.resolve("./r.mjs");
// import "./comment.mjs";
/* export * from "./block.mjs" */
const s = "import './string.mjs'", re = /"import '.\/re.mjs'/g, q = x / 2 / y;
obj.import("./prop.mjs"); export const z = from("nope.mjs");
const tpl = ` + "`import \"./t.mjs\" ${a}`" + `;
import "\u002e/esc.mjs";
import "https://cdn.example/abs.mjs";
`
	var got []string
	_, err := Links(strings.NewReader(src), opts(), func(l link.Link) error {
		s := l.Attr + " " + l.Kind.String() + " "
		if l.Err != nil {
			s += "error " + l.Raw
		} else {
			s += l.URL
		}
		if l.Offset <= 0 || !strings.HasPrefix(src[l.Offset:], l.Raw) && l.Raw != "./esc.mjs" {
			t.Errorf("offset %d of %q points at %q", l.Offset, l.Raw, src[l.Offset:min(len(src), int(l.Offset)+10)])
		}
		got = append(got, s)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"import import https://www.example/app/js/util.mjs",
		"import import https://www.example/app/lib/x.js",
		"import import error lodash",
		"import import error lib/y.js",
		"export import https://www.example/app/js/re.mjs",
		"export import https://www.example/abs.mjs",
		"import import https://www.example/app/js/d.json",
		"import() import https://www.example/app/js/lazy.mjs",
		"import() import https://www.example/app/js/tpl.mjs",
		"new URL resource https://www.example/app/img/logo.png",
		"import.meta.resolve import https://www.example/app/js/r.mjs",
		"import import https://www.example/app/js/esc.mjs",
		"import import https://cdn.example/abs.mjs",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRewrite(t *testing.T) {
	src := "import a from './a.mjs';\nimport 'lodash';\nconst u = new URL(`../i.png`, import.meta.url);\n"
	want := "import a from 'https://www.example/app/js/a.mjs';\nimport 'lodash';\nconst u = new URL(`https://www.example/app/i.png`, import.meta.url);\n"
	var b bytes.Buffer
	if _, err := Rewrite(&b, strings.NewReader(src), opts()); err != nil {
		t.Fatal(err)
	}
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	var again bytes.Buffer
	if st, err := Rewrite(&again, strings.NewReader(want), opts()); err != nil || again.String() != want || st.Rewritten != 0 {
		t.Errorf("not idempotent: %q %+v %v", again.String(), st, err)
	}
}

func FuzzRewrite(f *testing.F) {
	f.Add(`import a from "./a.js"; export * from '../b.js'; import("./c.js"); new URL("d", import.meta.url)`)
	f.Add("const r = /\"/g; import `./x.js`")
	f.Fuzz(func(t *testing.T, src string) {
		var b bytes.Buffer
		st, err := Rewrite(&b, strings.NewReader(src), opts())
		if err != nil && st.Rewritten == 0 && b.String() != src {
			t.Fatalf("a failed rewrite changed the source")
		}
		Links(strings.NewReader(src), opts(), func(link.Link) error { return nil })
	})
}
