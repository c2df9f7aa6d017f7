package htmlrewrite

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"

	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/resolve"
)

// checked are the single-URL attributes of the table the independent
// check looks at, as goquery selectors and attribute names.
var checked = []struct{ sel, attr string }{
	{"a[href]", "href"}, {"area[href]", "href"}, {"link[href]", "href"},
	{"img[src]", "src"}, {"iframe[src]", "src"}, {"frame[src]", "src"}, {"embed[src]", "src"},
	{"script[src]", "src"}, {"input[src]", "src"}, {"audio[src]", "src"}, {"video[src]", "src"},
	{"source[src]", "src"}, {"track[src]", "src"}, {"video[poster]", "poster"},
	{"img[longdesc]", "longdesc"}, {"iframe[longdesc]", "longdesc"},
	{"blockquote[cite]", "cite"}, {"q[cite]", "cite"}, {"del[cite]", "cite"}, {"ins[cite]", "cite"},
	{"button[formaction]", "formaction"}, {"input[formaction]", "formaction"},
	{"body[background]", "background"}, {"table[background]", "background"}, {"td[background]", "background"},
	{"[itemid]", "itemid"}, {"embed[pluginspage]", "pluginspage"},
}

// independentBase finds the document's base the way the HTML Standard
// says, with goquery: the first base element with an href, in the HTML
// namespace and not in a template, resolved against the document URL.
func independentBase(t *testing.T, doc *goquery.Document, docURL string) string {
	b := docURL
	doc.Find("base[href]").EachWithBreak(func(_ int, s *goquery.Selection) bool {
		n := s.Get(0)
		if n.Namespace != "" || s.ParentsFiltered("template").Length() > 0 {
			return true
		}
		href, _ := s.Attr("href")
		if u, err := resolve.Reference(resolve.RFC3986, docURL, trimURL(href)); err == nil {
			b = u
		}
		return false
	})
	return b
}

// trimURL strips a URL attribute's surrounding ASCII whitespace and its
// tab and newlines, as the URL Standard does.
func trimURL(v string) string {
	v = strings.Trim(v, " \t\n\f\r")
	return strings.NewReplacer("\t", "", "\n", "", "\r", "").Replace(v)
}

func schemed(v string) bool {
	i := strings.IndexByte(v, ':')
	return i > 0 && !strings.ContainsAny(v[:i], "/?#")
}

// goqueryCheck: after rewriting, every checked URL attribute is absolute
// and equals the resolver's answer for the original value, and the DOM of
// the output equals the DOM of the input but for URL values.
func goqueryCheck(t *testing.T, name string, data []byte, docURL string) {
	var out bytes.Buffer
	opts := testOptions()
	opts.Context.Retrieval = docURL
	_, err := Rewrite(&out, bytes.NewReader(data), opts)
	require.NoError(t, err)
	in, err := goquery.NewDocumentFromReader(bytes.NewReader(data))
	require.NoError(t, err)
	res, err := goquery.NewDocumentFromReader(bytes.NewReader(out.Bytes()))
	require.NoError(t, err)
	b := independentBase(t, in, docURL)
	for _, c := range checked {
		ins, outs := in.Find(c.sel), res.Find(c.sel)
		require.Equal(t, ins.Length(), outs.Length(), "%s: %s", name, c.sel)
		ins.Each(func(i int, s *goquery.Selection) {
			if s.Get(0).Namespace != "" && c.attr != "href" {
				return
			}
			v, _ := s.Attr(c.attr)
			got, _ := outs.Eq(i).Attr(c.attr)
			ref := trimURL(v)
			if ref == "" && !(c.attr == "href" && (s.Is("a") || s.Is("area"))) || schemed(ref) || strings.HasPrefix(ref, "#") {
				assert.Equal(t, v, got, "%s: %s left as written", name, c.sel)
				return
			}
			want, err := resolve.Reference(resolve.RFC3986, b, ref)
			if err != nil {
				assert.Equal(t, v, got, "%s: %s %q fails, left as written", name, c.sel, v)
				return
			}
			assert.Equal(t, want, trimURL(got), "%s: %s %q", name, c.sel, v)
			assert.True(t, schemed(trimURL(got)), "%s: %s %q is absolute", name, c.sel, got)
		})
	}
	sameDOM(t, name, in.Get(0), res.Get(0))
}

// sameDOM compares two trees but for the values of URL attributes and
// the text of style and noscript elements.
func sameDOM(t *testing.T, name string, a, b *html.Node) {
	if !assert.Equal(t, a.Type, b.Type, name) || !assert.Equal(t, a.Namespace, b.Namespace, name) {
		return
	}
	if a.Type != html.TextNode && !assert.Equal(t, a.Data, b.Data, name) {
		return
	}
	if a.Type == html.TextNode && !(a.Parent != nil && (a.Parent.Data == "style" || a.Parent.Data == "noscript")) {
		assert.Equal(t, a.Data, b.Data, name)
	}
	if assert.Equal(t, len(a.Attr), len(b.Attr), "%s: <%s>", name, a.Data) {
		for i := range a.Attr {
			assert.Equal(t, a.Attr[i].Key, b.Attr[i].Key, name)
			if attrIDOf([]byte(a.Attr[i].Key)) == 0 && !(a.Attr[i].Namespace == "xlink" && a.Attr[i].Key == "href") {
				assert.Equal(t, a.Attr[i].Val, b.Attr[i].Val, "%s: <%s %s>", name, a.Data, a.Attr[i].Key)
			}
		}
	}
	ca, cb := a.FirstChild, b.FirstChild
	for ca != nil && cb != nil {
		sameDOM(t, name, ca, cb)
		ca, cb = ca.NextSibling, cb.NextSibling
	}
	assert.True(t, ca == nil && cb == nil, "%s: <%s> has as many children", name, a.Data)
}

func TestGoqueryFixture(t *testing.T) {
	data, err := os.ReadFile("../testdata/html/page.html")
	require.NoError(t, err)
	goqueryCheck(t, "page.html", data, "http://ex.com/dir/page.html")
}

func TestGoqueryCorpus(t *testing.T) {
	for _, p := range testkit.PagesA(t) {
		goqueryCheck(t, p.Name, p.Data, "https://corpus.example/"+p.Name+"/index.html")
	}
}
