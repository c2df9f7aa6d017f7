package links

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/relurl/relurl/linktable"
)

func init() {
	register.DoFn1x1[Link, string](&formatLinkFn{})
	register.DoFn1x1[Batch, string](&formatBatchFn{})
	register.Function1x1(formatFailure)
	register.Function1x1(formatHostEdge)
	register.Function1x1(formatPageEdge)
	register.DoFn3x1[context.Context, string, func(string), error](&writeBundleFn{})
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&renameShardsFn{})
	register.Iter1[string]()
}

// FormatLinks returns each Link of links as a line of `relurl links` JSON
// (without the newline) holding the named fields (nil: Fields).
func FormatLinks(s beam.Scope, links beam.PCollection, fields []string) beam.PCollection {
	return beam.ParDo(s.Scope("relurl.FormatLinks"), &formatLinkFn{Fields: fields}, links)
}

// FormatBatches returns the links of each Batch of batches as lines of
// `relurl links` JSON holding the named fields (nil: Fields), one element
// per batch: its lines joined by newlines, without the last one, which
// WriteJSONL writes as it writes a single line.
func FormatBatches(s beam.Scope, batches beam.PCollection, fields []string) beam.PCollection {
	return beam.ParDo(s.Scope("relurl.FormatLinks"), &formatBatchFn{Fields: fields}, batches)
}

// FormatFailures returns each Failure as a JSON line (without the newline).
func FormatFailures(s beam.Scope, failures beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("relurl.FormatFailures"), formatFailure, failures)
}

// FormatHostEdges returns each HostEdge as a JSON line (without the newline).
func FormatHostEdges(s beam.Scope, edges beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("relurl.FormatHostEdges"), formatHostEdge, edges)
}

// FormatPageEdges returns each PageEdge as a JSON line (without the newline).
func FormatPageEdges(s beam.Scope, edges beam.PCollection) beam.PCollection {
	return beam.ParDo(s.Scope("relurl.FormatPageEdges"), formatPageEdge, edges)
}

type formatLinkFn struct {
	Fields []string
}

func (fn *formatLinkFn) ProcessElement(l Link) string {
	return chomp(l.AppendJSON(nil, fn.Fields))
}

type formatBatchFn struct {
	Fields []string
}

func (fn *formatBatchFn) ProcessElement(b Batch) string {
	if b.Links == nil {
		return strings.TrimSuffix(b.Lines, "\n") // formatted by Extract
	}
	return chomp(appendLines(nil, b.Links, fn.Fields))
}

// appendLines appends the links as JSON lines with the named fields.
func appendLines(buf []byte, links []Link, fields []string) []byte {
	buf = slices.Grow(buf, 320*len(links)) // a line of corpus A is about 300 bytes
	for i := range links {
		buf = links[i].AppendJSON(buf, fields)
	}
	return buf
}

func formatFailure(f Failure) string   { return chomp(f.AppendJSON(nil)) }
func formatHostEdge(e HostEdge) string { return chomp(e.AppendJSON(nil)) }
func formatPageEdge(e PageEdge) string { return chomp(e.AppendJSON(nil)) }

func chomp(b []byte) string { return strings.TrimSuffix(string(b), "\n") }

// ShardName returns the name of shard i of n written under prefix:
// PREFIX-0000i-of-0000n.jsonl.
func ShardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.jsonl", prefix, i, n)
}

// WriteJSONL writes the lines (strings without their newline) as JSON
// Lines files named ShardName(prefix, i, n), through Beam's file systems
// (a local path, gs://, s3://). Each bundle writes its lines to a
// temporary file of its own, without a shuffle (so memory does not grow
// with the output); a last step renames the files of the bundles that
// succeeded to their shard names, so a retried or failed bundle leaves
// nothing under a shard name. n is the number of bundles with output, as
// the runner split the work (at least one shard is written, empty if need
// be). Within a shard, lines are in the order their bundle produced them.
// Write to a fresh prefix: shards of an earlier run with another n are
// not removed.
func WriteJSONL(s beam.Scope, prefix string, lines beam.PCollection) {
	s = s.Scope("relurl.WriteJSONL")
	temps := beam.ParDo(s, &writeBundleFn{Prefix: prefix}, lines)
	// The empty name makes the rename step run when no bundle had output.
	all := beam.Flatten(s, temps, beam.Create(s, ""))
	beam.ParDo0(s, &renameShardsFn{Prefix: prefix}, beam.GroupByKey(s, beam.AddFixedKey(s, all)))
}

