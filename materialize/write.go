package materialize

import (
	"bytes"
	"cmp"
	"errors"
	"html"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/manifest"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/xmlrewrite"
)

// write reads the inputs a second time and writes the file of every
// entry, then the stub page of every redirect.
func (r *run) write() {
	needs := make([]map[int64][]*entry, len(r.streams))
	parts := make([]map[string][]*entry, len(r.streams))
	for _, e := range r.entries {
		if e.redirect {
			continue
		}
		if e.kind == "error" && !r.opts.ErrorPages {
			e.tried = true // left out on purpose
			continue
		}
		o := e.c.orig
		if o.part != "" {
			if parts[o.stream] == nil {
				parts[o.stream] = map[string][]*entry{}
			}
			parts[o.stream][o.part] = append(parts[o.stream][o.part], e)
			continue
		}
		if needs[o.stream] == nil {
			needs[o.stream] = map[int64][]*entry{}
		}
		needs[o.stream][o.pos] = append(needs[o.stream][o.pos], e)
	}
	for si, s := range r.streams {
		if s.mhtml && parts[si] != nil {
			r.writeMHTML(si, parts[si])
		} else if needs[si] != nil {
			r.writeWARC(si, needs[si])
		}
	}
	for _, e := range r.entries {
		if e.redirect {
			r.writeStub(e)
		} else if !e.tried {
			r.problem(r.streams[e.c.orig.stream].String(), "", "the payload of "+e.c.url+" could not be read a second time: not written")
		}
	}
}

func (r *run) writeWARC(si int, needs map[int64][]*entry) {
	s := r.streams[si]
	err := r.eachRecord(s, func(rec *archive.Record) error {
		es := needs[rec.Position]
		if len(es) == 0 {
			return nil
		}
		where := "record at " + strconv.FormatInt(rec.Offset, 10)
		var payload []byte
		if rec.Type == "resource" {
			b, err := io.ReadAll(io.LimitReader(rec.Block, r.opts.Limits.DecodedBytes+1))
			if err != nil && !errors.Is(err, archive.ErrTruncated) {
				r.recordProblem(si, rec.Offset, where, errtext.Of(err))
				return nil
			}
			if int64(len(b)) > r.opts.Limits.DecodedBytes {
				r.problem(s.String(), where, "payload over "+strconv.FormatInt(r.opts.Limits.DecodedBytes, 10)+" bytes: not written")
				return nil
			}
			payload = b
		} else {
			resp, err := archive.ReadResponse(rec, r.opts.Limits)
			if err != nil {
				r.recordProblem(si, rec.Offset, where, errtext.Of(err))
				return nil
			}
			for _, w := range resp.Warnings {
				r.warn(s.String(), where, w)
			}
			payload = resp.Payload
		}
		for _, e := range es {
			r.writeEntry(e, payload, s.String(), where, nil, nil)
		}
		return nil
	}, nil)
	if err != nil {
		r.problem(s.String(), "", "read again: "+errtext.Of(err))
	}
}

func (r *run) writeMHTML(si int, parts map[string][]*entry) {
	s := r.streams[si]
	m, err := r.readMHTML(s)
	if err != nil {
		r.problem(s.String(), "", "read again: "+errtext.Of(err))
		return
	}
	// A link that names a part of this archive (RFC 2557 §8: by
	// Content-Location or cid:) goes to that part's file.
	local := func(u string) *entry {
		t := m.Find(u)
		if t == nil {
			return nil
		}
		if pu := partURL(m, t, si); pu != "" {
			return r.lookup(pu)
		}
		return nil
	}
	for path, es := range parts {
		p := m.Part(path)
		if p == nil {
			continue
		}
		body, err := m.Decode(p)
		if err != nil {
			r.problem(s.String(), "part "+path, errtext.Of(err))
			continue
		}
		// The part's base layers and type, as the archive decided them
		// (readMHTML reads the message under WHATWG's rules).
		c, ct := m.PartContext(p)
		c.Spec = cmp.Or(c.Spec, resolve.WHATWG)
		o := htmlrewrite.Options{Document: link.Document{Context: c, ContentType: ct}}
		for _, e := range es {
			r.writeEntry(e, body, s.String(), "part "+path, &o, local)
		}
	}
}

