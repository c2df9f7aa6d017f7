// Package inputs enumerates what relurl's file commands (rewrite, links,
// check) read: the files of their arguments, a directory being a tree of
// its own (tree.Walker), then the paths of a --from-list stream, read as
// they are needed so that the command works as a streaming filter
// (tree.WalkList), each item named as the output calls it; with a
// progress display, the total counted alongside (Counted). It also reads
// bounded lines (LineReader) for the commands that take requests on
// standard input. It is the command's plumbing: the library's walks are
// package tree's.
package inputs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/cmd/relurl/internal/progress"
	"github.com/relurl/relurl/tree"
)

// Item is one item of a walk: a file or the error of a path.
type Item struct {
	File tree.File
	Err  error
	Name string // what the output calls it: the path, or the --from-list line
}

// Seq joins walks into one sequence of items named by their paths.
func Seq(walks ...iter.Seq2[tree.File, error]) iter.Seq[Item] {
	return func(yield func(Item) bool) {
		for _, w := range walks {
			if w == nil {
				continue
			}
			for f, err := range w {
				if !yield(Item{f, err, f.Path}) {
					return
				}
			}
		}
	}
}

// A List is a --from-list: the file of paths, one a line ("-": stdin),
// relative to Root (the tree the listed paths are in; "" is the current
// directory).
type List struct {
	Path  string
	Root  string
	Stdin io.Reader
}

// Open returns the items to read: those of walking args with w, then,
// when list.Path is set, those of the list's lines, read as they are
// needed; listed paths are parts of one tree rooted at list.Root
// (tree.WalkList). done closes the list and reports a read error of it
// (a line over MaxLine is one, and is skipped).
func Open(w tree.Walker, args []string, list List) (items iter.Seq[Item], done func() error, err error) {
	fromArgs := Seq(w.Walk(args))
	if list.Path == "" {
		return fromArgs, func() error { return nil }, nil
	}
	r := list.Stdin
	var closer io.Closer
	if list.Path != "-" {
		f, err := os.Open(list.Path)
		if err != nil {
			return nil, nil, err
		}
		r, closer = f, f
	}
	var (
		readErr error
		line    string // the list line being walked
	)
	lines := func(yield func(string) bool) {
		lr := NewLineReader(r)
		for {
			l, err := lr.Next()
			if errors.Is(err, io.EOF) {
				return
			}
			if err != nil {
				readErr = fmt.Errorf("--from-list: %v", err)
				if errors.Is(err, ErrLineTooLong) {
					continue
				}
				return
			}
			line = string(l)
			if len(l) > 0 && !yield(line) {
				return
			}
		}
	}
	done = func() error {
		if closer != nil {
			closer.Close()
		}
		return readErr
	}
	return func(yield func(Item) bool) {
		for it := range fromArgs {
			if !yield(it) {
				return
			}
		}
		for f, err := range tree.WalkList(list.Root, lines) {
			if !yield(Item{f, err, Name(line, f)}) {
				return
			}
		}
	}, done, nil
}

// Name is the name a file walked from a --from-list line goes by (the
// "file" field of its links): the line as given for the file it names, the
// line joined with the path below it for a file of a directory it names.
func Name(line string, f tree.File) string {
	rel := filepath.ToSlash(filepath.Clean(line))
	switch {
	case filepath.IsAbs(line) || !filepath.IsLocal(line):
		if f.Path == line || f.Rel == "" {
			return line
		}
		return strings.TrimSuffix(line, "/") + "/" + f.Rel
	case f.Rel == rel || f.Rel == "": // the file, or the error of its path
		return line
	case strings.HasPrefix(f.Rel, rel+"/"):
		return strings.TrimSuffix(line, "/") + f.Rel[len(rel):]
	}
	return f.Path
}

// Counted returns items, which walk args (then a --from-list when
// listed), telling bar the total: the files of args, counted by a walk of
// their own alongside (tree.Count), and exactly once items ends. stop
// ends the count. With no bar, items is returned as it is.
func Counted(bar *progress.Bar, items iter.Seq[Item], args []string, listed bool) (_ iter.Seq[Item], stop func()) {
	if bar == nil {
		return items, func() {}
	}
	ctx, cancel := context.WithCancel(context.Background())
	if !listed {
		go func() {
			if n, err := tree.Count(ctx, args); err == nil {
				bar.SetTotal(n)
			}
		}()
	}
	return func(yield func(Item) bool) {
		n := 0
		for it := range items {
			n++
			if !yield(it) {
				return
			}
		}
		bar.SetTotal(n)
	}, cancel
}

// Claimed makes claim's error the error of each item that had none: for
// `rewrite -o` with several inputs, a file bound for a place in the
// mirror that an earlier input already takes (treerewrite.Rewriter.Claim), so
// that no output silently replaces another.
func Claimed(items iter.Seq[Item], claim func(tree.File) error) iter.Seq[Item] {
	return func(yield func(Item) bool) {
		for w := range items {
			if w.Err == nil {
				w.Err = claim(w.File)
			}
			if !yield(w) {
				return
			}
		}
	}
}

// FlushBeforeRead returns r, flushing w each time it must wait for r:
// the output of a filter reaches its reader while the input is still
// coming (`relurl links -`, `relurl rewrite -`). It is an archive.Stream,
// so that a WARC decompressed ahead on a goroutine of its own still
// flushes w where w is written.
func FlushBeforeRead(r io.Reader, w *bufio.Writer) *archive.Stream {
	return &archive.Stream{R: r, Wait: func() error {
		if w.Buffered() > 0 {
			return w.Flush()
		}
		return nil
	}}
}
