package links_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"

	"github.com/relurl/relurl/beam/links"
)

// A pipeline of your own from the package's transforms: the links of the
// WARC files of a directory, as JSON Lines with two fields, and their host
// graph, on the prism runner.
func Example() {
	dir, _ := os.MkdirTemp("", "links-example-")
	defer os.RemoveAll(dir)
	page := "<a href=\"intro.html\">i</a> <img src=\"https://cdn.example.net/x.png\">"
	http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
	warc := fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.org/docs/\r\n"+
		"Content-Type: application/http; msgtype=response\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(http), http)
	os.WriteFile(filepath.Join(dir, "crawl.warc"), []byte(warc), 0o644)

	p, s := beam.NewPipelineWithRoot()
	files := links.Match(s, filepath.Join(dir, "*.warc"))
	found, failures := links.Extract(s, files, links.Options{})
	links.WriteJSONL(s, filepath.Join(dir, "out", "links"), links.FormatLinks(s, found, []string{"url", "kind"}))
	links.WriteJSONL(s, filepath.Join(dir, "out", "errors"), links.FormatFailures(s, failures))
	links.WriteJSONL(s, filepath.Join(dir, "out", "hosts"), links.FormatHostEdges(s, links.HostGraph(s, found)))
	res, err := ptest.RunWithMetrics(p)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, set := range []string{"links", "hosts"} {
		data, _ := os.ReadFile(links.ShardName(filepath.Join(dir, "out", set), 0, 1))
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		slices.Sort(lines)
		fmt.Println(strings.Join(lines, "\n"))
	}
	fmt.Println(links.CountsOf(res.Metrics()))
	// Output:
	// {"url":"https://cdn.example.net/x.png","kind":"resource"}
	// {"url":"https://example.org/docs/intro.html","kind":"navigation"}
	// {"source":"example.org","target":"cdn.example.net","count":1}
	// {"source":"example.org","target":"example.org","count":1}
	// 1 files, 1 records, 2 links, 0 records failed, 0 files failed
}
