package htmlrewrite

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/text/encoding/charmap"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/modspec"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

const pageURL = "https://www.example/app/page.html"

func pageOptions() Options {
	return Options{Document: link.Document{Context: base.Context{Spec: resolve.WHATWG, Retrieval: pageURL}}}
}

// scriptLinks returns the links of doc as "attr kind url|error raw" lines,
// checking that each one's Offset points at its raw value.
func scriptLinks(t *testing.T, doc string, opts Options) ([]string, base.Result) {
	t.Helper()
	var got []string
	b, err := Links(strings.NewReader(doc), opts, func(l link.Link) error {
		s := l.Tag + " " + l.Attr + " " + l.Kind.String() + " "
		if l.Err != nil {
			s += "error " + l.Raw
		} else {
			s += l.URL
		}
		if !strings.HasPrefix(doc[l.Offset:], l.Raw) && !strings.Contains(l.Raw, `\`) && !strings.HasPrefix(doc[l.Offset:], `\`) {
			t.Errorf("offset %d of %q points at %q", l.Offset, l.Raw, doc[l.Offset:min(len(doc), int(l.Offset)+12)])
		}
		got = append(got, s)
		return nil
	})
	require.NoError(t, err)
	return got, b
}

// TestImportMap: HTML §8.1.5.3 "parse an import map string", "sort and
// normalize a module specifier map" and "sort and normalize scopes", with
// docs/formats.md §6.1 and checklist #13 (page https://www.example/app/page.html).
func TestImportMap(t *testing.T) {
	for _, c := range []struct {
		name, json string
		want       []string
		warn       string
	}{{
		// Checklist #13: a bare key is kept, a URL-like address resolves
		// against the document base, an address that is not URL-like is
		// null (not document-relative).
		"checklist 13", `{"imports":{"lodash":"./vendor/lodash.js","bad":"vendor/x.js"}}`,
		[]string{
			"script importmap:address import https://www.example/app/vendor/lodash.js",
			"script importmap:address import error vendor/x.js",
		}, "",
	}, {
		// docs/formats.md §6.1: "normalize a specifier key" serializes a
		// URL-like key; "resolve a URL-like module specifier" for "../".
		"URL-like key", `{"imports":{"/lib/":"../lib/v2/"}}`,
		[]string{
			"script importmap:key import https://www.example/lib/",
			"script importmap:address import https://www.example/lib/v2/",
		}, "",
	}, {
		// A key ending in "/" needs an address ending in "/".
		"trailing slash", `{"imports":{"app/":"https://cdn.example/app","b/":"/b/"}}`,
		[]string{
			"script importmap:address import error https://cdn.example/app",
			"script importmap:address import https://www.example/b/",
		}, "",
	}, {
		// Absolute keys and addresses are URLs too; an address that is
		// not a string is null, with a warning.
		"absolute", `{"imports":{"https://cdn.example/x.js":"https://mirror.example/x.js","n":1}}`,
		[]string{
			"script importmap:key import https://cdn.example/x.js",
			"script importmap:address import https://mirror.example/x.js",
		}, `address of "n": not a string`,
	}, {
		// "sort and normalize scopes": scope prefixes are URL-parsed
		// against the base whatever they look like; their maps are
		// specifier maps.
		"scopes", `{"scopes":{"legacy/":{"lodash":"/old/lodash.js","./a.js":"./b.js"}}}`,
		[]string{
			"script importmap:scope import https://www.example/app/legacy/",
			"script importmap:address import https://www.example/old/lodash.js",
			"script importmap:key import https://www.example/app/a.js",
			"script importmap:address import https://www.example/app/b.js",
		}, "",
	}, {
		// "normalize a module integrity map": URL-like keys only.
		"integrity", `{"integrity":{"./x.js":"sha384-abc","bare":"sha384-def"}}`,
		[]string{"script importmap:integrity import https://www.example/app/x.js"}, "",
	}, {
		"empty key", `{"imports":{"":"./x.js"}}`, nil, "empty specifier key",
	}, {
		"unknown key", `{"imports":{},"other":{"a":"./a.js"}}`, nil, `unknown top-level key "other"`,
	}, {
		// Where the Standard throws, the map is not registered: no links.
		"not JSON", `{"imports":{"a":"./a.js",}}`, nil, "ignored",
	}, {
		"not an object", `["./a.js"]`, nil, "not a JSON object",
	}, {
		"imports not an object", `{"imports":["./a.js"]}`, nil, `"imports" is not a JSON object`,
	}, {
		"scope not an object", `{"scopes":{"/s/":"./a.js"},"imports":{"a":"./a.js"}}`, nil, `the scope "/s/" is not a JSON object`,
	}, {
		// JSON escapes are decoded to resolve.
		"escapes", `{"imports":{"a":"\u002e/a\/b.js"}}`,
		[]string{"script importmap:address import https://www.example/app/a/b.js"}, "",
	}} {
		t.Run(c.name, func(t *testing.T) {
			doc := "<script type=importmap>" + c.json + "</script>"
			got, b := scriptLinks(t, doc, pageOptions())
			assert.Equal(t, c.want, got)
			if c.warn == "" {
				assert.Empty(t, b.Warnings)
			} else if assert.Len(t, b.Warnings, 1) {
				assert.Contains(t, b.Warnings[0], c.warn)
			}
		})
	}
}

// TestScriptType: HTML §4.12.1.1 "prepare the script element", step 8:
// the type attribute with ASCII whitespace stripped, "module" and
// "importmap" matched ASCII case-insensitively; classic scripts, data
// blocks and scripts in foreign content are not read.
func TestScriptType(t *testing.T) {
	for typ, want := range map[string]bool{
		`type=module`: true, "type=\" MODULE\n\"": true, `type=" module\n"`: false, `type=ImportMap`: true,
		``: false, `type=text/javascript`: false, `type=text/module`: false, `type="module x"`: false,
		`type=application/json`: false,
	} {
		json := strings.Contains(typ, "mport")
		body := `import "./a.js"`
		if json {
			body = `{"imports":{"a":"./a.js"}}`
		}
		got, _ := scriptLinks(t, "<script "+typ+">"+body+"</script><svg><script type=module>import './svg.js'</script></svg>", pageOptions())
		assert.Equal(t, want, len(got) == 1, "%s: %q", typ, got)
	}
}

// TestModuleScript: an inline module's specifiers (HTML "resolve a module
// specifier", docs/formats.md §6.2): URL-like ones against the document base,
// bare ones reported only when an import map before the script maps them,
// never rewritten; strings, comments and regular expressions that look
// like imports are not links; links in <template> are inert.
func TestModuleScript(t *testing.T) {
	doc := `<script type=module>import "lodash"; import "./early.js"</script>
<script type=importmap>{"imports":{"lodash":"./vendor/lodash.js","lib/":"./lib/"}}</script>
<script type=module>
import _ from "lodash"; import y from "lib/y.js"; import "utils.js";
export * from "../re.js"; import("./lazy.js"); const u = new URL("img.png", import.meta.url);
// import "./comment.js"
const s = "import './string.js'", re = /import ".\/re.js"/;
</script>
<template><script type=module>import "./inert.js"</script></template>`
	var inert []bool
	got, _ := scriptLinks(t, doc, pageOptions())
	Links(strings.NewReader(doc), pageOptions(), func(l link.Link) error { inert = append(inert, l.Inert); return nil })
	assert.Equal(t, []string{
		"script import import https://www.example/app/early.js",
		"script importmap:address import https://www.example/app/vendor/lodash.js",
		"script importmap:address import https://www.example/app/lib/",
		"script import import error lodash",
		"script import import error lib/y.js",
		"script export import https://www.example/re.js",
		"script import() import https://www.example/app/lazy.js",
		"script new URL resource https://www.example/app/img.png",
		"script import import https://www.example/app/inert.js",
	}, got)
	assert.Equal(t, []bool{false, false, false, false, false, false, false, false, true}, inert)

	var errs []error
	Links(strings.NewReader(doc), pageOptions(), func(l link.Link) error {
		if l.Err != nil {
			errs = append(errs, l.Err)
		}
		return nil
	})
	for _, err := range errs {
		assert.True(t, errors.Is(err, modspec.ErrBare), "%v", err)
	}
}

// TestScriptLinksHaveNoRel: a link read from a script's text has no rel
// tokens (HTML §4.6.7: rel belongs to <link>, <a>, <area> and <form>); it
// took those of the last start tag with a rel before the script.
func TestScriptLinksHaveNoRel(t *testing.T) {
	doc := `<link rel=stylesheet href=a.css><script type=module>import "./x.js"</script>
<a rel=nofollow href=q></a><script type=importmap>{"imports":{"m":"./m.js"}}</script>`
	var got []string
	_, err := Links(strings.NewReader(doc), pageOptions(), func(l link.Link) error {
		got = append(got, l.Raw+" "+strings.Join(l.Rel, ","))
		return nil
	})
	assert.NoError(t, err)
	assert.Equal(t, []string{"a.css stylesheet", "./x.js ", "q nofollow", "./m.js "}, got)
}

// TestScriptBase: the base of an import map and of an inline module is
// the document base when the element is prepared: in WHATWG mode one
// before the deciding <base href> resolves against the fallback base (as
// a refresh does); the RFC modes keep one base for the whole document.
func TestScriptBase(t *testing.T) {
	doc := `<script type=importmap>{"imports":{"a":"./a.js"}}</script><script type=module>import "./m.js"</script>` +
		`<base href="https://cdn.example/x/"><script type=module>import "./n.js"</script>`
	got, _ := scriptLinks(t, doc, pageOptions())
	assert.Equal(t, []string{
		"script importmap:address import https://www.example/app/a.js",
		"script import import https://www.example/app/m.js",
		"script import import https://cdn.example/x/n.js",
	}, got)
	opts := pageOptions()
	opts.Context.Spec = resolve.RFC3986
	got, _ = scriptLinks(t, doc, opts)
	assert.Equal(t, []string{
		"script importmap:address import https://cdn.example/x/a.js",
		"script import import https://cdn.example/x/m.js",
		"script import import https://cdn.example/x/n.js",
	}, got)
}

// TestModulePreload: <link rel=modulepreload> and <script type=module
// src> fetch modules: kind import.
func TestModulePreload(t *testing.T) {
	got, _ := scriptLinks(t, `<link rel="preload modulepreload" href=m.js><link rel=preload href=p.js><script type=module src=s.js></script><script src=c.js></script>`, pageOptions())
	assert.Equal(t, []string{
		"link href import https://www.example/app/m.js",
		"link href resource https://www.example/app/p.js",
		"script src import https://www.example/app/s.js",
		"script src resource https://www.example/app/c.js",
	}, got)
}

// TestRewriteScripts: byte-preserving rewrite of import maps and inline
// modules: only the strings' contents change, written with their own
// quote and escaped for JSON or JavaScript, "<" escaped so that the
// text cannot close the element; bare keys and specifiers stay; a second
// run changes nothing.
func TestRewriteScripts(t *testing.T) {
	doc := `<script type=importmap>
{ "imports": {"lodash": "../vendor/lodash.js", "/lib/": "./lib/", "vue": "vue.js"},
  "scopes": {"legacy/": {"a": "\u002e/a.js"}} }
</script>
<script type=module>import _ from 'lodash'; import x from './x.js'; import "\u002e/esc.js";
const t = import(` + "`../t.js`" + `), u = new URL("i<1>.png", import.meta.url), v = "./not.js";
</script><script>import "./classic.js"</script>`
	want := `<script type=importmap>
{ "imports": {"lodash": "https://www.example/vendor/lodash.js", "https://www.example/lib/": "https://www.example/app/lib/", "vue": "vue.js"},
  "scopes": {"https://www.example/app/legacy/": {"a": "https://www.example/app/a.js"}} }
</script>
<script type=module>import _ from 'lodash'; import x from 'https://www.example/app/x.js'; import "https://www.example/app/esc.js";
const t = import(` + "`https://www.example/t.js`" + `), u = new URL("https://www.example/app/i%3C1%3E.png", import.meta.url), v = "./not.js";
</script><script>import "./classic.js"</script>`
	out, st := rewrite(t, doc, pageOptions())
	assert.Equal(t, want, out)
	assert.True(t, st.Changed)
	again, st := rewrite(t, want, pageOptions())
	assert.Equal(t, want, again)
	assert.Zero(t, st.Rewritten)
	assert.False(t, st.Changed)

	// What Map writes is escaped for its string: JSON, JavaScript with
	// its quote, "<" never raw.
	opts := pageOptions()
	opts.Map = func(l link.Link) (string, bool) { return `q"'</script>` + l.Raw, true }
	out, _ = rewrite(t, `<script type=importmap>{"imports":{"a":"./a.js"}}</script><script type=module>import './b.js'</script>`, opts)
	assert.Equal(t, `<script type=importmap>{"imports":{"a":"q\"'\u003c/script>./a.js"}}</script><script type=module>import 'q"\'\x3C/script>./b.js'</script>`, out)
}

// TestScriptIdentity: the identity mode splices every string of scripts
// and maps back as it was; a module or map whose text is split by the
// tokenizer's chunks elsewhere is held whole here (a specifier past the
// first 64 KiB is still found).
func TestScriptIdentity(t *testing.T) {
	long := strings.Repeat("const a = 1; // padding\n", 4000) // > 64 KiB
	doc := `<script type=importmap>{"imports":{"a":"./a.js","b":"\u002e/b.js"}}</script><script type=module>` + long +
		`import "./far.js"; import '\x2e/esc.js'</script>`
	out, _ := rewrite(t, doc, Options{Document: link.Document{Context: base.Context{Spec: resolve.RFC3986}}, identity: true})
	assert.Equal(t, doc, out)
	got, _ := scriptLinks(t, doc, pageOptions())
	assert.Contains(t, got, "script import import https://www.example/app/far.js")
	assert.Contains(t, got, "script import import https://www.example/app/esc.js")

	// Over MaxSize: the rest is copied as it is, with an link.IncompleteError.
	var b bytes.Buffer
	opts := pageOptions()
	opts.MaxSize = 1 << 16
	_, err := Rewrite(&b, strings.NewReader(doc), opts)
	var inc *link.IncompleteError
	assert.ErrorAs(t, err, &inc)
	assert.Contains(t, b.String(), long)
}

// TestScriptEncodings: a UTF-16 page's scripts are rewritten and encoded
// back; in a legacy encoding, text outside ASCII is decoded to find the
// strings and what is written outside ASCII becomes \u escapes.
func TestScriptEncodings(t *testing.T) {
	doc := `<meta charset=utf-16><script type=module>import "./é.js"; import './x.js'</script>`
	u := utf16.Encode([]rune(doc))
	src := []byte{0xFF, 0xFE}
	for _, c := range u {
		src = append(src, byte(c), byte(c>>8))
	}
	var out bytes.Buffer
	_, err := Rewrite(&out, bytes.NewReader(src), pageOptions())
	require.NoError(t, err)
	dec := make([]uint16, (out.Len()-2)/2)
	for i := range dec {
		dec[i] = uint16(out.Bytes()[2+2*i]) | uint16(out.Bytes()[3+2*i])<<8
	}
	assert.Equal(t, `<meta charset=utf-16><script type=module>import "https://www.example/app/%C3%A9.js"; import 'https://www.example/app/x.js'</script>`, string(utf16.Decode(dec)))

	latin, _ := charmap.Windows1252.NewEncoder().String(`<meta charset=windows-1252><script type=module>const s = "é"; import "./x.js"</script>`)
	opts := pageOptions()
	opts.Map = func(l link.Link) (string, bool) { return "./ü/" + l.Raw, true }
	out.Reset()
	_, err = Rewrite(&out, strings.NewReader(latin), opts)
	require.NoError(t, err)
	want, _ := charmap.Windows1252.NewEncoder().String(`<meta charset=windows-1252><script type=module>const s = "é"; import "./\u00FC/./x.js"</script>`)
	assert.Equal(t, want, out.String())
	got, _ := scriptLinks(t, latin, pageOptions())
	assert.Equal(t, []string{"script import import https://www.example/app/x.js"}, got)
}
