package resolve

import "strings"

// uriRef is a URI reference split into the five components of RFC 3986 §3
// (the same five as RFC 2396 §3), by the rule of RFC 3986 Appendix B. Each
// component remembers whether it was defined, because §5.2.2 and §5.3 tell
// an empty query or fragment from an undefined one.
type uriRef struct {
	scheme, authority, path, query, fragment string

	hasScheme, hasAuthority, hasQuery, hasFragment bool
}

// splitURIRef splits s by RFC 3986 Appendix B:
//
//	^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?
//
// except that a scheme must match the scheme production (ALPHA *( ALPHA /
// DIGIT / "+" / "-" / "." ), RFC 3986 §3.1, RFC 2396 §3.1); otherwise the
// text is a relative-path reference whose first segment has a colon
// (RFC 3986 §4.2).
func splitURIRef(s string) uriRef {
	var u uriRef
	if i := schemeEnd(s); i > 0 {
		u.scheme, u.hasScheme = s[:i], true
		s = s[i+1:]
	}
	// The fragment starts at the first "#", the query at the first "?"
	// before it; what is left is "//" authority path or a path, and the
	// authority ends at its first "/". Three IndexByte calls instead of a
	// byte loop over the authority (resolution profile).
	if i := strings.IndexByte(s, '#'); i >= 0 {
		u.fragment, u.hasFragment = s[i+1:], true
		s = s[:i]
	}
	if i := strings.IndexByte(s, '?'); i >= 0 {
		u.query, u.hasQuery = s[i+1:], true
		s = s[:i]
	}
	if len(s) >= 2 && s[0] == '/' && s[1] == '/' {
		s = s[2:]
		i := strings.IndexByte(s, '/')
		if i < 0 {
			i = len(s)
		}
		u.authority, u.hasAuthority = s[:i], true
		s = s[i:]
	}
	u.path = s
	return u
}

// Scheme returns the scheme that starts ref and whether ref has one: the
// text before the first ":" when it matches ALPHA *( ALPHA / DIGIT / "+" /
// "-" / "." ). RFC 3986 §3.1, RFC 2396 §3.1 and the URL Standard's scheme
// state agree on this syntax (the draft's §2.4.2 alone lets a scheme start
// with a digit; see [Parse]). Link rewriters use it to leave references
// that carry a scheme as written.
func Scheme(ref string) (string, bool) {
	if i := schemeEnd(ref); i > 0 {
		return ref[:i], true
	}
	return "", false
}

// schemeByte classifies bytes for schemeEnd: 1 for ALPHA, 2 for the
// DIGIT, "+", "-" and "." a scheme may continue with. One table load per
// byte instead of the chain of comparisons (resolution profile).
var schemeByte = func() (t [256]uint8) {
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = 1, 1
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = 2
	}
	t['+'], t['-'], t['.'] = 2, 2, 2
	return t
}()

// schemeEnd returns the index of the ":" that ends a scheme at the start
// of s, or -1.
func schemeEnd(s string) int {
	if s == "" || schemeByte[s[0]] != 1 {
		return -1
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if schemeByte[c] == 0 {
			if c == ':' {
				return i
			}
			return -1
		}
	}
	return -1
}

// opaque reports whether u cannot serve as a base for relative references:
// it has no authority and its path does not start with "/" (RFC 2396 §3's
// opaque_part; the draft's §2.3 "does not follow the generic-RL syntax").
func (u *uriRef) opaque() bool {
	return !u.hasAuthority && !strings.HasPrefix(u.path, "/")
}

// fragmentOnly reports whether u is a same-document reference: nothing but
// a fragment (RFC 3986 §4.4).
func (u *uriRef) fragmentOnly() bool {
	return !u.hasScheme && !u.hasAuthority && u.path == "" && !u.hasQuery
}

// appendRecomposed appends u to b by RFC 3986 §5.3.
func (u *uriRef) appendRecomposed(b []byte) []byte {
	if u.hasScheme {
		b = append(b, u.scheme...)
		b = append(b, ':')
	}
	if u.hasAuthority {
		b = append(b, "//"...)
		b = append(b, u.authority...)
	}
	b = append(b, u.path...)
	if u.hasQuery {
		b = append(b, '?')
		b = append(b, u.query...)
	}
	if u.hasFragment {
		b = append(b, '#')
		b = append(b, u.fragment...)
	}
	return b
}

func (u *uriRef) String() string {
	return string(u.appendRecomposed(make([]byte, 0, len(u.scheme)+len(u.authority)+len(u.path)+len(u.query)+len(u.fragment)+5)))
}

// sameScheme reports whether two schemes are equal; schemes are case-
// insensitive (RFC 3986 §3.1).
func sameScheme(a, b string) bool { return strings.EqualFold(a, b) }
