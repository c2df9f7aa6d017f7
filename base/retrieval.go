package base

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/textproto"
	"net/url"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"github.com/relurl/relurl/resolve"
)

// Location returns the URL a redirect leads to: the value of its Location
// header resolved against answered, the URL that answered with it (RFC
// 9110 §10.2.2, which allows a relative reference and resolves it by RFC
// 3986 §5). When the value has no fragment, the result inherits the one of
// answered: "a user agent MUST process the redirection as if the value
// inherits the fragment component of the URI reference used to generate
// the target URI" (ibid.).
func Location(answered, location string) (string, error) {
	location = strings.TrimSpace(location)
	if location == "" {
		return "", &Error{Op: "redirect from", Input: answered, Err: errors.New("empty Location")}
	}
	u, err := resolve.Reference(resolve.RFC3986, answered, location)
	if err != nil {
		return "", &Error{Op: "redirect from", Input: answered, Err: err}
	}
	if !strings.Contains(location, "#") {
		if _, frag, ok := strings.Cut(answered, "#"); ok {
			u += "#" + frag
		}
	}
	return u, nil
}

// Redirected returns the Context of a document retrieved from requested
// after redirects whose Location values were locations, in order: the
// retrieval URL is the last one, "that which resulted in the actual
// retrieval of the document" (draft §3.3), each Location resolved against
// the URL that answered it.
func Redirected(spec resolve.Spec, requested string, locations ...string) (*Context, error) {
	u := requested
	for _, loc := range locations {
		next, err := Location(u, loc)
		if err != nil {
			return nil, err
		}
		u = next
	}
	return &Context{Spec: spec, Retrieval: u, RetrievalDetail: redirectDetail(len(locations))}, nil
}

// redirectDetail says how a retrieval URL was reached, for Detail.
func redirectDetail(n int) string {
	switch n {
	case 0:
		return "request URL"
	case 1:
		return "last of 1 redirect"
	}
	return fmt.Sprintf("last of %d redirects", n)
}

// FromResponse returns the Context of an HTTP response that an
// http.Client returned after following redirects: the retrieval URL is
// resp.Request.URL, the last URL requested (draft §3.3), with the fragment
// of the first request inherited through the redirects, which net/http
// does not do (RFC 9110 §10.2.2). The response headers are the §3.2 layer;
// set ContentLocation to let Content-Location count.
func FromResponse(spec resolve.Spec, resp *http.Response) *Context {
	c := &Context{Spec: spec, Header: textproto.MIMEHeader(resp.Header), HeaderOf: "the HTTP response", HTTP: true}
	if resp.Request == nil || resp.Request.URL == nil {
		return c
	}
	// Walk back to the first request; Request.Response is the redirect
	// that caused each one.
	var chain []*url.URL
	for req := resp.Request; req != nil && len(chain) <= maxRedirectsSeen; {
		chain = append(chain, req.URL)
		if req.Response == nil {
			break
		}
		req = req.Response.Request
	}
	frag, hasFrag := "", false
	for i := len(chain) - 1; i >= 0; i-- {
		if u := chain[i]; u.Fragment != "" || u.RawFragment != "" {
			frag, hasFrag = u.EscapedFragment(), true
		}
	}
	last := *resp.Request.URL
	if last.Fragment == "" && hasFrag {
		last.Fragment, last.RawFragment = "", ""
		c.Retrieval = last.String() + "#" + frag
	} else {
		c.Retrieval = last.String()
	}
	c.RetrievalDetail = redirectDetail(len(chain) - 1)
	return c
}

// maxRedirectsSeen bounds the walk through a response's redirect chain.
const maxRedirectsSeen = 1000

// SavedFrom returns the URL that a browser's "mark of the web" comment
// gives a saved page, "<!-- saved from url=(NNNN)URL -->", where NNNN is
// the length of URL (Internet Explorer's urlmon and Chrome's
// WebFrameSerializer write it before <html>). It looks only at comments
// before the first element other than html and head, in the first 4 KiB
// of head, and returns the line of the comment. It ignores the
// "about:internet" placeholder, which names a security zone, not a page.
//
// The comment is the URL the page was saved from, so it can serve as the
// retrieval URL (§3.3) of the saved file; callers ask for it, since the
// file's own location is the retrieval URL too.
func SavedFrom(head []byte) (u string, line int, ok bool) {
	if len(head) > 4<<10 {
		head = head[:4<<10]
	}
	z := html.NewTokenizer(bytes.NewReader(head))
	line = 1
	for {
		tt := z.Next()
		raw := z.Raw()
		start := line
		line += lineEnds(raw)
		switch tt {
		case html.ErrorToken:
			return "", 0, false
		case html.CommentToken:
			// A comment the end of head cut off may hold a cut URL.
			if !bytes.HasSuffix(raw, []byte{'>'}) {
				return "", 0, false
			}
			// A browser writes the URL serialized, with no NUL; the
			// tokenizer would hand a NUL on as U+FFFD, a URL that the
			// file does not hold.
			if bytes.IndexByte(raw, 0) >= 0 {
				continue
			}
			if v, ok := markOfTheWeb(string(z.Text())); ok {
				return v, start, true
			}
		case html.TextToken:
			if len(bytes.TrimSpace(bytes.TrimPrefix(raw, utf8BOM))) > 0 {
				return "", 0, false
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			if name, _ := z.TagName(); string(name) != "html" && string(name) != "head" {
				return "", 0, false
			}
		}
	}
}

// markOfTheWeb returns the URL of a "saved from url=(NNNN)URL" comment.
func markOfTheWeb(comment string) (string, bool) {
	rest, ok := strings.CutPrefix(strings.TrimSpace(comment), "saved from url=(")
	if !ok {
		return "", false
	}
	digits, v, ok := strings.Cut(rest, ")")
	n, err := strconv.Atoi(digits)
	if !ok || err != nil || n < 0 {
		return "", false
	}
	// A URL has no white space; the length tells where it ends when
	// something else follows it.
	if f := strings.Fields(v); len(f) > 0 {
		v = f[0]
	} else {
		v = ""
	}
	if n > 0 && n < len(v) {
		v = v[:n]
	}
	// A retrieval URL is absolute; "about:internet" names a zone.
	if v == "" || !absolute(v) || strings.HasPrefix(strings.ToLower(v), "about:") {
		return "", false
	}
	return v, true
}

// FileURL returns the file: URL of the file at path, made absolute: the
// URL a document read from a file was retrieved from (§3.3) when no other
// is given. Characters that cannot stand in a URL path are
// percent-encoded; on Windows the drive letter follows "file:///".
func FileURL(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", &Error{Op: "file URL of", Input: path, Err: err}
	}
	p := filepath.ToSlash(abs)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p // C:/x → /C:/x (RFC 8089 §E.2)
	}
	return (&url.URL{Scheme: "file", Path: p}).String(), nil
}