// writeEntry writes the file of e: the payload with its links pointed at
// the tree when it is an HTML page or a stylesheet, else as it is.
// mhtml, when set, holds the options of an MHTML part (its base layers).
func (r *run) writeEntry(e *entry, payload []byte, input, where string, mhtml *htmlrewrite.Options, local func(string) *entry) {
	e.tried = true
	data := payload
	mt := mediaType(e.c.ctype)
	kind, err := docKind(mt, payload)
	if err != nil {
		r.warn(input, where, e.c.url+": "+errtext.Of(err)+", written as captured")
	}
	if kind != "" {
		var o htmlrewrite.Options
		if mhtml != nil {
			o = *mhtml
		} else {
			// The HTTP header is no layer: browsers take a page's base
			// from its <base> and its URL only (base.Context.HTTP), so
			// the captured URL is the base below the page's own.
			o = htmlrewrite.Options{
				Document: link.Document{Context: base.Context{
					Spec:            resolve.WHATWG,
					Retrieval:       e.c.url,
					RetrievalDetail: "WARC-Target-URI",
				}, ContentType: strictType(e.c.ctype)},
			}
		}
		o.Base = htmlrewrite.BaseRemove
		o.LazyLoad, o.Srcdoc = true, true
		if r.opts.MaxToken > 0 {
			o.MaxSize = r.opts.MaxToken
		}
		o.Map = r.linkMap(e, local)
		// One open step (extract.Open) decides what the document's
		// kind needs before its first link: a page's encoding and base,
		// a stylesheet's or feed's encoding; the rewrite and the
		// <meta charset> that keeps the page's encoding both take it
		// from there.
		var out bytes.Buffer
		st, charset, err := rewriteEntry(&out, payload, kind, o, r.opts.MaxToken)
		switch {
		case err != nil:
			// A UTF-16 page, a tag over the bound: the file is written as
			// captured, and its links still name the web, so the tree is
			// not complete and the run says so.
			r.problem(input, where, e.c.url+": links not rewritten, written as captured: "+errtext.Of(err))
		default:
			data = out.Bytes()
			e.rewritten = true
			if mt == "text/html" {
				data = withCharset(data, o.ContentType, charset)
			}
			r.sum.Links += st.Links
			for _, w := range st.Warnings {
				r.warn(input, where, e.c.url+": "+w)
			}
		}
	}
	if err := r.putEntry(e, data); err != nil {
		r.problem(input, where, e.file+": "+errtext.Of(err))
		return
	}
	if e.kind == "page" {
		e.title = titleOf(data)
	}
	e.written = true
	if e.c.orig != e.c {
		r.sum.Revisits++
	}
	switch e.kind {
	case "page":
		r.sum.Pages++
	case "error":
		// Counted in ErrorResponses.
	default:
		r.sum.Resources++
	}
	r.progress()
}

