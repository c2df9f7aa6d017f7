package resolve

import (
	"strings"
	"unsafe"
)

// Fast paths for the references real pages hold most: the empty reference,
// fragment-only and query-only references, absolute and relative paths
// against an http(s) base, and http(s) URLs, with or without their scheme,
// already in their serialized form (less, perhaps, the "/" of an empty
// path). Each handles only input on which the basic URL parser does nothing
// but copy bytes and remove dot segments; anything else (whitespace,
// backslashes, characters to percent-encode, non-ASCII, hosts to check)
// falls back to parseWeb. FuzzWHATWGFastPath holds them to the parser's
// results.

// Bytes a component keeps as they are: printable ASCII outside the
// component's percent-encode set and without a role in parsing it.
var (
	fragmentPlain = plainSet(fragmentSet, "")
	queryPlain    = plainSet(specialQuerySet, "#")
	pathPlain     = plainSet(pathSet, "/\\")
)

func plainSet(set *encodeSet, delims string) *[256]bool {
	var p [256]bool
	for c := 0x21; c < 0x7F; c++ {
		p[c] = !set[c] && strings.IndexByte(delims, byte(c)) < 0
	}
	return &p
}

func allPlain(s string, plain *[256]bool) bool {
	for i := 0; i < len(s); i++ {
		if !plain[s[i]] {
			return false
		}
	}
	return true
}

// fastReference resolves ref against an http(s) base when a fast path
// applies; ok is false when ref needs the parser. The result is ref
// itself or a part of the base where it can be, else a string of its own
// (appendFast's bytes).
func (b *whatwgBase) fastReference(ref string) (s string, ok bool) {
	switch {
	case ref == "":
		return b.url.hrefNoFragment(), true
	case schemeEnd(ref) > 0:
		return fastAbsolute(ref)
	}
	buf, ok := b.appendFast(nil, ref)
	if !ok {
		return "", false
	}
	return unsafe.String(unsafe.SliceData(buf), len(buf)), true
}

// appendFast appends to dst what fastReference returns, when a fast path
// applies (ok); else it returns dst as it is. Each case checks ref before
// it grows dst, so a reference for the parser costs no allocation, and
// one that is resolved costs at most one (none when dst has room).
func (b *whatwgBase) appendFast(dst []byte, ref string) (_ []byte, ok bool) {
	u := &b.url
	if ref == "" {
		return append(dst, u.hrefNoFragment()...), true
	}
	switch ref[0] {
	case '#':
		if !allPlain(ref[1:], fragmentPlain) {
			return dst, false
		}
		return appendJoin(dst, u.hrefNoFragment(), ref, "", -1), true
	case '?':
		if !plainQueryFragment(ref) {
			return dst, false
		}
		return appendJoin(dst, u.href[:u.pathEnd()], ref, "", -1), true
	case '/':
		if len(ref) > 1 && ref[1] == '/' {
			// A scheme-relative URL: the base's scheme and ref.
			defPort := "80"
			if u.Scheme() == "https" {
				defPort = "443"
			}
			slashAt, ok := scanAuthorityAndRest(ref[2:], defPort)
			if !ok {
				return dst, false
			}
			if slashAt < 0 {
				return appendJoin(dst, u.href[:u.schemeEnd+1], ref, "", -1), true
			}
			return appendJoin(dst, u.href[:u.schemeEnd+1], "//", ref[2:], slashAt), true
		}
		if len(ref) > 1 && ref[1] == '\\' {
			return dst, false
		}
		return appendPath(dst, u.href[:u.authEnd], u.authEnd, ref[1:])
	}
	if schemeEnd(ref) > 0 {
		prefix, rest, slashAt, ok := absoluteParts(ref)
		if !ok {
			return dst, false
		}
		if slashAt < 0 {
			return append(dst, ref...), true
		}
		return appendJoin(dst, prefix, "", rest, slashAt), true
	}
	return appendPath(dst, b.dir, u.pathStart, ref)
}

