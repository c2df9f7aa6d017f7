// Package grammar checks a URL against the grammars of the standards that
// defined URLs, and says where it breaks and which production refused it,
// in that standard's own words.
//
// The grammars are the seed texts, one file each, with the RFC's rules
// and rule names unchanged:
//
//   - rfc1738: RFC 1738 §5, the scheme-specific BNF of http, ftp, file,
//     gopher, mailto, news, nntp, telnet, wais and prospero; any other
//     scheme is an otherurl.
//   - rfc1808: RFC 1808 §2.2 as published, relative and absolute URLs.
//   - rfc1808-draft: the same BNF in draft-ietf-uri-relative-url-05 §2.2,
//     whose unreserved includes national ("{", "}", "|", "\", "^", "~",
//     "[", "]", "`").
//   - rfc2396: RFC 2396 Appendix A, URI-reference.
//   - rfc3986: RFC 3986 Appendix A, URI-reference, with the core rules of
//     RFC 5234 Appendix B.1.
//
// The 1993 XBNF draft is left out: its text does not parse as a grammar
// (unbalanced quotes in login, "v$oid" in xpalpha, empty alternatives in
// safe, a production with no closing period), so any reading of it would
// be ours rather than the draft's, and RFC 1738 superseded it.
//
// Readings the RFC texts need, each stated in its grammar file: quoted
// strings match either case (RFC 822 §3.4.7, RFC 5234 §2.3); RFC 1738's
// 1*[ x ] is a repetition group, 1*( x ); RFC 1738 reads a URL by its
// scheme's rule, so "http://a:x/" is not an otherurl; and gopherurl's
// bare / is the literal "/".
//
// Each grammar is interpreted by one matcher: the rules are expanded into
// a nondeterministic automaton (none of the seed grammars is recursive)
// that follows every reading of the input at once, so the work is linear
// in the input's length and cannot be made exponential by a hostile one.
package grammar
