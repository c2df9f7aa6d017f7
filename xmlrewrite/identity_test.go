package xmlrewrite

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relurl/relurl/link"
)

// fixtures are generated documents of each format (no licence needed):
// every link in them is already absolute or fragment-only, so a rewrite
// has nothing to change.
func fixtures() map[string]string {
	var svg, atom, rss, xhtml strings.Builder
	svg.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd\">\n" +
		"<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink='http://www.w3.org/1999/xlink' viewBox=\"0 0 10 10\">\n<style><![CDATA[ .a { fill: url(#g) } @import url(\"https://cdn.example/s.css\"); ]]></style>\n")
	for i := range 50 {
		fmt.Fprintf(&svg, "  <g id=\"g%d\"><use xlink:href=\"#s%d\" /><image href='https://img.example/%d.png?a=1&amp;b=2' style=\"fill: url(&quot;https://x.example/p.svg#p&quot;)\"/><!-- <image href=\"rel.png\"/> --><a href=\"https://www.example/%d\">t &amp; u</a></g>\r\n", i, i, i, i)
	}
	svg.WriteString("</svg>\n")
	atom.WriteString("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:base=\"https://blog.example/\">\n <title type=\"html\">A &amp;amp; B</title>\n <icon>https://blog.example/i.ico</icon>\n")
	for i := range 50 {
		fmt.Fprintf(&atom, " <entry xml:base=\"%d/\">\n  <id>tag:blog.example,2024:%d</id>\n  <link rel=\"alternate\" href=\"https://blog.example/p/%d\"/>\n  <category term=\"t\" scheme=\"s\"/>\n  <content type=\"html\">&lt;p&gt;&lt;a href=&quot;https://blog.example/q?x=1&amp;amp;y=%d&quot;&gt;q&lt;/a&gt;&lt;img src=\"#f\"&gt;&lt;/p&gt;</content>\n  <summary type=\"html\"><![CDATA[<img src=\"https://blog.example/%d.png\">]]></summary>\n </entry>\n", i, i, i, i, i)
	}
	atom.WriteString("</feed>\n")
	rss.WriteString("<?xml version=\"1.0\"?>\n<rss version=\"2.0\" xmlns:content=\"http://purl.org/rss/1.0/modules/content/\" xmlns:atom=\"http://www.w3.org/2005/Atom\">\n<channel>\n<link>https://news.example/</link>\n<atom:link rel=\"self\" href=\"https://news.example/rss\"/>\n<cloud domain=\"rpc.example\" port=\"80\" path=\"/RPC2\" registerProcedure=\"p\" protocol=\"xml-rpc\"/>\n")
	for i := range 50 {
		fmt.Fprintf(&rss, "<item><title>T %d</title><link> https://news.example/%d </link><guid isPermaLink=\"false\">%d</guid><enclosure url=\"https://news.example/%d.mp3\" length=\"1\" type=\"audio/mpeg\"/><description>&lt;a href='https://news.example/%d'&gt;more&lt;/a&gt;</description><content:encoded><![CDATA[<p style=\"background:url('https://news.example/bg.png')\">x</p>]]></content:encoded></item>\n", i, i, i, i, i)
	}
	rss.WriteString("</channel>\n</rss>\n")
	xhtml.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" xml:lang=\"en\"><head><title>t</title><link rel=\"stylesheet\" href=\"https://cdn.example/s.css\"/><style type=\"text/css\">/*<![CDATA[*/ p { background: url(https://cdn.example/bg.png) } /*]]>*/</style></head><body>\n")
	for i := range 50 {
		fmt.Fprintf(&xhtml, "<p class=\"c\"><a href=\"https://www.example/%d\" title=\"x &amp; y\">a</a> <img src=\"data:image/gif;base64,R0lGOD\" srcset=\"https://img.example/%d.png 1x\" alt=\"\"/><a href=\"#top\">top</a></p>\n", i, i)
	}
	xhtml.WriteString("</body></html>\n")
	return map[string]string{"gen.svg": svg.String(), "gen.atom": atom.String(), "gen.rss": rss.String(), "gen.xhtml": xhtml.String()}
}

// TestIdentity: a rewrite with nothing to change, and a rewrite that
// replaces every URL by its own bytes through the same splicing, both
// reproduce the input byte for byte.
func TestIdentity(t *testing.T) {
	docs := fixtures()
	files, _ := filepath.Glob("testdata/*.*")
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		docs[f] = string(b)
	}
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			o := opts("https://www.example/dir/doc")
			got, st := rewrite(t, doc, o)
			if strings.HasPrefix(name, "gen.") && (got != doc || st.Rewritten != 0) {
				t.Errorf("rewrite changed %d links:\n%s", st.Rewritten, diff(doc, got))
			}
			if st.Links == 0 {
				t.Errorf("no links seen")
			}
			o.identity = true
			if got, _ := rewrite(t, doc, o); got != doc {
				t.Errorf("identity rewrite changed the document:\n%s", diff(doc, got))
			}
			// Idempotence: rewriting the output again changes nothing.
			o.identity = false
			once, _ := rewrite(t, doc, o)
			twice, st2 := rewrite(t, once, o)
			if twice != once || st2.Rewritten != 0 {
				t.Errorf("second rewrite changed %d links:\n%s", st2.Rewritten, diff(once, twice))
			}
		})
	}
}

func diff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-40)
	return fmt.Sprintf("at %d:\n- %q\n+ %q", i, a[lo:min(len(a), i+60)], b[lo:min(len(b), i+60)])
}

func FuzzRewrite(f *testing.F) {
	for _, doc := range fixtures() {
		f.Add(doc[:min(len(doc), 2000)])
	}
	f.Add(`<feed xmlns="http://www.w3.org/2005/Atom" xml:base="a/"><entry xml:base=""><content type="html">&lt;a href="x"&gt;</content></entry></feed>`)
	f.Fuzz(func(t *testing.T, doc string) {
		o := opts("https://www.example/dir/doc")
		var b bytes.Buffer
		if _, err := Rewrite(&b, strings.NewReader(doc), o); err != nil {
			return
		}
		if _, err := Links(strings.NewReader(doc), o, func(link.Link) error { return nil }); err != nil {
			t.Fatalf("Links failed where Rewrite did not: %v", err)
		}
		o.identity = true
		b.Reset()
		if _, err := Rewrite(&b, strings.NewReader(doc), o); err != nil || b.String() != doc {
			t.Fatalf("identity rewrite changed %q to %q (%v)", doc, b.String(), err)
		}
	})
}
