package links

import (
	"context"
	"fmt"
	"io"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/relurl/relurl/linktable"
)

func init() {
	register.DoFn3x1[context.Context, string, func(string), error](&writeParquetBundleFn{})
}

// ParquetShardName returns the name of Parquet shard i of n written under
// prefix: PREFIX-0000i-of-0000n.parquet.
func ParquetShardName(prefix string, i, n int) string {
	return fmt.Sprintf("%s-%05d-of-%05d.parquet", prefix, i, n)
}

// WriteParquet writes link records (JSON lines, as FormatBatches gives
// them) as Parquet files named ParquetShardName(prefix, i, n), one per
// bundle with output, through package linktable (the table of relurl
// links --format parquet), with the temporary-file-then-rename scheme of
// WriteJSONL.
func WriteParquet(s beam.Scope, prefix string, lines beam.PCollection) {
	s = s.Scope("relurl.WriteParquet")
	temps := beam.ParDo(s, &writeParquetBundleFn{Prefix: prefix}, lines)
	all := beam.Flatten(s, temps, beam.Create(s, ""))
	beam.ParDo0(s, &renameShardsFn{Prefix: prefix, Parquet: true}, beam.GroupByKey(s, beam.AddFixedKey(s, all)))
}

type writeParquetBundleFn struct {
	Prefix string

	out tempShard
	t   *linktable.Writer
}

func (fn *writeParquetBundleFn) open(ctx context.Context) error {
	if err := fn.out.create(ctx, fn.Prefix); err != nil {
		return err
	}
	fn.t = linktable.NewWriter(fn.out.f)
	return nil
}

func (fn *writeParquetBundleFn) ProcessElement(ctx context.Context, lines string, _ func(string)) error {
	if fn.t == nil {
		if err := fn.open(ctx); err != nil {
			return err
		}
	}
	if _, err := io.WriteString(fn.t, lines+"\n"); err != nil {
		return fn.out.failed(err)
	}
	return nil
}

func (fn *writeParquetBundleFn) FinishBundle(ctx context.Context, emit func(string)) error {
	if fn.t == nil {
		return nil
	}
	defer func() { fn.t = nil }()
	return fn.out.finish(fn.t.Close, emit)
}
