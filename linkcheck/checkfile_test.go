package linkcheck_test

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkAll runs fn on every file walked under dir and returns the
// results by Rel.
func checkAll(t *testing.T, dir string, fn func(tree.File) linkcheck.FileResult) map[string]linkcheck.FileResult {
	got := map[string]linkcheck.FileResult{}
	for f, err := range tree.Walk([]string{dir}) {
		require.NoError(t, err)
		got[f.Rel] = fn(f)
	}
	return got
}

func TestCheckFile(t *testing.T) {
	dir := testkit.NewTree(t, map[string]string{
		"index.html": `<a href="https://example.org/site/a.html">a</a> <a href="/site/a.html">b</a> <a href="gone.html">c</a>`,
		"a.html":     `<a href="index.html">home</a>`,
		"notes.txt":  "https://example.org/site/a.html",
		"big.html":   `<a href="` + strings.Repeat("x", 200) + `">`,
	})
	c := &linkcheck.Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/site/", MaxSize: 150}
	require.NoError(t, c.Prepare())
	got := checkAll(t, dir, c.CheckFile)

	var problems []linkcheck.Problem
	for _, f := range got["index.html"].Findings {
		problems = append(problems, f.Problem)
	}
	assert.Equal(t, []linkcheck.Problem{linkcheck.Absolute, linkcheck.RootRelative, linkcheck.Missing}, problems)
	assert.True(t, got["index.html"].Read)
	assert.NoError(t, got["index.html"].Err)
	assert.Empty(t, got["a.html"].Findings)
	assert.True(t, got["a.html"].Read)
	assert.False(t, got["notes.txt"].Read, "a kind the checker does not read is passed over")
	assert.NoError(t, got["notes.txt"].Err)
	assert.ErrorIs(t, got["big.html"].Err, tree.ErrTooLarge, "MaxSize bounds what is read")

	data, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "https://example.org/site/a.html", "CheckFile writes nothing")
}

func TestFixFile(t *testing.T) {
	dir := testkit.NewTree(t, map[string]string{
		"index.html": `<a href="https://example.org/site/a.html">a</a> <a href="/site/a.html">b</a> <a href="gone.html">c</a>`,
		"a.html":     `<a href="index.html">home</a>`,
	})
	c := &linkcheck.Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/site/"}
	require.NoError(t, c.Prepare())
	before, err := os.Stat(filepath.Join(dir, "a.html"))
	require.NoError(t, err)
	got := checkAll(t, dir, func(f tree.File) linkcheck.FileResult { return c.FixFile(f, safewrite.Writer{}) })

	assert.Equal(t, 2, got["index.html"].Fixed)
	require.Len(t, got["index.html"].Findings, 1, "what the fix could not mend is left")
	assert.Equal(t, linkcheck.Missing, got["index.html"].Findings[0].Problem)
	data, err := os.ReadFile(filepath.Join(dir, "index.html"))
	require.NoError(t, err)
	assert.Equal(t, `<a href="a.html">a</a> <a href="a.html">b</a> <a href="gone.html">c</a>`, string(data))
	after, err := os.Stat(filepath.Join(dir, "a.html"))
	require.NoError(t, err)
	assert.True(t, os.SameFile(before, after), "nothing to fix: not written")
	assert.Zero(t, got["a.html"].Fixed)
}

// A tree's check, one call per file, then Finish for the links between
// files; FixFile would mend what it can in place.
func ExampleChecker_CheckFile() {
	dir, err := os.MkdirTemp("", "site")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, "index.html"), []byte(`<a href="https://example.org/site/about.html">About</a> <a href="gone.html">Gone</a>`), 0o644)
	os.WriteFile(filepath.Join(dir, "about.html"), []byte(`<a href="index.html#nowhere">Home</a>`), 0o644)

	c := &linkcheck.Checker{Spec: resolve.WHATWG, Dir: dir, Root: "https://example.org/site/"}
	if err := c.Prepare(); err != nil {
		log.Fatal(err)
	}
	var found []linkcheck.Finding
	for f, err := range tree.Walk([]string{dir}) {
		if err != nil {
			log.Fatal(err)
		}
		r := c.CheckFile(f)
		if r.Err != nil {
			log.Fatal(r.Err)
		}
		found = append(found, r.Findings...)
	}
	found = append(found, c.Finish()...)
	for _, f := range found {
		rel, _ := filepath.Rel(dir, f.File)
		fmt.Printf("%s:%d: %s %s\n", rel, f.Line, f.Problem, f.Link)
	}
	// Output:
	// index.html:1: absolute https://example.org/site/about.html
	// index.html:1: missing gone.html
	// about.html:1: missing-anchor index.html#nowhere
}
