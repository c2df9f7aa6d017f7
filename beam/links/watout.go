package links

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/wat"
)

func init() {
	register.Function2x0(watRecords)
	register.Emitter1[[]byte]()
	register.DoFn3x1[context.Context, []byte, func(string), error](&writeWATBundleFn{})
}

// WATShardName returns the name of WAT shard i of n written under prefix:
// PREFIX-0000i-of-0000n.wat.gz.
func WATShardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.wat.gz", prefix, i, n)
}

// ExtractWAT reads the WARC files of files (fileio.FileMetadata, as Match
// gives them) as Extract does, and converts each to its WAT metadata
// records as relurl links --format wat does (package wat's Converter):
// one metadata record per response, revisit and resource record, those
// without links too. It returns the records ([]byte: whole gzip members,
// several records each, in file order) and the dead letters (Failure), as
// Extract's, with one more for each file that is not a WARC file (a WAT
// file among them) or that could not be read again.
//
// The Converter reads each WARC file again by its path, with os.Open:
// the files must be local (Job refuses other inputs with Format "wat").
// A revisit record's HTML head is that of the record it refers to when
// that record is in the same file.
func ExtractWAT(s beam.Scope, files beam.PCollection, opts Options) (records, failures beam.PCollection) {
	batches, failures := extractBatches(s, files, &extractFn{Opts: opts, WAT: true})
	return WATRecords(s, batches), failures
}

// WATRecords returns the WAT records of batches (Batch.WAT), leaving
// out the batches that hold none.
func WATRecords(s beam.Scope, batches beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("relurl.WATRecords"), watRecords, batches)
}

func watRecords(b Batch, emit func([]byte)) {
	if len(b.WAT) > 0 {
		emit(b.WAT)
	}
}

// watFlushSize is the size of WAT records a reader gathers into one
// element before it hands them on.
const watFlushSize = 1 << 20

// errWATLocal is the error of an input --format wat cannot read again.
var errWATLocal = errors.New("--format wat reads its WARC files again for their records' headers: local files only")

// checkWATInput says why a file is not converted to WAT: not local, a
// WAT file, not a WARC file (by name and content, as relurl links tells
// them apart), a name its link records cannot hold. A file that cannot
// be opened is not refused here: reading it fails as it does without
// WAT.
func checkWATInput(path string, opts Options) error {
	if hasScheme(path) {
		return errWATLocal
	}
	if _, escaped := tree.JSONName(path); escaped {
		return errors.New("--format wat reads a WARC file again by the name its link records hold: not a name that is not UTF-8")
	}
	if opts.WAT || isWATName(path) {
		return errors.New("a WAT file: --format wat describes WARC records")
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	head, err := bufio.NewReaderSize(f, tree.HeadLen).Peek(tree.HeadLen)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return nil
	}
	if base.FormatOf(path, head) != base.WARC {
		return errors.New("not a WARC file: --format wat describes WARC records")
	}
	return nil
}

// readWAT reads one WARC file on a reader goroutine as readOne does, and
// converts its links, as JSON lines of `relurl links`, to WAT records
// with a wat.Converter, which reads the file again alongside for what
// the links do not hold (each record's headers, HTTP status, head).
func (fn *extractFn) readWAT(ctx context.Context, m fileio.FileMetadata, out chan<- extracted) {
	fail := func(f Failure) { out <- extracted{fail: &f} }
	fileFailed := func(err error) { fail(fileFailure(m.Path, err)) }
	if err := checkWATInput(m.Path, fn.Opts); err != nil {
		fileFailed(err)
		out <- extracted{stats: &fileStats{failed: true}}
		return
	}
	var buf bytes.Buffer
	conv := wat.NewConverter(&buf, true)
	conv.OmitWarcinfo() // each shard starts with its own (writeWATBundleFn)
	send := func() {
		if buf.Len() > 0 {
			out <- extracted{batch: &Batch{WAT: bytes.Clone(buf.Bytes())}}
			buf.Reset()
		}
	}
	var lines []byte
	b := batcher{emit: func(x Batch) {
		// Between two calls the Converter has written whole records
		// only; its error, once it has one, is EndFile's too.
		lines = appendLines(lines[:0], x.Links, nil)
		conv.Write(lines)
		if fn.Links {
			out <- extracted{batch: &x}
		}
		if buf.Len() >= watFlushSize {
			send()
		}
	}}
	st := fn.read(ctx, m, b.add, fail)
	b.flush()
	if err := conv.EndFile(m.Path); err != nil && !st.failed {
		// The file was read to its end, and read again it failed
		// (it changed meanwhile, or a Converter's own error): the file's
		// WAT records stop there.
		fileFailed(err)
		st.failed = true
	}
	send()
	out <- extracted{stats: &st}
}

// WriteWAT writes WAT records ([]byte: whole gzip members, as ExtractWAT
// gives them) as WAT files named WATShardName(prefix, i, n), each a
// warcinfo record (as relurl links --format wat writes it) and the
// records of one bundle, with the temporary-file-then-rename scheme of
// WriteJSONL.
func WriteWAT(s beam.Scope, prefix string, records beam.PCollection) {
	s = s.Scope("relurl.WriteWAT")
	temps := beam.ParDo(s, &writeWATBundleFn{Prefix: prefix}, records)
	all := beam.Flatten(s, temps, beam.Create(s, ""))
	beam.ParDo0(s, &renameShardsFn{Prefix: prefix, WAT: true}, beam.GroupByKey(s, beam.AddFixedKey(s, all)))
}

// warcinfo is the warcinfo record a WAT shard starts with, a gzip
// member.
func warcinfo() ([]byte, error) {
	var buf bytes.Buffer
	err := wat.NewWriter(&buf, true).WriteWarcinfo("", wat.Warcinfo)
	return buf.Bytes(), err
}

// writeWATBundleFn writes the WAT records of one bundle to a temporary
// file, after a warcinfo record, as they are: no newline between them.
type writeWATBundleFn struct {
	Prefix string

	out tempShard
	w   *bufio.Writer
}

func (fn *writeWATBundleFn) open(ctx context.Context) error {
	if err := fn.out.create(ctx, fn.Prefix); err != nil {
		return err
	}
	fn.w = bufio.NewWriterSize(fn.out.f, 256<<10)
	info, err := warcinfo()
	if err == nil {
		_, err = fn.w.Write(info)
	}
	return err
}

func (fn *writeWATBundleFn) ProcessElement(ctx context.Context, records []byte, _ func(string)) error {
	if fn.w == nil {
		if err := fn.open(ctx); err != nil {
			return err
		}
	}
	if _, err := fn.w.Write(records); err != nil {
		return fn.out.failed(err)
	}
	return nil
}

func (fn *writeWATBundleFn) FinishBundle(ctx context.Context, emit func(string)) error {
	if fn.w == nil {
		return nil
	}
	defer func() { fn.w = nil }()
	return fn.out.finish(fn.w.Flush, emit)
}
