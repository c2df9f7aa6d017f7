package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"runtime/debug"
	"strings"
	"sync"
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
		if name == "help" && len(args) > 1 {
			for _, c := range commands {
				if c.name == args[1] {
					return c.run([]string{"-h"}, s)
				}
			}
			s.errorf("unknown command %q (relurl help lists them)", args[1])
			return exitUsage
		}
		usage(s.out)
		return exitOK
	case "version", "-version", "--version":
		fmt.Fprintln(s.out, versionLine())
		return exitOK
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(args[1:], s)
		}
	}
	s.errorf("unknown command %q (relurl help lists them)", name)
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

// versionLine is what relurl --version prints: the module version the
// binary was built from, or "(devel)" with the VCS revision (and
// "+dirty" for uncommitted changes) when built from a checkout.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "relurl (unknown version)"
	}
	v := info.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, kv := range info.Settings {
		switch kv.Key {
		case "vcs.revision":
			rev = kv.Value
		case "vcs.modified":
			if kv.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	line := "relurl " + v
	if rev != "" && (v == "(devel)" || strings.Contains(v, "+dirty")) {
		line += " " + rev + dirty
	}
	return line + " " + info.GoVersion
}

// flagSets holds, for each subcommand's flag set, where its help goes.
var flagSets sync.Map // *flag.FlagSet -> *flagHelp

type flagHelp struct {
	name, synopsis string
	s              stdio
	parsing        bool
}

// newFlagSet returns a flag set for a subcommand that reports its errors
// on s.err instead of exiting: -h prints the full help on s.out (exit 0);
// a usage error prints one line naming the problem and the synopsis with
// "relurl NAME -h" as the hint (exit 2), not the whole flag list.
func newFlagSet(name, synopsis string, s stdio) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(s.err)
	h := &flagHelp{name: name, synopsis: synopsis, s: s}
	flagSets.Store(fs, h)
	fs.Usage = func() {
		if h.parsing {
			return // parseFlags decides what to print
		}
		h.hint()
	}
	return fs
}

// hint is the short usage line of a usage error.
func (h *flagHelp) hint() {
	line, _, _ := strings.Cut(h.synopsis, "\n")
	fmt.Fprintf(h.s.err, "usage: relurl %s %s (run \"relurl %s -h\" for the flags)\n", h.name, strings.TrimSpace(line), h.name)
}

// parseFlags parses args and returns -1 to go on, or the exit status to
// return: 0 for -h, 2 for a bad flag.
func parseFlags(fs *flag.FlagSet, args []string) int {
	var h *flagHelp
	if v, ok := flagSets.Load(fs); ok {
		h = v.(*flagHelp)
	}
	// Flags may follow arguments ("relurl resolve REF --base B"): parse
	// the rest again after each positional argument.
	var positional []string
	for {
		if h != nil {
			h.parsing = true
		}
		err := fs.Parse(args)
		if h != nil {
			h.parsing = false
		}
		if err != nil {
			if errors.Is(err, flag.ErrHelp) {
				if h != nil {
					fmt.Fprintf(h.s.out, "usage: relurl %s %s\n", h.name, h.synopsis)
					fs.SetOutput(h.s.out)
					fs.PrintDefaults()
					fs.SetOutput(h.s.err)
				}
				return exitOK
			}
			if h != nil {
				h.hint()
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
