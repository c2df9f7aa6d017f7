package resolve

import (
	"fmt"
	"strings"

	"golang.org/x/text/encoding"
)

// Spec names the standard whose resolution rules a [Resolver] follows.
// The zero value is not a spec: callers always choose one, so that no
// rule is applied by accident.
type Spec int

// The resolution rules on offer. Each mode follows one document and never
// borrows from another.
const (
	// RFC1808 is the relative-URL draft that became RFC 1808, §4 steps 1–7,
	// with the published RFC's reading of step 6c/6d (see rfc1808.go).
	RFC1808 Spec = iota + 1
	// RFC2396 is RFC 2396 §5.2 and the results of its Appendix C.
	RFC2396
	// RFC3986 is RFC 3986 §5.2 (strict unless Options.BackwardCompatible).
	RFC3986
	// WHATWG is the URL Standard's basic URL parser with a base, as browsers
	// resolve links.
	WHATWG
)

var specNames = [...]string{RFC1808: "rfc1808", RFC2396: "rfc2396", RFC3986: "rfc3986", WHATWG: "whatwg"}

// String returns the name ParseSpec accepts, such as "rfc3986".
func (s Spec) String() string {
	if s > 0 && int(s) < len(specNames) {
		return specNames[s]
	}
	return fmt.Sprintf("Spec(%d)", int(s))
}

// ParseSpec returns the Spec named name ("rfc1808", "rfc2396", "rfc3986" or
// "whatwg"; case is ignored).
func ParseSpec(name string) (Spec, error) {
	for s, n := range specNames {
		if n != "" && strings.EqualFold(n, name) {
			return Spec(s), nil
		}
	}
	return 0, fmt.Errorf("resolve: unknown spec %q (want rfc1808, rfc2396, rfc3986 or whatwg)", name)
}

// Options adjusts a mode within what its standard allows. The zero value is
// each standard's strict reading.
type Options struct {
	// BackwardCompatible applies the loophole RFC 3986 §5.2.2 (and RFC 2396
	// §5.2 step 3) allow for old parsers: a reference whose scheme equals
	// the base's is resolved as if it had none, so "http:g" against
	// "http://a/b/c/d;p?q" gives "http://a/b/c/g" instead of "http:g".
	// It has no effect in the RFC1808 and WHATWG modes: the draft's §5.2
	// calls the loophole something to avoid, and browsers define their own
	// rule for it.
	BackwardCompatible bool

	// QueryEncoding is the document's character encoding, used by the
	// WHATWG mode to percent-encode the query as the HTML Standard says
	// ("the document's character encoding"). Nil means UTF-8.
	QueryEncoding encoding.Encoding
}
