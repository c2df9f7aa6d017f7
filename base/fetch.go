package base

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
	"time"

	"github.com/relurl/relurl/internal/coding"
	"github.com/relurl/relurl/resolve"
)

// FetchLimits bound what Fetch does for one document. Zero fields take the
// defaults below.
type FetchLimits struct {
	MaxRedirects int   // redirects followed before giving up; default 10
	MaxBytes     int64 // bytes of the final body; default 32 MiB
	// Timeout bounds the whole fetch, redirects and bodies included, on
	// top of the context's deadline and the client's Timeout. Zero means
	// DefaultTimeout when neither of those is set, so that a stalled
	// server cannot hold a caller of context.Background and
	// http.DefaultClient forever, and no limit of its own otherwise.
	Timeout time.Duration
	// SameHost refuses a redirect to another host than the requested
	// URL's (ErrOtherHost); the scheme and port may change.
	SameHost bool
	// DenyPrivate refuses to connect to a loopback, private, link-local,
	// shared (100.64.0.0/10) or unspecified address (ErrPrivateAddress),
	// for the first request and every redirect: the address is checked
	// at connect time, after DNS, by DenyPrivateControl, so a name that
	// resolves to such an address is refused too. The client's
	// Transport must then be an *http.Transport (or nil); its proxy
	// setting is not used, since a proxy would hide the address.
	DenyPrivate bool
}

// Defaults for FetchLimits.
const (
	DefaultMaxRedirects = 10               // as net/http's client
	DefaultMaxBytes     = 32 << 20         // far above any real page
	DefaultTimeout      = 30 * time.Second // as relurl fetch --timeout
)

// Errors of Fetch, wrapped in *Error.
var (
	ErrScheme           = errors.New("only http and https URLs can be fetched")
	ErrTooManyRedirects = errors.New("too many redirects")
	ErrTooLarge         = errors.New("response body larger than the limit")
	ErrNoLocation       = errors.New("redirect without a Location header")
	errBadRedirects     = errors.New("MaxRedirects must not be negative")
)

// Hop is one redirect Fetch followed.
type Hop struct {
	URL      string // the URL that answered with the redirect
	Status   int    // 301, 302, 303, 307 or 308
	Location string // the Location header as sent
}

// Document is a fetched document and its retrieval context.
type Document struct {
	Requested string      // the URL Fetch was given
	URL       string      // the last URL, after redirects, fragment inherited (RFC 9110 §10.2.2)
	Redirects []Hop       // the redirects followed, in order
	Status    int         // the final response's status code; Fetch does not judge it
	Header    http.Header // the final response's headers
	// Body is the final response's body with its content codings undone
	// (gzip, deflate, br, stacked: those Fetch advertises in
	// Accept-Encoding); Decoded names the codings undone, as the
	// Content-Encoding header, which is kept, lists them.
	Body    []byte
	Decoded string
	// Context is ready for the HTML layer: Retrieval is URL, the headers
	// are the §3.2 layer (HTTP is set: the WHATWG mode ignores them as
	// browsers do), Spec is resolve.WHATWG (how browsers resolve a
	// fetched page's links). Change Spec, or set ContentLocation, before
	// deciding.
	Context *Context
}

