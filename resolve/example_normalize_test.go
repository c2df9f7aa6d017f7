package resolve_test

import (
	"fmt"

	"github.com/relurl/relurl/resolve"
)

// RFC 3986 §6.2.2's example: two spellings of one URI.
func ExampleNormalize() {
	u, _ := resolve.Normalize("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", resolve.SyntaxBased)
	fmt.Println(u)
	// Output:
	// example://a/b/c/%7Bfoo%7D
}

// A crawler resolves each link as a browser does, then normalizes it so
// that the spellings of one page are one key.
func ExampleNormalize_crawler() {
	r, _ := resolve.NewResolver(resolve.WHATWG, "https://example.com/dir/page.html", resolve.Options{})
	for _, ref := range []string{"other.html?b=2&a=1#reviews", "HTTPS://EXAMPLE.COM:443/dir/x/../other.html?a=1&b=2", "/dir/%6Fther.html?a=1&&b=2"} {
		abs, _ := r.Reference(ref)
		key, _ := resolve.Normalize(abs, resolve.Crawler)
		fmt.Println(key)
	}
	key, _ := resolve.Normalize("https://example.com/dir/index.html?", resolve.Crawler|resolve.RemoveDirectoryIndex)
	fmt.Println(key)
	// Output:
	// https://example.com/dir/other.html?a=1&b=2
	// https://example.com/dir/other.html?a=1&b=2
	// https://example.com/dir/other.html?a=1&b=2
	// https://example.com/dir/
}
