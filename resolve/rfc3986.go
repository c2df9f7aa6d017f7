package resolve

import "strings"

// This file is RFC 3986 §5.2: §5.2.2 (transform references), §5.2.3
// (merge paths), §5.2.4 (remove dot segments) and §5.3 (recomposition).

// reference3986 resolves ref against r.generic by RFC 3986 §5.2.2.
func (r *Resolver) reference3986(ref string) (string, error) {
	R, ref, err := r.target3986(ref)
	if err != nil {
		return "", err
	}
	if prefix, ok := r.prefix3986(&R); ok {
		if prefix == "" {
			return ref, nil
		}
		return prefix + ref, nil
	}
	return r.compose3986(&R), nil
}

// append3986 is reference3986 appending the result to dst.
func (r *Resolver) append3986(dst []byte, ref string) ([]byte, error) {
	R, ref, err := r.target3986(ref)
	if err != nil {
		return dst, err
	}
	if prefix, ok := r.prefix3986(&R); ok {
		return append(append(dst, prefix...), ref...), nil
	}
	return r.appendComposed3986(dst, &R), nil
}

// target3986 splits ref (RFC 3986 Appendix B) and checks that it can be
// resolved against r.generic: the first steps of §5.2.2. It returns ref
// without its scheme when the non-strict rule drops it.
func (r *Resolver) target3986(ref string) (uriRef, string, error) {
	R := splitURIRef(ref)
	B := &r.generic
	if R.hasScheme && r.opts.BackwardCompatible && r.base != "" && sameScheme(R.scheme, B.scheme) {
		// §5.2.2: "if ((not strict) and (R.scheme == Base.scheme)) then
		// undefine(R.scheme)".
		ref = ref[len(R.scheme)+1:]
		R.hasScheme, R.scheme = false, ""
	}
	if !R.hasScheme {
		if r.base == "" {
			return R, ref, ErrNoBase // §5.1: a relative reference needs a base
		}
		if B.opaque() && !R.fragmentOnly() {
			return R, ref, ErrOpaqueBase
		}
	}
	return R, ref, nil
}

// compose3986 builds the target of R, a reference target3986 has
// checked, step by step: §5.2.2's transform, §5.2.3's merge, §5.2.4's
// dot-segment removal and §5.3's recomposition.
func (r *Resolver) compose3986(R *uriRef) string {
	// The result is built in a stack array (a heap buffer only when it is
	// longer) and copied once into a string of its exact length: the only
	// allocation of a resolution, smaller than a buffer sized for the
	// longest result (len(base)+len(ref)+1), which cost more in malloc and
	// GC than the copy (resolution profile).
	var stack [256]byte
	return string(r.appendComposed3986(stack[:0], R))
}

// appendComposed3986 appends the target of R (see compose3986) to buf.
func (r *Resolver) appendComposed3986(buf []byte, R *uriRef) []byte {
	B := &r.generic
	var T uriRef // T's path is written to buf directly; its other parts are held here
	var pathStart int
	if R.hasScheme {
		// T = R with its path cleaned of dot segments.
		T = *R
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
	return buf
}

// basePrefixes are the leading parts of an RFC 3986 base that §5.2.2 and
// §5.3 put before a reference's own text in the result, when no dot
// segment is to be removed: ends of the base's scheme, authority, path and
// query as indexes into it, and the merge prefix of §5.2.3.
type basePrefixes struct {
	scheme, authority, path, query int
	dir                            string // the base up to its path's last "/" (§5.2.3)
	dirDot                         bool   // dir's path has a dot segment
}

func newBasePrefixes(base string, B *uriRef) basePrefixes {
	var p basePrefixes
	p.scheme = len(B.scheme) + 1
	p.authority = p.scheme
	if B.hasAuthority {
		p.authority += 2 + len(B.authority)
	}
	p.path = p.authority + len(B.path)
	p.query = p.path
	if B.hasQuery {
		p.query += 1 + len(B.query)
	}
	p.dir = string(appendMerged([]byte(base[:p.authority]), B, ""))
	p.dirDot = hasDotSegment(p.dir[p.authority:])
	return p
}

// prefix3986 returns, when ref's path has no dot segment, the part of the
// base that §5.2.2 and §5.3 put before ref in the result: the result is
// prefix + ref, which is ref itself when prefix is "". Each case is the
// one of reference3986's general path without its copies: a path without
// "." or ".." segments is its own remove_dot_segments (§5.2.4 step 2E
// alone), and R's components recomposed are R's text (Appendix B splits
// without loss). ok is false when the general path must run.
func (r *Resolver) prefix3986(R *uriRef) (prefix string, ok bool) {
	if hasDotSegment(R.path) {
		return "", false
	}
	p := &r.prefixes
	switch {
	case R.hasScheme:
		return "", true
	case R.hasAuthority:
		return r.base[:p.scheme], true
	case R.path == "":
		// T.path = Base.path, as is; T.query = Base.query unless R has one.
		if R.hasQuery {
			return r.base[:p.path], true
		}
		return r.base[:p.query], true
	case R.path[0] == '/':
		return r.base[:p.authority], true
	}
	return p.dir, !p.dirDot
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
// Callers skip it for paths without a dot segment (hasDotSegment).
func removeDotSegments(p []byte) int {
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

// hasDotSegment reports whether a segment of the path p is "." or "..":
// without one, §5.2.4 step 2E alone applies and copies the path
// unchanged. Most paths of real pages have a "." (a file name's
// extension), so it looks at each "." (IndexByte) rather than send every
// path with one through the step-by-step loop (resolution profile).
func hasDotSegment(p string) bool {
	for i := strings.IndexByte(p, '.'); i >= 0; {
		if i == 0 || p[i-1] == '/' {
			j := i + 1
			if j < len(p) && p[j] == '.' {
				j++
			}
			if j == len(p) || p[j] == '/' {
				return true
			}
		}
		k := strings.IndexByte(p[i+1:], '.')
		if k < 0 {
			break
		}
		i += 1 + k
	}
	return false
}
