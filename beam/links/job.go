package links

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/core/metrics"
)

// A Job is the whole pipeline relurl-beam runs: match the inputs, extract
// their links, write them, the dead letters and the graphs asked for.
type Job struct {
	Inputs []string // globs
	Output string   // prefix of the output files (OutputName)
	Graphs []string // "host", "page"
	// GraphFormat is "jsonl" (or ""): the graphs as JSON Lines edges; or
	// "cc": the host graph also in Common Crawl's form (CCHostGraph).
	GraphFormat string
	Fields      []string // link fields (nil: Fields)
	// Format of the links: "jsonl" (or ""), "parquet" (WriteParquet:
	// PREFIX-links-i-of-n.parquet, the table of relurl links --format
	// parquet), or "wat" (ExtractWAT and WriteWAT:
	// PREFIX-links-i-of-n.wat.gz, the WAT files of relurl links --format
	// wat; local WARC inputs only, every field, not with Options.WAT).
	Format  string
	Options Options
}

// The output sets of a Job, as OutputName names them.
const (
	OutputLinks  = "links"
	OutputErrors = "errors"
	OutputHosts  = "hosts"
	OutputPages  = "pages"
	OutputCC     = "cc-host-graph" // PREFIX-cc-host-graph-vertices.txt and -edges.txt
)

// OutputName returns the prefix of an output set: prefix + "-" + set, or
// prefix + set when prefix is a directory (ends in "/") or empty. Shard i
// of n is then ShardName(OutputName(prefix, set), i, n).
func OutputName(prefix, set string) string {
	if prefix == "" || strings.HasSuffix(prefix, "/") {
		return prefix + set
	}
	return prefix + "-" + set
}

// ParseGraphs reads --graph: "none" (or ""), "host", "page", or both
// comma-separated.
func ParseGraphs(list string) ([]string, error) {
	if list == "" || list == "none" {
		return nil, nil
	}
	var gs []string
	for g := range strings.SplitSeq(list, ",") {
		if g != "host" && g != "page" {
			return nil, fmt.Errorf(`unknown graph %q (want "host", "page", both comma-separated, or "none")`, g)
		}
		if !slices.Contains(gs, g) {
			gs = append(gs, g)
		}
	}
	return gs, nil
}

// Build adds the job's transforms to the pipeline of s.
func (j Job) Build(s beam.Scope) error {
	if len(j.Inputs) == 0 {
		return errors.New("no input")
	}
	if j.Output == "" {
		return errors.New("no output prefix")
	}
	if j.Format == "wat" {
		if err := j.checkWAT(); err != nil {
			return err
		}
	}
	files := Match(s, j.Inputs...)
	var batches, failures beam.PCollection
	switch {
	case j.Format == "wat":
		// The readers convert each file; the graphs, if any, have its
		// links too.
		batches, failures = extractBatches(s, files, &extractFn{Opts: j.Options, WAT: true, Links: len(j.Graphs) > 0})
	case len(j.Graphs) == 0:
		// No graph needs the links themselves: the readers format them.
		batches, failures = extractFormatted(s, files, j.Options, j.Fields)
	default:
		batches, failures = ExtractBatches(s, files, j.Options)
	}
	switch j.Format {
	case "wat":
		WriteWAT(s, OutputName(j.Output, OutputLinks), WATRecords(s, batches))
	case "parquet":
		WriteParquet(s, OutputName(j.Output, OutputLinks), FormatBatches(s, batches, j.Fields))
	default:
		WriteJSONL(s, OutputName(j.Output, OutputLinks), FormatBatches(s, batches, j.Fields))
	}
	WriteJSONL(s, OutputName(j.Output, OutputErrors), FormatFailures(s, failures))
	var links beam.PCollection
	if len(j.Graphs) > 0 {
		links = Unbatch(s, batches) // the graphs count links one by one
	}
	for _, g := range j.Graphs {
		switch g {
		case "host":
			hosts := HostGraph(s, links)
			WriteJSONL(s, OutputName(j.Output, OutputHosts), FormatHostEdges(s, hosts))
			if j.GraphFormat == "cc" {
				WriteCCGraph(s, OutputName(j.Output, OutputCC), CCHostGraph(s, hosts))
			}
		case "page":
			WriteJSONL(s, OutputName(j.Output, OutputPages), FormatPageEdges(s, PageGraph(s, links)))
		default:
			return fmt.Errorf("unknown graph %q", g)
		}
	}
	return nil
}

// checkWAT refuses what Format "wat" cannot write: WAT from WAT inputs,
// some fields only, inputs that are not local files.
func (j Job) checkWAT() error {
	if j.Options.WAT {
		return errors.New("--format wat describes WARC records: not with --input-format wat")
	}
	if j.Fields != nil && !slices.Equal(j.Fields, Fields) {
		return errors.New("--format wat holds links only, every field: no --fields")
	}
	for _, in := range j.Inputs {
		if hasScheme(in) {
			return fmt.Errorf("%w, not %s", errWATLocal, in)
		}
	}
	return nil
}

// Counts are the job's counters, as a runner reports them.
type Counts struct {
	Files, Records, Links, FailedRecords, FailedFiles int64
}

// CountsOf reads Extract's counters from a pipeline's results (committed
// values where the runner has them, else attempted ones).
func CountsOf(r metrics.Results) Counts {
	var c Counts
	q := r.Query(func(sr metrics.SingleResult) bool { return sr.Namespace() == Namespace })
	for _, cr := range q.Counters() {
		v := cr.Result()
		switch cr.Name() {
		case CounterFiles:
			c.Files += v
		case CounterRecs:
			c.Records += v
		case CounterLinks:
			c.Links += v
		case CounterBadRec:
			c.FailedRecords += v
		case CounterBadFil:
			c.FailedFiles += v
		}
	}
	return c
}

// String says the counts as relurl-beam's summary line does.
func (c Counts) String() string {
	return fmt.Sprintf("%d files, %d records, %d links, %d records failed, %d files failed", c.Files, c.Records, c.Links, c.FailedRecords, c.FailedFiles)
}
