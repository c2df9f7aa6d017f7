package resolve

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/text/encoding"
)

// This file is the URL Standard's §4 "URLs": the basic URL parser (§4.4)
// with a base, and the URL serializer (§4.5). The parser writes the URL's
// serialization into one buffer as it goes, component after component,
// and remembers where each component starts; a URL's components never
// need to be moved, except for the "/." of §4.5 step 3, which is inserted
// at the end.

// Parsing failures, named after the Standard's validation errors.
var (
	errHostMissing    = errors.New("host-missing: the URL has credentials or a port but no host")
	errPortOutOfRange = errors.New("port-out-of-range: the port is greater than 65535")
	errPortInvalid    = errors.New("port-invalid: the port is not a number")
)

// WebURL is a URL as the URL Standard's basic URL parser produces it: the
// record of §4.1, kept as its serialization (§4.5) and the boundaries of
// its components in it. The accessors are named after, and return what,
// the Standard's URL class getters return (§6.1). The zero value is not a
// URL; get one from [ParseWebURL].
type WebURL struct {
	href       string
	schemeEnd  int // href[schemeEnd] is the ":" after the scheme
	userEnd    int // username is href[schemeEnd+3:userEnd]
	passEnd    int // password is href[userEnd+1:passEnd] when passEnd > userEnd
	hostStart  int // host is href[hostStart:hostEnd] when hasHost
	hostEnd    int
	authEnd    int // end of the port; where "/." or the path begins
	pathStart  int // the path is href[pathStart:pathEnd()]
	queryStart int // index of "?" or -1 when the query is null
	fragStart  int // index of "#" or -1 when the fragment is null
	port       int // -1 when the port is null
	hasHost    bool
	opaque     bool // the path is opaque (§4.1 "has an opaque path")
	special    bool
}

// ParseWebURL runs the URL Standard's basic URL parser (§4.4) on input,
// with base as the base URL (nil for none), and returns the URL. The query
// is encoded in opts.QueryEncoding for special schemes other than ws and
// wss, as the HTML Standard's document-relative parsing does.
//
// Input is taken as UTF-8; invalid bytes are read as U+FFFD, as a browser
// reads lone surrogates. A failure is an *Error whose Err names the
// Standard's validation error, or is ErrNoBase or ErrOpaqueBase for a
// relative input with no base or with a base that has an opaque path.
func ParseWebURL(input string, base *WebURL, opts Options) (*WebURL, error) {
	u, err := parseWeb(input, base, opts.QueryEncoding)
	if err != nil {
		e := &Error{Op: "parse", Spec: WHATWG, Ref: input, Err: err}
		if base != nil {
			e.Base = base.href
		}
		return nil, e
	}
	return &u, nil
}

// Href returns the serialized URL (§4.5).
func (u *WebURL) Href() string { return u.href }

// String returns the serialized URL, as Href.
func (u *WebURL) String() string { return u.href }

// Protocol returns the scheme followed by ":".
func (u *WebURL) Protocol() string {
	if u.href == "" {
		return "" // the zero value
	}
	return u.href[:u.schemeEnd+1]
}

// Scheme returns the scheme, in lowercase.
func (u *WebURL) Scheme() string { return u.href[:u.schemeEnd] }

// Username returns the username, percent-encoded.
func (u *WebURL) Username() string {
	if !u.hasHost {
		return ""
	}
	return u.href[u.schemeEnd+3 : u.userEnd]
}

// Password returns the password, percent-encoded.
func (u *WebURL) Password() string {
	if u.passEnd > u.userEnd {
		return u.href[u.userEnd+1 : u.passEnd]
	}
	return ""
}

// Host returns the serialized host and, if there is one, ":" and the port.
func (u *WebURL) Host() string { return u.href[u.hostStart:u.authEnd] }

// Hostname returns the serialized host: a domain, an IPv4 address, an
// IPv6 address in brackets, an opaque host, or "".
func (u *WebURL) Hostname() string { return u.href[u.hostStart:u.hostEnd] }

// Port returns the port in decimal, or "" when it is null (which includes
// the scheme's default port).
func (u *WebURL) Port() string {
	if u.port < 0 || u.href == "" {
		return ""
	}
	return u.href[u.hostEnd+1 : u.authEnd]
}

