// Package base establishes the base URL of a document by the layers of the
// relative-URL draft's §3 (draft-ietf-uri-relative-url-05, which became
// RFC 1808 §3), and says which layer decided and why.
//
// The layers, innermost first (draft §3):
//
//   - §3.1 embedded in the content: for HTML, the <base href> element, found
//     by [ScanHTML] with browser semantics (HTML Living Standard, "the
//     document base URL") or, in strict mode, the draft's §10 appendix;
//   - §3.2 a message header: Base (draft §3.2), Content-Base (RFC 2068
//     §14.11, RFC 2110 §4.2) or Content-Location (RFC 2557 §5 for MIME parts;
//     for HTTP responses only when asked, since RFC 7231 and browsers no
//     longer use it);
//   - §3.3 the retrieval context: the last URL after redirects (RFC 9110
//     §10.2.2), or for a part of a composite MIME entity the base of the
//     entity that encloses it, recursively;
//   - §3.4 the empty base, against which relative references fail
//     (resolve.ErrNoBase) one link at a time.
//
// A [Context] holds the layers below the content; [Context.Decide] combines
// it with the <base> a scan found into a [Result] that carries its
// provenance. [Prescan] lets a one-pass rewriter apply the document's base
// to links that come before the <base> element. [Context.Part] gives a
// part of a composite entity its context. [Redirected], [FromResponse],
// [SavedFrom] and [FileURL] find retrieval URLs, and [Fetch] retrieves a
// document over HTTP with the whole chain recorded.
package base

import (
	"fmt"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"net/textproto"
	"strings"

	"github.com/relurl/relurl/resolve"
)

// Source names the §3 layer that decided a base URL.
type Source int

// The layers, innermost first.
const (
	Default   Source = iota // §3.4: no base; relative references cannot be resolved
	Embedded                // §3.1: in the content (HTML <base href>)
	Header                  // §3.2: Base, Content-Base or Content-Location header
	Retrieval               // §3.3: the URL the document was retrieved from (after redirects)
	Composite               // §3.3: the base of the enclosing multipart/* or message/* entity
)

// String returns "default", "embedded", "header", "retrieval" or "composite".
func (s Source) String() string {
	switch s {
	case Embedded:
		return "embedded"
	case Header:
		return "header"
	case Retrieval:
		return "retrieval"
	case Composite:
		return "composite"
	}
	return "default"
}

// Result is a base URL and its provenance.
type Result struct {
	URL      string   // the base URL; "" when Source is Default
	Source   Source   // the layer that decided
	Detail   string   // why, e.g. "<base href> at line 12"; "" for Default
	Warnings []string // layers that were present but ignored, and why
}

// Provenance returns the layer and the detail in one line, such as
// "embedded: <base href> at line 12" or "default".
func (r Result) Provenance() string {
	if r.Detail == "" {
		return r.Source.String()
	}
	return r.Source.String() + ": " + r.Detail
}

// Context holds what lies outside the document: the layers below §3.1.
// The zero Context has no spec; set Spec before deciding, as everywhere in
// relurl no resolution rule applies by default.
type Context struct {
	Spec    resolve.Spec    // how relative header values and <base href> are resolved
	Options resolve.Options // for Spec; QueryEncoding is the document's encoding

	Header textproto.MIMEHeader // message headers (§3.2); nil when none
	// ContentLocation makes Content-Location count. Set it for a MIME
	// message (RFC 2557 §5), and for an HTTP response only when asked:
	// browsers ignore it there, and RFC 7231 Appendix B took it out of the
	// base URI. A part (Enclosing set) always honours it.
	ContentLocation bool
	// ContentLocationSwitch is how the caller's user turns ContentLocation
	// on (a flag such as "--content-location"): the warning for an
	// ignored Content-Location names it. Empty, it names the field.
	ContentLocationSwitch string
	HeaderOf              string // where Header comes from, for Detail (e.g. "part 3")
	// HTTP says Header is an HTTP response's ([Fetch], [FromResponse], a
	// WARC response record). Browsers take an HTML document's base from
	// <base> and the response URL only, so in the WHATWG mode Base and
	// Content-Base are then ignored (with a warning) and Content-Location
	// counts only with ContentLocation; the RFC modes keep the draft's §3.2
	// layer (Base, Content-Base, and Content-Location when asked).
	HTTP bool

	Retrieval string // §3.3: the retrieval URL, after redirects
	// RetrievalDetail says how Retrieval was found, for Detail, e.g.
	// "last of 2 redirects"; "" reads "retrieval URL".
	RetrievalDetail string

	// Enclosing is the base of the enclosing composite entity (§3.3): it
	// is the retrieval context of a part, and when its URL is set it
	// outranks Retrieval. [Context.Part] sets it.
	Enclosing     *Result
	EnclosingType string // the enclosing entity's media type, for Detail (e.g. "multipart/related")
	Depth         int    // how many composite entities enclose the document; see MaxNesting

	Strict bool // §3.1 per the draft's appendix: only a BASE in HEAD with an absolute HREF

	// Local is where a saved page lies when Retrieval is the live URL its
	// mark of the web names: its links to files beside it stay local
	// (LocalTarget). The layers above do not read it; the callers that
	// report or write links do.
	Local *Local
}

