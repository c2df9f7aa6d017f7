package grammar_test

import (
	"errors"
	"fmt"

	"github.com/relurl/relurl/resolve/grammar"
)

func ExampleValidate() {
	for _, u := range []string{"http://[::1]:80/a?b#c", "http://[::1]:8x/", "http://[::1"} {
		fmt.Println(grammar.Validate("rfc3986", u))
	}
	// The draft's §2.2 allows "{" in a path; the published RFC 1808 does not.
	fmt.Println(grammar.Validate("rfc1808-draft", "http://a/{b}"))
	err := grammar.Validate("rfc1808", "http://a/{b}")
	var e *grammar.Error
	if errors.As(err, &e) {
		fmt.Println(e.Offset, e.Production)
	}
	// Output:
	// <nil>
	// rfc3986 validate "http://[::1]:8x/": offset 14: unexpected "x" in port = *DIGIT
	// rfc3986 validate "http://[::1": offset 11: missing "]" in IP-literal = "[" ( IPv6address / IPvFuture ) "]"
	// <nil>
	// 9 rel_path = [ path ] [ ";" params ] [ "?" query ]
}

func ExampleNames() {
	fmt.Println(grammar.Names())
	// Output:
	// [rfc1738 rfc1808 rfc1808-draft rfc2396 rfc3986]
}
