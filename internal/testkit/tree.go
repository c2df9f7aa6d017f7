package testkit

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// WriteTree makes the files of m (slash-separated names to contents)
// under dir, with their directories.
func WriteTree(tb testing.TB, dir string, m map[string]string) {
	tb.Helper()
	for name, data := range m {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// NewTree makes the files of m under a new temporary directory and
// returns it.
func NewTree(tb testing.TB, m map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	WriteTree(tb, dir, m)
	return dir
}

// SwapFile replaces dir/sub/a.html by a symbolic link to
// outside/a.html: the race a safe writer must not lose.
func SwapFile(tb testing.TB, dir, outside string) {
	tb.Helper()
	p := filepath.Join(dir, "sub", "a.html")
	if err := os.Remove(p); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "a.html"), p); err != nil {
		tb.Fatal(err)
	}
}

// SwapDir replaces dir/sub by a symbolic link to outside/sub.
func SwapDir(tb testing.TB, dir, outside string) {
	tb.Helper()
	p := filepath.Join(dir, "sub")
	if err := os.Rename(p, filepath.Join(dir, "moved")); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(outside, "sub"), p); err != nil {
		tb.Fatal(err)
	}
}

// Names returns the names in the directory dir, sorted.
func Names(tb testing.TB, dir string) []string {
	tb.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// Imports returns the import paths of each Go file of the package in the
// current directory, tests left out, by file name: for the tests that
// keep a package's dependencies to the ones its layer allows.
func Imports(tb testing.TB) map[string][]string {
	tb.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		tb.Fatal(err)
	}
	imports := map[string][]string{}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			tb.Fatal(err)
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				tb.Fatal(err)
			}
			imports[name] = append(imports[name], p)
		}
	}
	return imports
}
