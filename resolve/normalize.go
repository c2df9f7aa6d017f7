package resolve

import (
	"errors"
	"slices"
	"strings"
)

// A Normalization is a set of rewrites [Normalize] applies to a URL, to
// tell URLs that name the same resource apart from those that do not
// (RFC 3986 §6). Combine them with "|". Each one's comment gives an
// example, before → after.
type Normalization uint32

// The normalizations, in the order Normalize applies them (the order makes
// every combination idempotent: decoding comes before the case rules and
// the dot-segment removal that may then apply to what it decoded, and the
// port goes before the empty path is filled in).
const (
	// DecodeUnreserved decodes percent-encoded unreserved characters
	// (ALPHA, DIGIT, "-", ".", "_", "~") in every component, RFC 3986
	// §6.2.2.2:
	//	http://a/%7Euser/%41 → http://a/~user/A
	DecodeUnreserved Normalization = 1 << iota
	// UppercaseEscapes writes the hex digits of every percent-encoding in
	// uppercase, RFC 3986 §6.2.2.1:
	//	http://a/b%3ac → http://a/b%3Ac
	UppercaseEscapes
	// LowercaseScheme writes the scheme in lowercase, RFC 3986 §6.2.2.1:
	//	HTTP://a/ → http://a/
	LowercaseScheme
	// LowercaseHost writes the host's ASCII letters in lowercase (not the
	// hex digits of its percent-encodings, nor the userinfo), RFC 3986
	// §6.2.2.1:
	//	http://User@www.EXAMPLE.com/ → http://User@www.example.com/
	LowercaseHost
	// RemoveDefaultPort removes an empty port or the scheme's default port
	// (http and ws 80, https and wss 443, ftp 21), RFC 3986 §6.2.3:
	//	http://a:80/ → http://a/
	//	http://a:/ → http://a/
	RemoveDefaultPort
	// RemoveDotSegments removes the "." and ".." segments of a path that
	// begins with "/" by RFC 3986 §5.2.4, RFC 3986 §6.2.2.3:
	//	http://a/b/./c/../d → http://a/b/d
	// A result that would begin with "//" in a URL without an authority
	// gets "/." in front, so that it does not read as one.
	RemoveDotSegments
	// RemoveDirectoryIndex removes a last path segment that is one of a
	// web server's usual directory index files: index.html, index.htm,
	// index.php, index.asp, index.shtml, default.asp, default.aspx and
	// default.htm. A crawler's guess, so only when asked:
	//	http://a/b/index.html?x → http://a/b/?x
	RemoveDirectoryIndex
	// AddRootPath gives an empty path the "/" that http, https, ws, wss and
	// ftp URLs with an authority mean by it, RFC 3986 §6.2.3:
	//	http://a?x → http://a/?x
	AddRootPath
	// SortQuery sorts the query's "&"-separated parameters by name,
	// keeping the order of those with the same name, and drops empty
	// ones. For crawlers:
	//	http://a/?b=2&a=1&&a=0 → http://a/?a=1&a=0&b=2
	SortQuery
	// RemoveEmptyQuery removes a "?" with nothing after it. For crawlers:
	//	http://a/b? → http://a/b
	RemoveEmptyQuery
	// RemoveFragment removes the fragment, which is never sent to a
	// server. For crawlers:
	//	http://a/b#top → http://a/b
	RemoveFragment
)

// Sets of normalizations.
const (
	// SyntaxBased is RFC 3986 §6.2.2: case, percent-encoding and dot
	// segments. It never changes which resource a URL names.
	SyntaxBased = DecodeUnreserved | UppercaseEscapes | LowercaseScheme | LowercaseHost | RemoveDotSegments
	// SchemeBased is RFC 3986 §6.2.3 for the schemes it knows: default
	// port and empty path.
	SchemeBased = RemoveDefaultPort | AddRootPath
	// Crawler is what a crawler de-duplicating URLs usually wants: the
	// RFC's normalizations, no fragment, sorted query parameters and no
	// empty query. RemoveDirectoryIndex is not in it: add it when the site
	// is known to serve its directory indexes that way.
	Crawler = SyntaxBased | SchemeBased | SortQuery | RemoveEmptyQuery | RemoveFragment
)