// Pathname returns the serialized path: an opaque path, or "/" and each
// segment.
func (u *WebURL) Pathname() string { return u.href[u.pathStart:u.pathEnd()] }

// Search returns "?" and the query, or "" when the query is null or empty.
func (u *WebURL) Search() string {
	if u.queryStart < 0 || u.queryEnd()-u.queryStart == 1 {
		return ""
	}
	return u.href[u.queryStart:u.queryEnd()]
}

// Hash returns "#" and the fragment, or "" when the fragment is null or
// empty.
func (u *WebURL) Hash() string {
	if u.fragStart < 0 || len(u.href)-u.fragStart == 1 {
		return ""
	}
	return u.href[u.fragStart:]
}

// Origin returns the ASCII serialization of the URL's origin (HTML
// Standard §7.1.1; URL Standard §4.7): scheme://host[:port] for http,
// https, ws, wss and ftp; the path URL's origin for blob; "null" for every
// other scheme, whose origin is opaque.
func (u *WebURL) Origin() string {
	switch u.Scheme() {
	case "http", "https", "ws", "wss", "ftp":
		return u.href[:u.schemeEnd+3] + u.href[u.hostStart:u.authEnd]
	case "blob":
		if p, err := parseWeb(u.Pathname(), nil, nil); err == nil {
			if s := p.Scheme(); s == "http" || s == "https" {
				return p.Origin()
			}
		}
	}
	return "null"
}

func (u *WebURL) pathEnd() int {
	switch {
	case u.queryStart >= 0:
		return u.queryStart
	case u.fragStart >= 0:
		return u.fragStart
	}
	return len(u.href)
}

func (u *WebURL) queryEnd() int {
	if u.fragStart >= 0 {
		return u.fragStart
	}
	return len(u.href)
}

// hrefNoFragment is the serialization with "exclude fragment" (§4.5).
func (u *WebURL) hrefNoFragment() string {
	if u.fragStart >= 0 {
		return u.href[:u.fragStart]
	}
	return u.href
}

// whatwgBase is a base URL parsed by the URL Standard's basic URL parser.
// A nil *whatwgBase means "no base". The fast paths need nothing from the
// Options: they take only references whose query is ASCII without the
// controls ISO-2022-JP rejects, which every encoding writes as ASCII.
type whatwgBase struct {
	url WebURL
	// fast is set when references may take the fast paths of
	// whatwg_fast.go: the base is an http or https URL.
	fast bool
	dir  string // href up to the last "/" of the path: the shortened path
}

func parseWHATWGBase(base string, opts Options) (*whatwgBase, error) {
	u, err := parseWeb(base, nil, opts.QueryEncoding)
	if err != nil {
		return nil, err
	}
	b := &whatwgBase{url: u}
	if s := u.Scheme(); s == "http" || s == "https" {
		b.fast = true
		b.dir = u.href[:u.pathStart+strings.LastIndexByte(u.Pathname(), '/')]
	}
	return b, nil
}

func (b *whatwgBase) reference(ref string, opts Options) (string, error) {
	if b == nil {
		if s, ok := fastAbsolute(ref); ok {
			return s, nil
		}
		u, err := parseWeb(ref, nil, opts.QueryEncoding)
		return u.href, err
	}
	if b.fast {
		if s, ok := b.fastReference(ref); ok {
			return s, nil
		}
	}
	u, err := parseWeb(ref, &b.url, opts.QueryEncoding)
	return u.href, err
}

// The parser's states (§4.4), less those the parser runs as a single step.
type webState int

const (
	stNoScheme webState = iota
	stSpecialRelativeOrAuthority
	stPathOrAuthority
	stRelative
	stRelativeSlash
	stSpecialAuthoritySlashes
	stSpecialAuthorityIgnoreSlashes
	stAuthority // with the host and port states
	stFile
	stFileSlash
	stFileHost
	stPathStart
	stPath        // the path state, at the start of a segment
	stPathSegment // the path state, within a segment already begun
	stOpaquePath
	stQuery
	stFragment
	stDone
)

