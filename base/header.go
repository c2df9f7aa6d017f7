package base

import (
	"errors"
	"fmt"
	"mime"
	"slices"
	"strings"

	"github.com/relurl/relurl/resolve"
)

// headerOrder is the §3.2 layer's own precedence when several headers
// appear. Base is the draft's header (§3.2); Content-Base is "described as
// Base in RFC 1808" (RFC 2068 §14.11) and ranks above Content-Location in
// both RFC 2068 §14.11 and RFC 2110 §5 (b, c).
var headerOrder = [...]string{"Base", "Content-Base", "Content-Location"}

// labelSchemes are schemes whose URLs name a part but cannot carry
// relative references: a Content-Location with one of them is a label
// (RFC 2557 §8.3 matches cid: against Content-ID only; Chrome labels its
// synthetic parts "cid:css-…@mhtml.blink"), so the search goes on outward.
var labelSchemes = map[string]bool{"cid": true, "mid": true, "data": true, "about": true, "javascript": true}

// headerBase returns the §3.2 layer: the first usable header value,
// resolved against below (the §3.3 layer) when it is relative. When no
// header decides it returns below, with warnings for the headers it
// skipped.
func (c *Context) headerBase(below Result) Result {
	for _, name := range headerOrder {
		values := headerValues(c.Header, name)
		if len(values) == 0 {
			continue
		}
		where := name + " header"
		if c.HeaderOf != "" {
			where = name + " of " + c.HeaderOf
		}
		if c.HTTP && c.Spec == resolve.WHATWG && name != "Content-Location" {
			below.Warnings = append(below.Warnings, where+" ignored: browsers (the whatwg mode) do not use it for an HTTP response")
			continue
		}
		if name == "Content-Location" && !c.ContentLocation && c.Enclosing == nil {
			turn := c.ContentLocationSwitch
			if turn == "" {
				turn = "Context.ContentLocation"
			}
			below.Warnings = append(below.Warnings, where+" ignored: browsers do not use it for an HTTP response ("+turn+" honours it)")
			continue
		}
		if len(values) > 1 {
			below.Warnings = append(below.Warnings, fmt.Sprintf("%s appears %d times: the first counts", where, len(values)))
		}
		u, detail, err := c.headerURL(name, values[0], below)
		if err != nil {
			below.Warnings = append(below.Warnings, fmt.Sprintf("%s %q ignored: %v", where, values[0], err))
			continue
		}
		return Result{URL: u, Source: Header, Detail: where + detail, Warnings: below.Warnings}
	}
	return below
}

// headerValues returns the values of the header name, matched without
// regard to case (draft §3.2: "where "Base" is case-insensitive") and to
// white space around the name, which net/textproto keeps in the key. The
// values under the canonical key come first, then those under other
// spellings in the order of their keys, so that a map's iteration order
// never decides.
func headerValues(h map[string][]string, name string) []string {
	var others []string
	for k := range h {
		if k != name && strings.EqualFold(strings.TrimSpace(k), name) {
			others = append(others, k)
		}
	}
	if len(others) == 0 {
		return h[name]
	}
	slices.Sort(others)
	values := slices.Clone(h[name])
	for _, k := range others {
		values = append(values, h[k]...)
	}
	return values
}

// headerURL returns the URL a header value gives, resolved against below,
// and how it was resolved, for Detail.
func (c *Context) headerURL(name, value string, below Result) (u, detail string, err error) {
	v, err := HeaderValue(value)
	if err != nil {
		return "", "", err
	}
	if name == "Content-Location" && labelSchemes[scheme(v)] {
		return "", "", errors.New("a " + scheme(v) + ": URL labels a part and cannot be a base")
	}
	if !absolute(v) {
		detail = fmt.Sprintf(" (relative, resolved against the %s base)", below.Source)
	}
	r, err := resolve.NewResolver(c.Spec, below.URL, c.Options)
	if err != nil {
		return "", "", err
	}
	u, err = r.Reference(v)
	if err != nil {
		return "", "", err
	}
	return u, detail, nil
}

// ErrHeaderSyntax reports a header value that is not a URL in any of the
// forms HeaderValue accepts.
var ErrHeaderSyntax = errors.New("not a URL, <URL:url> or <url>")

var wordDecoder mime.WordDecoder

// HeaderValue returns the URL in the value of a Base, Content-Base or
// Content-Location header.
//
// The value may be written "<URL:url>" (the draft's §3.2 base-header, the
// "URL:" prefix case-insensitive), "<url>", a quoted string, or bare. All
// white space is removed, including what folded lines left behind: the draft
// says whitespace inside the angle brackets "should be ignored", RFC 2017
// §3.1 and RFC 2557 §4.4.3 say the same of folded URLs, and a URL has no
// white space of its own. RFC 2047 encoded-words are decoded first (RFC
// 2557 §4.4.1), for the charsets mime.WordDecoder knows.
func HeaderValue(value string) (string, error) {
	if strings.Contains(value, "=?") {
		if d, err := wordDecoder.DecodeHeader(value); err == nil {
			value = d
		}
	}
	v := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n', '\f', '\v':
			return -1
		}
		return r
	}, value)
	switch {
	case strings.HasPrefix(v, "<"):
		if !strings.HasSuffix(v, ">") {
			return "", ErrHeaderSyntax
		}
		v = v[1 : len(v)-1]
		if len(v) >= 4 && strings.EqualFold(v[:4], "URL:") {
			v = v[4:]
		}
	case len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"':
		v = v[1 : len(v)-1]
	case len(v) >= 4 && strings.EqualFold(v[:4], "URL:"):
		// The 1993 prefixed form ("url:" url) without brackets.
		v = v[4:]
	}
	if v == "" || strings.ContainsAny(v, "<>\"") {
		return "", ErrHeaderSyntax
	}
	return v, nil
}