// plainQueryFragment reports whether s, a query and fragment, is in its
// serialized form.
func plainQueryFragment(s string) bool {
	i := 0
	if s != "" && s[0] == '?' {
		i = 1
		plain := queryPlain
		for i < len(s) && plain[s[i]] {
			i++
		}
	}
	if i == len(s) {
		return true
	}
	if s[i] != '#' {
		return false
	}
	return allPlain(s[i+1:], fragmentPlain)
}

// appendPath appends to dst prefix, a URL up to the path whose path (from
// pathStart) is the base's path shortened (§4.4 relative state) or empty
// (relative slash state), and the path, query and fragment in rel, as the
// path state does. ok is false (dst as it is) when rel needs the parser.
func appendPath(dst []byte, prefix string, pathStart int, rel string) (_ []byte, ok bool) {
	// Check everything before growing dst: most references that fail
	// here have a space or a non-ASCII byte.
	q, ok := fastPathEnd(rel)
	if !ok {
		return dst, false
	}
	dst = grow(dst, len(prefix)+len(rel)+2)
	return appendFastPath(dst, prefix, pathStart, rel, q), true
}

// fastPathEnd returns where rel's path ends (its query or fragment
// starts), and whether rel is one fastPath handles: a path of plain bytes
// and a query and fragment in serialized form.
func fastPathEnd(rel string) (q int, ok bool) {
	for q < len(rel) && rel[q] != '?' && rel[q] != '#' {
		if c := rel[q]; c != '/' && !pathPlain[c] {
			return 0, false
		}
		q++
	}
	return q, plainQueryFragment(rel[q:])
}

// appendFastPath appends to buf what fastPath returns, rel's path ending
// at q (fastPathEnd); pathStart counts from prefix's start.
func appendFastPath(buf []byte, prefix string, pathStart int, rel string, q int) []byte {
	pathStart += len(buf)
	buf = append(buf, prefix...)
	i := 0
	for {
		buf = append(buf, '/')
		segStart := len(buf)
		start := i
		for i < q && rel[i] != '/' {
			i++
		}
		buf = append(buf, rel[start:i]...)
		slash := i < q
		seg := buf[segStart:]
		switch {
		case isDoubleDotSegment(seg):
			buf = buf[:segStart-1]
			if j := lastIndexByte(buf[pathStart:], '/'); j >= 0 {
				buf = buf[:pathStart+j]
			}
			if !slash {
				buf = append(buf, '/')
			}
		case isSingleDotSegment(seg):
			if slash {
				buf = buf[:segStart-1]
			} else {
				buf = buf[:segStart]
			}
		}
		if !slash {
			break
		}
		i++
	}
	return append(buf, rel[q:]...)
}

// appendReference is reference appending to dst, without a string of
// its own where a fast path applies (appendFast).
func (b *whatwgBase) appendReference(dst []byte, ref string, opts Options) ([]byte, error) {
	if b != nil && b.fast {
		if out, ok := b.appendFast(dst, ref); ok {
			return out, nil
		}
	}
	s, err := b.reference(ref, opts)
	if err != nil {
		return dst, err
	}
	return append(dst, s...), nil
}

// fastAbsolute returns ref itself when it is an http or https URL that the
// basic URL parser would serialize unchanged, or ref with the "/" of an
// empty path added (see scanAuthorityAndRest).
func fastAbsolute(ref string) (string, bool) {
	prefix, rest, slashAt, ok := absoluteParts(ref)
	switch {
	case !ok:
		return "", false
	case slashAt < 0:
		return ref, true
	}
	buf := appendJoin(nil, prefix, "", rest, slashAt)
	return unsafe.String(unsafe.SliceData(buf), len(buf)), true
}

// absoluteParts splits an http or https URL ref in serialized form (ok)
// into its scheme and "://" (prefix) and the rest, and says where the "/"
// of an empty path goes in rest (slashAt; -1: the path is not empty).
func absoluteParts(ref string) (prefix, rest string, slashAt int, ok bool) {
	var defPort string
	switch {
	case strings.HasPrefix(ref, "http://"):
		rest, defPort = ref[len("http://"):], "80"
	case strings.HasPrefix(ref, "https://"):
		rest, defPort = ref[len("https://"):], "443"
	default:
		return "", "", -1, false
	}
	slashAt, ok = scanAuthorityAndRest(rest, defPort)
	return ref[:len(ref)-len(rest)], rest, slashAt, ok
}

