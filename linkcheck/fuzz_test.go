package linkcheck

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/tree"
)

// FuzzFix: whatever the document, Check then Fix never panics, every link
// of the fixed document resolves to the same target as before (the
// draft's §1: the tree still means the same), and no fixable finding is
// left.
func FuzzFix(f *testing.F) {
	f.Add(`<a href="https://h/t/a.html">`)
	f.Add(`<a href=/t/a?x&amp;y>`)
	f.Add(`<img srcset='//h/t/a 1x, https://h/t/b?w=1 2x'><p style="background:url(/t/c)">`)
	c := &Checker{Spec: resolve.WHATWG, Root: "https://h/t/"}
	file := tree.File{Rel: "d/p.html"}
	f.Fuzz(func(t *testing.T, doc string) {
		found, err := c.Check(file, []byte(doc))
		if err != nil {
			return // a document Check refuses (its encoding) is not fixed either
		}
		fixed, n, err := c.Fix(file, []byte(doc), found)
		if err != nil {
			t.Fatalf("Fix(%q): %v", doc, err)
		}
		if n == 0 && string(fixed) != doc {
			t.Fatalf("Fix(%q) = %q with no link fixed", doc, fixed)
		}
		if before, after := targets(t, c, file, doc), targets(t, c, file, string(fixed)); !slices.Equal(before, after) {
			t.Fatalf("Fix(%q) = %q: targets %q, were %q", doc, fixed, after, before)
		}
		left, err := c.Check(file, fixed)
		if err != nil {
			t.Fatalf("Check(%q) after Fix: %v", fixed, err)
		}
		for _, fd := range left {
			if (fd.Problem == Absolute || fd.Problem == RootRelative) && fd.Relative != "" {
				t.Fatalf("Fix(%q) = %q leaves %+v", doc, fixed, fd)
			}
		}
	})
}

// targets returns the URL (or error) of each link of doc, in order.
func targets(t *testing.T, c *Checker, f tree.File, doc string) []string {
	var out []string
	_, err := htmlrewrite.Links(strings.NewReader(doc), c.htmlOptions(f), func(l link.Link) error {
		if l.Err != nil {
			out = append(out, "error: "+l.Err.Error())
		} else {
			out = append(out, l.URL)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("Links(%q): %v", doc, err)
	}
	return out
}

// FuzzRedirects: any _redirects or .htaccess file parses within its
// bounds, and matching any path against its rules never panics.
func FuzzRedirects(f *testing.F) {
	f.Add("/a /b 301\n/c/* /d/:splat 302!\n/p/:id /q/:id 200\n", "/c/x")
	f.Add("Redirect /old https://example.org/new\nRedirectMatch 302 ^/img/(.*)\\.gif$ /img/$1.png\nRedirect gone /g\n", "/img/a.gif")
	f.Add("RedirectMatch (((( /x\n/:a/:b /$9\n", "/x/y")
	f.Fuzz(func(t *testing.T, file, p string) {
		nr, _ := parseNetlifyRedirects(file, "_redirects")
		ar, _ := parseHtaccess(file, ".htaccess")
		for _, rules := range [][]redirect{nr, ar} {
			if len(rules) > maxRedirectRules {
				t.Fatalf("%d rules", len(rules))
			}
			for i := range rules {
				rules[i].match(p)
			}
		}
	})
}

// FuzzPercentDecode: the result is valid UTF-8, and equals the bytes
// percent-decoded whenever those are valid UTF-8.
func FuzzPercentDecode(f *testing.F) {
	for _, s := range []string{"a%20b", "%C2", "%ED%A0%80", "%F0%9F%98%80", "%%41"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d := percentDecode(s)
		if !utf8.ValidString(d) {
			t.Fatalf("percentDecode(%q) = %q, not UTF-8", s, d)
		}
		if utf8.ValidString(s) && !strings.Contains(s, "%") && d != s {
			t.Fatalf("percentDecode(%q) = %q", s, d)
		}
	})
}
