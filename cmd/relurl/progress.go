package main

import (
	"os"

	"github.com/relurl/relurl/cmd/relurl/internal/progress"
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