// webParser holds the URL being built: its serialization in b and the
// boundaries in the embedded WebURL (whose href is set at the end).
type webParser struct {
	WebURL
	in       string
	base     *WebURL
	enc      encoding.Encoding
	b        []byte
	segStart int // start of the path segment being parsed
}

const eof = -1

func (p *webParser) at(i int) int {
	if i < len(p.in) {
		return int(p.in[i])
	}
	return eof
}

// trimControlAndSpace removes leading and trailing C0 control or space
// (§4.4 step 1.2).
func trimControlAndSpace(s string) string {
	i, j := 0, len(s)
	for i < j && s[i] <= ' ' {
		i++
	}
	for j > i && s[j-1] <= ' ' {
		j--
	}
	return s[i:j]
}

// parseWeb is the basic URL parser (§4.4) without a url or state override.
func parseWeb(input string, base *WebURL, enc encoding.Encoding) (WebURL, error) {
	input = trimControlAndSpace(input)
	n := len(input) + 8
	if base != nil {
		n += len(base.href)
	}
	var b []byte
	if strings.ContainsAny(input, "\t\n\r") {
		// §4.4 step 3 removes them. The input without them is kept past
		// the output buffer's capacity, in the same allocation: appends
		// never reach it (they move the output elsewhere first), and the
		// result stays the only allocation (a URL value spread over lines
		// cost three).
		all := make([]byte, n+len(input))
		m := n
		for i := 0; i < len(input); i++ {
			if c := input[i]; c != '\t' && c != '\n' && c != '\r' {
				all[m] = c
				m++
			}
		}
		input = unsafe.String(&all[n], m-n)
		b = all[:0:n]
	} else {
		b = make([]byte, 0, n)
	}
	if !utf8.ValidString(input) {
		input = strings.ToValidUTF8(input, "\uFFFD")
	}
	p := webParser{in: input, base: base, enc: enc, b: b}
	p.port, p.queryStart, p.fragStart = -1, -1, -1
	if err := p.parse(); err != nil {
		return WebURL{}, err
	}
	p.finish()
	return p.WebURL, nil
}

// specialPort returns whether scheme is special (§4.2) and its default
// port (-1 for file, which has none).
func specialPort(scheme string) (bool, int) {
	switch scheme {
	case "http", "ws":
		return true, 80
	case "https", "wss":
		return true, 443
	case "ftp":
		return true, 21
	case "file":
		return true, -1
	}
	return false, -1
}

func (p *webParser) scheme() string { return string(p.b[:p.schemeEnd]) }

