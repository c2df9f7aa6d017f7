package links

import (
	"context"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strings"
	"sync"

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
	// Lines are the links as lines of `relurl links` JSON, each with its
	// newline, when Extract wrote them itself (Links is then nil):
	// formatting is most of the work left after reading, and a reader
	// goroutine does it in parallel (Job does when no graph needs the
	// links themselves).
	Lines string
	// WAT is WAT metadata records, each a gzip member of its own, when
	// Extract converts WARC files to WAT (Links and Lines are then
	// empty): ExtractWAT.
	WAT []byte
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
	return extractBatches(s, files, &extractFn{Opts: opts})
}

// extractFormatted is ExtractBatches with each batch's links as JSON
// lines holding the named fields (nil: Fields): Batch.Lines, Links nil.
func extractFormatted(s beam.Scope, files beam.PCollection, opts Options, fields []string) (batches, failures beam.PCollection) {
	return extractBatches(s, files, &extractFn{Opts: opts, Format: true, Fields: fields})
}

func extractBatches(s beam.Scope, files beam.PCollection, fn *extractFn) (batches, failures beam.PCollection) {
	return beam.ParDo2(s.Scope("relurl.Extract"), fn, files)
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

// extractFn is Extract's DoFn; its exported fields are what the runner
// serializes.
//
// It reads the files of a bundle on several goroutines at once: a runner
// such as prism hands all the files after Match's reshuffle to one bundle,
// which would otherwise read them one after another on one core. What the
// readers find comes back to the runner's goroutine (ProcessElement,
// FinishBundle), which alone emits and counts, through a channel of a few
// batches, so memory stays bounded whatever the files hold.
type extractFn struct {
	Opts Options
	// Format makes the readers write each batch's links as JSON lines
	// with Fields (Batch.Lines).
	Format bool
	Fields []string
	// WAT makes the readers convert each WARC file to its WAT metadata
	// records (Batch.WAT, readWAT); the links' batches (Batch.Links)
	// are emitted as well only with Links set.
	WAT   bool
	Links bool

	work chan fileio.FileMetadata // nil between bundles
	out  chan extracted
	wg   sync.WaitGroup
}

// extracted is what a reader hands back: a batch of links, a dead
// letter, or the end of a file (its counts, or the panic that ended it).
type extracted struct {
	batch *Batch
	fail  *Failure
	stats *fileStats
	err   error
}

// readers is the number of files a bundle reads at once.
func readers() int { return runtime.GOMAXPROCS(0) }

func (fn *extractFn) start(ctx context.Context) {
	n := readers()
	fn.work = make(chan fileio.FileMetadata)
	fn.out = make(chan extracted, 4*n)
	ctx = context.WithoutCancel(ctx) // files are opened after the call that handed them over returned
	work, out := fn.work, fn.out     // FinishBundle clears the fields
	for range n {
		fn.wg.Add(1)
		go func() {
			defer fn.wg.Done()
			for m := range work {
				fn.readOne(ctx, m, out)
			}
		}()
	}
}

// readOne reads one file on a reader goroutine.
func (fn *extractFn) readOne(ctx context.Context, m fileio.FileMetadata, out chan<- extracted) {
	defer func() {
		if p := recover(); p != nil {
			out <- extracted{err: fmt.Errorf("relurl: reading %s: panic: %v", m.Path, p)}
		}
	}()
	if fn.WAT {
		fn.readWAT(ctx, m, out)
		return
	}
	b := batcher{emit: func(x Batch) {
		if fn.Format {
			x = Batch{Lines: string(appendLines(nil, x.Links, fn.Fields))}
		}
		out <- extracted{batch: &x}
	}}
	st := fn.read(ctx, m, b.add, func(f Failure) { out <- extracted{fail: &f} })
	b.flush()
	out <- extracted{stats: &st}
}

// deliver emits or counts what a reader handed back, on the runner's
// goroutine.
func deliver(ctx context.Context, x extracted, emit func(Batch), fail func(Failure)) error {
	switch {
	case x.err != nil:
		return x.err
	case x.batch != nil:
		emit(*x.batch)
	case x.fail != nil:
		fail(*x.fail)
	case x.stats != nil:
		st := x.stats
		recordsCounter.Inc(ctx, st.records)
		linksCounter.Inc(ctx, st.links)
		badRecCounter.Inc(ctx, st.failedRecords)
		if st.failed {
			badFileCounter.Inc(ctx, 1)
		}
	}
	return nil
}

// ProcessElement hands one file to a reader, and emits what the readers
// found meanwhile. Opening a file through Beam's file systems is the only
// error that is not data (an unregistered scheme): it becomes a Failure
// too. An error returned here is a reader's panic, which fails the bundle.
func (fn *extractFn) ProcessElement(ctx context.Context, m fileio.FileMetadata, emit func(Batch), fail func(Failure)) error {
	if isDirectory(m.Path) {
		return nil // a glob's match, as fileio.ReadMatches skips them
	}
	filesCounter.Inc(ctx, 1)
	if fn.work == nil {
		fn.start(ctx)
	}
	for handed := false; !handed; {
		select {
		case fn.work <- m:
			handed = true
		case x := <-fn.out:
			if err := deliver(ctx, x, emit, fail); err != nil {
				return err
			}
		}
	}
	for {
		select {
		case x := <-fn.out:
			if err := deliver(ctx, x, emit, fail); err != nil {
				return err
			}
		default:
			return nil
		}
	}
}

// FinishBundle waits for the readers and emits the rest of what they
// found.
func (fn *extractFn) FinishBundle(ctx context.Context, emit func(Batch), fail func(Failure)) error {
	if fn.work == nil {
		return nil
	}
	close(fn.work)
	out := fn.out
	go func() { fn.wg.Wait(); close(out) }()
	fn.work, fn.out = nil, nil
	var err error
	for x := range out { // drained whole, so that no reader stays blocked
		if e := deliver(ctx, x, emit, fail); e != nil && err == nil {
			err = e
		}
	}
	return err
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

// fileFailure is the dead letter of a file that failed as a whole, named
// as its link records name it.
func fileFailure(path string, err error) Failure {
	f := Failure{File: path, Error: err.Error()}
	if name, escaped := tree.JSONName(path); escaped {
		f.File, f.FileEncoding = name, tree.PercentEncoded
	}
	return f
}

func (fn *extractFn) read(ctx context.Context, m fileio.FileMetadata, emit func(Link), fail func(Failure)) fileStats {
	failed := func(err error) fileStats {
		fail(fileFailure(m.Path, err))
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
