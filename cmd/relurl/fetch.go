package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/cmd/relurl/internal/linkout"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/harvest"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/linkfilter"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/xmlrewrite"
)

const fetchSynopsis = `[--rewrite | --links] [--spec S] [flags] URL

GETs an http or https URL, following redirects (each Location resolved
against the URL that sent it), and prints the page with every link in
absolute form (--rewrite, the default) or its links as JSON Lines like
"relurl links" (--links; --format text for one URL a line). The base is
the page's <base href>, then (with --content-location) the response's
Content-Location, then the final URL; browsers ignore the Base and
Content-Base headers, and so does the default --spec whatwg, but the RFC
modes honour them before Content-Location (the draft's §3.2). Exit status: 0 done, 1 the fetch
failed or the response is not an HTML page with a 2xx status, 2 usage.`

func runFetch(args []string, s stdio) int {
	f := newFetchFlags(s)
	if code := f.parse(args); code >= 0 {
		return code
	}
	ctx, cancel := context.WithTimeout(context.Background(), f.timeout)
	defer cancel()
	lim := base.FetchLimits{MaxRedirects: f.maxRedirects, MaxBytes: f.maxSize, SameHost: f.sameHost, DenyPrivate: f.denyPrivate}
	doc, err := base.Fetch(ctx, &http.Client{}, f.url, lim)
	if err != nil {
		return s.exit("fetch", f.fetchError(err))
	}
	if f.verbose {
		for _, h := range doc.Redirects {
			s.errorf("fetch: %s: %d Location: %s", h.URL, h.Status, h.Location)
		}
		s.errorf("fetch: %s: %d %s", doc.URL, doc.Status, doc.Header.Get("Content-Type"))
		if doc.Decoded != "" {
			s.errorf("fetch: %s: decoded Content-Encoding %s", doc.URL, doc.Decoded)
		}
	}
	if doc.Status < 200 || doc.Status > 299 {
		s.errorf("fetch: %s: %d %s", doc.URL, doc.Status, http.StatusText(doc.Status))
		return exitFailure
	}
	ct := doc.Header.Get("Content-Type")
	kind, err := pageKind(ct, doc.Body)
	if err != nil {
		s.errorf("fetch: %s: %v", doc.URL, err)
		return exitFailure
	}
	if kind == base.Other {
		s.errorf("fetch: %s: not an HTML page (Content-Type %q)", doc.URL, ct)
		return exitFailure
	}
	if f.links {
		return f.printLinks(s, doc, kind)
	}
	return f.printRewritten(s, doc, kind)
}

// fetchFlags are the flags of relurl fetch.
type fetchFlags struct {
	fs                        *flag.FlagSet
	s                         stdio
	spec                      *resolve.Spec
	opts                      *resolve.Options
	links, rewrite, scripting bool
	contentLocation, sameHost bool
	denyPrivate, verbose      bool
	format                    string
	timeout                   time.Duration
	maxSize                   int64
	maxRedirects              int
	ff                        *filterFlags

	// Once parsed:
	url    string            // the URL to fetch
	filter linkfilter.Filter // the links kept
}

// newFetchFlags binds fetch's flags to a new flag set.
func newFetchFlags(s stdio) *fetchFlags {
	fs := newFlagSet("fetch", fetchSynopsis, s)
	f := &fetchFlags{fs: fs, s: s}
	f.spec, f.opts = specFlag(fs, defaultHTMLSpec)
	fs.BoolVar(&f.links, "links", false, "print the page's links instead of the page")
	fs.BoolVar(&f.rewrite, "rewrite", false, "print the page with its links in absolute form (the default)")
	fs.StringVar(&f.format, "format", "jsonl", `with --links: "jsonl" or "text"`)
	fs.DurationVar(&f.timeout, "timeout", 30*time.Second, "time allowed for the whole fetch, redirects included")
	fs.Int64Var(&f.maxSize, "max-size", base.DefaultMaxBytes, "largest response body, in bytes")
	fs.IntVar(&f.maxRedirects, "max-redirects", base.DefaultMaxRedirects, "redirects followed before giving up")
	scriptingFlag(fs, &f.scripting)
	fs.BoolVar(&f.contentLocation, "content-location", false, "let the response's Content-Location set the base (RFC 2616 did; RFC 9110 and browsers do not)")
	fs.BoolVar(&f.sameHost, "same-host", false, "refuse a redirect to another host than the URL's")
	fs.BoolVar(&f.denyPrivate, "deny-private", false, "refuse to connect to loopback, private, link-local and other non-public addresses (checked after DNS, at connect time, redirects included)")
	fs.BoolVar(&f.verbose, "v", false, "print the redirects and the base on standard error")
	f.ff = addFilterFlags(fs, "with --links: only links to the same origin as the page (its URL after redirects)")
	return f
}

