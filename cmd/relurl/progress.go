package main

import (
	"context"
	"iter"
	"os"

	"github.com/relurl/relurl/internal/progress"
	"github.com/relurl/relurl/tree"
)

// startProgress starts the progress display of the long command what on
// standard error when it is a terminal (and not quiet). It returns the
// display (nil: none) and s with its output going round it: each write
// to standard error, or to standard output on the terminal too, takes the
// display away first, so that no line is glued to it.
func startProgress(s stdio, quiet bool, what string) (*progress.Bar, stdio) {
	f, ok := s.err.(*os.File)
	if quiet || !ok {
		return nil, s
	}
	bar := progress.New(f, what)
	if bar == nil {
		return nil, s
	}
	s.err = bar.Writer(s.err)
	if progress.IsTerminal(s.out) {
		s.out = bar.Writer(s.out)
	}
	return bar, s
}

// counted returns items, which walk args (then a --from-list when listed),
// telling bar the total: the files of args, counted by a walk of their own
// alongside (tree.Count), and exactly once items ends. stop ends the
// count.
func counted(bar *progress.Bar, items iter.Seq[walked], args []string, listed bool) (_ iter.Seq[walked], stop func()) {
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
	return func(yield func(walked) bool) {
		n := 0
		for w := range items {
			n++
			if !yield(w) {
				return
			}
		}
		bar.SetTotal(n)
	}, cancel
}