// rewriteEntry rewrites payload, a document of kind (docKind's), to out
// through the open step of package extract, with o (the page options:
// its base layers, its Map) made into each kind's reader options, and
// returns what it did and the encoding the open step read it in.
func rewriteEntry(out *bytes.Buffer, payload []byte, kind string, o htmlrewrite.Options, maxSize int) (extract.Stats, string, error) {
	eo := extract.Options{HTML: o}
	var k base.Format
	switch kind {
	case "css":
		k = base.CSS
	case "feed":
		// Feed readers honour xml:base (RFC 4287 §2): the links are
		// resolved with it, then every xml:base is emptied, so that
		// the relative references written resolve against the feed's
		// own file.
		k = base.XML
		eo.XML = xmlrewrite.Options{Document: link.Document{Context: o.Context, Map: o.Map, Limits: link.Limits{MaxSize: maxSize}}, EmptyXMLBase: true}
	case "svg":
		// Browsers ignore xml:base in SVG (xmlrewrite's default
		// follows them), so a relative reference written here
		// resolves against the file, as it must.
		k = base.XML
		eo.XML = xmlrewrite.Options{Document: link.Document{Context: o.Context, Map: o.Map, Limits: link.Limits{MaxSize: maxSize}}}
	case "manifest":
		// The id member is the app's identity, resolved against
		// start_url's origin, which a file: URL lacks: it is written
		// absolute, as captured, never as a path.
		k = base.Manifest
		m := o.Map
		eo.Manifest = manifest.Options{Document: link.Document{Context: o.Context, Map: func(l link.Link) (string, bool) {
			if l.Attr == "id" {
				return l.URL, l.URL != ""
			}
			return m(l)
		}, Limits: link.Limits{MaxSize: maxSize}}}
	case "js":
		// Absolute: a specifier naming a captured URL in full is
		// pointed at the tree too; bare specifiers are left alone.
		k = base.Module
		eo.Module = jsmodule.Options{Document: link.Document{Context: o.Context, Absolute: true, Map: o.Map, Limits: link.Limits{MaxSize: maxSize}}}
	default:
		k = base.HTML
	}
	d, err := extract.Open(bytes.NewReader(payload), k, eo)
	if err != nil {
		return extract.Stats{}, "", err
	}
	defer d.Close()
	st, err := d.Rewrite(out)
	return st, d.Charset(), err
}

// docKind says which reader points the links of a document of media type
// mt at the tree, by package base's one rule for typed content
// (base.FormatOfContent: the type, the root element of XHTML and generic
// XML): "html" (HTML through htmlrewrite, whose BaseRemove takes out
// <base>; also XHTML without XHTML's root), "css" (its CSS reader), "svg"
// (xmlrewrite with browsers' rules: SVG, and XHTML with its root: href,
// xlink:href, CSS in style and <style>), "feed" (Atom and RSS through
// xmlrewrite, also when served as generic XML), "manifest" (web app
// manifests), "js" (scripts, through jsmodule: base.FormatOfType); "" for
// the kinds copied as captured. A payload that cannot be of its type
// (gzip bytes declared image/svg+xml) is "" with base's error, for the
// run's warning: it is written as captured.
func docKind(mt string, payload []byte) (string, error) {
	k, err := base.FormatOfContent(mt, payload)
	switch k {
	case base.HTML:
		return "html", nil
	case base.CSS:
		return "css", nil
	case base.XML:
		switch mt {
		case "application/atom+xml", "application/rss+xml":
			return "feed", nil
		case "image/svg+xml", "application/xhtml+xml":
			return "svg", nil
		}
		if f, ok := xmlrewrite.Sniff(payload[:min(len(payload), base.ContentSniffLen)]); ok && (f == xmlrewrite.Atom || f == xmlrewrite.RSS) {
			return "feed", nil
		}
		return "svg", nil
	case base.Manifest:
		return "manifest", nil
	case base.Module:
		// A script: every JavaScript MIME type (base.FormatOfType says
		// why each is read as a module).
		return "js", nil
	}
	return "", err
}

// strictType writes a Content-Type as htmlrewrite reads it: the media
// type and its charset.
func strictType(ctype string) string {
	mt, params := archive.ParseMediaType(ctype)
	if cs := params["charset"]; cs != "" {
		return mt + "; charset=" + cs
	}
	return mt
}

// target returns the entry a link to u ends at, following captured
// redirects, or nil and the absolute URL to write when it leaves the
// capture. frag is the fragment of the last Location, which a link
// without one of its own inherits (RFC 9110 §10.2.2).
func (r *run) target(u string, local func(string) *entry) (t *entry, abs, frag string) {
	if local != nil {
		t = local(u)
	}
	if t == nil {
		t = r.lookup(u)
	}
	if t == nil || !r.written(t) {
		return nil, u, ""
	}
	if t.redirect {
		if i := strings.IndexByte(t.final, '#'); i >= 0 {
			frag = t.final[i:]
		}
		f := r.lookup(t.final)
		switch {
		case f == nil || !r.written(f):
			return nil, t.final, ""
		case !f.redirect:
			return f, "", frag
		}
		// A loop: the stub page is the best there is.
	}
	return t, "", frag
}

