package resolve

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// This file is the URL Standard's §3 "Hosts (domains and IP addresses)":
// the host parser (§3.5), domain to ASCII (§3.3), the IPv4 and IPv6
// parsers and serializers (§3.5, §3.6) and the opaque-host parser.

// Host parsing failures, named after the Standard's validation errors.
var (
	errHostInvalidCodePoint   = errors.New("host-invalid-code-point: the host contains a forbidden host code point")
	errDomainInvalidCodePoint = errors.New("domain-invalid-code-point: the domain contains a forbidden domain code point")
	errDomainToASCII          = errors.New("domain-to-ASCII: UTS #46 processing of the domain failed")
	errLabelTooLong           = errors.New("domain-to-ASCII: a label to convert with Punycode is longer than " + strconv.Itoa(maxIDNALabel) + " bytes")
	errIPv4TooManyParts       = errors.New("IPv4-too-many-parts: an IPv4 address has more than four parts")
	errIPv4NonNumericPart     = errors.New("IPv4-non-numeric-part: an IPv4 address part is not a number")
	errIPv4OutOfRange         = errors.New("IPv4-out-of-range-part: an IPv4 address part is too large")
	errIPv6Unclosed           = errors.New("IPv6-unclosed: an IPv6 address lacks its closing \"]\"")
	errIPv6Invalid            = errors.New("IPv6-invalid: the IPv6 address is malformed")
)

// domainProfile is UTS #46 ToASCII with the parameters of the Standard's
// "domain to ASCII" when beStrict is false: CheckHyphens=false,
// CheckBidi=true, CheckJoiners=true, UseSTD3ASCIIRules=false,
// Transitional_Processing=false, VerifyDnsLength=false. Options apply in
// order, so the ones after MapForLookup undo its strict defaults.
var domainProfile = idna.New(
	idna.MapForLookup(),
	idna.BidiRule(),
	idna.Transitional(false),
	idna.CheckJoiners(true),
	idna.CheckHyphens(false),
	idna.StrictDomainName(false),
	idna.VerifyDNSLength(false),
)

// appendHost runs the host parser (§3.5) on input and appends the
// serialized host (§3.6) to b. special tells a special URL's domain from a
// non-special URL's opaque host.
func appendHost(b []byte, input string, special bool) ([]byte, error) {
	if strings.HasPrefix(input, "[") {
		if !strings.HasSuffix(input, "]") {
			return b, errIPv6Unclosed
		}
		addr, err := parseIPv6(input[1 : len(input)-1])
		if err != nil {
			return b, err
		}
		b = append(b, '[')
		b = appendIPv6(b, &addr)
		return append(b, ']'), nil
	}
	if !special {
		return appendOpaqueHost(b, input)
	}
	start := len(b)
	b, err := appendDomain(b, input)
	if err != nil {
		return b[:start], err
	}
	// "If asciiDomain ends in a number, then return the result of IPv4
	// parsing asciiDomain."
	if endsInNumber(b[start:]) {
		addr, err := parseIPv4(string(b[start:]))
		if err != nil {
			return b[:start], err
		}
		return appendIPv4(b[:start], addr), nil
	}
	return b, nil
}

// maxIDNALabel bounds the labels domain to ASCII gives to Punycode, whose
// time grows with the product of a label's length and its number of
// distinct code points (one 64 KiB label of CJK took 5 s). A label that can
// be a DNS label, at most 63 bytes as ASCII, is at most 252 bytes of UTF-8
// unless it holds code points UTS #46 ignores. The Standard sets no bound:
// this is the one place where this package fails a URL a browser accepts.
const maxIDNALabel = 255

// hasLongIDNALabel reports whether a label of domain that UTS #46 would
// encode or decode with Punycode (one with a non-ASCII byte, or an "xn--"
// label) is longer than maxIDNALabel bytes. Labels end where UTS #46 ends
// them: at "." and at U+3002, U+FF0E and U+FF61, which it maps to ".".
func hasLongIDNALabel(domain string) bool {
	for domain != "" {
		end, next := len(domain), len(domain)
		for i, r := range domain {
			if r == '.' || r == '\u3002' || r == '\uFF0E' || r == '\uFF61' {
				end, next = i, i+utf8.RuneLen(r)
				break
			}
		}
		label := domain[:end]
		if len(label) > maxIDNALabel && (!isASCII(label) || len(label) >= 4 && strings.EqualFold(label[:4], "xn--")) {
			return true
		}
		domain = domain[next:]
	}
	return false
}

