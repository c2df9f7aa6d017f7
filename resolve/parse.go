package resolve

import "strings"

// URL is a URL broken into the six components of the draft's §2.4, in the
// order the parser removes them from the parse string: fragment, scheme,
// net_loc, query, params, path.
//
// Each component remembers whether its delimiter was present, so that
// "http://a/b?" and "http://a/b" stay apart and String gives back the parsed
// text byte for byte. The draft itself treats a present-but-empty component
// as absent (§2.4.1: "If the crosshatch is the last character ... the
// fragment identifier is empty"); the RFC1808 mode of [Resolver] does so.
type URL struct {
	Fragment string // after the first "#" (§2.4.1)
	Scheme   string // before the first ":", if only scheme characters precede it (§2.4.2)
	NetLoc   string // after a leading "//", up to the next "/" (§2.4.3)
	Query    string // after the first remaining "?" (§2.4.4)
	Params   string // after the first remaining ";" (§2.4.5)
	Path     string // what remains, without the slash that may precede it (§2.4.6)

	HasFragment bool // a "#" was present
	HasScheme   bool // a scheme and its ":" were present
	HasNetLoc   bool // a "//" was present
	HasQuery    bool // a "?" was present
	HasParams   bool // a ";" was present
	AbsPath     bool // a "/" preceded the path (§2.4.6)
}

// Parse breaks s into the draft's six components (§2.4). It never fails:
// every string is a parse string, and String of the result is s again.
func Parse(s string) URL {
	var u URL
	// §2.4.1: the fragment is everything after the first "#".
	if i := strings.IndexByte(s, '#'); i >= 0 {
		u.Fragment, u.HasFragment = s[i+1:], true
		s = s[:i]
	}
	// §2.4.2: a scheme is the text before a colon that follows the first
	// character, when only scheme characters come before it.
	if i := schemeEnd1808(s); i > 0 {
		u.Scheme, u.HasScheme = s[:i], true
		s = s[i+1:]
	}
	// §2.4.3: after "//", up to (not including) the next "/".
	if strings.HasPrefix(s, "//") {
		s = s[2:]
		i := strings.IndexByte(s, '/')
		if i < 0 {
			i = len(s)
		}
		u.NetLoc, u.HasNetLoc = s[:i], true
		s = s[i:]
	}
	// §2.4.4: the query is everything after the first "?".
	if i := strings.IndexByte(s, '?'); i >= 0 {
		u.Query, u.HasQuery = s[i+1:], true
		s = s[:i]
	}
	// §2.4.5: the parameters are everything after the first ";".
	if i := strings.IndexByte(s, ';'); i >= 0 {
		u.Params, u.HasParams = s[i+1:], true
		s = s[:i]
	}
	// §2.4.6: the path, remembering the slash that may precede it.
	if strings.HasPrefix(s, "/") {
		u.AbsPath = true
		s = s[1:]
	}
	u.Path = s
	return u
}

// schemeEnd1808 returns the index of the colon that ends a §2.4.2 scheme
// in s, or -1. The draft's scheme is 1*( alpha | digit | "+" | "-" | "." ),
// so unlike RFC 3986 it may start with a digit.
func schemeEnd1808(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ':':
			if i == 0 {
				return -1
			}
			return i
		case isAlpha(c) || isDigit(c) || c == '+' || c == '-' || c == '.':
		default:
			return -1
		}
	}
	return -1
}

// String recombines the components (§4 step 7), with each delimiter
// written when it was present.
func (u *URL) String() string {
	var b strings.Builder
	b.Grow(len(u.Scheme) + len(u.NetLoc) + len(u.Path) + len(u.Params) + len(u.Query) + len(u.Fragment) + 8)
	if u.HasScheme {
		b.WriteString(u.Scheme)
		b.WriteByte(':')
	}
	if u.HasNetLoc {
		b.WriteString("//")
		b.WriteString(u.NetLoc)
	}
	if u.AbsPath {
		b.WriteByte('/')
	}
	b.WriteString(u.Path)
	if u.HasParams {
		b.WriteByte(';')
		b.WriteString(u.Params)
	}
	if u.HasQuery {
		b.WriteByte('?')
		b.WriteString(u.Query)
	}
	if u.HasFragment {
		b.WriteByte('#')
		b.WriteString(u.Fragment)
	}
	return b.String()
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }
