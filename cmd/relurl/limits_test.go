package main

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/cmd/relurl/internal/linkout"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/jsonscan"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/xmlrewrite"
)

// TestLimitsTable: docs/limits.md lists every limit with the constant
// that sets it; each row's default is that constant's value, and every
// constant here has a row.
func TestLimitsTable(t *testing.T) {
	ml := archive.DefaultLimits()
	code := map[string]int64{
		"defaultMaxSize":                       defaultMaxSize,
		"link.DefaultMaxToken":                 link.DefaultMaxToken,
		"link.MaxAttrs":                        link.MaxAttrs,
		"htmlrewrite.MaxRewrites":              htmlrewrite.MaxRewrites,
		"xmlrewrite.MaxDepth":                  xmlrewrite.MaxDepth,
		"jsonscan.MaxDepth":                    jsonscan.MaxDepth,
		"archive.DefaultLimits().Depth":        int64(ml.Depth),
		"archive.DefaultLimits().Parts":        int64(ml.Parts),
		"archive.DefaultLimits().HeaderBytes":  ml.HeaderBytes,
		"archive.DefaultLimits().DecodedBytes": ml.DecodedBytes,
		"archive.MaxZstdWindow":                archive.MaxZstdWindow,
		"linkout.MaxUnique":                    linkout.MaxUnique,
		"inputs.MaxLine":                       inputs.MaxLine,
	}
	f, err := os.Open("../../docs/limits.md")
	require.NoError(t, err)
	defer f.Close()
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "| ") || strings.HasPrefix(line, "| limit ") || strings.HasPrefix(line, "| ---") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "| "), " | ")
		require.Len(t, cells, 6, "a row of six cells: %s", line)
		name := strings.Trim(cells[5], "`")
		want, ok := code[name]
		if !assert.True(t, ok, "row %q: no constant %s in the test", cells[0], name) {
			continue
		}
		seen[name] = true
		assert.Equal(t, want, parseAmount(t, cells[1]), "row %q: its default is not %s's value", cells[0], name)
	}
	require.NoError(t, sc.Err())
	for name := range code {
		assert.True(t, seen[name], "%s has no row in docs/limits.md", name)
	}
}

// parseAmount reads "256 MiB", "1 MiB", "65,536", "4,194,304 URLs".
func parseAmount(t *testing.T, s string) int64 {
	f := strings.Fields(s)
	require.NotEmpty(t, f, "an empty default")
	n, err := strconv.ParseInt(strings.ReplaceAll(f[0], ",", ""), 10, 64)
	require.NoError(t, err, "default %q", s)
	if len(f) > 1 {
		switch f[1] {
		case "KiB":
			n <<= 10
		case "MiB":
			n <<= 20
		case "GiB":
			n <<= 30
		}
	}
	return n
}
