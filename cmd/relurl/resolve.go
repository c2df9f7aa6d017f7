package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/resolve"
)

// defaultSpec is the mode of resolve and relativize when --spec is not
// given.
const defaultSpec = resolve.RFC3986

// specFlag binds --spec and --backward-compatible to fs.
func specFlag(fs *flag.FlagSet, def resolve.Spec) (*resolve.Spec, *resolve.Options) {
	spec := def
	opts := new(resolve.Options)
	fs.Func("spec", "resolution rules: rfc1808, rfc2396, rfc3986 or whatwg (default "+def.String()+")", func(v string) error {
		s, err := resolve.ParseSpec(v)
		if err != nil {
			return err
		}
		spec = s
		return nil
	})
	fs.BoolVar(&opts.BackwardCompatible, "backward-compatible", false, "rfc2396, rfc3986: resolve \"http:g\" as \"g\" against an http base")
	return &spec, opts
}

// optionalString is a string flag that knows whether it was given, so that
// an empty --base (the draft's §3.4) differs from a missing one.
type optionalString struct {
	value string
	set   bool
}

func (o *optionalString) String() string     { return o.value }
func (o *optionalString) Set(s string) error { o.value, o.set = s, true; return nil }

func runResolve(args []string, s stdio) int {
	fs := newFlagSet("resolve", "[--spec S] --base BASE REF... | --spec S --jsonl", s)
	spec, opts := specFlag(fs, defaultSpec)
	var base optionalString
	fs.Var(&base, "base", "the base URL to resolve against")
	jsonl := fs.Bool("jsonl", false, `read {"base": ..., "ref": ...} lines from stdin, write {"url": ...} or {"error": ...} lines`)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if *jsonl {
		if fs.NArg() > 0 || base.set {
			s.errorf("resolve: --jsonl takes its bases and references from stdin")
			return exitUsage
		}
		return resolveJSONL(*spec, *opts, s)
	}
	if !base.set {
		return usageProblem(fs, s, "resolve", "--base is required: the base URL to resolve against")
	}
	if fs.NArg() == 0 {
		return wrongArgs(fs, s, "resolve", 0, "references to resolve")
	}
	return printEach("resolve", *spec, base.value, *opts, fs.Args(), s, (*resolve.Resolver).Reference)
}

// printEach makes a Resolver for base and prints fn of each argument, one
// per line, in order. The first failure, of fn or of the output, ends the
// run with exit status 1.
func printEach(cmd string, spec resolve.Spec, base string, opts resolve.Options, args []string, s stdio, fn func(*resolve.Resolver, string) (string, error)) int {
	r, err := resolve.NewResolver(spec, base, opts)
	if err != nil {
		s.errorf("%v", err)
		return exitFailure
	}
	w := bufio.NewWriter(s.out)
	for _, arg := range args {
		out, err := fn(r, arg)
		if err != nil {
			s.flushed(cmd, w, exitFailure)
			s.errorf("%v", err)
			return exitFailure
		}
		if _, err := fmt.Fprintln(w, out); err != nil {
			return s.writeFailed(cmd, err)
		}
	}
	return s.flushed(cmd, w, exitOK)
}

// resolveJSONL streams JSON Lines from stdin to stdout. A line that is not
// valid JSON, or whose reference does not resolve, gets an "error" line of
// its own; the stream goes on.
func resolveJSONL(spec resolve.Spec, opts resolve.Options, s stdio) int {
	type request struct {
		Base *string `json:"base"`
		Ref  *string `json:"ref"`
	}
	// "url" as in the link records of relurl links; "href", its name
	// before, is kept for one release (docs/cli/README.md).
	type response struct {
		URL   *string `json:"url,omitempty"`
		Error string  `json:"error,omitempty"`
		Href  *string `json:"href,omitempty"` // deprecated: url
	}
	var (
		r      *resolve.Resolver // the last base's resolver: documents send many refs per base
		rErr   error
		rBase  string
		out    = bufio.NewWriter(s.out)
		enc    = json.NewEncoder(out)
		lines  = inputs.NewLineReader(s.in)
		werr   error // the first failed write: the run ends
		answer = func(href string, err error) {
			if werr != nil {
				return
			}
			if err != nil {
				werr = enc.Encode(response{Error: err.Error()})
			} else {
				werr = enc.Encode(response{URL: &href, Href: &href})
			}
		}
	)
	enc.SetEscapeHTML(false)
	for werr == nil {
		line, err := lines.Next()
		if errors.Is(err, io.EOF) {
			return s.flushed("resolve", out, exitOK)
		}
		if err != nil {
			answer("", err)
			if errors.Is(err, inputs.ErrLineTooLong) {
				continue
			}
			s.flushed("resolve", out, exitFailure)
			s.errorf("resolve: reading stdin: %v", err)
			return exitFailure
		}
		var req request
		if err := json.Unmarshal(line, &req); err != nil {
			answer("", fmt.Errorf("invalid JSON line: %v", err))
			continue
		}
		if req.Base == nil || req.Ref == nil {
			answer("", errors.New(`a line needs "base" and "ref"`))
			continue
		}
		if r == nil && rErr == nil || rBase != *req.Base {
			rBase = *req.Base
			r, rErr = resolve.NewResolver(spec, rBase, opts)
		}
		if rErr != nil {
			answer("", rErr)
			continue
		}
		answer(r.Reference(*req.Ref))
	}
	return s.writeFailed("resolve", werr)
}

func runRelativize(args []string, s stdio) int {
	fs := newFlagSet("relativize", "[--spec S] --base BASE TARGET...", s)
	spec, opts := specFlag(fs, defaultSpec)
	var base optionalString
	fs.Var(&base, "base", "the base URL the references will be resolved against")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if !base.set {
		return usageProblem(fs, s, "relativize", "--base is required: the base URL the references will be resolved against")
	}
	if fs.NArg() == 0 {
		return wrongArgs(fs, s, "relativize", 0, "target URLs")
	}
	return printEach("relativize", *spec, base.value, *opts, fs.Args(), s, (*resolve.Resolver).Relativize)
}
