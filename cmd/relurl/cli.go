package main

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"flag"
	"fmt"
	"io"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/relurl/relurl/internal/errtext"
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

// errorf prints "relurl: ..." on stderr. An error among args is said in
// the user's terms: without the names of the library's packages, by the
// error's own Text (package errtext).
func (s stdio) errorf(format string, args ...any) {
	for i, a := range args {
		if err, ok := a.(error); ok {
			args[i] = errtext.Of(err)
		}
	}
	fmt.Fprintln(s.err, "relurl: "+fmt.Sprintf(format, args...))
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
	{"links", "extract every link of documents, trees and archives", runLinks},
	{"rewrite", "rewrite every link of documents and trees to absolute form (--relative: links into a tree relative, as wget -k)", runRewrite},
	{"check", "report what breaks when a document tree moves (--fix: make it movable in place)", runCheck},
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
			s.errorf("unknown command %q%s (relurl help lists them)", args[1], didYouMean(args[1]))
			return exitUsage
		}
		var b bytes.Buffer
		usage(&b)
		if _, err := s.out.Write(b.Bytes()); err != nil {
			return s.writeFailed(name, err)
		}
		return exitOK
	case "version", "-version", "--version":
		if _, err := fmt.Fprintln(s.out, versionLine()); err != nil {
			return s.writeFailed("version", err)
		}
		return exitOK
	}
	for _, c := range commands {
		if c.name == name {
			return c.run(args[1:], s)
		}
	}
	s.errorf("unknown command %q%s (relurl help lists them)", name, didYouMean(name))
	return exitUsage
}

// didYouMean returns `; did you mean "NAME"?` for the command nearest to a
// mistyped one (a prefix of it, or at most two edits away), or "".
func didYouMean(typed string) string {
	best, bestDist := "", 3
	for _, c := range commands {
		d := editDistance(typed, c.name)
		if strings.HasPrefix(c.name, typed) && len(typed) >= 2 {
			d = 1
		}
		if d < bestDist {
			best, bestDist = c.name, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean %q?", best)
}

// editDistance is the Levenshtein distance of a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// flushed flushes w, the buffer of standard output, and returns code, or
// exitFailure when standard output could not be written (writeFailed).
func (s stdio) flushed(cmd string, w *bufio.Writer, code int) int {
	if err := w.Flush(); err != nil {
		return s.writeFailed(cmd, err)
	}
	return code
}

// exitError ends a command: "relurl: CMD: " and its message on stderr,
// then the exit status code. Its format and arguments are kept apart so
// that the message is made as errorf makes any other.
type exitError struct {
	code   int
	format string
	args   []any
}

func (e *exitError) Error() string { return fmt.Sprintf(e.format, e.args...) }

// usagef is a usage error found after the flags were parsed: exit status 2.
func usagef(format string, a ...any) error { return &exitError{exitUsage, format, a} }

// failf is a failure of the run: exit status 1.
func failf(format string, a ...any) error { return &exitError{exitFailure, format, a} }

// exit says err on stderr as the command cmd's and returns its exit
// status: an *exitError's own, exitFailure for any other error.
func (s stdio) exit(cmd string, err error) int {
	if e, ok := errors.AsType[*exitError](err); ok {
		s.errorf(cmd+": "+e.format, e.args...)
		return e.code
	}
	s.errorf("%s: %v", cmd, err)
	return exitFailure
}

// writeFailed says on stderr that cmd could not write its standard output
// (a full disk, a pipe's reader gone with an error) and returns
// exitFailure: output cut short must not pass for success.
func (s stdio) writeFailed(cmd string, err error) int {
	s.errorf("%s: %v", cmd, err)
	return exitFailure
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
	return versionOf(debug.ReadBuildInfo())
}

// versionOf is versionLine for the build information info.
func versionOf(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
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
	// Since Go 1.24 a build from a checkout gets a pseudo-version
	// (v0.0.0-DATE-REV, +dirty when modified) rather than "(devel)":
	// anything but a clean release is a development build, named by
	// its full revision.
	if rev != "" && (v == "(devel)" || strings.HasSuffix(v, "+dirty") || pseudoVersion().MatchString(v)) {
		v = "(devel) " + rev + dirty
	}
	return "relurl " + v + " " + info.GoVersion
}

// pseudoVersion matches the versions the go command makes up for a
// commit without a tag (vX.Y.Z-[PRE.]0.YYYYMMDDhhmmss-REV).
var pseudoVersion = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\d{14}-[0-9a-f]{12}(\+dirty)?$`) })

// flagSets holds, for each subcommand's flag set, where its help goes.
var flagSets sync.Map // *flag.FlagSet -> *flagHelp

type flagHelp struct {
	name, synopsis string
	s              stdio
	parsing        bool
	hidden         map[string]bool // old names kept as aliases, not shown by -h
}

// alias makes old another name of fs's flag name: accepted (it sets the
// same value) but not listed by -h, so that a renamed flag keeps working.
func alias(fs *flag.FlagSet, old, name string) {
	f := fs.Lookup(name)
	fs.Var(f.Value, old, "the old name of --"+name)
	if v, ok := flagSets.Load(fs); ok {
		h := v.(*flagHelp)
		if h.hidden == nil {
			h.hidden = map[string]bool{}
		}
		h.hidden[old] = true
	}
}

// printFlags lists fs's flags on w as flag.PrintDefaults does, without
// the hidden aliases.
func (h *flagHelp) printFlags(fs *flag.FlagSet, w io.Writer) {
	shown := flag.NewFlagSet(fs.Name(), flag.ContinueOnError)
	fs.VisitAll(func(f *flag.Flag) {
		if !h.hidden[f.Name] {
			shown.Var(f.Value, f.Name, f.Usage)
			shown.Lookup(f.Name).DefValue = f.DefValue
		}
	})
	shown.SetOutput(w)
	shown.PrintDefaults()
}

// dashes is the flag name as the help writes it: -j, --max-size.
func dashes(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// valueHint names, for a flag of the given kind, what a valid value looks
// like, so that "--timeout 5" is answered with "5s" rather than "parse
// error".
func valueHint(f *flag.Flag) string {
	g, ok := f.Value.(flag.Getter)
	if !ok {
		return ""
	}
	switch g.Get().(type) {
	case time.Duration:
		return "use a duration such as 5s, 1m30s or 250ms"
	case int, int64, uint, uint64:
		if strings.Contains(f.Name, "size") {
			return "use a number of bytes such as 1048576"
		}
		return "use a whole number such as " + cmp.Or(f.DefValue, "4")
	case float64:
		return "use a number such as 1.5"
	case bool:
		return "use " + dashes(f.Name) + " alone, " + dashes(f.Name) + "=true or " + dashes(f.Name) + "=false"
	}
	return ""
}

// invalidValue matches the flag package's error for a value its flag
// refuses.
var invalidValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^invalid (?:boolean )?value ("(?:[^"\\]|\\.)*") for (?:flag )?-(\S+): (.*)$`)
})

