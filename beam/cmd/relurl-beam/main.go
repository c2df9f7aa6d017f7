// Command relurl-beam extracts the links of WARC, MHTML, HTML, CSS, SVG,
// feed, manifest and JS module files (as relurl links reads them) with an
// Apache Beam pipeline: on this machine with the prism runner (the
// default, pure Go, no Java), or on Dataflow, Flink or Spark.
//
//	relurl-beam --input 'crawl/*.warc.gz' --output out/ [--graph host|page|none] [--fields LIST] [--runner R ...]
//
// It writes JSON Lines shards: PREFIX-links-*.jsonl (the lines of `relurl
// links`), PREFIX-errors-*.jsonl (one line per record or file that could
// not be read: file, offset, target, error), and PREFIX-hosts-*.jsonl or
// PREFIX-pages-*.jsonl with --graph. With --format parquet the links are
// PREFIX-links-*.parquet tables; with --format wat, PREFIX-links-*.wat.gz
// WAT files (those of `relurl links --format wat`, for local WARC files). It prints the counters on stderr and
// exits 0 when the pipeline ran, whatever the inputs held (their failures
// are in the errors shards), 1 when the pipeline failed, 2 on bad usage.
// Beam's own flags (--runner, --endpoint, --project, ...) pass through.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/gcs"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/s3"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/x/beamx"

	"github.com/relurl/relurl/beam/links"
	"github.com/relurl/relurl/resolve"
)

var (
	input           = flag.String("input", "", "input files: a glob, or several comma-separated (local, gs://, s3://)")
	output          = flag.String("output", "", `prefix of the output files ("out/" writes out/links-*.jsonl, out/errors-*.jsonl, ...)`)
	graph           = flag.String("graph", "none", `"host", "page", "host,page" or "none"`)
	graphFormat     = flag.String("graph-format", "jsonl", `"jsonl" (edges as JSON Lines) or "cc" (the host graph also in Common Crawl's form: PREFIX-cc-host-graph-vertices.txt "id<TAB>reversed host" and -edges.txt "from_id<TAB>to_id", sorted by id)`)
	fields          = flag.String("fields", "", "link fields to write, comma-separated, in that order (default: those of relurl links; also: page)")
	spec            = flag.String("spec", "whatwg", "resolution mode: rfc1808, rfc2396, rfc3986 or whatwg")
	strict          = flag.Bool("strict", false, "only a BASE in HEAD with an absolute HREF sets a document's base")
	contentLocation = flag.Bool("content-location", false, "a WARC response's HTTP Content-Location is a base layer")
	inputFormat     = flag.String("input-format", "auto", `"auto" (each file by its name and content; *.wat and *.wat.gz are WAT) or "wat" (every input is a WAT file, as relurl links --input-format wat)`)
	format          = flag.String("format", "jsonl", `links output: "jsonl" (PREFIX-links-i-of-n.jsonl), "parquet" (PREFIX-links-i-of-n.parquet, the table of relurl links --format parquet) or "wat" (PREFIX-links-i-of-n.wat.gz, the WAT files of relurl links --format wat: one metadata record per WARC response, revisit and resource record; WARC inputs only, local files only, as each is read again for its records' headers; no --fields, no --input-format wat)`)
	maxSize         = flag.Int64("max-size", 256<<20, "largest MHTML file, in bytes (WARC and HTML files stream)")
)

func main() {
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: relurl-beam --input GLOB[,GLOB] --output PREFIX [--graph host|page|none] [--fields LIST] [--runner prism|dataflow|flink|spark|universal] [beam flags]\n")
		flag.PrintDefaults()
	}
	flag.Parse()
	os.Exit(run())
}

func run() int {
	usage := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "relurl-beam: "+format+"\n", a...)
		return 2
	}
	if *input == "" || *output == "" {
		flag.Usage()
		return 2
	}
	sp, err := resolve.ParseSpec(*spec)
	if err != nil {
		return usage("--spec: %v", err)
	}
	gs, err := links.ParseGraphs(*graph)
	if err != nil {
		return usage("--graph: %v", err)
	}
	if *inputFormat != "auto" && *inputFormat != "wat" {
		return usage(`--input-format is "auto" or "wat", not %q`, *inputFormat)
	}
	switch *format {
	case "jsonl", "parquet":
	case "wat":
		if *inputFormat == "wat" {
			return usage("--format wat describes WARC records: not with --input-format wat")
		}
		if *fields != "" {
			return usage("--format wat holds links only, every field: no --fields")
		}
	default:
		return usage(`--format is "jsonl", "parquet" or "wat", not %q`, *format)
	}
	if *graphFormat != "jsonl" && *graphFormat != "cc" {
		return usage(`--graph-format is "jsonl" or "cc", not %q`, *graphFormat)
	}
	fs, err := links.ParseFields(*fields)
	if err != nil {
		return usage("--fields: %v", err)
	}
	var globs []string
	for g := range strings.SplitSeq(*input, ",") {
		if g = strings.TrimSpace(g); g != "" {
			globs = append(globs, g)
		}
	}
	job := links.Job{
		Inputs: globs, Output: *output, Graphs: gs, GraphFormat: *graphFormat, Fields: fs, Format: *format,
		Options: links.Options{Spec: sp, Strict: *strict, ContentLocation: *contentLocation, MaxSize: *maxSize, WAT: *inputFormat == "wat"},
	}
	beam.Init()
	p, s := beam.NewPipelineWithRoot()
	if err := job.Build(s); err != nil {
		return usage("%v", err)
	}
	cleanup, err := privateTemp()
	if err != nil {
		fmt.Fprintf(os.Stderr, "relurl-beam: %v\n", err)
		return 1
	}
	defer cleanup()
	res, err := beamx.RunWithMetrics(context.Background(), p)
	if err != nil {
		fmt.Fprintf(os.Stderr, "relurl-beam: %v\n", err)
		return 1
	}
	if res != nil {
		fmt.Fprintf(os.Stderr, "relurl-beam: %v\n", links.CountsOf(res.Metrics()))
	}
	return 0
}

// privateTemp points TMPDIR at a new directory for the run and returns
// what removes it and restores TMPDIR. Beam's universal runner leaves an
// empty "beamloopbackworker-*" file in os.TempDir() on every LOOPBACK run
// (apache/beam#27569), and runners build or stage worker files there: a
// run must not leave files behind in the user's temporary directory.
func privateTemp() (cleanup func(), err error) {
	dir, err := os.MkdirTemp("", "relurl-beam-")
	if err != nil {
		return nil, err
	}
	prev, had := os.LookupEnv("TMPDIR")
	os.Setenv("TMPDIR", dir)
	return func() {
		if had {
			os.Setenv("TMPDIR", prev)
		} else {
			os.Unsetenv("TMPDIR")
		}
		os.RemoveAll(dir)
	}, nil
}