// Fallback returns the base from the layers below the content: headers
// (§3.2), then the enclosing entity or the retrieval URL (§3.3), then the
// default (§3.4). It is the base an HTML document without a usable <base>
// gets, and the one a <base href> is resolved against.
//
// When several headers appear, the first usable one of Base (the draft's
// §3.2), Content-Base (its successor in RFC 2068 §14.11 and RFC 2110, which
// RFC 2068 and RFC 2110 §5 both rank above Content-Location) and
// Content-Location decides. A relative value is resolved against the §3.3
// layer; a value that cannot be used is skipped with a warning.
func (c *Context) Fallback() Result {
	return c.headerBase(c.retrievalContext())
}

// retrievalContext returns the §3.3 layer, or §3.4 when there is none.
func (c *Context) retrievalContext() Result {
	if e := c.Enclosing; e != nil && e.URL != "" {
		return Result{URL: e.URL, Source: Composite, Detail: "base of enclosing " + c.enclosingType()}
	}
	if c.Retrieval == "" {
		return Result{Source: Default}
	}
	if _, err := resolve.NewResolver(c.Spec, c.Retrieval, c.Options); err != nil {
		return Result{Source: Default, Warnings: []string{fmt.Sprintf("retrieval URL %q ignored: %v", c.Retrieval, err)}}
	}
	detail := c.RetrievalDetail
	if detail == "" {
		detail = "retrieval URL"
	}
	return Result{URL: c.Retrieval, Source: Retrieval, Detail: detail}
}

func (c *Context) enclosingType() string {
	if c.EnclosingType == "" {
		return "entity"
	}
	return c.EnclosingType
}

// Decide returns the base of a document whose scan found e: the embedded
// base (§3.1) when e is usable, else [Context.Fallback].
//
// As the HTML Standard says for the frozen base URL, the href is trimmed of
// ASCII whitespace and resolved against the fallback base (so a <base> is
// not affected by itself), and a value that fails to resolve, or whose
// scheme is data or javascript, leaves the fallback in place, with a
// warning. In strict mode (the draft's §10 appendix) a relative href is
// ignored.
func (c *Context) Decide(e Element) Result {
	fb := c.Fallback()
	if !e.Found {
		return fb
	}
	where := fmt.Sprintf("<base href> at line %d", e.Line)
	href := trimASCIISpace(e.Href)
	if c.Spec == resolve.WHATWG {
		href = decodeValue(href, c.Options.QueryEncoding)
	}
	ignore := func(why string) Result {
		fb.Warnings = append(fb.Warnings, fmt.Sprintf("%s ignored: %s", where, why))
		return fb
	}
	if c.Strict && !absolute(href) {
		return ignore(fmt.Sprintf("%q is not absolute (strict: the draft's §10 appendix)", href))
	}
	r, err := resolve.NewResolver(c.Spec, fb.URL, c.Options)
	if err != nil {
		return ignore(err.Error())
	}
	u, err := r.Reference(href)
	if err != nil {
		return ignore(err.Error())
	}
	if s := scheme(u); s == "data" || s == "javascript" {
		return ignore("a " + s + ": URL cannot be a base")
	}
	return Result{URL: u, Source: Embedded, Detail: where, Warnings: fb.Warnings}
}

// decodeValue decodes an attribute value from the document's encoding: the
// URL Standard parses text, and the HTML Standard hands it the document's
// characters, so a windows-1252 "caf\xe9" is "café" (and then
// "caf%C3%A9"), not an invalid UTF-8 byte. Nil means UTF-8; a value that
// does not decode stays as it is.
func decodeValue(v string, enc encoding.Encoding) string {
	if enc == nil || enc == unicode.UTF8 || isASCII(v) {
		return v
	}
	if d, err := enc.NewDecoder().String(v); err == nil {
		return d
	}
	return v
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// trimASCIISpace removes the HTML Standard's ASCII whitespace (tab, LF, FF,
// CR, space) from both ends of s.
func trimASCIISpace(s string) string {
	return strings.Trim(s, "\t\n\f\r ")
}

// absolute reports whether s has a scheme, as the draft's §2.4.2 parses it.
func absolute(s string) bool {
	return resolve.Parse(s).HasScheme
}

// scheme returns the lower-cased scheme of an absolute URL s, or "".
func scheme(s string) string {
	u := resolve.Parse(s)
	if !u.HasScheme {
		return ""
	}
	return strings.ToLower(u.Scheme)
}
