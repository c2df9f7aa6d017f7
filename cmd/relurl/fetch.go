package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
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
	fs := newFlagSet("fetch", fetchSynopsis, s)
	spec, opts := specFlag(fs, defaultHTMLSpec)
	links := fs.Bool("links", false, "print the page's links instead of the page")
	rewrite := fs.Bool("rewrite", false, "print the page with its links in absolute form (the default)")
	format := fs.String("format", "jsonl", `with --links: "jsonl" or "text"`)
	timeout := fs.Duration("timeout", 30*time.Second, "time allowed for the whole fetch, redirects included")
	maxSize := fs.Int64("max-size", base.DefaultMaxBytes, "largest response body, in bytes")
	maxRedirects := fs.Int("max-redirects", base.DefaultMaxRedirects, "redirects followed before giving up")
	var scripting bool
	scriptingFlag(fs, &scripting)
	contentLocation := fs.Bool("content-location", false, "let the response's Content-Location set the base (RFC 2616 did; RFC 9110 and browsers do not)")
	sameHost := fs.Bool("same-host", false, "refuse a redirect to another host than the URL's")
	denyPrivate := fs.Bool("deny-private", false, "refuse to connect to loopback, private, link-local and other non-public addresses (checked after DNS, at connect time, redirects included)")
	verbose := fs.Bool("v", false, "print the redirects and the base on standard error")
	ff := addFilterFlags(fs, "with --links: only links to the same origin as the page (its URL after redirects)")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	usageErr := func(format string, a ...any) int {
		s.errorf("fetch: "+format, a...)
		return exitUsage
	}
	switch {
	case fs.NArg() != 1:
		return wrongArgs(fs, s, "fetch", fs.NArg(), "one URL")
	case *links && *rewrite:
		return usageErr("--links and --rewrite exclude each other")
	case *format != "jsonl" && *format != "text":
		return usageErr(`--format is "jsonl" or "text", not %q`, *format)
	case *timeout <= 0 || *maxSize <= 0 || *maxRedirects < 1:
		// base.FetchLimits reads 0 redirects as its default.
		return usageErr("--timeout, --max-size and --max-redirects must be positive")
	case !hasScheme(fs.Arg(0)):
		return usageErr("%q needs a scheme: try \"http://%s\" or \"https://%s\"", fs.Arg(0), fs.Arg(0), fs.Arg(0))
	}
	filter, err := ff.filter()
	if err != nil {
		return usageErr("%v", err)
	}
	if !*links && ff.any() {
		return usageErr("the link filters go with --links")
	}
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	defer cancel()
	lim := base.FetchLimits{MaxRedirects: *maxRedirects, MaxBytes: *maxSize, SameHost: *sameHost, DenyPrivate: *denyPrivate}
	doc, err := base.Fetch(ctx, &http.Client{}, fs.Arg(0), lim)
	if err != nil {
		if re, ok := errors.AsType[*base.RefusedError](err); ok {
			s.errorf("fetch: %s: %s (%s): %s", fs.Arg(0), re.Reason, optionFlags[re.Option], re.URL)
		} else if errors.Is(err, context.DeadlineExceeded) {
			s.errorf("fetch: %s: timed out after %v (--timeout)", fs.Arg(0), *timeout)
		} else if msg, ok := networkMessage(err); ok {
			s.errorf("fetch: %s: %s", fs.Arg(0), msg)
		} else if be, ok := errors.AsType[*base.Error](err); ok {
			// The library's error names its operation and input; the
			// command's line names the URL asked for, as the others do.
			s.errorf("fetch: %s: %v", fs.Arg(0), be.Err)
		} else {
			s.errorf("fetch: %s: %v", fs.Arg(0), err)
		}
		return exitFailure
	}
	if *verbose {
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
	ctxBase := *doc.Context
	ctxBase.Spec, ctxBase.Options, ctxBase.ContentLocation = *spec, *opts, *contentLocation
	ctxBase.ContentLocationSwitch = "--content-location"
	hopts := htmlrewrite.Options{Document: link.Document{Context: ctxBase, ContentType: ct}, Scripting: scripting}
	xopts := xmlrewrite.Options{Document: link.Document{Context: ctxBase, ContentType: ct}}

	if *links {
		w := bufio.NewWriterSize(s.out, 64<<10)
		m, _ := linkout.NewMode(*format, "")
		m.Message = userMessage
		lw := linkout.NewWriter(ordered.Direct(linkOut(w, s, ff.unique)), doc.URL, m)
		// The page stands at its URL after redirects.
		site := linkfilter.Site{Document: doc.URL}
		hv := harvest.Reader{Spec: *spec, Filter: filter}
		// RFC 8288 §3.1: Link header targets against the response URL.
		if err := hv.Header(doc.Header.Values("Link"), doc.URL, lw.Link); err != nil {
			s.errorf("fetch: %v", err)
			return exitFailure
		}
		r := hv.Document(bytes.NewReader(doc.Body), kind, extract.Options{HTML: hopts, XML: xopts}, site, lw.Link)
		if werr := w.Flush(); werr != nil {
			s.errorf("fetch: %v", werr)
			return exitFailure
		}
		for _, warn := range r.Warnings {
			s.errorf("fetch: %s: warning: %s", doc.URL, warn)
		}
		err := r.Err
		if *verbose {
			s.errorf("fetch: base %s (%s)", r.Base.URL, r.Base.Provenance())
		}
		if err != nil {
			s.errorf("fetch: %s: %v", doc.URL, err)
			return exitFailure
		}
		return exitOK
	}
	var out bytes.Buffer
	st, err := extract.Rewrite(&out, bytes.NewReader(doc.Body), kind, extract.Options{HTML: hopts, XML: xopts})
	// An incomplete page (a tag over the bound) is still written, best
	// effort, as rewrite writes it; the exit status says it failed.
	if err != nil && !errors.Is(err, link.ErrIncomplete) {
		s.errorf("fetch: %s: %v", doc.URL, err)
		return exitFailure
	}
	if *verbose {
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
	if !*verbose {
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