func (p *webParser) parse() error {
	s := p.in
	i := 0
	state := stNoScheme
	// The scheme start and scheme states.
	if n := schemeEnd(s); n > 0 {
		for j := 0; j < n; j++ {
			c := s[j]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			p.b = append(p.b, c)
		}
		p.schemeEnd = n
		p.b = append(p.b, ':')
		scheme := p.b[:n]
		p.special, _ = specialPort(string(scheme))
		i = n + 1
		switch {
		case string(scheme) == "file":
			state = stFile
		case p.special && p.base != nil && p.base.Scheme() == string(scheme):
			state = stSpecialRelativeOrAuthority
		case p.special:
			state = stSpecialAuthoritySlashes
		case p.at(i) == '/':
			state = stPathOrAuthority
			i++
		default:
			p.opaque = true
			state = stOpaquePath
		}
	}
	for {
		c := p.at(i)
		switch state {
		case stNoScheme:
			switch {
			case p.base == nil:
				return ErrNoBase // missing-scheme-non-relative-URL
			case p.base.opaque && c != '#':
				return ErrOpaqueBase // missing-scheme-non-relative-URL
			case p.base.opaque:
				state = p.fromBase(c)
				i++
			case p.base.Scheme() != "file":
				state = stRelative
			default:
				state = stFile
			}

		case stSpecialRelativeOrAuthority:
			if c == '/' && p.at(i+1) == '/' {
				state = stSpecialAuthorityIgnoreSlashes
				i += 2
			} else {
				state = stRelative
			}

		case stPathOrAuthority:
			if c == '/' {
				state = stAuthority
				i++
			} else {
				p.pathStart = len(p.b)
				state = stPath
			}

		case stRelative:
			switch {
			case c == '/' || p.base.special && c == '\\':
				p.copyBase(copyScheme)
				state = stRelativeSlash
				i++
			case c == '?' || c == '#' || c == eof:
				state = p.fromBase(c)
				i++
			default:
				p.copyBase(copyPath)
				p.shortenPath()
				state = stPath
			}

		case stRelativeSlash:
			switch {
			case p.special && (c == '/' || c == '\\'):
				state = stSpecialAuthorityIgnoreSlashes
				i++
			case c == '/':
				state = stAuthority
				i++
			default:
				p.copyBase(copyAuthority)
				state = stPath
			}

		case stSpecialAuthoritySlashes:
			if c == '/' && p.at(i+1) == '/' {
				i += 2
			}
			state = stSpecialAuthorityIgnoreSlashes

		case stSpecialAuthorityIgnoreSlashes:
			for c := p.at(i); c == '/' || c == '\\'; c = p.at(i) {
				i++
			}
			state = stAuthority

		case stAuthority:
			end, err := p.parseAuthority(i)
			if err != nil {
				return err
			}
			i = end
			state = stPathStart

		case stFile:
			if p.schemeEnd == 0 {
				p.b = append(p.b, "file:"...)
				p.schemeEnd, p.special = 4, true
			}
			switch {
			case c == '/' || c == '\\':
				state = stFileSlash
				i++
			case p.base != nil && p.base.Scheme() == "file":
				switch {
				case c == '?' || c == '#' || c == eof:
					state = p.fromBase(c)
					i++
				default:
					p.copyBase(copyPath)
					if !startsWithWindowsDriveLetter(s[i:]) {
						p.shortenPath()
					} else {
						p.b = p.b[:p.pathStart] // url's path = « »
					}
					state = stPath
				}
			default:
				p.emptyFileHost()
				state = stPath
			}

		case stFileSlash:
			if c == '/' || c == '\\' {
				state = stFileHost
				i++
				break
			}
			if p.base != nil && p.base.Scheme() == "file" {
				p.b = append(p.b, "//"...)
				p.hasHost = true
				p.hostStart = len(p.b)
				p.b = append(p.b, p.base.Hostname()...)
				p.hostEnd, p.authEnd, p.pathStart = len(p.b), len(p.b), len(p.b)
				p.userEnd, p.passEnd = p.schemeEnd+3, p.schemeEnd+3
				if bp := p.base.Pathname(); !startsWithWindowsDriveLetter(s[i:]) && len(bp) >= 3 && isNormalizedDriveLetter(bp[1:3]) && (len(bp) == 3 || bp[3] == '/') {
					p.b = append(p.b, bp[:3]...)
				}
			} else {
				p.emptyFileHost()
			}
			state = stPath

		case stFileHost:
			end := i
			for end < len(s) && !strings.ContainsRune("/\\?#", rune(s[end])) {
				end++
			}
			buf := s[i:end]
			i = end
			p.emptyFileHost()
			switch {
			case isWindowsDriveLetter(buf):
				// file-invalid-Windows-drive-letter-host: the "host" is
				// the path's first segment.
				p.b = append(p.b, '/')
				p.segStart = len(p.b)
				p.b = append(p.b, buf...)
				state = stPathSegment
			case buf == "":
				state = stPathStart
			default:
				b, err := appendHost(p.b, buf, true)
				if err != nil {
					return err
				}
				if string(b[p.hostStart:]) == "localhost" {
					b = b[:p.hostStart]
				}
				p.b = b
				p.hostEnd, p.authEnd, p.pathStart = len(p.b), len(p.b), len(p.b)
				state = stPathStart
			}

		case stPathStart:
			p.pathStart = len(p.b)
			switch {
			case p.special:
				if c == '/' || c == '\\' {
					i++
				}
				state = stPath
			case c == '?':
				p.startQuery()
				state = stQuery
				i++
			case c == '#':
				p.startFragment()
				state = stFragment
				i++
			case c != eof:
				if c == '/' {
					i++
				}
				state = stPath
			default:
				state = stDone
			}

		case stPath:
			p.b = append(p.b, '/')
			p.segStart = len(p.b)
			state = stPathSegment

		case stPathSegment:
			i, state = p.parsePathSegment(i)

		case stOpaquePath:
			p.pathStart, p.authEnd = len(p.b), len(p.b)
			for ; i < len(s); i++ {
				c := s[i]
				if c == '?' || c == '#' {
					break
				}
				if c == ' ' {
					if next := p.at(i + 1); next == '?' || next == '#' {
						p.b = append(p.b, "%20"...)
					} else {
						p.b = append(p.b, ' ')
					}
					continue
				}
				if c0ControlSet[c] {
					p.b = append(p.b, '%', upperHex[c>>4], upperHex[c&15])
				} else {
					p.b = append(p.b, c)
				}
			}
			switch p.at(i) {
			case '?':
				p.startQuery()
				state = stQuery
				i++
			case '#':
				p.startFragment()
				state = stFragment
				i++
			default:
				state = stDone
			}

		case stQuery:
			end := strings.IndexByte(s[i:], '#')
			if end < 0 {
				end = len(s)
			} else {
				end += i
			}
			set := querySet
			if p.special {
				set = specialQuerySet
			}
			p.b = appendQuery(p.b, s[i:end], set, queryEncoding(p.enc, p.special, p.scheme()))
			i = end
			if i < len(s) {
				p.startFragment()
				i++
				state = stFragment
			} else {
				state = stDone
			}

		case stFragment:
			p.b = appendEncoded(p.b, s[i:], fragmentSet)
			state = stDone

		case stDone:
			return nil
		}
	}
}