// tempShard is the file one bundle writes, under a temporary name beside
// the prefix until renameShardsFn gives it its shard name.
type tempShard struct {
	fsys filesystem.Interface
	name string
	f    io.WriteCloser
}

// create makes a new temporary file beside prefix.
func (t *tempShard) create(ctx context.Context, prefix string) error {
	var id [12]byte
	if _, err := rand.Read(id[:]); err != nil {
		return err
	}
	t.name = fmt.Sprintf("%s.tmp-%x", prefix, id)
	fsys, err := filesystem.New(ctx, t.name)
	if err != nil {
		return err
	}
	f, err := fsys.OpenWrite(ctx, t.name)
	if err != nil {
		fsys.Close()
		return err
	}
	t.fsys, t.f = fsys, f
	return nil
}

// finish ends the file with flush (what its writer still holds), closes
// it and emits its name.
func (t *tempShard) finish(flush func() error, emit func(string)) error {
	defer func() { t.fsys.Close(); *t = tempShard{} }()
	if err := flush(); err != nil {
		t.f.Close()
		return t.failed(err)
	}
	if err := t.f.Close(); err != nil {
		return t.failed(err)
	}
	emit(t.name)
	return nil
}

// failed names the file in a write error.
func (t *tempShard) failed(err error) error { return fmt.Errorf("write %s: %w", t.name, err) }

// writeBundleFn writes the lines of one bundle to a temporary file and
// emits its name when the bundle finishes.
type writeBundleFn struct {
	Prefix string

	out tempShard
	w   *bufio.Writer
}

func (fn *writeBundleFn) open(ctx context.Context) error {
	if err := fn.out.create(ctx, fn.Prefix); err != nil {
		return err
	}
	fn.w = bufio.NewWriterSize(fn.out.f, 256<<10)
	return nil
}

// ProcessElement writes one line. An error here is the file system's, so
// it fails the bundle and the runner retries it.
func (fn *writeBundleFn) ProcessElement(ctx context.Context, line string, _ func(string)) error {
	if fn.w == nil {
		if err := fn.open(ctx); err != nil {
			return err
		}
	}
	fn.w.WriteString(line)
	if err := fn.w.WriteByte('\n'); err != nil {
		return fn.out.failed(err)
	}
	return nil
}

// FinishBundle closes the bundle's file and emits its name.
func (fn *writeBundleFn) FinishBundle(ctx context.Context, emit func(string)) error {
	if fn.w == nil {
		return nil
	}
	defer func() { fn.w = nil }()
	return fn.out.finish(fn.w.Flush, emit)
}

// renameShardsFn gives the temporary files their shard names: JSON Lines
// shards, Parquet tables (ParquetShardName) with Parquet, or WAT files
// (WATShardName) with WAT.
type renameShardsFn struct {
	Prefix  string
	Parquet bool
	WAT     bool
}

func (fn *renameShardsFn) shardName(i, n int) string {
	switch {
	case fn.Parquet:
		return ParquetShardName(fn.Prefix, i, n)
	case fn.WAT:
		return WATShardName(fn.Prefix, i, n)
	}
	return ShardName(fn.Prefix, i, n)
}

// empty is the one shard written when no bundle wrote any: an empty
// file, a valid Parquet table of no rows, or a WAT file of its warcinfo
// record alone.
func (fn *renameShardsFn) empty() ([]byte, error) {
	if fn.WAT {
		return warcinfo()
	}
	if !fn.Parquet {
		return nil, nil
	}
	var buf bytes.Buffer
	err := linktable.NewWriter(&buf).Close()
	return buf.Bytes(), err
}

func (fn *renameShardsFn) ProcessElement(ctx context.Context, _ int, names func(*string) bool) error {
	var temps []string
	var name string
	for names(&name) {
		if name != "" {
			temps = append(temps, name)
		}
	}
	slices.Sort(temps)
	n := max(len(temps), 1)
	fsys, err := filesystem.New(ctx, fn.shardName(0, n))
	if err != nil {
		return err
	}
	defer fsys.Close()
	if len(temps) == 0 {
		data, err := fn.empty()
		if err != nil {
			return err
		}
		return filesystem.Write(ctx, fsys, fn.shardName(0, 1), data)
	}
	for i, t := range temps {
		if err := filesystem.Rename(ctx, fsys, t, fn.shardName(i, n)); err != nil {
			return err
		}
	}
	return nil
}