// parse parses args and returns -1 to go on, or the exit status to return
// (its error said).
func (f *fetchFlags) parse(args []string) int {
	fs := f.fs
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		return wrongArgs(fs, f.s, "fetch", fs.NArg(), "one URL")
	}
	f.url = fs.Arg(0)
	if err := f.check(); err != nil {
		return f.s.exit("fetch", err)
	}
	return -1
}

// check validates the flags against each other.
func (f *fetchFlags) check() error {
	switch {
	case f.links && f.rewrite:
		return usagef("--links and --rewrite exclude each other")
	case f.format != "jsonl" && f.format != "text":
		return usagef(`--format is "jsonl" or "text", not %q`, f.format)
	case f.timeout <= 0 || f.maxSize <= 0 || f.maxRedirects < 1:
		// base.FetchLimits reads 0 redirects as its default.
		return usagef("--timeout, --max-size and --max-redirects must be positive")
	case !hasScheme(f.url):
		return usagef("%q needs a scheme: try \"http://%s\" or \"https://%s\"", f.url, f.url, f.url)
	}
	var err error
	if f.filter, err = f.ff.filter(); err != nil {
		return usagef("%v", err)
	}
	if !f.links && f.ff.any() {
		return usagef("the link filters go with --links")
	}
	return nil
}

// fetchError says why the fetch failed, in the user's terms: the flag
// that refused it, the time it ran out of, the host or address that
// failed, or the library's error without its operation.
func (f *fetchFlags) fetchError(err error) error {
	if re, ok := errors.AsType[*base.RefusedError](err); ok {
		return failf("%s: %s (%s): %s", f.url, re.Reason, optionFlags[re.Option], re.URL)
	} else if errors.Is(err, context.DeadlineExceeded) {
		return failf("%s: timed out after %v (--timeout)", f.url, f.timeout)
	} else if msg, ok := networkMessage(err); ok {
		return failf("%s: %s", f.url, msg)
	} else if be, ok := errors.AsType[*base.Error](err); ok {
		// The library's error names its operation and input; the
		// command's line names the URL asked for, as the others do.
		return failf("%s: %v", f.url, be.Err)
	}
	return failf("%s: %v", f.url, err)
}

// options returns the readers' options for the page doc, as the flags
// say: its context is the response's.
func (f *fetchFlags) options(doc *base.Document) extract.Options {
	ct := doc.Header.Get("Content-Type")
	ctxBase := *doc.Context
	ctxBase.Spec, ctxBase.Options, ctxBase.ContentLocation = *f.spec, *f.opts, f.contentLocation
	ctxBase.ContentLocationSwitch = "--content-location"
	hopts := htmlrewrite.Options{Document: link.Document{Context: ctxBase, ContentType: ct}, Scripting: f.scripting}
	xopts := xmlrewrite.Options{Document: link.Document{Context: ctxBase, ContentType: ct}}
	return extract.Options{HTML: hopts, XML: xopts}
}

// printLinks prints the links of the page doc (its Link header's first)
// as relurl links does.
func (f *fetchFlags) printLinks(s stdio, doc *base.Document, kind base.Format) int {
	w := bufio.NewWriterSize(s.out, 64<<10)
	m, _ := linkout.NewMode(f.format, "")
	lw := linkout.NewWriter(ordered.Direct(linkOut(w, s, f.ff.unique)), doc.URL, m)
	// The page stands at its URL after redirects.
	site := linkfilter.Site{Document: doc.URL}
	hv := harvest.Reader{Spec: *f.spec, Filter: f.filter}
	// RFC 8288 §3.1: Link header targets against the response URL.
	if err := hv.Header(doc.Header.Values("Link"), doc.URL, lw.Link); err != nil {
		s.errorf("fetch: %v", err)
		return exitFailure
	}
	r := hv.Document(bytes.NewReader(doc.Body), kind, f.options(doc), site, lw.Link)
	if werr := w.Flush(); werr != nil {
		s.errorf("fetch: %v", werr)
		return exitFailure
	}
	for _, warn := range r.Warnings {
		s.errorf("fetch: %s: warning: %s", doc.URL, warn)
	}
	if f.verbose {
		s.errorf("fetch: base %s (%s)", r.Base.URL, r.Base.Provenance())
	}
	if r.Err != nil {
		s.errorf("fetch: %s: %v", doc.URL, r.Err)
		return exitFailure
	}
	return exitOK
}

