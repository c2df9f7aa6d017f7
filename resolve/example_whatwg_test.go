package resolve_test

import (
	"fmt"

	"github.com/relurl/relurl/resolve"
	"golang.org/x/text/encoding/charmap"
)

// Links as real pages write them, resolved as a browser resolves them.
func ExampleReference_whatwg() {
	r, _ := resolve.NewResolver(resolve.WHATWG, "https://example.com/dir/page.html?x=1#top", resolve.Options{})
	for _, ref := range []string{" ./a b.html\n", `\\evil.com\x`, "HTTP://EXAMPLE.COM:80/%2e%2e/y", "?q=ä", "http://münchen.de/", "//0x7f.1/"} {
		u, err := r.Reference(ref)
		fmt.Printf("%q = %s %v\n", ref, u, err)
	}
	_, err := r.Reference("http://a:99999/")
	fmt.Println(err)
	// Output:
	// " ./a b.html\n" = https://example.com/dir/a%20b.html <nil>
	// "\\\\evil.com\\x" = https://evil.com/x <nil>
	// "HTTP://EXAMPLE.COM:80/%2e%2e/y" = http://example.com/y <nil>
	// "?q=ä" = https://example.com/dir/page.html?q=%C3%A4 <nil>
	// "http://münchen.de/" = http://xn--mnchen-3ya.de/ <nil>
	// "//0x7f.1/" = https://127.0.0.1/ <nil>
	// whatwg resolve "http://a:99999/" against "https://example.com/dir/page.html?x=1#top": port-out-of-range: the port is greater than 65535
}

// A document in windows-1252 encodes the query of its links in
// windows-1252; the path and fragment stay UTF-8.
func ExampleOptions_queryEncoding() {
	r, _ := resolve.NewResolver(resolve.WHATWG, "http://example.com/", resolve.Options{QueryEncoding: charmap.Windows1252})
	u, _ := r.Reference("/café?q=café#café")
	fmt.Println(u)
	// Output:
	// http://example.com/caf%C3%A9?q=caf%E9#caf%C3%A9
}

func ExampleParseWebURL() {
	base, _ := resolve.ParseWebURL("https://user@example.com:8443/a/b?q#f", nil, resolve.Options{})
	u, _ := resolve.ParseWebURL("../c?d", base, resolve.Options{})
	fmt.Println(u.Href())
	fmt.Println(u.Protocol(), u.Username(), u.Hostname(), u.Port(), u.Pathname(), u.Search(), u.Origin())
	// Output:
	// https://user@example.com:8443/c?d
	// https: user example.com 8443 /c ?d https://example.com:8443
}
