package links

import (
	"bufio"
	"context"
	"fmt"
	"hash/fnv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
)

func init() {
	register.DoFn1x1[Link, string](&formatLinkFn{})
	register.Function1x1(formatFailure)
	register.Function1x1(formatHostEdge)
	register.Function1x1(formatPageEdge)
	register.DoFn1x2[string, int, string](&shardKeyFn{})
	register.Function1x2(emptyShard)
	register.DoFn3x1[context.Context, int, func(*string) bool, error](&writeShardFn{})
	register.Iter1[string]()
}

// FormatLinks returns each Link of links as a line of `relurl links` JSON
// (without the newline) holding the named fields (nil: Fields).
func FormatLinks(s beam.Scope, links beam.PCollection, fields []string) beam.PCollection {
	return beam.ParDo(s.Scope("relurl.FormatLinks"), &formatLinkFn{Fields: fields}, links)
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

func formatFailure(f Failure) string   { return chomp(f.AppendJSON(nil)) }
func formatHostEdge(e HostEdge) string { return chomp(e.AppendJSON(nil)) }
func formatPageEdge(e PageEdge) string { return chomp(e.AppendJSON(nil)) }

func chomp(b []byte) string { return strings.TrimSuffix(string(b), "\n") }

// ShardName returns the name of shard i of n written under prefix:
// PREFIX-0000i-of-0000n.jsonl.
func ShardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.jsonl", prefix, i, n)
}

// WriteJSONL writes the lines (strings without their newline) to shards
// JSON Lines files named by ShardName(prefix, i, shards), through Beam's
// file systems (a local path, gs://, s3://). Every shard is written, empty
// or not, so a reader can tell a complete set. A line goes to the shard
// its hash picks; within a shard, lines are in no particular order. Each
// shard is written beside its final name and renamed when complete, so a
// retried or failed bundle leaves no half-written shard under the final
// name (on file systems that rename; others copy).
func WriteJSONL(s beam.Scope, prefix string, shards int, lines beam.PCollection) {
	s = s.Scope("relurl.WriteJSONL")
	if shards < 1 {
		shards = 1
	}
	keyed := beam.ParDo(s, &shardKeyFn{Shards: shards}, lines)
	all := make([]int, shards)
	for i := range all {
		all[i] = i
	}
	empty := beam.ParDo(s, emptyShard, beam.CreateList(s, all))
	grouped := beam.GroupByKey(s, beam.Flatten(s, keyed, empty))
	beam.ParDo0(s, &writeShardFn{Prefix: prefix, Shards: shards}, grouped)
}

type shardKeyFn struct {
	Shards int
}

func (fn *shardKeyFn) ProcessElement(line string) (int, string) {
	h := fnv.New32a()
	h.Write([]byte(line))
	return int(h.Sum32() % uint32(fn.Shards)), line
}

// emptyShard is the marker that makes shard i exist; it is not written.
func emptyShard(i int) (int, string) { return i, "" }

type writeShardFn struct {
	Prefix string
	Shards int
}

// ProcessElement writes one shard. An error here is the file system's,
// so it fails the bundle and the runner retries it.
func (fn *writeShardFn) ProcessElement(ctx context.Context, i int, lines func(*string) bool) (err error) {
	name := ShardName(fn.Prefix, i, fn.Shards)
	tmp := name + ".tmp"
	fsys, err := filesystem.New(ctx, name)
	if err != nil {
		return err
	}
	defer fsys.Close()
	f, err := fsys.OpenWrite(ctx, tmp)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 64<<10)
	var line string
	for lines(&line) {
		if line == "" {
			continue
		}
		w.WriteString(line)
		if err := w.WriteByte('\n'); err != nil {
			f.Close()
			return fmt.Errorf("write %s: %w", tmp, err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", tmp, err)
	}
	return filesystem.Rename(ctx, fsys, tmp, name)
}
