package inputs

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/relurl/relurl/tree"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", MaxLine+1)
	lr := NewLineReader(strings.NewReader("a\r\nb\n" + long + "\nc\n\nlast"))
	var got []string
	var errs int
	for {
		l, err := lr.Next()
		if err == io.EOF {
			break
		}
		if errors.Is(err, ErrLineTooLong) {
			errs++
			continue
		}
		require.NoError(t, err)
		got = append(got, string(l))
	}
	assert.Equal(t, []string{"a", "b", "c", "", "last"}, got, "a line over MaxLine is skipped whole")
	assert.Equal(t, 1, errs)
}

func TestName(t *testing.T) {
	for _, c := range []struct {
		line string
		f    tree.File
		want string
	}{
		{"site/a.html", tree.File{Path: "site/a.html", Rel: "site/a.html"}, "site/a.html"},
		{"./site/", tree.File{Path: "site/b/c.html", Rel: "site/b/c.html"}, "./site/b/c.html"},
		{"/abs/dir", tree.File{Path: "/abs/dir/x.html", Rel: "x.html"}, "/abs/dir/x.html"},
		{"/abs/x.html", tree.File{Path: "/abs/x.html"}, "/abs/x.html"},
		{"missing.html", tree.File{}, "missing.html"},
	} {
		assert.Equal(t, c.want, Name(c.line, c.f), "%q", c.line)
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.html", "b.html", "d/c.html"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("<p>"), 0o644))
	}
	list := "b.html\n" + strings.Repeat("y", MaxLine+5) + "\nd\n\nnothere.html\n"
	items, done, err := Open(tree.Walker{}, []string{filepath.Join(dir, "a.html")}, List{Path: "-", Root: dir, Stdin: strings.NewReader(list)})
	require.NoError(t, err)
	var names []string
	failed := 0
	for it := range items {
		names = append(names, it.Name)
		if it.Err != nil {
			failed++
		}
	}
	assert.Equal(t, []string{filepath.Join(dir, "a.html"), "b.html", "d/c.html", "nothere.html"}, names,
		"the arguments, then the list's lines as named")
	assert.Equal(t, 1, failed)
	assert.EqualError(t, done(), "--from-list: line longer than 1 MiB", "done reports the list's read error")

	items, done, err = Open(tree.Walker{}, []string{dir}, List{})
	require.NoError(t, err)
	n := 0
	for range items {
		n++
	}
	assert.Equal(t, 3, n)
	assert.NoError(t, done())

	_, _, err = Open(tree.Walker{}, nil, List{Path: filepath.Join(dir, "no-list")})
	assert.Error(t, err)
}

func TestClaimed(t *testing.T) {
	taken := errors.New("taken")
	items := func(yield func(Item) bool) {
		for _, it := range []Item{{File: tree.File{Rel: "a"}}, {File: tree.File{Rel: "b"}, Err: io.EOF}, {File: tree.File{Rel: "c"}}, {File: tree.File{Rel: "d"}}} {
			if !yield(it) {
				return
			}
		}
	}
	var claims []string
	claim := func(f tree.File) error {
		claims = append(claims, f.Rel)
		if f.Rel == "c" {
			return taken
		}
		return nil
	}
	var errs []error
	for it := range Claimed(items, claim) {
		errs = append(errs, it.Err)
		if it.File.Rel == "c" {
			break // stopping stops the claims
		}
	}
	assert.Equal(t, []error{nil, io.EOF, taken}, errs, "an item's own error stays; a claim's error becomes its error")
	assert.Equal(t, []string{"a", "c"}, claims, "an item in error is not claimed; none after the stop")
}
