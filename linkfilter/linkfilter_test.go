package linkfilter

import (
	"fmt"
	"testing"

	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

func TestApply(t *testing.T) {
	treeSite := Site{Tree: resolve.NewScope(resolve.WHATWG, resolve.Options{}, "HTTPS://Example.org/site/")}
	page := Site{Document: "https://example.org/site/page.html"}
	local := Site{Document: "file:///home/u/saved/page.html"}
	nav := link.Navigation
	tests := []struct {
		name string
		f    Filter
		kind link.Kind
		u    string
		site Site
		want string
		keep bool
	}{
		{"zero keeps all", Filter{}, nav, "https://a/#x", page, "https://a/#x", true},
		{"zero keeps failed", Filter{}, nav, "", page, "", true},
		{"kind out", Filter{Kinds: map[link.Kind]bool{link.Resource: true}}, nav, "https://a/", page, "https://a/", false},
		{"kind in", Filter{Kinds: map[link.Kind]bool{nav: true}}, nav, "https://a/", page, "https://a/", true},
		{"scheme in", Filter{Schemes: []string{"http", "https"}}, nav, "HTTPS://a/", page, "HTTPS://a/", true},
		{"scheme out", Filter{Schemes: []string{"http", "https"}}, nav, "mailto:a@b", page, "mailto:a@b", false},
		{"scheme drops failed", Filter{Schemes: []string{"https"}}, nav, "", page, "", false},
		{"strip fragment", Filter{StripFragment: true}, nav, "https://a/b?q#f", page, "https://a/b?q", true},
		{"strip empty fragment", Filter{StripFragment: true}, nav, "https://a/b#", page, "https://a/b", true},
		{"normalize", Filter{Normalize: resolve.Crawler}, nav, "HTTP://A:80/x/../y?b=1&a=2#f", page, "http://a/y?a=2&b=1", true},
		{"normalize relative left", Filter{Normalize: resolve.Crawler}, nav, "a/b", page, "a/b", true},
		{"tree internal", Filter{Scope: Internal}, nav, "https://example.org/site/a.html", treeSite, "https://example.org/site/a.html", true},
		{"tree: same origin is not inside", Filter{Scope: Internal}, nav, "https://example.org/other/", treeSite, "https://example.org/other/", false},
		{"tree root normalized too", Filter{Scope: Internal, Normalize: resolve.LowercaseHost | resolve.RemoveDefaultPort},
			nav, "https://EXAMPLE.org:443/site/a", Site{Tree: resolve.NewScope(resolve.RFC3986, resolve.Options{}, "https://Example.ORG:443/site/")}, "https://example.org/site/a", true},
		{"tree root as given", Filter{Scope: Internal},
			nav, "https://example.org/site/a", Site{Tree: resolve.NewScope(resolve.RFC3986, resolve.Options{}, "https://Example.ORG:443/site/")}, "https://example.org/site/a", false},
		{"tree: scheme and host case-insensitive", Filter{Scope: Internal},
			nav, "HTTPS://EXAMPLE.org/site/a", Site{Tree: resolve.NewScope(resolve.RFC3986, resolve.Options{}, "https://Example.ORG/site/")}, "HTTPS://EXAMPLE.org/site/a", true},
		{"tree: path case-sensitive", Filter{Scope: Internal},
			nav, "https://example.org/SITE/a", Site{Tree: resolve.NewScope(resolve.RFC3986, resolve.Options{}, "https://example.org/site/")}, "https://example.org/SITE/a", false},
		{"tree: other host with the root as prefix", Filter{Scope: Internal},
			nav, "https://example.org.evil/site/", Site{Tree: resolve.NewScope(resolve.RFC3986, resolve.Options{}, "https://example.org")}, "https://example.org.evil/site/", false},
		{"tree: root without a path", Filter{Scope: Internal},
			nav, "https://Example.org/a", Site{Tree: resolve.NewScope(resolve.RFC3986, resolve.Options{}, "https://example.org")}, "https://Example.org/a", true},
		{"tree external", Filter{Scope: External}, nav, "https://example.org/other/", treeSite, "https://example.org/other/", true},
		{"failed is external", Filter{Scope: External}, nav, "", treeSite, "", true},
		{"failed is not internal", Filter{Scope: Internal}, nav, "", page, "", false},
		{"origin internal", Filter{Scope: Internal}, nav, "https://EXAMPLE.org/elsewhere", page, "https://EXAMPLE.org/elsewhere", true},
		{"origin: port differs", Filter{Scope: Internal}, nav, "https://example.org:8443/", page, "https://example.org:8443/", false},
		{"origin: scheme differs", Filter{Scope: External}, nav, "http://example.org/", page, "http://example.org/", true},
		{"normalized before scope", Filter{Scope: Internal, Normalize: resolve.RemoveDefaultPort}, nav, "https://example.org:443/x", page, "https://example.org/x", true},
		{"local files are one origin", Filter{Scope: Internal}, nav, "file:///home/u/other.html", local, "file:///home/u/other.html", true},
		{"localhost is local", Filter{Scope: Internal}, nav, "file://localhost/etc/x", local, "file://localhost/etc/x", true},
		{"web is external to a local file", Filter{Scope: External}, nav, "https://example.org/", local, "https://example.org/", true},
		{"remote file host", Filter{Scope: Internal}, nav, "file://server/x", local, "file://server/x", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, keep := tt.f.Apply(tt.kind, tt.u, tt.site)
			if got != tt.want || keep != tt.keep {
				t.Errorf("Apply(%q) = %q, %v; want %q, %v", tt.u, got, keep, tt.want, tt.keep)
			}
		})
	}
}

func ExampleFilter_Apply() {
	f := Filter{Schemes: []string{"http", "https"}, Normalize: resolve.Crawler, Scope: Internal}
	site := Site{Document: "https://example.org/blog/post.html"}
	for _, u := range []string{
		"https://example.org:443/blog/../about?b=2&a=1#team",
		"mailto:editor@example.org",
		"https://cdn.example.net/app.js",
	} {
		if out, ok := f.Apply(link.Navigation, u, site); ok {
			fmt.Println(out)
		}
	}
	// Output: https://example.org/about?a=1&b=2
}
