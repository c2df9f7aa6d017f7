package resolve

import "strings"

// Relativize returns the shortest reference that r resolves to target
// exactly: the inverse of [Resolver.Reference].
//
// In order of preference (shorter first; the first of equal length wins):
// the empty reference or a fragment when target is the base document (as
// the mode allows: RFC 1808's empty reference keeps the base fragment,
// RFC 3986's does not), a query, a path relative to the base's directory
// with as many "../" as needed (with "./" in front of a first segment that
// holds a ":", §5.3 of the draft), an absolute path, a network-path
// "//net_loc/...", and target itself. Every candidate is checked by
// resolving it, so the result is right by construction; when no candidate
// resolves to target (say, a target with "/./" that RFC 3986 would
// remove), the error wraps ErrNotRelativizable.
func (r *Resolver) Relativize(target string) (string, error) {
	return r.relativize(target, false)
}

// RelativePath returns the shortest relative-path reference (RFC 3986
// §4.2: no scheme, no net_loc, no leading "/") that r resolves to target,
// such as "../img/a.png": the form that keeps working when a document
// tree moves as a whole, the draft's §1 use. It fails with
// ErrNotRelativizable when target is on another scheme or net_loc.
func (r *Resolver) RelativePath(target string) (string, error) {
	return r.relativize(target, true)
}

func (r *Resolver) relativize(target string, pathOnly bool) (string, error) {
	fail := func(err error) (string, error) {
		return "", &Error{Op: "relativize", Spec: r.spec, Base: r.base, Ref: target, Err: err}
	}
	// A relative target fails below: no reference resolves to it.
	T := splitURIRef(target)
	best, found := "", false
	try := func(c string) {
		if found && len(c) >= len(best) || pathOnly && !isRelativePath(c) {
			return
		}
		if got, err := r.Reference(c); err == nil && got == target {
			best, found = c, true
		}
	}
	for _, c := range r.relativeCandidates(&T) {
		try(c)
	}
	try(target)
	if !found {
		return fail(ErrNotRelativizable)
	}
	return best, nil
}

// relativeCandidates lists the references that may resolve to T, shortest
// kinds first. It only proposes; Relativize checks.
func (r *Resolver) relativeCandidates(T *uriRef) []string {
	if r.base == "" {
		return nil
	}
	B := splitURIRef(r.base)
	if !sameScheme(B.scheme, T.scheme) {
		return nil
	}
	tail := queryFragment(T)
	frag := ""
	if T.hasFragment {
		frag = "#" + T.fragment
	}
	var cs []string
	if B.hasAuthority != T.hasAuthority || B.authority != T.authority {
		if T.hasAuthority {
			cs = append(cs, "//"+T.authority+T.path+tail)
		}
		return cs
	}
	// Same document, or a new query: cheap to try whatever the paths, as
	// modes differ on what an empty path inherits.
	cs = append(cs, "", frag)
	if T.hasQuery {
		cs = append(cs, "?"+T.query+frag)
	}
	bpath := B.path
	if bpath == "" && B.hasAuthority {
		bpath = "/" // RFC 3986 §5.2.3: an authority and no path merge as "/"
	}
	if strings.HasPrefix(T.path, "/") && strings.HasPrefix(bpath, "/") {
		rel := relativePath(bpath, T.path)
		cs = append(cs, rel+tail)
		if rel == "" || rel[0] == '/' || colonInFirstSegment(rel) {
			cs = append(cs, "./"+rel+tail)
		}
		if rel == "" {
			cs = append(cs, "."+tail)
		}
		// RFC 1808 keeps ";params" out of the path: "d;x" against "d;p"
		// can be ";x".
		if i := strings.IndexByte(rel, ';'); i > 0 && !strings.Contains(rel[:i], "/") {
			cs = append(cs, rel[i:]+tail)
		}
		// "../" and ".." name the same directory.
		if strings.HasSuffix(rel, "../") {
			cs = append(cs, rel[:len(rel)-1]+tail)
		}
	}
	cs = append(cs, T.path+tail)
	if strings.HasPrefix(T.path, "//") {
		// An absolute path that starts with "//" would read as a
		// net_loc: hide it behind a "." segment, or (RFC 1808, whose
		// empty net_loc is inherited) behind an empty one.
		cs = append(cs, "/."+T.path+tail, "//"+T.path+tail)
	}
	if T.hasAuthority {
		cs = append(cs, "//"+T.authority+T.path+tail)
	}
	return cs
}

// relativePath returns the path that, merged with the directory of base
// (RFC 3986 §5.2.3) and cleaned of dot segments, gives target. Both paths
// start with "/".
func relativePath(base, target string) string {
	dir := base[:strings.LastIndexByte(base, '/')+1]
	// The longest common prefix that ends with "/".
	n := 0
	for i := 0; i < len(dir) && i < len(target) && dir[i] == target[i]; i++ {
		if dir[i] == '/' {
			n = i + 1
		}
	}
	ups := strings.Count(dir[n:], "/")
	return strings.Repeat("../", ups) + target[n:]
}

// isRelativePath reports whether ref is a relative-path reference: no
// scheme (by either the draft's or RFC 3986's rule), no leading "/".
func isRelativePath(ref string) bool {
	return !strings.HasPrefix(ref, "/") && schemeEnd(ref) < 0 && schemeEnd1808(ref) < 0
}

func colonInFirstSegment(p string) bool {
	i := strings.IndexByte(p, '/')
	if i < 0 {
		i = len(p)
	}
	return strings.IndexByte(p[:i], ':') >= 0
}

func queryFragment(u *uriRef) string {
	s := ""
	if u.hasQuery {
		s += "?" + u.query
	}
	if u.hasFragment {
		s += "#" + u.fragment
	}
	return s
}