// appendDomain appends the result of "domain to ASCII" (beStrict false)
// of the percent-decoded input to b.
func appendDomain(b []byte, input string) ([]byte, error) {
	domain := input
	if strings.IndexByte(input, '%') >= 0 {
		domain = string(percentDecode(nil, input))
		// "UTF-8 decode without BOM": an invalid sequence becomes U+FFFD,
		// which UTS #46 disallows, so the domain fails either way.
		if !utf8.ValidString(domain) {
			return b, errDomainToASCII
		}
	}
	start := len(b)
	if isASCII(domain) {
		// An ASCII domain is only lowercased: the Standard no longer has
		// UTS #46 check its "xn--" labels (WPT toascii.json: "xn--a" and
		// "xn--1ug.example" stay as they are, "xn--a.\u00df" fails).
		for i := 0; i < len(domain); i++ {
			c := domain[i]
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
		}
	} else {
		if hasLongIDNALabel(domain) {
			return b, errLabelTooLong
		}
		ascii, err := domainProfile.ToASCII(domain)
		if err != nil {
			return b, errDomainToASCII
		}
		b = append(b, ascii...)
	}
	if len(b) == start {
		return b, errDomainToASCII
	}
	for _, c := range b[start:] {
		if forbiddenDomain(c) {
			return b[:start], errDomainInvalidCodePoint
		}
	}
	return b, nil
}

// forbiddenHost reports whether c is a forbidden host code point (§3.2).
func forbiddenHost(c byte) bool {
	switch c {
	case 0, '\t', '\n', '\r', ' ', '#', '/', ':', '<', '>', '?', '@', '[', '\\', ']', '^', '|':
		return true
	}
	return false
}

// forbiddenDomain reports whether c is a forbidden domain code point: a
// forbidden host code point, a C0 control, "%" or U+007F DELETE (§3.2).
func forbiddenDomain(c byte) bool {
	return forbiddenHost(c) || c < 0x20 || c == '%' || c == 0x7F
}

// appendOpaqueHost is the opaque-host parser (§3.5).
func appendOpaqueHost(b []byte, input string) ([]byte, error) {
	for i := 0; i < len(input); i++ {
		if forbiddenHost(input[i]) {
			return b, errHostInvalidCodePoint
		}
	}
	return appendEncoded(b, input, c0ControlSet), nil
}

// percentDecode appends the percent-decoding of s (§1.3) to b: "%" and two
// hex digits become that byte; any other "%" stays.
func percentDecode(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			c = unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
		}
		b = append(b, c)
	}
	return b
}

func isHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	default:
		return c - 'A' + 10
	}
}

// endsInNumber is the "ends in a number checker" (§3.5): whether the last
// label of the domain (ignoring one trailing empty label) is all digits or
// parses as an IPv4 number.
func endsInNumber[T string | []byte](domain T) bool {
	s := domain
	if n := len(s); n > 0 && s[n-1] == '.' {
		if n == 1 {
			return false
		}
		s = s[:n-1]
	}
	i := len(s) - 1
	for i >= 0 && s[i] != '.' {
		i--
	}
	last := s[i+1:]
	if len(last) == 0 {
		return false
	}
	allDigits := true
	for j := 0; j < len(last); j++ {
		if !isDigit(last[j]) {
			allDigits = false
			break
		}
	}
	if allDigits {
		return true
	}
	_, err := parseIPv4Number(last)
	return err == nil
}

func lastIndexByte(b []byte, c byte) int {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] == c {
			return i
		}
	}
	return -1
}

// parseIPv4 is the IPv4 parser (§3.5). It counts the parts before it
// splits, so that a host of many dots costs no allocation.
func parseIPv4(s string) (uint32, error) {
	// "If the last item in parts is the empty string ... remove the last
	// item": only the one a trailing "." leaves.
	s = strings.TrimSuffix(s, ".")
	n := strings.Count(s, ".") + 1
	if n > 4 {
		return 0, errIPv4TooManyParts
	}
	var numbers [4]uint64
	for i := range n {
		part, rest, _ := strings.Cut(s, ".")
		s = rest
		v, err := parseIPv4Number(part)
		if err != nil {
			return 0, err
		}
		numbers[i] = v
	}
	last := n - 1
	var ipv4 uint64
	for i, v := range numbers[:last] {
		if v > 255 {
			return 0, errIPv4OutOfRange
		}
		ipv4 += v << (8 * (3 - i))
	}
	// The last number fills the bytes the others leave.
	if numbers[last] >= 1<<(8*(5-n)) {
		return 0, errIPv4OutOfRange
	}
	ipv4 += numbers[last]
	return uint32(ipv4), nil
}

