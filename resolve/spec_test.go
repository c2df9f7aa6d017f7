package resolve

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specTable is one table of examples from a standard, kept under
// testdata/resolve as data with the section it comes from.
type specTable struct {
	Source  string `json:"source"`
	Spec    string `json:"spec"`
	Base    string `json:"base"`
	Options struct {
		BackwardCompatible bool `json:"backward_compatible"`
	} `json:"options"`
	Cases []struct {
		Ref  string `json:"ref"`
		Want string `json:"want"`
		Note string `json:"note"`
	} `json:"cases"`
}

func loadSpecTables(t testing.TB) []specTable {
	t.Helper()
	files, err := filepath.Glob("../testdata/resolve/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	var tables []specTable
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var tab specTable
		require.NoError(t, json.Unmarshal(data, &tab), f)
		tables = append(tables, tab)
	}
	return tables
}

// TestSpecExamples runs every example table of the standards: the draft's
// §5.1 and §5.2 (RFC 1808), RFC 2396 Appendix C and RFC 3986 §5.4, each in
// its own mode, byte for byte, through Reference and AppendReference.
func TestSpecExamples(t *testing.T) {
	n := 0
	for _, tab := range loadSpecTables(t) {
		spec, err := ParseSpec(tab.Spec)
		require.NoError(t, err)
		r, err := NewResolver(spec, tab.Base, Options{BackwardCompatible: tab.Options.BackwardCompatible})
		require.NoError(t, err)
		t.Run(tab.Source, func(t *testing.T) {
			for _, c := range tab.Cases {
				got, err := r.Reference(c.Ref)
				if assert.NoError(t, err, "Reference(%q)", c.Ref) {
					assert.Equal(t, c.Want, got, "%s: Reference(%q) against %q %s", tab.Spec, c.Ref, tab.Base, c.Note)
				}
				b, err := r.AppendReference([]byte("<"), c.Ref)
				if assert.NoError(t, err, "AppendReference(%q)", c.Ref) {
					assert.Equal(t, "<"+c.Want, string(b), "%s: AppendReference(%q) against %q %s", tab.Spec, c.Ref, tab.Base, c.Note)
				}
				n++
			}
		})
	}
	// 24+15 (RFC 1808) + 22+20+1 (RFC 2396) + 23+19+1 (RFC 3986)
	assert.Equal(t, 125, n, "number of spec examples run")
}