// Fetch GETs rawURL with client (http.DefaultClient when nil), following
// redirects itself so that each Location is resolved against the URL that
// answered it, the fragment is inherited (RFC 9110 §10.2.2), only http and
// https are ever requested, and the chain is recorded. ctx and lim.Timeout
// bound the time of the whole fetch, the client's Timeout that of each
// request in it. The final response of any status is returned; a body over
// lim.MaxBytes is an error (ErrTooLarge), never a truncated document.
func Fetch(ctx context.Context, client *http.Client, rawURL string, lim FetchLimits) (*Document, error) {
	if client == nil {
		client = http.DefaultClient
	}
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	if lim.DenyPrivate {
		if err := denyPrivate(&c); err != nil {
			return nil, &Error{Op: "fetch", Input: rawURL, Err: err}
		}
	}
	switch {
	case lim.MaxRedirects == 0:
		lim.MaxRedirects = DefaultMaxRedirects
	case lim.MaxRedirects < 0:
		return nil, &Error{Op: "fetch", Input: rawURL, Err: errBadRedirects}
	}
	if lim.MaxBytes <= 0 {
		lim.MaxBytes = DefaultMaxBytes
	}
	if t := timeout(ctx, &c, lim.Timeout); t > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, t)
		defer cancel()
	}
	doc := &Document{Requested: rawURL}
	u := rawURL
	for {
		resp, err := get(ctx, &c, u)
		if err != nil {
			return nil, err
		}
		if loc, ok := redirect(resp); ok {
			drain(resp.Body)
			if loc == "" {
				return nil, &Error{Op: "fetch", Input: u, Err: fmt.Errorf("%d: %w", resp.StatusCode, ErrNoLocation)}
			}
			if len(doc.Redirects) == lim.MaxRedirects {
				return nil, &Error{Op: "fetch", Input: rawURL, Err: fmt.Errorf("%w: more than %d", ErrTooManyRedirects, lim.MaxRedirects)}
			}
			doc.Redirects = append(doc.Redirects, Hop{URL: u, Status: resp.StatusCode, Location: loc})
			next, err := Location(u, loc)
			if err != nil {
				return nil, err
			}
			if lim.SameHost {
				if err := sameHost(rawURL, next); err != nil {
					return nil, &Error{Op: "fetch", Input: u, Err: err}
				}
			}
			u = next
			continue
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(io.LimitReader(resp.Body, lim.MaxBytes+1))
		if err != nil {
			return nil, &Error{Op: "fetch", Input: u, Err: err}
		}
		if int64(len(body)) > lim.MaxBytes {
			return nil, &Error{Op: "fetch", Input: u, Err: fmt.Errorf("%w (%d bytes)", ErrTooLarge, lim.MaxBytes)}
		}
		if body, err = decodeBody(resp.Header, body, lim.MaxBytes); err != nil {
			return nil, &Error{Op: "fetch", Input: u, Err: err}
		}
		doc.Decoded = resp.Header.Get("Content-Encoding")
		doc.URL, doc.Status, doc.Header, doc.Body = u, resp.StatusCode, resp.Header, body
		doc.Context = &Context{
			Spec:            resolve.WHATWG,
			Header:          textproto.MIMEHeader(resp.Header),
			HeaderOf:        "the HTTP response",
			HTTP:            true,
			Retrieval:       u,
			RetrievalDetail: redirectDetail(len(doc.Redirects)),
		}
		return doc, nil
	}
}

// timeout returns the time limit Fetch sets for itself: t when it is
// positive, DefaultTimeout when nothing else bounds the fetch, else none.
func timeout(ctx context.Context, c *http.Client, t time.Duration) time.Duration {
	if t > 0 {
		return t
	}
	if _, ok := ctx.Deadline(); ok || c.Timeout > 0 {
		return 0
	}
	return DefaultTimeout
}

// get sends one GET for rawURL, which must be http or https.
func get(ctx context.Context, c *http.Client, rawURL string) (*http.Response, error) {
	pu, err := url.Parse(rawURL)
	if err != nil {
		return nil, &Error{Op: "fetch", Input: rawURL, Err: err}
	}
	if s := strings.ToLower(pu.Scheme); s != "http" && s != "https" {
		return nil, &Error{Op: "fetch", Input: rawURL, Err: ErrScheme}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, &Error{Op: "fetch", Input: rawURL, Err: err}
	}
	// Set here, the header also stops net/http's transparent gzip, so
	// every coding is undone in one place (decodeBody).
	req.Header.Set("Accept-Encoding", coding.Accept)
	resp, err := c.Do(req)
	if err != nil {
		return nil, &Error{Op: "fetch", Input: rawURL, Err: err}
	}
	return resp, nil
}

// redirect returns the Location of a redirect response (RFC 9110 §15.4:
// 301, 302, 303, 307, 308; 300 and 304 are not followed).
func redirect(resp *http.Response) (string, bool) {
	switch resp.StatusCode {
	case http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
		http.StatusTemporaryRedirect, http.StatusPermanentRedirect:
		return resp.Header.Get("Location"), true
	}
	return "", false
}

// drain reads a little of a body that is not wanted, so the connection
// can be reused, and closes it.
func drain(body io.ReadCloser) {
	io.Copy(io.Discard, io.LimitReader(body, 64<<10))
	body.Close()
}
