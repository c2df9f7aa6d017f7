package wat

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// Stats counts what Links read.
type Stats struct {
	Records      int64 // WARC records read (with a valid header)
	RecordErrors int64 // record errors: damaged records, metadata that is not JSON
}

// Links reads the WAT file r (plain or gzip, one member per record or
// one stream: archive.WARCReader) and calls fn for every link of its
// metadata records, in file order: the head's links and scripts, then
// the page's links, then the entries of the HTTP headers (a 3xx Location,
// a Link header). Each is resolved under spec as relurl resolves a page's
// links (the §3 layers): against the page's <base href> (Head.Base,
// itself resolved against the retrieval URL), else the record's
// WARC-Target-URI, the retrieval URL; the link's Base says which. Tag,
// Attr and Kind come from the entry's path ("A@/href": a, href,
// navigation); Line, Column and Offset are 0, as WAT keeps no positions;
// Record is the metadata record's offset, Target its WARC-Target-URI.
//
// Damage is recovered from record by record, as for a WARC file: each
// damaged record, and each metadata record whose JSON does not parse, is
// given to onRecordError (nil: the first ends the file with its error).
func Links(r io.Reader, spec resolve.Spec, fn func(link.Link) error, onRecordError func(*archive.RecordError) error) (Stats, error) {
	return LinksWith(r, Options{Spec: spec}, fn, onRecordError)
}

// Options control LinksWith.
type Options struct {
	Spec resolve.Spec // how the links are resolved
	// Pipelined decodes a .wat.gz's gzip members (or a zstd WAT's
	// frames) on a goroutine of its own, ahead of the JSON and the links
	// (archive.WARCReader.Pipeline); r is then read there. Stream is the
	// stream r reads from, if it does (see archive.Stream).
	Pipelined bool
	Stream    *archive.Stream
}

// LinksWith is Links with the options o.
func LinksWith(r io.Reader, o Options, fn func(link.Link) error, onRecordError func(*archive.RecordError) error) (Stats, error) {
	var st Stats
	spec := o.Spec
	if onRecordError == nil {
		onRecordError = func(e *archive.RecordError) error { return e }
	}
	wr := archive.NewWARCReader(r)
	if o.Pipelined {
		wr.Pipeline(o.Stream)
		defer wr.Close()
	}
	for {
		rec, err := wr.Next()
		if err == io.EOF {
			return st, nil
		}
		if re, ok := errors.AsType[*archive.RecordError](err); ok {
			st.RecordErrors++
			if err := onRecordError(re); err != nil {
				return st, err
			}
			continue
		}
		if err != nil {
			return st, err
		}
		st.Records++
		if rec.Type != "metadata" {
			continue
		}
		if mt, _ := archive.ParseMediaType(rec.Header.Get("Content-Type")); mt != "application/json" {
			continue
		}
		var e Envelope
		if err := json.NewDecoder(rec.Block).Decode(&e); err != nil {
			st.RecordErrors++
			re := &archive.RecordError{Offset: rec.Offset, Target: rec.TargetURI, Err: archive.ErrCorrupt, Detail: "WAT JSON: " + err.Error() + "; record skipped"}
			if err := onRecordError(re); err != nil {
				return st, err
			}
			continue
		}
		if err := recordLinks(rec, &e, spec, fn); err != nil {
			return st, err
		}
	}
}

// recordLinks gives the links of one metadata record.
func recordLinks(rec *archive.Record, e *Envelope, spec resolve.Spec, fn func(link.Link) error) error {
	m := e.Envelope.PayloadMetadata.HTTPResponseMetadata
	if m == nil {
		return nil
	}
	target := rec.TargetURI
	if target == "" {
		target = e.Envelope.WARCHeaderMetadata["WARC-Target-URI"]
	}
	if err := headerLinks(rec, m, target, spec, fn); err != nil {
		return err
	}
	hm := m.HTMLMetadata
	if hm == nil {
		return nil
	}
	b := base.Result{URL: target, Source: base.Retrieval, Detail: "WARC-Target-URI"}
	if target == "" {
		b = base.Result{}
	}
	if hb := hm.Head.Base; hb != "" {
		// HTML: the first <base href> is resolved against the fallback
		// base (the retrieval URL); one that does not resolve is ignored.
		if u, err := resolve.Reference(spec, target, hb); err == nil {
			b = base.Result{URL: u, Source: base.Embedded, Detail: "Head.Base"}
		} else {
			b.Warnings = append(b.Warnings, "Head.Base "+hb+" ignored: "+err.Error())
		}
	}
	retrieval := base.Result{URL: target, Source: base.Retrieval, Detail: "WARC-Target-URI"}
	emit := func(entries []Link) error {
		for _, en := range entries {
			if en.URL == "" && en.Path == "" {
				continue
			}
			l := linkOf(en)
			lb := b
			if l.Kind == link.Redirect || l.Kind == link.Header {
				lb = retrieval // HTTP headers resolve against the request URL, never a body's base
			}
			l.Base = lb
			if l.Tag == "form" && l.Attr == "action" && strings.TrimSpace(l.Raw) == "" && target != "" {
				// HTML's form submission: an empty action is the
				// document's URL, whatever the base.
				l.URL = target
			} else if lb.URL == "" {
				l.Err = errors.New("no base URL to resolve against")
			} else if u, err := resolve.Reference(spec, lb.URL, l.Raw); err != nil {
				l.Err = err
			} else {
				l.URL = u
			}
			l.Record, l.Target = rec.Offset, target
			if err := fn(l); err != nil {
				return err
			}
		}
		return nil
	}
	if err := emit(hm.Head.Link); err != nil {
		return err
	}
	if err := emit(hm.Head.Scripts); err != nil {
		return err
	}
	return emit(hm.Links)
}

