package links

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

// CCGraph is a host graph in Common Crawl's form: Vertices lines
// "id<TAB>reversed host" (com.example for www.example.com), Edges lines
// "from_id<TAB>to_id", both sorted by id, ids counted from 0 in the
// order of the reversed host names.
type CCGraph struct {
	Vertices []string
	Edges    []string
}

func init() {
	beam.RegisterType(reflect.TypeOf((*CCGraph)(nil)).Elem())
	register.Function3x0(ccGraphFn)
	register.DoFn2x1[context.Context, CCGraph, error](&writeCCGraphFn{})
	register.Iter1[HostEdge]()
}

// CCHostGraph returns the host graph of edges (HostEdge, from HostGraph)
// in Common Crawl's form (one CCGraph). Host names are taken as
// cc-pyspark's ExtractHostLinksJob takes them: lower-case, a trailing dot
// and a leading "www." (of a name of three labels or more) dropped, IP
// addresses and one-label names left out; self-loops are left out, as
// Common Crawl's graphs have none. Numbering needs every host name at
// once: the graph is gathered on one worker, so its size (not the
// crawl's) bounds that worker's memory.
func CCHostGraph(s beam.Scope, edges beam.PCollection) beam.PCollection {
	s = s.Scope("relurl.CCHostGraph")
	return beam.ParDo(s, ccGraphFn, beam.GroupByKey(s, beam.AddFixedKey(s, edges)))
}

func ccGraphFn(_ int, edges func(*HostEdge) bool, emit func(CCGraph)) {
	ids := map[string]int{}
	type pair struct{ from, to string }
	var pairs []pair
	seen := map[pair]bool{}
	var e HostEdge
	for edges(&e) {
		from, to := CCHost(e.Source), CCHost(e.Target)
		if from == "" || to == "" || from == to {
			continue
		}
		ids[from], ids[to] = 0, 0
		if p := (pair{from, to}); !seen[p] {
			seen[p] = true
			pairs = append(pairs, p)
		}
	}
	hosts := make([]string, 0, len(ids))
	for h := range ids {
		hosts = append(hosts, h)
	}
	slices.Sort(hosts)
	g := CCGraph{Vertices: make([]string, len(hosts))}
	for i, h := range hosts {
		ids[h] = i
		g.Vertices[i] = strconv.Itoa(i) + "\t" + h
	}
	numbered := make([][2]int, len(pairs))
	for i, p := range pairs {
		numbered[i] = [2]int{ids[p.from], ids[p.to]}
	}
	slices.SortFunc(numbered, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return a[1] - b[1]
	})
	g.Edges = make([]string, len(numbered))
	for i, n := range numbered {
		g.Edges[i] = strconv.Itoa(n[0]) + "\t" + strconv.Itoa(n[1])
	}
	emit(g)
}

// CCHost returns host reversed as Common Crawl's host graph names it
// ("www.example.com" is "com.example"), or "" for a name it leaves out.
func CCHost(host string) string {
	h := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(host)), ".")
	if h == "" || len(h) > 253 || net.ParseIP(h) != nil || net.ParseIP(strings.TrimPrefix(h, "www.")) != nil {
		return ""
	}
	parts := strings.Split(h, ".")
	if len(parts) < 2 {
		return ""
	}
	if len(parts) > 2 && parts[0] == "www" {
		parts = parts[1:]
	}
	for _, p := range parts {
		if p == "" || len(p) > 63 {
			return ""
		}
	}
	slices.Reverse(parts)
	return strings.Join(parts, ".")
}

// WriteCCGraph writes the graph (one CCGraph) as the files
// PREFIX-vertices.txt and PREFIX-edges.txt, through Beam's file systems.
func WriteCCGraph(s beam.Scope, prefix string, graph beam.PCollection) {
	s = s.Scope("relurl.WriteCCGraph")
	beam.ParDo0(s, &writeCCGraphFn{Prefix: prefix}, graph)
}

type writeCCGraphFn struct {
	Prefix string
}

func (fn *writeCCGraphFn) ProcessElement(ctx context.Context, g CCGraph) error {
	if err := writeLines(ctx, fn.Prefix+"-vertices.txt", g.Vertices); err != nil {
		return err
	}
	return writeLines(ctx, fn.Prefix+"-edges.txt", g.Edges)
}

// writeLines writes lines to the file name, replacing it.
func writeLines(ctx context.Context, name string, lines []string) error {
	fsys, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fsys.Close()
	f, err := fsys.OpenWrite(ctx, name)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 256<<10)
	for _, l := range lines {
		w.WriteString(l)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}