// ErrNotAbsolute: Normalize was given a reference without a scheme.
var ErrNotAbsolute = errors.New("not an absolute URL")

// Normalize returns rawURL rewritten by the normalizations in n, applied
// in the order of their declarations. It works on the components of
// RFC 3986 §3 and does not otherwise check or repair the syntax: give it
// URLs a resolution produced (the WHATWG mode's are already lowercase,
// without default ports, dot segments or empty paths, so that only the
// crawler flags and the percent-encoding rules change them). rawURL itself
// is a string, so it is never modified. The error, an *Error, wraps
// ErrNotAbsolute when rawURL has no scheme.
func Normalize(rawURL string, n Normalization) (string, error) {
	u := splitURIRef(rawURL)
	if !u.hasScheme {
		return "", &Error{Op: "normalize", Spec: RFC3986, Ref: rawURL, Err: ErrNotAbsolute}
	}
	if n&(DecodeUnreserved|UppercaseEscapes) != 0 {
		u.authority = normalizeEscapes(u.authority, n)
		u.path = normalizeEscapes(u.path, n)
		u.query = normalizeEscapes(u.query, n)
		u.fragment = normalizeEscapes(u.fragment, n)
	}
	if n&LowercaseScheme != 0 {
		u.scheme = strings.ToLower(u.scheme)
	}
	if u.hasAuthority && n&(LowercaseHost|RemoveDefaultPort) != 0 {
		u.authority = normalizeAuthority(u.authority, strings.ToLower(u.scheme), n)
	}
	if n&RemoveDotSegments != 0 && strings.HasPrefix(u.path, "/") && hasDotSegment(u.path) {
		p := []byte(u.path)
		u.path = string(p[:removeDotSegments(p)])
		if !u.hasAuthority && strings.HasPrefix(u.path, "//") {
			u.path = "/." + u.path
		}
	}
	if n&RemoveDirectoryIndex != 0 {
		if i := strings.LastIndexByte(u.path, '/'); i >= 0 && isDirectoryIndex(u.path[i+1:]) {
			u.path = u.path[:i+1]
		}
	}
	if n&AddRootPath != 0 && u.hasAuthority && u.path == "" {
		switch strings.ToLower(u.scheme) {
		case "http", "https", "ws", "wss", "ftp":
			u.path = "/"
		}
	}
	if n&SortQuery != 0 && u.hasQuery {
		u.query = sortQuery(u.query)
	}
	if n&RemoveEmptyQuery != 0 && u.query == "" {
		u.hasQuery = false
	}
	if n&RemoveFragment != 0 {
		u.fragment, u.hasFragment = "", false
	}
	return u.String(), nil
}

// normalizeEscapes decodes the percent-encoded unreserved characters of s
// and uppercases the hex digits of the others, as n asks.
func normalizeEscapes(s string, n Normalization) string {
	i := strings.IndexByte(s, '%')
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	b = append(b, s[:i]...)
	for ; i < len(s); i++ {
		c := s[i]
		if c != '%' || i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
			b = append(b, c)
			continue
		}
		d := unhex(s[i+1])<<4 | unhex(s[i+2])
		switch {
		case n&DecodeUnreserved != 0 && isUnreserved(d) && !formsEscape(b, d, s[i+3:]):
			b = append(b, d)
		case n&UppercaseEscapes != 0:
			b = append(b, '%', upperHex[d>>4], upperHex[d&15])
		default:
			b = append(b, s[i:i+3]...)
		}
		i += 2
	}
	return string(b)
}

