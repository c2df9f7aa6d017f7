package resolve

import (
	"bytes"
	"strings"
)

// This file is RFC 3986 §5.2: §5.2.2 (transform references), §5.2.3
// (merge paths), §5.2.4 (remove dot segments) and §5.3 (recomposition).

// reference3986 resolves ref against r.generic by RFC 3986 §5.2.2.
func (r *Resolver) reference3986(ref string) (string, error) {
	R := splitURIRef(ref)
	B := &r.generic
	if R.hasScheme && r.opts.BackwardCompatible && r.base != "" && sameScheme(R.scheme, B.scheme) {
		// §5.2.2: "if ((not strict) and (R.scheme == Base.scheme)) then
		// undefine(R.scheme)".
		R.hasScheme, R.scheme = false, ""
	}
	if !R.hasScheme {
		if r.base == "" {
			return "", ErrNoBase // §5.1: a relative reference needs a base
		}
		if B.opaque() && !R.fragmentOnly() {
			return "", ErrOpaqueBase
		}
	}
	// The result is built in a stack array (a heap buffer only when it is
	// longer) and copied once into a string of its exact length: the only
	// allocation of a resolution, smaller than a buffer sized for the
	// longest result (len(base)+len(ref)+1), which cost more in malloc and
	// GC than the copy (resolution profile).
	var stack [256]byte
	buf := stack[:0]
	var T uriRef // T's path is written to buf directly; its other parts are held here
	var pathStart int
	if R.hasScheme {
		// T = R with its path cleaned of dot segments.
		T = R
		buf = append(buf, R.scheme...)
		buf = append(buf, ':')
		if R.hasAuthority {
			buf = append(buf, "//"...)
			buf = append(buf, R.authority...)
		}
		pathStart = len(buf)
		buf = append(buf, R.path...)
		buf = buf[:pathStart+removeDotSegments(buf[pathStart:])]
	} else {
		T.scheme = B.scheme
		buf = append(buf, B.scheme...)
		buf = append(buf, ':')
		if R.hasAuthority {
			T.query, T.hasQuery = R.query, R.hasQuery
			buf = append(buf, "//"...)
			buf = append(buf, R.authority...)
			pathStart = len(buf)
			buf = append(buf, R.path...)
			buf = buf[:pathStart+removeDotSegments(buf[pathStart:])]
		} else {
			if B.hasAuthority {
				buf = append(buf, "//"...)
				buf = append(buf, B.authority...)
			}
			pathStart = len(buf)
			switch {
			case R.path == "":
				buf = append(buf, B.path...)
				if R.hasQuery {
					T.query, T.hasQuery = R.query, true
				} else {
					T.query, T.hasQuery = B.query, B.hasQuery
				}
			case R.path[0] == '/':
				buf = append(buf, R.path...)
				buf = buf[:pathStart+removeDotSegments(buf[pathStart:])]
				T.query, T.hasQuery = R.query, R.hasQuery
			default:
				buf = appendMerged(buf, B, R.path)
				buf = buf[:pathStart+removeDotSegments(buf[pathStart:])]
				T.query, T.hasQuery = R.query, R.hasQuery
			}
		}
	}
	T.fragment, T.hasFragment = R.fragment, R.hasFragment
	// §5.3: query and fragment follow the path.
	if T.hasQuery {
		buf = append(buf, '?')
		buf = append(buf, T.query...)
	}
	if T.hasFragment {
		buf = append(buf, '#')
		buf = append(buf, T.fragment...)
	}
	return string(buf), nil
}

// appendMerged appends the merge of RFC 3986 §5.2.3 of the base's path and
// a relative path to b.
func appendMerged(b []byte, base *uriRef, rel string) []byte {
	if base.hasAuthority && base.path == "" {
		// "return a string consisting of "/" concatenated with the
		// reference's path"
		b = append(b, '/')
	} else {
		// "excluding any characters after the right-most "/" in the base
		// URI path, or excluding the entire base URI path if it does not
		// contain any "/" characters"
		b = append(b, base.path[:strings.LastIndexByte(base.path, '/')+1]...)
	}
	return append(b, rel...)
}

// removeDotSegments applies RFC 3986 §5.2.4 to the path in p, in place,
// and returns the length of the result. The output never outruns the
// input, so the output buffer can be the input buffer.
func removeDotSegments(p []byte) int {
	if !hasDotSegment(p) {
		return len(p)
	}
	in, w := 0, 0
	n := len(p)
	rest := func() []byte { return p[in:n] }
	for in < n {
		s := rest()
		switch {
		// 2A: remove a prefix "../" or "./".
		case hasPrefix(s, "../"):
			in += 3
		case hasPrefix(s, "./"):
			in += 2
		// 2B: replace a prefix "/./" or a whole "/." with "/".
		case hasPrefix(s, "/./"):
			in += 2
		case string(s) == "/.":
			p[w] = '/'
			w++
			in = n
		// 2C: replace a prefix "/../" or a whole "/.." with "/" and remove
		// the last segment (and its preceding "/", if any) of the output.
		case hasPrefix(s, "/../"):
			in += 3
			w = lastSlash(p[:w])
		case string(s) == "/..":
			w = lastSlash(p[:w])
			p[w] = '/'
			w++
			in = n
		// 2D: a whole "." or ".." is removed.
		case string(s) == "." || string(s) == "..":
			in = n
		// 2E: move the first segment, with its leading "/" if any, to
		// the output.
		default:
			j := 1
			if s[0] != '/' {
				j = 0
			}
			for j < len(s) && s[j] != '/' {
				j++
			}
			w += copy(p[w:], s[:j])
			in += j
		}
	}
	return w
}

// lastSlash returns the index of the last "/" in b, or 0 when there is none:
// the length the output keeps when its last segment is removed.
func lastSlash(b []byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == '/' {
			return i
		}
	}
	return 0
}

func hasPrefix(b []byte, prefix string) bool {
	return len(b) >= len(prefix) && string(b[:len(prefix)]) == prefix
}

// hasDotSegment reports whether a segment of the path b may be "." or "..":
// whether b starts with "." or has "/." in it. Without one, §5.2.4 step 2E
// alone applies and copies the path unchanged. Most paths of real pages
// have a "." (a file name's extension) but no dot segment, so looking for
// any "." sent them through the step-by-step loop (resolution profile).
func hasDotSegment(b []byte) bool {
	return len(b) > 0 && b[0] == '.' || bytes.Contains(b, slashDot)
}

var slashDot = []byte("/.")