// written reports whether the tree has a file for the entry t: every
// entry but an HTTP error without Options.ErrorPages.
func (r *run) written(t *entry) bool { return t.kind != "error" || r.opts.ErrorPages }

// linkMap is the htmlrewrite Map of the document of e: a link to a
// captured URL becomes the shortest relative reference to its file, with
// its fragment; a link to anything else becomes absolute; references
// with other schemes (mailto:, data:, javascript:) stay as written.
func (r *run) linkMap(e *entry, local func(string) *entry) func(link.Link) (string, bool) {
	rel := relativizer(e.file)
	type found struct {
		t              *entry
		abs, inherited string
	}
	seen := map[string]found{} // a page names the same URLs many times
	return func(l link.Link) (string, bool) {
		if l.URL == "" {
			return "", false
		}
		u, frag, _ := strings.Cut(l.URL, "#")
		if frag != "" || strings.HasSuffix(l.URL, "#") {
			frag = "#" + frag
		}
		sc, _ := resolve.Scheme(u)
		sc = strings.ToLower(sc)
		if sc != "http" && sc != "https" && sc != "cid" && sc != "thismessage" {
			return "", false
		}
		f, ok := seen[u]
		if !ok {
			f.t, f.abs, f.inherited = r.target(u, local)
			if len(seen) < 4096 {
				seen[u] = f
			}
		}
		t, abs, inherited := f.t, f.abs, f.inherited
		if t == nil && l.Attr == "importmap:address" {
			if dir, ok := r.prefixDir(u); ok {
				// An import map's prefix ("lib/": "/js/lib/") names the
				// folder of the modules it maps, not a file.
				r.sum.Local++
				return urlLike(strings.TrimSuffix(rel(dir+"_"), "_")), true
			}
		}
		if t == nil {
			switch sc {
			case "cid":
				return "", false
			case "thismessage":
				// A reference into the archive that names no part: its
				// absolute form, never a relative link to no file.
				r.sum.Uncaptured++
				return l.URL, true
			}
			r.sum.Uncaptured++
			if abs == u {
				return l.URL, true
			}
			return abs, true
		}
		if frag == "" {
			frag = inherited
		}
		r.sum.Local++
		ref := frag
		if t != e || frag == "" {
			ref = rel(t.file) + frag
		}
		if l.Kind == link.Import {
			ref = urlLike(ref)
		}
		return ref, true
	}
}

// prefixDir returns the folder of the tree (slash-separated, relative to
// Dir, ending in "/") that holds the files of the URLs under u, a URL
// ending in "/" that is no capture itself: the folder of the first
// captured file under it whose name keeps its URL's path as it is.
func (r *run) prefixDir(u string) (string, bool) {
	web, err := resolve.ParseWebURL(u, nil, resolve.Options{})
	if err != nil || web.Search() != "" || !strings.HasSuffix(web.Pathname(), "/") {
		return "", false
	}
	key := keyOf(web)
	i, _ := slices.BinarySearchFunc(r.entries, key, func(e *entry, k string) int { return cmp.Compare(e.c.key, k) })
	for ; i < len(r.entries) && strings.HasPrefix(r.entries[i].c.key, key); i++ {
		e := r.entries[i]
		rest := e.c.key[len(key):]
		if r.written(e) && !e.redirect && !strings.ContainsAny(rest, "?%") && strings.HasSuffix(e.file, "/"+rest) {
			return e.file[:len(e.file)-len(rest)], true
		}
	}
	return "", false
}