// parseAuthority runs the authority, host and port states on the
// authority that starts at s[i], appending "//", the credentials, the host
// and the port, and returns where the authority ends.
func (p *webParser) parseAuthority(i int) (int, error) {
	s := p.in
	end := i
	for end < len(s) {
		c := s[end]
		if c == '/' || c == '?' || c == '#' || p.special && c == '\\' {
			break
		}
		end++
	}
	auth := s[i:end]
	p.b = append(p.b, "//"...)
	p.hasHost = true
	p.userEnd = len(p.b)
	p.passEnd = p.userEnd
	// The authority state: every "@" but the last is part of the
	// credentials (and percent-encoded there), the first ":" before the
	// last "@" starts the password.
	if at := strings.LastIndexByte(auth, '@'); at >= 0 {
		user, pass := auth[:at], ""
		hasPass := false
		if colon := strings.IndexByte(user, ':'); colon >= 0 {
			user, pass, hasPass = user[:colon], user[colon+1:], true
		}
		p.b = appendEncoded(p.b, user, userinfoSet)
		p.userEnd = len(p.b)
		if hasPass && pass != "" {
			p.b = append(p.b, ':')
			p.b = appendEncoded(p.b, pass, userinfoSet)
		}
		p.passEnd = len(p.b)
		if p.passEnd > p.schemeEnd+3 {
			p.b = append(p.b, '@')
		}
		auth = auth[at+1:]
		if auth == "" {
			return 0, errHostMissing
		}
	}
	// The host state: a ":" outside brackets starts the port.
	host, port, hasPort := auth, "", false
	inBrackets := false
	for j := 0; j < len(auth); j++ {
		switch auth[j] {
		case '[':
			inBrackets = true
		case ']':
			inBrackets = false
		case ':':
			if !inBrackets {
				host, port, hasPort = auth[:j], auth[j+1:], true
				j = len(auth)
			}
		}
	}
	if host == "" && (hasPort || p.special) {
		return 0, errHostMissing
	}
	p.hostStart = len(p.b)
	b, err := appendHost(p.b, host, p.special)
	if err != nil {
		return 0, err
	}
	p.b = b
	p.hostEnd = len(p.b)
	// The port state; an empty port is a null one.
	if port != "" {
		n := 0
		for j := 0; j < len(port); j++ {
			if !isDigit(port[j]) {
				return 0, errPortInvalid
			}
			n = n*10 + int(port[j]-'0')
			if n > 65535 {
				return 0, errPortOutOfRange
			}
		}
		if _, def := specialPort(p.scheme()); n != def {
			p.port = n
			p.b = append(p.b, ':')
			p.b = strconv.AppendInt(p.b, int64(n), 10)
		}
	}
	p.authEnd = len(p.b)
	return end, nil
}