// flagError says what is wrong with a command line in the user's terms:
// the flag as they wrote it (--name), and for a value of the wrong form
// an example of a good one.
func flagError(fs *flag.FlagSet, err error) string {
	msg := err.Error()
	if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
		return "unknown flag " + dashes(name)
	}
	if name, ok := strings.CutPrefix(msg, "flag needs an argument: -"); ok {
		return dashes(name) + " needs a value"
	}
	m := invalidValue().FindStringSubmatch(msg)
	if m == nil {
		return msg
	}
	value, uerr := strconv.Unquote(m[1])
	if uerr != nil {
		value = m[1]
	}
	f := fs.Lookup(m[2])
	if f == nil {
		return msg
	}
	why := m[3]
	switch why {
	case "parse error":
		why = "not a valid value"
	case "value out of range":
		why = "out of range"
	}
	out := fmt.Sprintf("%s %q: %s", dashes(m[2]), value, why)
	if hint := valueHint(f); hint != "" {
		out += "; " + hint
	}
	return out
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

// wrongArgs reports a usage error of the arguments: how many were given
// and what the command takes, then the usage line; it returns exitUsage.
func wrongArgs(fs *flag.FlagSet, s stdio, cmd string, got int, want string) int {
	given := "no argument"
	switch {
	case got == 1:
		given = "1 argument"
	case got > 1:
		given = fmt.Sprintf("%d arguments", got)
	}
	return usageProblem(fs, s, cmd, fmt.Sprintf("%s given; it takes %s", given, want))
}

// usageProblem prints "relurl: CMD: PROBLEM", then the usage line, and
// returns exitUsage: a usage error says what is wrong before how to use.
func usageProblem(fs *flag.FlagSet, s stdio, cmd, problem string) int {
	s.errorf("%s: %s", cmd, problem)
	fs.Usage()
	return exitUsage
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
			// The flag package's own message is replaced by flagError's.
			h.parsing = true
			fs.SetOutput(io.Discard)
		}
		err := fs.Parse(args)
		if h != nil {
			h.parsing = false
			fs.SetOutput(h.s.err)
		}
		if err != nil {
			if errors.Is(err, flag.ErrHelp) {
				if h != nil {
					var b bytes.Buffer
					fmt.Fprintf(&b, "usage: relurl %s %s\n", h.name, h.synopsis)
					h.printFlags(fs, &b)
					if _, err := h.s.out.Write(b.Bytes()); err != nil {
						return h.s.writeFailed(h.name, err)
					}
				}
				return exitOK
			}
			if h != nil {
				h.s.errorf("%s: %s", h.name, flagError(fs, err))
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