// printRewritten prints the page doc with its links in absolute form.
func (f *fetchFlags) printRewritten(s stdio, doc *base.Document, kind base.Format) int {
	var out bytes.Buffer
	st, err := extract.Rewrite(&out, bytes.NewReader(doc.Body), kind, f.options(doc))
	// An incomplete page (a tag over the bound) is still written, best
	// effort, as rewrite writes it; the exit status says it failed.
	if err != nil && !errors.Is(err, link.ErrIncomplete) {
		s.errorf("fetch: %s: %v", doc.URL, err)
		return exitFailure
	}
	if f.verbose {
		s.errorf("fetch: base %s (%s); %d links, %d rewritten, %d failed", st.Base.URL, st.Base.Provenance(), st.Links, st.Rewritten, st.Failed)
	}
	if _, werr := s.out.Write(out.Bytes()); werr != nil {
		s.errorf("fetch: %v", werr)
		return exitFailure
	}
	if err != nil {
		s.errorf("fetch: %s: %v", doc.URL, err)
		return exitFailure
	}
	if !f.verbose {
		failedLinks(s, "fetch: "+doc.URL, st.Links, st.Failed, "relurl fetch --links")
	}
	return exitOK
}

// optionFlags names base.FetchLimits' options by the flags that set them.
var optionFlags = map[string]string{"DenyPrivate": "--deny-private", "SameHost": "--same-host"}

// networkMessage says in the user's terms why a connection failed: the
// host that has no address, or the address that refused or could not be
// reached, without net/http's `Get "URL": dial tcp ...` layers.
func networkMessage(err error) (string, bool) {
	if dns, ok := errors.AsType[*net.DNSError](err); ok {
		if dns.IsNotFound {
			return fmt.Sprintf("no such host %s (check the name, or your DNS)", dns.Name), true
		}
		return fmt.Sprintf("cannot look up %s: %s", dns.Name, dns.Err), true
	}
	if op, ok := errors.AsType[*net.OpError](err); ok && op.Op == "dial" {
		addr := ""
		if op.Addr != nil {
			addr = " " + op.Addr.String()
		}
		why := op.Err.Error()
		if se, ok := errors.AsType[*os.SyscallError](op.Err); ok {
			why = se.Err.Error()
		}
		return fmt.Sprintf("cannot connect to%s: %s", addr, why), true
	}
	return "", false
}

// pageKind returns how fetch reads a response: as HTML, or as XML for
// XHTML served as application/xhtml+xml with XHTML's root, by package
// base's one rule for typed content (base.FormatOfContent, as MHTML parts,
// WARC payloads and materialize's captures are read); when the response
// names no media type, by what its bytes sniff as (base.FormatOf without
// a name: MIME Sniffing §7.1). Other: not a page (a stylesheet, an
// image, an SVG or feed); an error (*base.FormatError): a body that cannot
// be what its type says (gzip bytes served as application/xhtml+xml).
func pageKind(contentType string, body []byte) (base.Format, error) {
	mt, _, _ := strings.Cut(contentType, ";")
	mt = strings.ToLower(strings.TrimSpace(mt))
	if mt == "" {
		if base.FormatOf("", body) == base.HTML {
			return base.HTML, nil
		}
		return base.Other, nil
	}
	switch k, err := base.FormatOfContent(contentType, body); {
	case err != nil:
		return base.Other, err
	case k == base.HTML, k == base.XML && mt == "application/xhtml+xml":
		return k, nil
	}
	return base.Other, nil
}

// hasScheme says whether u starts with a scheme ("http:", "ftp:"), not
// with a host and port ("127.0.0.1:8766/", "localhost:8080"), which net/url
// would misread.
func hasScheme(u string) bool {
	u = strings.TrimSpace(u)
	scheme, rest, ok := strings.Cut(u, ":")
	if !ok || scheme == "" {
		return false
	}
	for i, c := range scheme {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (i == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return rest == "" || rest[0] < '0' || rest[0] > '9'
}
