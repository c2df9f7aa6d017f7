package resolve

import "strings"

// This file is RFC 2396 §5.2, steps 1–7, whose results are the table of
// Appendix C.

// reference2396 resolves ref against r.generic by RFC 2396 §5.2.
func (r *Resolver) reference2396(ref string) (string, error) {
	R := splitURIRef(ref) // step 1
	B := &r.generic
	// Step 2: an empty path with no scheme, authority or query is a
	// reference to the current document: the base without its fragment,
	// with the reference's fragment if it has one. Appendix C writes the
	// result as "(current document)"; this is the document's URL.
	if R.path == "" && !R.hasScheme && !R.hasAuthority && !R.hasQuery {
		if r.base == "" {
			return "", ErrNoBase
		}
		T := *B
		T.fragment, T.hasFragment = R.fragment, R.hasFragment
		return T.String(), nil
	}
	// Step 3: a scheme makes the reference absolute. §5.2 allows parsers to
	// treat a scheme equal to the base's as absent "for backwards
	// compatibility".
	if R.hasScheme {
		if !(r.opts.BackwardCompatible && r.base != "" && sameScheme(R.scheme, B.scheme)) {
			return ref, nil
		}
		R.hasScheme, R.scheme = false, ""
	}
	if r.base == "" {
		return "", ErrNoBase
	}
	if B.opaque() {
		return "", ErrOpaqueBase // §5.2: only hierarchical bases (§3)
	}
	T := R
	T.scheme, T.hasScheme = B.scheme, true
	// Step 4: a reference with an authority is a network-path: done.
	if !R.hasAuthority {
		T.authority, T.hasAuthority = B.authority, B.hasAuthority
		// Step 5: an absolute path is used as it is.
		if !strings.HasPrefix(R.path, "/") {
			// Step 6a, 6b: all but the last segment of the base path,
			// then the reference's path. A base with an authority and no
			// path has the path "/" (§5.2.3 of RFC 3986 says so; RFC 2396
			// leaves the case open).
			dir := B.path[:strings.LastIndexByte(B.path, '/')+1]
			if B.hasAuthority && B.path == "" {
				dir = "/"
			}
			T.path = removeDotSegments2396(dir + R.path)
		}
	}
	return T.String(), nil // step 7
}

// removeDotSegments2396 applies RFC 2396 §5.2 steps 6c–6g to a merged
// path. They are the published RFC 1808 rules; step 6g keeps a ".." that
// would climb above the root ("http://a/../g"), which the RFC leaves to
// the implementation. The leading "/" is not a segment.
func removeDotSegments2396(p string) string {
	if strings.HasPrefix(p, "/") {
		return "/" + removeDotSegments1808(p[1:], false)
	}
	return removeDotSegments1808(p, false)
}
