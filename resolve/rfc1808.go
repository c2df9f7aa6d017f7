package resolve

import "strings"

// This file is the draft's §4 (RFC 1808 §4), step by step. Each step is
// marked where it happens.

// reference1808 resolves ref against r.draft by §4 steps 1–7.
func (r *Resolver) reference1808(ref string) (string, error) {
	// Step 1: with no base (§3.4), only an absolute reference means anything.
	if r.base == "" {
		if Parse(ref).HasScheme {
			return ref, nil
		}
		return "", ErrNoBase
	}
	// Step 2: parse. The draft treats an empty component as an absent one.
	e := Parse(ref)
	e.dropEmpty()
	b := r.draft
	// Step 2a: an entirely empty reference is the whole base, fragment too.
	if e.isEmpty() {
		return r.base, nil
	}
	// Step 2b: a reference with a scheme is absolute, as written.
	if e.HasScheme {
		return ref, nil
	}
	// §2.3: bases outside the generic-RL syntax cannot carry relative URLs.
	// A fragment alone still names a place in the same document.
	if opaque1808(&b) && !e.fragmentOnly() {
		return "", ErrOpaqueBase
	}
	// Step 2c: inherit the scheme.
	e.Scheme, e.HasScheme = b.Scheme, true
	if !e.HasNetLoc || e.NetLoc == "" {
		// Step 3: no net_loc of its own: inherit the base's.
		e.NetLoc, e.HasNetLoc = b.NetLoc, b.HasNetLoc
		switch {
		case e.AbsPath:
			// Step 4: an absolute path is used as it is.
		case e.Path == "":
			// Step 5: inherit the base path, then params and query unless
			// the reference has its own.
			e.Path, e.AbsPath = b.Path, b.AbsPath
			if !e.HasParams {
				e.Params, e.HasParams = b.Params, b.HasParams
				if !e.HasQuery {
					e.Query, e.HasQuery = b.Query, b.HasQuery
				}
			}
		default:
			// Step 6: replace the last segment of the base path and
			// remove dot segments. Parameters take no part (§4, last
			// paragraph): they are not in Path.
			e.Path = removeDotSegments1808(lastSegmentRemoved(b.Path)+e.Path, false)
			e.AbsPath = b.AbsPath
		}
	}
	// Step 7: recombine. The net_path production needs a "/" between a
	// net_loc and a path, which a base such as "http://a" does not carry.
	if e.HasNetLoc && !e.AbsPath && e.Path != "" {
		e.AbsPath = true
	}
	return e.String(), nil
}

// dropEmpty clears the presence of empty components, as the draft reads
// them (§2.4.1, §2.4.4, §2.4.5: a delimiter at the end gives an empty
// component, and the resolution steps only ask whether one is empty).
// An empty net_loc keeps its "//": "file:///x" must not become "file:/x".
func (u *URL) dropEmpty() {
	u.HasFragment = u.HasFragment && u.Fragment != ""
	u.HasQuery = u.HasQuery && u.Query != ""
	u.HasParams = u.HasParams && u.Params != ""
}

// isEmpty reports whether u is "entirely empty" (§4 step 2a) once empty
// components count as absent.
func (u *URL) isEmpty() bool {
	return !u.HasScheme && u.NetLoc == "" && !u.AbsPath && u.Path == "" &&
		!u.HasParams && !u.HasQuery && !u.HasFragment
}

// fragmentOnly reports whether u is a bare "#fragment" reference.
func (u *URL) fragmentOnly() bool {
	return !u.HasScheme && u.NetLoc == "" && !u.AbsPath && u.Path == "" &&
		!u.HasParams && !u.HasQuery
}

// opaque1808 reports whether a base falls outside the generic-RL syntax
// (§2.3): one of the schemes the draft says are never used with relative
// URLs, or a scheme followed by neither "//" nor "/".
func opaque1808(b *URL) bool {
	switch strings.ToLower(b.Scheme) {
	case "mailto", "news", "telnet":
		return true
	}
	return !b.HasNetLoc && !b.AbsPath
}

// lastSegmentRemoved returns path without its last segment: "anything
// following the rightmost slash, or the entire path if no slash is
// present" (§4 step 6).
func lastSegmentRemoved(path string) string {
	return path[:strings.LastIndexByte(path, '/')+1]
}

// removeDotSegments1808 applies §4 step 6a–6d to a path that does not start
// with the slash that may precede it.
//
// Step 6c/6d as published in RFC 1808 remove "<segment>/../" only where
// <segment> is "a complete path segment not equal to '..'". The draft's
// wording ("where <segment> and '..' are complete path segments") lets a
// ".." cancel an earlier "..", so "../../../../g" against the §5 base would
// give "http://a/g" rather than the published "http://a/../../g". Every
// example of the draft's §5 comes out the same either way; we follow the
// published text (draft == false) and keep the literal draft reading for
// the tests that show the difference.
//
// Removing the leftmost match again and again until none is left is the
// same as one pass with a stack: a ".." that follows a removable segment
// pops it, and a removal can only expose a new match to its left.
func removeDotSegments1808(path string, draft bool) string {
	if !strings.Contains(path, ".") {
		return path
	}
	segs := strings.Split(path, "/")
	out := segs[:0]
	last := len(segs) - 1
	for i, s := range segs {
		switch {
		case s == "." && i < last:
			// 6a: "./" where "." is a complete segment.
		case s == "." && i == last:
			// 6b: a final "." is removed; the slash before it stays.
			out = append(out, "")
		case s == ".." && len(out) > 0 && (draft || out[len(out)-1] != ".."):
			// 6c ("<segment>/../") and, for the final segment, 6d
			// ("<segment>/.."), which leaves the slash before it.
			out = out[:len(out)-1]
			if i == last {
				out = append(out, "")
			}
		default:
			out = append(out, s)
		}
	}
	return strings.Join(out, "/")
}
