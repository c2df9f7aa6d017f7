//go:build noparquet

package main

import (
	"errors"
	"io"
)

// newParquet: this binary was built with the noparquet tag.
func newParquet(io.Writer) (tableWriter, error) {
	return nil, errors.New("--format parquet: this relurl was built without Parquet (build tag noparquet)")
}
