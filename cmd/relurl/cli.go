package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
)

// Exit statuses, the same for every subcommand.
const (
	exitOK      = 0 // done; for check: the tree is movable
	exitFailure = 1 // something failed (or, for check and validate, was found)
	exitUsage   = 2 // the command line is wrong
)

// stdio is what a subcommand reads and writes, passed in so tests can run
// subcommands without touching the process's own files.
type stdio struct {
	in  io.Reader
	out io.Writer
	err io.Writer
}

// errorf prints "relurl: ..." on stderr.
func (s stdio) errorf(format string, args ...any) {
	fmt.Fprintf(s.err, "relurl: "+format+"\n", args...)
}

// A command is one subcommand of relurl.
type command struct {
	name    string
	summary string
	run     func(args []string, s stdio) int
}

// commands lists the subcommands in the order "relurl help" shows them.
var commands = []command{
	{"resolve", "resolve references against a base URL", runResolve},
	{"relativize", "the shortest reference from a base to a target", runRelativize},
	{"validate", "check URLs against a seed grammar", runValidate},
	{"base", "establish a document's base URL and say which layer decided", runBase},
	{"links", "extract every link of HTML, MHTML and WARC files", runLinks},
	{"rewrite", "rewrite every link of HTML and MHTML files to absolute form", runRewrite},
	{"check", "report what breaks when a document tree moves", runCheck},
	{"fetch", "fetch a page and print it rewritten, or its links", runFetch},
	{"materialize", "turn WARC, WACZ and MHTML captures into a browsable tree of files", runMaterialize},
}

func run(args []string, s stdio) int {
	if len(args) == 0 {
		usage(s.err)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		usage(s.out)
		return exitOK
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(args[1:], s)
		}
	}
	s.errorf("unknown command %q", name)
	usage(s.err)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: relurl <command> [flags] [arguments]")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands {
		fmt.Fprintf(w, "  %-11s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nrun \"relurl <command> -h\" for a command's flags")
}

// newFlagSet returns a flag set for a subcommand that reports its errors
// on s.err instead of exiting.
func newFlagSet(name, synopsis string, s stdio) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(s.err)
	fs.Usage = func() {
		fmt.Fprintf(s.err, "usage: relurl %s %s\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args and returns -1 to go on, or the exit status to
// return: 0 for -h, 2 for a bad flag.
func parseFlags(fs *flag.FlagSet, args []string) int {
	// Flags may follow arguments ("relurl resolve REF --base B"): parse
	// the rest again after each positional argument.
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return exitOK
			}
			return exitUsage
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		if rest[0] == "--" {
			positional = append(positional, rest[1:]...)
			break
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
	// Let fs.Args() report every positional argument.
	_ = fs.Parse(append([]string{"--"}, positional...))
	return -1
}