// grow returns dst with room for n more bytes, in one allocation when it
// has not (slices.Grow makes two under the race detector). Like append it
// at least doubles a buffer it grows, so appending many references to one
// buffer copies it O(log n) times, not once per reference (an empty dst
// gets exactly n: Reference's result string is all of it).
func grow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	g := make([]byte, len(dst), max(len(dst)+n, 2*cap(dst)))
	copy(g, dst)
	return g
}

// appendJoin appends a + b + rest to dst, with "/" inserted in rest at
// slashAt (none when slashAt < 0), growing dst once.
func appendJoin(dst []byte, a, b, rest string, slashAt int) []byte {
	dst = grow(dst, len(a)+len(b)+len(rest)+1)
	dst = append(dst, a...)
	dst = append(dst, b...)
	if slashAt < 0 {
		return append(dst, rest...)
	}
	dst = append(dst, rest[:slashAt]...)
	dst = append(dst, '/')
	return append(dst, rest[slashAt:]...)
}

// scanAuthorityAndRest reports whether rest, what follows "http://" or
// "https://" (whose default port is defPort), is in serialized form: a
// lowercase ASCII domain that does not end in a number (so is not an IPv4
// address), no credentials, no port or one that is not the default, a
// path without dot segments, and no byte to percent-encode. When the path
// is empty, slashAt is where the serializer's "/" goes; otherwise it is
// -1.
func scanAuthorityAndRest(rest, defPort string) (slashAt int, ok bool) {
	// The tables are locals: a global's load and nil check per byte were a
	// third of a loop.
	host, plain := hostPlain, pathPlain
	h := 0
	for h < len(rest) && host[rest[h]] {
		h++
	}
	if h == 0 || mayEndInNumber(rest[h-1]) && endsInNumber(rest[:h]) {
		return -1, false
	}
	if h < len(rest) && rest[h] == ':' {
		p := h + 1
		for p < len(rest) && isDigit(rest[p]) {
			p++
		}
		port := rest[h+1 : p]
		if port == "" || port[0] == '0' || len(port) > 5 || port == defPort || len(port) == 5 && port > "65535" {
			return -1, false
		}
		h = p
	}
	slashAt = -1
	if h == len(rest) || rest[h] == '?' || rest[h] == '#' {
		slashAt = h
	} else if rest[h] != '/' {
		return -1, false
	}
	// The path, a segment at a time: plain bytes, and no segment that is
	// "." or ".." in any of their spellings (which all start with "." or
	// "%" and are at most six bytes long).
	i := h
	for i < len(rest) && rest[i] == '/' {
		i++
		seg := i
		for i < len(rest) && plain[rest[i]] {
			i++
		}
		if n := i - seg; n > 0 && n <= 6 && (rest[seg] == '.' || rest[seg] == '%') {
			if s := rest[seg:i]; isSingleDotSegment(s) || isDoubleDotSegment(s) {
				return -1, false
			}
		}
	}
	if !plainQueryFragment(rest[i:]) {
		return -1, false
	}
	return slashAt, true
}

// hostPlain holds the bytes scanAuthorityAndRest takes in a host: lower
// case ASCII letters, digits, "-" and ".".
var hostPlain = func() *[256]bool {
	var p [256]bool
	for c := 0; c < 256; c++ {
		p[c] = 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.'
	}
	return &p
}()

// mayEndInNumber reports whether a host of hostPlain's bytes ending in c
// may end in a number (§3.5's ends-in-a-number checker): its last label
// is then decimal digits, or "0x" and hexadecimal digits, perhaps followed
// by a "."; any other last byte rules it out without looking further.
func mayEndInNumber(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || c == 'x' || c == '.'
}
