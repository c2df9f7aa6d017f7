// Package resolve parses URLs and resolves relative references against a
// base URL, by the rules of one standard at a time, chosen by the caller:
//
//   - [RFC1808]: the relative-URL draft that became RFC 1808
//     (draft-ietf-uri-relative-url-05). [Parse] is its §2.4 parser (six
//     components: fragment, scheme, net_loc, query, params, path), and
//     rfc1808.go is its §4, steps 1 to 7, in order. The draft's §5.1 and
//     §5.2 examples pass byte for byte, and so does the published RFC's
//     "../../../../g".
//   - [RFC2396]: RFC 2396 §5.2, whose results are its Appendix C (for
//     example ";x" gives "http://a/b/c/;x" and "?y" "http://a/b/c/?y").
//   - [RFC3986]: RFC 3986 §5.2.1–§5.2.4 and §5.3 (remove_dot_segments,
//     merge, recomposition), strict unless [Options.BackwardCompatible].
//   - [WHATWG]: the URL Standard's basic URL parser with a base (§4.4) and
//     its serializer (§4.5), as browsers resolve links. [WebURL] and
//     [ParseWebURL] expose the parsed URL and its component getters;
//     [Options.QueryEncoding] encodes the query in the document's
//     encoding, as the HTML Standard does.
//
// A [Resolver] holds a base parsed once; [Reference] is the one-off form.
// [Resolver.Relativize] is the inverse: the shortest reference that
// resolves to a given target. [Normalize] applies RFC 3986 §6.2.2 and
// §6.2.3 and opt-in crawler normalizations for de-duplication. A [Scope]
// is a tree's root URL as a resolver writes it, so that the links resolved
// in its documents compare with it as strings; [SameOrigin] compares the
// scheme and host of two URLs (the draft's §2.4 parse). Validation
// against the seed grammars lives in the subpackage grammar.
//
// # Where the standards leave room
//
//   - The draft's step 6c lets ".." cancel ".." when read literally; the
//     RFC1808 mode follows the published RFC 1808 ("a complete path
//     segment not equal to '..'"). See removeDotSegments1808.
//   - The draft treats an empty query, params or fragment as absent, so in
//     RFC1808 mode "#" and "?" are empty references and give the whole
//     base; RFC 3986 keeps "?" and "#" apart from their absence.
//   - A base that does not follow the generic syntax (the draft's §2.3:
//     mailto, news, telnet, and any base whose scheme is followed by
//     neither "//" nor "/") cannot carry relative references: resolving one
//     fails with [ErrOpaqueBase] in every RFC mode, rather than producing
//     "mailto:///x" or "mailto:x". A fragment alone still resolves.
//   - An empty base is the draft's §3.4 default: relative references then
//     fail with [ErrNoBase], never silently.
//   - RFC 2396 writes "(current document)" for "" and "#s"; this package
//     gives the base without its fragment, with the reference's fragment.
//   - A base such as "http://a" has no path; every mode merges a relative
//     path onto it as "/" + path, as RFC 3986 §5.2.3 says.
package resolve