// emptyFileHost gives a file URL the empty host of the file state.
func (p *webParser) emptyFileHost() {
	p.b = append(p.b[:p.schemeEnd+1], "//"...)
	p.hasHost = true
	p.userEnd, p.passEnd = len(p.b), len(p.b)
	p.hostStart, p.hostEnd, p.authEnd, p.pathStart = len(p.b), len(p.b), len(p.b), len(p.b)
}

// parsePathSegment runs the path state from s[i], within the segment that
// starts at p.segStart, until the path ends, and returns where the input
// stopped and the next state.
func (p *webParser) parsePathSegment(i int) (int, webState) {
	s := p.in
	for {
		// Copy the bytes of the segment, percent-encoding those in the
		// path percent-encode set.
		start := i
		for i < len(s) {
			c := s[i]
			if c == '/' || c == '?' || c == '#' || c == '\\' && p.special {
				break
			}
			if pathSet[c] {
				p.b = append(p.b, s[start:i]...)
				p.b = append(p.b, '%', upperHex[c>>4], upperHex[c&15])
				start = i + 1
			}
			i++
		}
		p.b = append(p.b, s[start:i]...)
		c := p.at(i)
		slash := c == '/' || c == '\\' && p.special
		p.endSegment(slash)
		switch c {
		case '?':
			p.startQuery()
			return i + 1, stQuery
		case '#':
			p.startFragment()
			return i + 1, stFragment
		case eof:
			return i, stDone
		}
		i++
		p.b = append(p.b, '/')
		p.segStart = len(p.b)
	}
}

// endSegment ends the path segment p.b[p.segStart:] as the path state
// does when it meets a "/" (slash) or the end of the path.
func (p *webParser) endSegment(slash bool) {
	seg := p.b[p.segStart:]
	switch {
	case isDoubleDotSegment(seg):
		p.b = p.b[:p.segStart-1]
		p.shortenPath()
		if !slash {
			p.b = append(p.b, '/')
		}
	case isSingleDotSegment(seg):
		if slash {
			p.b = p.b[:p.segStart-1]
		} else {
			p.b = p.b[:p.segStart]
		}
	case p.schemeEnd == 4 && p.segStart-1 == p.pathStart && len(seg) == 2 && isAlpha(seg[0]) && (seg[1] == ':' || seg[1] == '|') && p.scheme() == "file":
		// A Windows drive letter as the first segment of a file URL is
		// normalized to "C:".
		seg[1] = ':'
	}
}

// shortenPath is "shorten a URL's path" (§4.1): remove the last segment,
// unless the URL is a file URL whose only segment is a normalized Windows
// drive letter.
func (p *webParser) shortenPath() {
	path := p.b[p.pathStart:]
	if len(path) == 3 && isNormalizedDriveLetter(string(path[1:])) && p.scheme() == "file" {
		return
	}
	if j := lastIndexByte(path, '/'); j >= 0 {
		p.b = p.b[:p.pathStart+j]
	}
}

// The parts of the base a relative URL copies.
const (
	copyScheme    = iota // the scheme only
	copyAuthority        // and credentials, host and port
	copyPath             // and the path
	copyQuery            // and the query
)

// startQuery writes the "?" that starts the query and marks where it is.
func (p *webParser) startQuery() {
	p.queryStart = len(p.b)
	p.b = append(p.b, '?')
}

// startFragment writes the "#" that starts the fragment and marks where
// it is.
func (p *webParser) startFragment() {
	p.fragStart = len(p.b)
	p.b = append(p.b, '#')
}

// fromBase is what the no-scheme, relative and file states do with a
// base when the input is empty or starts with "?" or "#" (c): the URL is
// the base up to its path, then the input's query, or up to its query,
// then the input's fragment or nothing. It returns the next state.
func (p *webParser) fromBase(c int) webState {
	switch c {
	case '?':
		p.copyBase(copyPath)
		p.startQuery()
		return stQuery
	case '#':
		p.copyBase(copyQuery)
		p.startFragment()
		return stFragment
	}
	p.copyBase(copyQuery)
	return stDone
}

