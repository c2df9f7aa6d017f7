package resolve

import "sync"

// A Resolver resolves references against one base URL under one Spec. The
// base is parsed once, when the Resolver is made, so a document's links cost
// only the parsing of each reference. A Resolver is immutable and safe for
// concurrent use.
type Resolver struct {
	spec Spec
	opts Options
	base string
	// The base as each family of modes parses it; only the one for spec is
	// set.
	draft   URL    // RFC1808: the draft's six components (§2.4)
	generic uriRef // RFC2396, RFC3986: the five components of RFC 3986 §3
	// RFC3986: what reference3986 puts before a reference that needs no
	// dot-segment removal
	prefixes basePrefixes
	web      *whatwgBase // WHATWG; nil when base is empty
}

// NewResolver parses base under spec and returns a Resolver for it.
//
// An empty base is the draft's §3.4 default: absolute references still
// resolve (to themselves, or as the mode normalizes them) and relative ones
// fail with ErrNoBase. A base without a scheme fails with ErrRelativeBase,
// because the result of resolving against it would not be absolute.
//
// The Resolver may be one made before for the same arguments (Resolvers
// are immutable): a page of a tree has its URL parsed by the open step,
// which checks it (base.Context), and again by its reader.
func NewResolver(spec Spec, base string, opts Options) (*Resolver, error) {
	if base == "" || opts.QueryEncoding != nil {
		return newResolver(spec, base, opts)
	}
	if r := recent.find(spec, base, opts); r != nil {
		return r, nil
	}
	r, err := newResolver(spec, base, opts)
	if err == nil {
		recent.add(r)
	}
	return r, err
}

// recent keeps the Resolvers made last, for NewResolver: only those whose
// Options compare without an encoding (an interface whose dynamic value
// may not be comparable).
var recent recentResolvers

type recentResolvers struct {
	mu   sync.Mutex
	r    [4]*Resolver
	next int
}

func (c *recentResolvers) find(spec Spec, base string, opts Options) *Resolver {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, r := range c.r {
		if r != nil && r.spec == spec && r.base == base && r.opts == opts {
			return r
		}
	}
	return nil
}

func (c *recentResolvers) add(r *Resolver) {
	c.mu.Lock()
	c.r[c.next] = r
	c.next = (c.next + 1) % len(c.r)
	c.mu.Unlock()
}

// newResolver is NewResolver without the recent ones.
func newResolver(spec Spec, base string, opts Options) (*Resolver, error) {
	r := &Resolver{spec: spec, opts: opts, base: base}
	fail := func(err error) (*Resolver, error) {
		return nil, &Error{Op: "parse base", Spec: spec, Ref: base, Err: err}
	}
	switch spec {
	case RFC1808:
		r.draft = Parse(base)
		if base != "" && !r.draft.HasScheme {
			return fail(ErrRelativeBase)
		}
	case RFC2396, RFC3986:
		r.generic = splitURIRef(base)
		if base != "" && !r.generic.hasScheme {
			return fail(ErrRelativeBase)
		}
		if spec == RFC3986 && base != "" {
			r.prefixes = newBasePrefixes(base, &r.generic)
		}
	case WHATWG:
		if base != "" {
			w, err := parseWHATWGBase(base, opts)
			if err != nil {
				return fail(err)
			}
			r.web = w
		}
	default:
		return fail(ErrInvalidSpec)
	}
	return r, nil
}

// Spec returns the mode r resolves under.
func (r *Resolver) Spec() Spec { return r.spec }

// Base returns the base URL r was made with, as given.
func (r *Resolver) Base() string { return r.base }

// Reference resolves ref against r's base and returns the absolute URL.
// Errors are of type *Error. The result is the only allocation, and none
// is made when the result is ref itself or a part of the base (an
// absolute reference already in its resolved form is returned as given).
func (r *Resolver) Reference(ref string) (string, error) {
	var (
		s   string
		err error
	)
	switch r.spec {
	case RFC1808:
		s, err = r.reference1808(ref)
	case RFC2396:
		s, err = r.reference2396(ref)
	case RFC3986:
		s, err = r.reference3986(ref)
	case WHATWG:
		s, err = r.web.reference(ref, r.opts)
	default:
		err = ErrInvalidSpec
	}
	if err != nil {
		return "", &Error{Op: "resolve", Spec: r.spec, Base: r.base, Ref: ref, Err: err}
	}
	return s, nil
}

// AppendReference appends the URL [Resolver.Reference] returns for ref to
// dst and returns the extended buffer, as strconv's Append functions do;
// on error it returns dst unchanged and Reference's error. A caller that
// keeps the URL with other text (a link's value as written and its URL,
// in one string) so resolves without a string of its own for the URL: in
// the RFC 3986 mode, and for WHATWG's relative paths against an http(s)
// base, the result is written into dst directly, making no allocation
// when dst has room; otherwise it is Reference's result, appended.
func (r *Resolver) AppendReference(dst []byte, ref string) ([]byte, error) {
	var (
		b   []byte
		err error
	)
	switch r.spec {
	case RFC3986:
		b, err = r.append3986(dst, ref)
	case WHATWG:
		b, err = r.web.appendReference(dst, ref, r.opts)
	default:
		s, err := r.Reference(ref)
		if err != nil {
			return dst, err
		}
		return append(dst, s...), nil
	}
	if err != nil {
		return dst, &Error{Op: "resolve", Spec: r.spec, Base: r.base, Ref: ref, Err: err}
	}
	return b, nil
}

// Reference resolves ref against base under spec with default Options. To
// resolve many references against one base, make a [Resolver] once instead.
func Reference(spec Spec, base, ref string) (string, error) {
	r, err := NewResolver(spec, base, Options{})
	if err != nil {
		return "", err
	}
	return r.Reference(ref)
}
