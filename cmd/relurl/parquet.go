//go:build !noparquet

package main

import (
	"io"

	"github.com/relurl/relurl/linktable"
)

// newParquet returns the writer of --format parquet. Parquet support is
// built in unless the noparquet build tag leaves it (and parquet-go,
// most of the binary's growth) out.
func newParquet(w io.Writer) (tableWriter, error) { return linktable.NewWriter(w), nil }
