package links

import (
	"bytes"
	"encoding/json"
	"net/url"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/filter"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/transforms/stats"
)

// A HostEdge is an edge of the host graph: Count links lead from pages on
// host Source to URLs on host Target (host names lower-case, without
// port; self-loops included).
type HostEdge struct {
	Source string `json:"source"`
	Target string `json:"target"`
	Count  int64  `json:"count"`
}

// A PageEdge is an edge of the page graph: some page Source links to the
// URL Target with a link of kind Kind. Each edge appears once however
// often the link does, the shape of Common Crawl's page-level graphs.
type PageEdge struct {
	Source string `json:"source"`
	Target string `json:"target"`
	Kind   string `json:"kind"`
}

func init() {
	beam.RegisterType(reflect.TypeOf((*HostEdge)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*PageEdge)(nil)).Elem())
	register.Function2x0(hostPairFn)
	register.Function2x0(pageEdgeKeyFn)
	register.Function2x1(hostEdgeFn)
	register.Function1x1(pageEdgeFn)
	register.Emitter1[string]()
}

// edgeSep joins the parts of an edge's key; no URL holds a NUL byte.
const edgeSep = "\x00"

// HostGraph returns the host graph (HostEdge) of links (Link): for each
// pair of source and target host, how many links lead from one to the
// other. The source is the page the link is on (Link.Page); links that
// did not resolve, and URLs without a host (mailto:, data:, file:), are
// left out.
func HostGraph(s beam.Scope, links beam.PCollection) beam.PCollection {
	s = s.Scope("relurl.HostGraph")
	pairs := beam.ParDo(s, hostPairFn, links)
	return beam.ParDo(s, hostEdgeFn, stats.Count(s, pairs))
}

// PageGraph returns the page graph (PageEdge) of links (Link): each
// (source page, target URL, kind) once. Links that did not resolve are
// left out.
func PageGraph(s beam.Scope, links beam.PCollection) beam.PCollection {
	s = s.Scope("relurl.PageGraph")
	keys := beam.ParDo(s, pageEdgeKeyFn, links)
	return beam.ParDo(s, pageEdgeFn, filter.Distinct(s, keys))
}

func hostPairFn(l Link, emit func(string)) {
	src, dst := hostOf(l.Page), hostOf(l.URL)
	if src == "" || dst == "" {
		return
	}
	emit(src + edgeSep + dst)
}

func hostEdgeFn(key string, n int) HostEdge {
	src, dst, _ := strings.Cut(key, edgeSep)
	return HostEdge{Source: src, Target: dst, Count: int64(n)}
}

func pageEdgeKeyFn(l Link, emit func(string)) {
	if l.URL == "" || l.Page == "" {
		return
	}
	emit(l.Page + edgeSep + l.URL + edgeSep + l.Kind)
}

func pageEdgeFn(key string) PageEdge {
	parts := strings.SplitN(key, edgeSep, 3)
	return PageEdge{Source: parts[0], Target: parts[1], Kind: parts[2]}
}

// hostOf returns the lower-case host name of the absolute URL u, or "".
func hostOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return ""
	}
	return strings.ToLower(p.Hostname())
}

// AppendJSON appends e as one JSON object and a newline.
func (e *HostEdge) AppendJSON(buf []byte) []byte { return appendJSON(buf, e) }

// AppendJSON appends e as one JSON object and a newline.
func (e *PageEdge) AppendJSON(buf []byte) []byte { return appendJSON(buf, e) }

// appendJSON appends v as JSON and a newline, with "<", ">" and "&" as
// they are (json.Marshal would escape them), as relurl links writes URLs.
func appendJSON(buf []byte, v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return append(buf, b.Bytes()...)
}