// parseIPv4Number is the IPv4 number parser (§3.5): decimal, "0x" hex or
// "0" octal. Values past 2^32 are clamped, since any of them fails.
func parseIPv4Number[T string | []byte](s T) (uint64, error) {
	if len(s) == 0 {
		return 0, errIPv4NonNumericPart
	}
	radix := uint64(10)
	switch {
	case len(s) >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'):
		s, radix = s[2:], 16
	case len(s) >= 2 && s[0] == '0':
		s, radix = s[1:], 8
	}
	var n uint64
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d uint64
		switch {
		case isDigit(c):
			d = uint64(c - '0')
		case radix == 16 && isHex(c):
			d = uint64(unhex(c))
		default:
			return 0, errIPv4NonNumericPart
		}
		if d >= radix {
			return 0, errIPv4NonNumericPart
		}
		n = n*radix + d
		if n > 1<<33 {
			n = 1 << 33
		}
	}
	return n, nil
}

// appendIPv4 is the IPv4 serializer (§3.6).
func appendIPv4(b []byte, addr uint32) []byte {
	for i := 3; i >= 0; i-- {
		b = strconv.AppendUint(b, uint64(addr>>(8*i)&0xFF), 10)
		if i > 0 {
			b = append(b, '.')
		}
	}
	return b
}

// parseIPv6 is the IPv6 parser (§3.5).
func parseIPv6(s string) ([8]uint16, error) {
	var addr [8]uint16
	piece, compress := 0, -1
	i := 0
	at := func(i int) int {
		if i < len(s) {
			return int(s[i])
		}
		return -1
	}
	if at(0) == ':' {
		if at(1) != ':' {
			return addr, errIPv6Invalid
		}
		i = 2
		piece++
		compress = piece
	}
	for at(i) != -1 {
		if piece == 8 {
			return addr, errIPv6Invalid
		}
		if at(i) == ':' {
			if compress != -1 {
				return addr, errIPv6Invalid
			}
			i++
			piece++
			compress = piece
			continue
		}
		value, length := 0, 0
		for length < 4 && at(i) != -1 && isHex(byte(at(i))) {
			value = value*16 + int(unhex(byte(at(i))))
			i++
			length++
		}
		if at(i) == '.' {
			// An IPv4 address in the last two pieces.
			if length == 0 {
				return addr, errIPv6Invalid
			}
			i -= length
			if piece > 6 {
				return addr, errIPv6Invalid
			}
			seen := 0
			for at(i) != -1 {
				v := -1
				if seen > 0 {
					if at(i) == '.' && seen < 4 {
						i++
					} else {
						return addr, errIPv6Invalid
					}
				}
				if at(i) == -1 || !isDigit(byte(at(i))) {
					return addr, errIPv6Invalid
				}
				for at(i) != -1 && isDigit(byte(at(i))) {
					n := at(i) - '0'
					switch v {
					case -1:
						v = n
					case 0:
						return addr, errIPv6Invalid
					default:
						v = v*10 + n
					}
					if v > 255 {
						return addr, errIPv6Invalid
					}
					i++
				}
				addr[piece] = addr[piece]<<8 | uint16(v)
				seen++
				if seen == 2 || seen == 4 {
					piece++
				}
			}
			if seen != 4 {
				return addr, errIPv6Invalid
			}
			break
		} else if at(i) == ':' {
			i++
			if at(i) == -1 {
				return addr, errIPv6Invalid
			}
		} else if at(i) != -1 {
			return addr, errIPv6Invalid
		}
		addr[piece] = uint16(value)
		piece++
	}
	if compress != -1 {
		swaps := piece - compress
		piece = 7
		for piece != 0 && swaps > 0 {
			addr[piece], addr[compress+swaps-1] = addr[compress+swaps-1], addr[piece]
			piece--
			swaps--
		}
	} else if piece != 8 {
		return addr, errIPv6Invalid
	}
	return addr, nil
}

// appendIPv6 is the IPv6 serializer (§3.6): lowercase hex pieces without
// leading zeros, the first longest run of two or more zero pieces
// compressed to "::".
func appendIPv6(b []byte, addr *[8]uint16) []byte {
	compress, best := -1, 1
	for i := 0; i < 8; {
		if addr[i] != 0 {
			i++
			continue
		}
		j := i
		for j < 8 && addr[j] == 0 {
			j++
		}
		if j-i > best {
			compress, best = i, j-i
		}
		i = j
	}
	ignore0 := false
	for i := 0; i < 8; i++ {
		if ignore0 && addr[i] == 0 {
			continue
		}
		ignore0 = false
		if compress == i {
			if i == 0 {
				b = append(b, "::"...)
			} else {
				b = append(b, ':')
			}
			ignore0 = true
			continue
		}
		b = strconv.AppendUint(b, uint64(addr[i]), 16)
		if i != 7 {
			b = append(b, ':')
		}
	}
	return b
}
