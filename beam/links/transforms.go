package links

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths, always
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/relurl/relurl/tree"
)

// The names of the Beam counters Extract keeps, in namespace Namespace.
const (
	Namespace     = "relurl"
	CounterFiles  = "files"          // files read (failed ones included)
	CounterRecs   = "records"        // WARC records read (archive.WARCStats.Records), MHTML parts with links, HTML documents
	CounterLinks  = "links"          // links emitted
	CounterBadRec = "records_failed" // records that could not be read (dead letters with an offset)
	CounterBadFil = "files_failed"   // files not read to their end
)

var (
	filesCounter   = beam.NewCounter(Namespace, CounterFiles)
	recordsCounter = beam.NewCounter(Namespace, CounterRecs)
	linksCounter   = beam.NewCounter(Namespace, CounterLinks)
	badRecCounter  = beam.NewCounter(Namespace, CounterBadRec)
	badFileCounter = beam.NewCounter(Namespace, CounterBadFil)
)

func init() {
	beam.RegisterType(reflect.TypeOf((*Link)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Failure)(nil)).Elem())
	beam.RegisterType(reflect.TypeOf((*Batch)(nil)).Elem())
	register.DoFn4x1[context.Context, fileio.FileMetadata, func(Batch), func(Failure), error](&extractFn{})
	register.Function2x0(unbatch)
	register.Emitter1[Link]()
	register.Emitter1[Batch]()
	register.Emitter1[Failure]()
}

// Match returns the files that match any of the globs, as
// fileio.FileMetadata, spread over the workers. A glob may name any file
// system Beam has registered: local paths always, gs:// and s3:// when the
// program imports Beam's gcs and s3 packages. A glob with a wildcard may
// match nothing; a path without one must exist.
func Match(s beam.Scope, globs ...string) beam.PCollection {
	s = s.Scope("relurl.Match")
	var cols []beam.PCollection
	for _, g := range globs {
		cols = append(cols, fileio.MatchFiles(s, g))
	}
	files := cols[0]
	if len(cols) > 1 {
		files = beam.Flatten(s, cols...)
	}
	// Matching runs as one bundle; without a shuffle, one worker would
	// read every file.
	return beam.Reshuffle(s, files)
}

// A Batch is consecutive links of one file, in the order read: the links
// of one record, or part of them (at most batchSize). Extract's links
// travel as batches because a runner encodes and hands on each element
// alone, a cost that dwarfs a link's own when every link is one.
type Batch struct {
	Links []Link
}

// batchSize bounds a Batch, so that a record with many links does not
// become one large element.
const batchSize = 1024

// Extract reads each file of files (fileio.FileMetadata, as Match gives
// them) as a stream and returns its links (Link) and its dead letters
// (Failure). A damaged record or an unreadable file becomes a Failure;
// the bundle does not fail, so the runner does not retry a deterministic
// error, and the links read before it are kept.
func Extract(s beam.Scope, files beam.PCollection, opts Options) (links, failures beam.PCollection) {
	batches, failures := ExtractBatches(s, files, opts)
	return Unbatch(s, batches), failures
}

// ExtractBatches is Extract with the links in batches (Batch): the same
// links in the same order, fewer elements. FormatBatches writes them.
func ExtractBatches(s beam.Scope, files beam.PCollection, opts Options) (batches, failures beam.PCollection) {
	s = s.Scope("relurl.Extract")
	return beam.ParDo2(s, &extractFn{Opts: opts}, files)
}

// Unbatch returns the links (Link) of batches (Batch), one element each.
func Unbatch(s beam.Scope, batches beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("relurl.Unbatch"), unbatch, batches)
}

func unbatch(b Batch, emit func(Link)) {
	for _, l := range b.Links {
		emit(l)
	}
}

// extractFn is Extract's DoFn; its fields are what the runner serializes.
type extractFn struct {
	Opts Options
}

// ProcessElement reads one file. Opening it through Beam's file systems
// is the only error that is not data: an unregistered scheme.
func (fn *extractFn) ProcessElement(ctx context.Context, m fileio.FileMetadata, emit func(Batch), fail func(Failure)) error {
	if isDirectory(m.Path) {
		return nil // a glob's match, as fileio.ReadMatches skips them
	}
	filesCounter.Inc(ctx, 1)
	b := batcher{emit: emit}
	st := fn.read(ctx, m, b.add, fail)
	b.flush()
	recordsCounter.Inc(ctx, st.records)
	linksCounter.Inc(ctx, st.links)
	badRecCounter.Inc(ctx, st.failedRecords)
	if st.failed {
		badFileCounter.Inc(ctx, 1)
	}
	return nil
}

// batcher gathers links into batches: a new one at each record, and when
// one is full.
type batcher struct {
	emit  func(Batch)
	links []Link
}

func (b *batcher) add(l Link) {
	if n := len(b.links); n == batchSize || n > 0 && (b.links[n-1].Record != l.Record || b.links[n-1].Part != l.Part) {
		b.flush()
	}
	b.links = append(b.links, l)
}

func (b *batcher) flush() {
	if len(b.links) > 0 {
		b.emit(Batch{Links: b.links})
		b.links = nil // the runner may hold on to the batch's slice
	}
}

// isDirectory reports whether path names a directory: an object store's
// "directory/" marker, or a local directory (which a glob such as dir/*
// matches).
func isDirectory(path string) bool {
	if strings.HasSuffix(path, "/") {
		return true
	}
	if hasScheme(path) {
		return false
	}
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func (fn *extractFn) read(ctx context.Context, m fileio.FileMetadata, emit func(Link), fail func(Failure)) fileStats {
	failed := func(err error) fileStats {
		f := Failure{File: m.Path, Error: err.Error()}
		if name, escaped := tree.JSONName(m.Path); escaped {
			f.File, f.FileEncoding = name, tree.PercentEncoded
		}
		fail(f)
		return fileStats{failed: true}
	}
	fsys, err := filesystem.New(ctx, m.Path)
	if err != nil {
		return failed(err)
	}
	defer fsys.Close()
	r, err := fsys.OpenRead(ctx, m.Path)
	if err != nil {
		return failed(fmt.Errorf("open: %w", err))
	}
	defer r.Close()
	size := m.Size
	if size == 0 {
		size = -1 // some file systems do not say
	}
	return extractFile(m.Path, size, r, fn.Opts, emit, fail)
}