// headerLinks gives the links of the HTTP headers, as relurl reads a WARC
// response's: a 3xx response's Location (kind redirect) and the targets of
// Link (RFC 8288), both against the retrieval URL (RFC 9110 §10.2.2, RFC
// 8288 §3.1), never a body's base.
func headerLinks(rec *archive.Record, m *HTTPResponseMetadata, target string, spec resolve.Spec, fn func(link.Link) error) error {
	b := base.Result{URL: target, Source: base.Retrieval, Detail: "WARC-Target-URI"}
	get := func(name string) string {
		for k, v := range m.Headers {
			if strings.EqualFold(k, name) {
				return v
			}
		}
		return ""
	}
	status := m.ResponseMessage.Status
	if loc := get("Location"); loc != "" && len(status) == 3 && status[0] == '3' {
		l := link.Link{Raw: loc, Attr: "location", Kind: link.Redirect, Base: b, Record: rec.Offset, Target: target}
		if u, err := resolve.Reference(spec, target, strings.TrimSpace(loc)); err != nil {
			l.Err = err
		} else {
			l.URL = u
		}
		if err := fn(l); err != nil {
			return err
		}
	}
	if v := get("Link"); v != "" {
		return archive.HeaderLinks([]string{v}, spec, target, func(l link.Link) error {
			l.Record, l.Target, l.Base = rec.Offset, target, b
			return fn(l)
		})
	}
	return nil
}

// linkOf is the link of a WAT entry, its URL not yet resolved.
func linkOf(en Link) link.Link {
	tag, attr := splitPath(en.Path)
	l := link.Link{Raw: en.URL, Tag: tag, Attr: attr}
	if en.Rel != "" {
		l.Rel = strings.Fields(strings.ToLower(en.Rel))
	}
	if k, ok := link.ParseKind(en.Kind); ok {
		l.Kind = k
	} else {
		l.Kind = pathKind(tag, attr, l.Rel)
	}
	return l
}

// splitPath splits "A@/href" into "a" and "href", "STYLE/#text" into
// "style" and "".
func splitPath(p string) (tag, attr string) {
	if t, a, ok := strings.Cut(p, "@/"); ok {
		return strings.ToLower(t), strings.ToLower(a)
	}
	t, _, _ := strings.Cut(p, "/")
	return strings.ToLower(t), ""
}

// pathKind is the kind of a link by its element and attribute, as relurl
// classifies the same link read from HTML.
func pathKind(tag, attr string, rel []string) link.Kind {
	switch {
	case tag == "http" && attr == "location":
		return link.Redirect
	case tag == "http" && attr == "link":
		return link.Header
	case tag == "style" || attr == "style":
		return link.CSS
	case tag == "form" && attr == "action", attr == "formaction":
		return link.Form
	case attr == "cite" || attr == "longdesc":
		return link.Citation
	case tag == "meta":
		return link.Refresh
	case tag == "a" || tag == "area":
		return link.Navigation
	case tag == "link":
		for _, r := range rel {
			switch r {
			case "stylesheet", "icon", "preload", "prefetch", "manifest", "apple-touch-icon":
				return link.Resource
			case "modulepreload":
				return link.Import
			}
		}
		return link.Navigation
	case strings.HasPrefix(attr, "data-") && strings.HasSuffix(attr, "href"):
		return link.Navigation
	}
	return link.Resource
}
