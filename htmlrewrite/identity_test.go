package htmlrewrite

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// html5libInputs returns the inputs of the html5lib-tests tokenizer suite,
// those for other initial states wrapped in an element that starts that
// state (testdata/html/README.md).
func html5libInputs(t testing.TB) map[string]string {
	files, err := filepath.Glob("../testdata/html/html5lib-tokenizer/*.test")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	wrap := map[string]string{
		"RCDATA state": "<title>", "RAWTEXT state": "<style>", "Script data state": "<script>",
		"PLAINTEXT state": "<plaintext>", "CDATA section state": "<svg><![CDATA[",
	}
	inputs := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var suite map[string][]struct {
			Description   string   `json:"description"`
			Input         string   `json:"input"`
			InitialStates []string `json:"initialStates"`
			DoubleEscaped bool     `json:"doubleEscaped"`
		}
		require.NoError(t, json.Unmarshal(data, &suite), f)
		for _, tests := range suite {
			for i, c := range tests {
				if c.DoubleEscaped {
					s, err := strconv.Unquote(`"` + strings.ReplaceAll(c.Input, `"`, `\"`) + `"`)
					if err != nil {
						continue // a lone surrogate: not a Go string
					}
					c.Input = s
				}
				name := filepath.Base(f) + "/" + strconv.Itoa(i)
				inputs[name] = c.Input
				for _, st := range c.InitialStates {
					if w := wrap[st]; w != "" {
						inputs[name+"/"+st] = w + c.Input
					}
					if st == "Script data state" {
						// Script data read as a module and as an
						// import map (JavaScript and JSON readers, held whole).
						inputs[name+"/module"] = "<script type=module>" + c.Input
						inputs[name+"/importmap"] = "<script type=importmap>" + c.Input
					}
				}
			}
		}
	}
	return inputs
}

// TestIdentityHTML5lib: with no base nothing resolves, so every input
// of the html5lib tokenizer suite comes out byte for byte; with a base,
// a second rewrite changes nothing and the tokens are the same but for
// URL values.
func TestIdentityHTML5lib(t *testing.T) {
	inputs := html5libInputs(t)
	require.Greater(t, len(inputs), 6000)
	noBase := Options{Document: link.Document{Context: base.Context{Spec: resolve.RFC3986}}}
	for name, in := range inputs {
		for _, doc := range []string{in, `<a href="x"><img srcset="a 1x">` + in + `<a href=y>`} {
			for _, opts := range []Options{noBase, {Document: link.Document{Context: base.Context{Spec: resolve.RFC3986}}, identity: true}} {
				var out bytes.Buffer
				_, err := Rewrite(&out, strings.NewReader(doc), opts)
				require.NoError(t, err, name)
				if !assert.Equal(t, doc, out.String(), name) {
					return
				}
			}
			once, _ := rewrite(t, doc, testOptions())
			twice, _ := rewrite(t, once, testOptions())
			if !assert.Equal(t, once, twice, name) {
				return
			}
			sameTokens(t, name, doc, once)
		}
	}
}

// TestIdentityCorpus does the same for every page of corpus A. A few
// pages carry an absolute <base href>, under which their links do change:
// for those (and all others) the identity mode, which splices every URL
// back in place of itself, must reproduce the page.
func TestIdentityCorpus(t *testing.T) {
	for _, p := range testkit.PagesA(t) {
		var out bytes.Buffer
		st, err := Rewrite(&out, bytes.NewReader(p.Data), Options{Document: link.Document{Context: base.Context{Spec: resolve.RFC3986}}})
		require.NoError(t, err, p.Name)
		if st.Base.Source != base.Embedded {
			assert.True(t, bytes.Equal(p.Data, out.Bytes()), "%s: not identical", p.Name)
		}
		out.Reset()
		st, err = Rewrite(&out, bytes.NewReader(p.Data), Options{Document: link.Document{Context: base.Context{Spec: resolve.RFC3986}}, identity: true})
		require.NoError(t, err, p.Name)
		if !assert.True(t, bytes.Equal(p.Data, out.Bytes()), "%s: identity mode", p.Name) {
			continue
		}
		assert.Positive(t, st.Links)
		opts := benchOptions(p.Name)
		once, _ := rewrite(t, string(p.Data), opts)
		twice, _ := rewrite(t, once, opts)
		assert.True(t, once == twice, "%s: a second rewrite changed it", p.Name)
		sameTokens(t, p.Name, string(p.Data), once)
	}
}

// sameTokens checks that out tokenizes as in does, apart from the values
// of URL-bearing attributes and the text of <style> elements, module
// scripts and import maps.
func sameTokens(t *testing.T, name, in, out string) {
	t.Helper()
	zi := html.NewTokenizer(strings.NewReader(in))
	zo := html.NewTokenizer(strings.NewReader(out))
	afterStyle := false
	for n := 0; ; n++ {
		ti, to := zi.Next(), zo.Next()
		if !assert.Equal(t, ti, to, "%s: token %d", name, n) {
			return
		}
		if ti == html.ErrorToken {
			return
		}
		a, b := zi.Token(), zo.Token()
		switch ti {
		case html.StartTagToken, html.SelfClosingTagToken:
			assert.Equal(t, a.Data, b.Data, "%s: token %d", name, n)
			if !assert.Equal(t, len(a.Attr), len(b.Attr), "%s: token %d", name, n) {
				return
			}
			for i := range a.Attr {
				assert.Equal(t, a.Attr[i].Key, b.Attr[i].Key, "%s: token %d", name, n)
				if attrIDOf([]byte(a.Attr[i].Key)) == 0 {
					assert.Equal(t, a.Attr[i].Val, b.Attr[i].Val, "%s: token %d %s", name, n, a.Attr[i].Key)
				}
			}
		case html.TextToken:
			if !afterStyle {
				assert.Equal(t, a.Data, b.Data, "%s: token %d", name, n)
			}
		default:
			assert.Equal(t, a, b, "%s: token %d", name, n)
		}
		afterStyle = ti == html.StartTagToken && (a.Data == "style" || a.Data == "script" && readScript(a.Attr))
		if ti == html.StartTagToken && a.Data == "noscript" {
			zi.NextIsNotRawText() // as the rewriter reads it by default
			zo.NextIsNotRawText()
		}
	}
}

// readScript reports whether a <script> with attrs is a module script or
// an import map, whose text the rewriter reads.
func readScript(attrs []html.Attribute) bool {
	for _, a := range attrs {
		if a.Key == "type" {
			v := strings.ToLower(strings.Trim(a.Val, " \t\n\f\r"))
			return v == "module" || v == "importmap"
		}
	}
	return false
}
