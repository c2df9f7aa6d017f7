package resolve_test

import (
	"errors"
	"fmt"

	"github.com/relurl/relurl/resolve"
)

func ExampleParse() {
	u := resolve.Parse("http://a/b/c/d;p?q#f")
	fmt.Printf("scheme=%q net_loc=%q path=%q params=%q query=%q fragment=%q\n",
		u.Scheme, u.NetLoc, u.Path, u.Params, u.Query, u.Fragment)
	fmt.Println(u.String())
	// Output:
	// scheme="http" net_loc="a" path="b/c/d" params="p" query="q" fragment="f"
	// http://a/b/c/d;p?q#f
}

// The draft's §5 examples in its own mode.
func ExampleReference_rfc1808() {
	for _, ref := range []string{"g", ";x", "", "../../../g", "http:g"} {
		u, _ := resolve.Reference(resolve.RFC1808, "http://a/b/c/d;p?q#f", ref)
		fmt.Printf("%q = %s\n", ref, u)
	}
	// Output:
	// "g" = http://a/b/c/g
	// ";x" = http://a/b/c/d;x
	// "" = http://a/b/c/d;p?q#f
	// "../../../g" = http://a/../g
	// "http:g" = http:g
}

// RFC 2396 Appendix C differs from RFC 1808 for "?y" and ";x".
func ExampleReference_rfc2396() {
	for _, ref := range []string{"?y", ";x", "../../../g"} {
		u, _ := resolve.Reference(resolve.RFC2396, "http://a/b/c/d;p?q", ref)
		fmt.Printf("%q = %s\n", ref, u)
	}
	// Output:
	// "?y" = http://a/b/c/?y
	// ";x" = http://a/b/c/;x
	// "../../../g" = http://a/../g
}

// RFC 3986 §5.4 removes surplus "..", and its backward-compatible reading
// of "http:g" is an option.
func ExampleReference_rfc3986() {
	for _, ref := range []string{"../../../g", "", "http:g"} {
		u, _ := resolve.Reference(resolve.RFC3986, "http://a/b/c/d;p?q", ref)
		fmt.Printf("%q = %s\n", ref, u)
	}
	r, _ := resolve.NewResolver(resolve.RFC3986, "http://a/b/c/d;p?q", resolve.Options{BackwardCompatible: true})
	u, _ := r.Reference("http:g")
	fmt.Println("backward compatible: http:g =", u)
	// Output:
	// "../../../g" = http://a/g
	// "" = http://a/b/c/d;p?q
	// "http:g" = http:g
	// backward compatible: http:g = http://a/b/c/g
}

// A Resolver parses its base once, for the many links of one document.
func ExampleResolver() {
	r, err := resolve.NewResolver(resolve.RFC3986, "https://example.org/docs/guide/intro.html", resolve.Options{})
	if err != nil {
		panic(err)
	}
	for _, href := range []string{"setup.html", "../api/", "/", "#top", "//cdn.example.net/app.js"} {
		u, _ := r.Reference(href)
		fmt.Println(u)
	}
	// Output:
	// https://example.org/docs/guide/setup.html
	// https://example.org/docs/api/
	// https://example.org/
	// https://example.org/docs/guide/intro.html#top
	// https://cdn.example.net/app.js
}

// A base outside the generic syntax cannot carry relative references.
func ExampleReference_opaqueBase() {
	_, err := resolve.Reference(resolve.RFC3986, "mailto:a@example.org", "x")
	fmt.Println(errors.Is(err, resolve.ErrOpaqueBase))
	fmt.Println(err)
	// Output:
	// true
	// rfc3986 resolve "x" against "mailto:a@example.org": base URL cannot carry relative references
}

func ExampleResolver_Relativize() {
	r, _ := resolve.NewResolver(resolve.RFC3986, "http://a/b/c/d;p?q", resolve.Options{})
	for _, target := range []string{"http://a/b/c/g", "http://a/b/g", "http://a/x/y", "http://a/b/c/this:that", "http://g/", "https://a/"} {
		ref, _ := r.Relativize(target)
		fmt.Printf("%s -> %q\n", target, ref)
	}
	// Output:
	// http://a/b/c/g -> "g"
	// http://a/b/g -> "../g"
	// http://a/x/y -> "/x/y"
	// http://a/b/c/this:that -> "./this:that"
	// http://g/ -> "//g/"
	// https://a/ -> "https://a/"
}

// RelativePath gives the form that keeps working when a tree moves as a
// whole: never an absolute path.
func ExampleResolver_RelativePath() {
	r, _ := resolve.NewResolver(resolve.RFC3986, "https://example.org/docs/guide/intro.html", resolve.Options{})
	for _, target := range []string{"https://example.org/img/logo.png", "https://example.org/docs/guide/setup.html#install"} {
		short, _ := r.Relativize(target)
		movable, _ := r.RelativePath(target)
		fmt.Printf("%s: %q, movable %q\n", target, short, movable)
	}
	// Output:
	// https://example.org/img/logo.png: "/img/logo.png", movable "../../img/logo.png"
	// https://example.org/docs/guide/setup.html#install: "setup.html#install", movable "setup.html#install"
}
