package summary

import (
	"testing"

	"github.com/relurl/relurl/tree"
	"github.com/stretchr/testify/assert"
)

func TestCheckLines(t *testing.T) {
	var m Check
	m.Files = 1
	assert.Equal(t, []string{"check: 0 findings in 1 file"}, m.Lines(nil))
	m.Files = 3
	m.Add(tree.Missing)
	m.Add(tree.RootRelative)
	m.Add(tree.Missing)
	m.Before = 1
	assert.Equal(t, []string{
		"check: 3 findings in 3 files: 1 root-relative, 2 missing",
		"check: 1 link broken before the move not listed (--all lists them)",
	}, m.Lines(nil), "problems in the order of tree.Problems")
}

func TestPlural(t *testing.T) {
	assert.Equal(t, "1 file", Plural(1, "file"))
	assert.Equal(t, "0 files", Plural(0, "file"))
	assert.Equal(t, "12 links", Plural(12, "link"))
}