// urlLike makes a relative reference a URL-like module specifier (HTML
// §8.1.5.3 "resolve a URL-like module specifier": it starts with "/",
// "./" or "../"): module specifiers and import map addresses that are
// not are bare, names for the import map, no longer paths.
func urlLike(ref string) string {
	if strings.HasPrefix(ref, "../") || strings.HasPrefix(ref, "./") || strings.HasPrefix(ref, "/") {
		return ref
	}
	return "./" + ref
}

// relRef returns the shortest relative reference from the file from to
// the file to (both slash-separated, relative to Dir), each segment
// percent-encoded (see escapeSegment) so that the reference holds no "?"
// or "#" and no ":" a parser could take for a scheme.
func relRef(from, to string) string { return relativizer(from)(to) }

// relativizer returns relRef from the file from, with from parsed once.
func relativizer(from string) func(to string) string {
	const root = "file:///t/"
	rv, err := resolve.NewResolver(resolve.WHATWG, root+escapePath(from), resolve.Options{})
	// A page names the same few files many times (its images, its
	// stylesheet): each is worked out once.
	done := map[string]string{}
	return func(to string) string {
		if from == to {
			return escapeSegment(to[strings.LastIndexByte(to, '/')+1:])
		}
		if rel, ok := done[to]; ok {
			return rel
		}
		if err == nil {
			if rel, err := rv.RelativePath(root + escapePath(to)); err == nil && rel != "" {
				if len(done) < 4096 {
					done[to] = rel
				}
				return rel
			}
		}
		// Not reached with the names layout makes; the long way round.
		fs, ts := strings.Split(from, "/"), strings.Split(to, "/")
		i := 0
		for i < len(fs)-1 && i < len(ts)-1 && fs[i] == ts[i] {
			i++
		}
		return strings.Repeat("../", len(fs)-1-i) + escapePath(strings.Join(ts[i:], "/"))
	}
}

func escapePath(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = escapeSegment(s)
	}
	return strings.Join(segs, "/")
}

// escapeSegment percent-encodes every byte of a file name but the
// unreserved characters and the sub-delimiters a path segment may hold
// (RFC 3986 §3.3) other than ":": "%" becomes "%25", "?" "%3F", "#" "%23".
func escapeSegment(s string) string {
	i := 0
	for i < len(s) && segmentSafe(s[i]) {
		i++
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if segmentSafe(c) {
			b.WriteByte(c)
			continue
		}
		b.WriteString("%" + strings.ToUpper(strconv.FormatUint(uint64(c)>>4, 16)+strconv.FormatUint(uint64(c)&15, 16)))
	}
	return b.String()
}

func segmentSafe(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-._~!$&'()*+,;=@", c) >= 0
}

// writeStub writes the page a redirect URL leaves in the tree, so that a
// bookmark into the tree still works: a meta refresh and a link to where
// the redirect chain ends (its file, or the absolute URL when the capture
// does not hold it), as jekyll-redirect-from writes them.
func (r *run) writeStub(e *entry) {
	href := e.final
	t, abs, frag := r.target(e.c.url, nil)
	if t != nil && t != e {
		href = relRef(e.file, t.file) + frag
	} else if t == nil {
		href = abs
	}
	h := html.EscapeString(href)
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n")
	b.WriteString("<title>Redirect</title>\n")
	b.WriteString("<meta http-equiv=\"refresh\" content=\"0; url=" + h + "\">\n")
	b.WriteString("<link rel=\"canonical\" href=\"" + h + "\">\n")
	b.WriteString("</head><body>\n<p>" + strconv.Itoa(e.c.status) + " redirect from <code>" + html.EscapeString(e.c.url) + "</code> to <a href=\"" + h + "\">" + html.EscapeString(e.final) + "</a>.</p>\n</body></html>\n")
	if err := r.putEntry(e, []byte(b.String())); err != nil {
		r.problem(r.streams[e.c.stream].String(), "", e.file+": "+errtext.Of(err))
		return
	}
	e.written = true
	r.sum.Redirects++
	r.progress()
}