// formsEscape reports whether appending the decoded byte d to b, with rest
// to follow, would make a percent-encoding out of a stray "%" ("%7%41"
// must not become "%7A"): decoding must not change what the text means.
func formsEscape(b []byte, d byte, rest string) bool {
	if !isHex(d) {
		return false
	}
	n := len(b)
	return n >= 2 && b[n-2] == '%' && isHex(b[n-1]) || n >= 1 && b[n-1] == '%' && rest != "" && isHex(rest[0])
}

// isUnreserved: RFC 3986 §2.3.
func isUnreserved(c byte) bool {
	return isAlpha(c) || isDigit(c) || c == '-' || c == '.' || c == '_' || c == '~'
}

// normalizeAuthority lowercases the host of authority and removes its
// default or empty port, as n asks. The userinfo is case-sensitive and
// kept.
func normalizeAuthority(authority, scheme string, n Normalization) string {
	userinfo, hostport := "", authority
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		userinfo, hostport = authority[:i+1], authority[i+1:]
	}
	// RFC 3986 §3.2.2, §3.2.3: the port is the digits after the last ":"
	// not in an IP literal. A host with another ":" is not valid, and its
	// port is left alone.
	host, port := hostport, ""
	if i := strings.LastIndexByte(hostport, ':'); i >= 0 && strings.Trim(hostport[i+1:], "0123456789") == "" {
		if h := hostport[:i]; strings.HasPrefix(h, "[") && strings.HasSuffix(h, "]") || !strings.Contains(h, ":") {
			host, port = h, hostport[i:]
		}
	}
	newHost, newPort := host, port
	if n&LowercaseHost != 0 && strings.ContainsFunc(host, func(r rune) bool { return 'A' <= r && r <= 'Z' }) {
		b := []byte(host)
		for i := 0; i < len(b); i++ {
			switch c := b[i]; {
			case c == '%' && i+2 < len(b) && isHex(b[i+1]) && isHex(b[i+2]):
				i += 2 // the case of an escape's hex digits is UppercaseEscapes's
			case 'A' <= c && c <= 'Z':
				b[i] = c + 'a' - 'A'
			}
		}
		newHost = string(b)
	}
	if n&RemoveDefaultPort != 0 && (port == ":" || isDefaultPort(scheme, port[min(1, len(port)):])) {
		newPort = ""
	}
	if newHost == host && newPort == port {
		return authority
	}
	return userinfo + newHost + newPort
}

// isDefaultPort reports whether port, in decimal, is the default port of
// scheme (RFC 3986 §6.2.3 leaves the list to each scheme: RFC 9110 §4.2
// for http and https, RFC 6455 §3 for ws and wss, RFC 1738 §3.2 for ftp).
func isDefaultPort(scheme, port string) bool {
	if port == "" || strings.Trim(port, "0123456789") != "" {
		return false
	}
	port = strings.TrimLeft(port, "0")
	switch scheme {
	case "http", "ws":
		return port == "80"
	case "https", "wss":
		return port == "443"
	case "ftp":
		return port == "21"
	}
	return false
}

var directoryIndexes = []string{"index.html", "index.htm", "index.php", "index.asp", "index.shtml", "default.asp", "default.aspx", "default.htm"}

func isDirectoryIndex(segment string) bool {
	return slices.Contains(directoryIndexes, segment)
}

// sortQuery sorts the "&"-separated parameters of query by name (what
// precedes the first "="), stably, and drops empty parameters.
func sortQuery(query string) string {
	params := strings.Split(query, "&")
	params = slices.DeleteFunc(params, func(p string) bool { return p == "" })
	name := func(p string) string {
		if i := strings.IndexByte(p, '='); i >= 0 {
			return p[:i]
		}
		return p
	}
	slices.SortStableFunc(params, func(a, b string) int { return strings.Compare(name(a), name(b)) })
	return strings.Join(params, "&")
}
