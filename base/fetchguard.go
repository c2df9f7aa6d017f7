package base

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/relurl/relurl/internal/coding"
)

// Errors of Fetch's containment options and of its decoding, wrapped in
// *Error.
var (
	ErrOtherHost       = errors.New("redirect to another host refused (SameHost)")
	ErrPrivateAddress  = errors.New("connection to a non-public address refused (DenyPrivate)")
	ErrContentEncoding = errors.New("content coding does not decode")
	errTransport       = errors.New("DenyPrivate needs the client's Transport to be an *http.Transport")
)

// A RefusedError is a request Fetch's containment refused: the URL or
// address, what was refused and the FetchLimits option that refuses it,
// so that a caller can name its own setting without reading the text.
type RefusedError struct {
	URL      string // the redirect target or the dialled address
	Reason   string // "redirect to another host refused"
	Option   string // "SameHost", "DenyPrivate"
	sentinel error
}

func (e *RefusedError) Error() string {
	return e.Reason + " (" + e.Option + "): " + e.URL
}

// Unwrap gives ErrOtherHost or ErrPrivateAddress, which callers test with
// errors.Is.
func (e *RefusedError) Unwrap() error { return e.sentinel }

// decodeBody undoes the content codings of a fetched body (the same as the
// WARC reader of package archive undoes, through internal/coding), the result
// bounded by max. A coding that does not decode is an error: the bytes are
// not the page.
func decodeBody(h http.Header, body []byte, max int64) ([]byte, error) {
	ce := h.Get("Content-Encoding")
	if strings.TrimSpace(ce) == "" {
		return body, nil
	}
	out, err := coding.Decode(ce, body, max)
	switch {
	case errors.Is(err, coding.ErrTooLarge):
		return nil, fmt.Errorf("%w (%d bytes decoded)", ErrTooLarge, max)
	case err != nil:
		return nil, fmt.Errorf("%w: %v", ErrContentEncoding, err)
	}
	return out, nil
}

// sameHost fails unless next is on the host of first (RFC 3986 §3.2.2
// host, compared without case; the port is not part of it).
func sameHost(first, next string) error {
	a, err1 := url.Parse(first)
	b, err2 := url.Parse(next)
	if err1 != nil || err2 != nil || !strings.EqualFold(a.Hostname(), b.Hostname()) {
		return &RefusedError{URL: next, Reason: "redirect to another host refused", Option: "SameHost", sentinel: ErrOtherHost}
	}
	return nil
}

// denyPrivate makes c connect only to public addresses: its transport is
// a copy of its own that dials through DenyPrivateControl, without proxy.
func denyPrivate(c *http.Client) error {
	var t *http.Transport
	switch rt := c.Transport.(type) {
	case nil:
		t = http.DefaultTransport.(*http.Transport).Clone()
	case *http.Transport:
		t = rt.Clone()
	default:
		return errTransport
	}
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: DenyPrivateControl}
	t.DialContext = d.DialContext
	t.DialTLSContext = nil
	t.Proxy = nil
	c.Transport = t
	return nil
}

// DenyPrivateControl is a net.Dialer Control function that refuses
// connections to addresses that are not public: loopback (127.0.0.0/8,
// ::1), private (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7),
// link-local (169.254.0.0/16, fe80::/10), shared (100.64.0.0/10),
// unspecified (0.0.0.0, ::) and multicast, IPv4-mapped IPv6 included. It
// sees the address after DNS, as the connection is made, so neither a name
// that resolves to such an address nor a redirect to one gets through.
// Fetch uses it with FetchLimits.DenyPrivate; crawlers can set it on
// their own dialer.
func DenyPrivateControl(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return &RefusedError{URL: address, Reason: "connection to a non-public address refused", Option: "DenyPrivate", sentinel: ErrPrivateAddress}
	}
	if !Public(ap.Addr()) {
		return &RefusedError{URL: address, Reason: "connection to a non-public address refused", Option: "DenyPrivate", sentinel: ErrPrivateAddress}
	}
	return nil
}

// shared is RFC 6598's shared address space (carrier-grade NAT).
var shared = netip.MustParsePrefix("100.64.0.0/10")

// Public reports whether a is an address DenyPrivateControl lets through.
func Public(a netip.Addr) bool {
	a = a.Unmap()
	return a.IsValid() && !a.IsLoopback() && !a.IsPrivate() && !a.IsLinkLocalUnicast() &&
		!a.IsLinkLocalMulticast() && !a.IsInterfaceLocalMulticast() && !a.IsMulticast() &&
		!a.IsUnspecified() && !shared.Contains(a)
}