// copyBase starts the URL over as a copy of the base's components up to
// and including what.
func (p *webParser) copyBase(what int) {
	base := p.base
	if what == copyScheme {
		p.b = append(p.b[:0], base.href[:base.schemeEnd+1]...)
		p.schemeEnd, p.special = base.schemeEnd, base.special
		return
	}
	p.b = append(p.b[:0], base.href[:base.authEnd]...)
	p.schemeEnd, p.special = base.schemeEnd, base.special
	p.hasHost, p.opaque = base.hasHost, base.opaque
	p.userEnd, p.passEnd, p.hostStart, p.hostEnd = base.userEnd, base.passEnd, base.hostStart, base.hostEnd
	p.port, p.authEnd, p.pathStart = base.port, base.authEnd, base.authEnd
	if what >= copyPath {
		p.b = append(p.b, base.Pathname()...)
	}
	if what >= copyQuery && base.queryStart >= 0 {
		p.queryStart = len(p.b)
		p.b = append(p.b, base.href[base.queryStart:base.queryEnd()]...)
	}
}

// finish completes the serialization (§4.5): a URL without a host whose
// path starts with an empty segment gets "/." before the path, so that
// the path does not read as an authority when parsed again.
func (p *webParser) finish() {
	if !p.hasHost {
		p.hostStart, p.hostEnd, p.authEnd = p.schemeEnd+1, p.schemeEnd+1, p.pathStart
		p.userEnd, p.passEnd = p.schemeEnd+1, p.schemeEnd+1
		if !p.opaque && len(p.b) >= p.pathStart+2 && p.b[p.pathStart] == '/' && p.b[p.pathStart+1] == '/' {
			p.b = append(p.b, 0, 0)
			copy(p.b[p.pathStart+2:], p.b[p.pathStart:])
			p.b[p.pathStart], p.b[p.pathStart+1] = '/', '.'
			p.pathStart += 2
			if p.queryStart >= 0 {
				p.queryStart += 2
			}
			if p.fragStart >= 0 {
				p.fragStart += 2
			}
		}
	}
	p.href = unsafe.String(unsafe.SliceData(p.b), len(p.b))
}

// isWindowsDriveLetter: an ASCII alpha followed by ":" or "|" (§4.2).
func isWindowsDriveLetter(s string) bool {
	return len(s) == 2 && isAlpha(s[0]) && (s[1] == ':' || s[1] == '|')
}

// isNormalizedDriveLetter: an ASCII alpha followed by ":" (§4.2).
func isNormalizedDriveLetter(s string) bool {
	return len(s) == 2 && isAlpha(s[0]) && s[1] == ':'
}

// startsWithWindowsDriveLetter (§4.2): a drive letter followed by the end
// or by "/", "\", "?" or "#".
func startsWithWindowsDriveLetter(s string) bool {
	if len(s) < 2 || !isWindowsDriveLetter(s[:2]) {
		return false
	}
	if len(s) == 2 {
		return true
	}
	switch s[2] {
	case '/', '\\', '?', '#':
		return true
	}
	return false
}

// isSingleDotSegment: "." or "%2e", in any case (§4.2).
func isSingleDotSegment[T string | []byte](seg T) bool {
	return len(seg) == 1 && seg[0] == '.' || len(seg) == 3 && isPercent2e(seg)
}

// isDoubleDotSegment: "..", ".%2e", "%2e." or "%2e%2e", in any case (§4.2).
func isDoubleDotSegment[T string | []byte](seg T) bool {
	switch len(seg) {
	case 2:
		return seg[0] == '.' && seg[1] == '.'
	case 4:
		return seg[0] == '.' && isPercent2e(seg[1:]) || isPercent2e(seg) && seg[3] == '.'
	case 6:
		return isPercent2e(seg) && isPercent2e(seg[3:])
	}
	return false
}

func isPercent2e[T string | []byte](b T) bool {
	return len(b) >= 3 && b[0] == '%' && b[1] == '2' && (b[2] == 'e' || b[2] == 'E')
}
