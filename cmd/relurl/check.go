package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/relurl/relurl/resolve/grammar"
	"github.com/relurl/relurl/tree"
)

const checkSynopsis = `[--url CURRENT_ROOT_URL] [--to NEW_ROOT_URL] [--fix] [--json] DIR

Reports, as FILE:LINE:COLUMN, each link that ties the tree DIR to its
place (the relative-URL draft's §1: trees that can be moved as a whole):
absolute links into the tree, root-relative links, relative links that
climb out of it, links to files missing from it, <base> elements, and with
--grammar URLs that grammar rejects. With --to, only the links that break
in that move. --fix rewrites absolute and root-relative links into the
tree to their relative form, in place and atomically.
Exit status: 0 the tree is movable, 1 something was found, 2 usage.`

func runCheck(args []string, s stdio) int {
	fs := newFlagSet("check", checkSynopsis, s)
	spec, opts := specFlag(fs, defaultHTMLSpec)
	var root, to optionalString
	fs.Var(&root, "url", "the URL the tree is served from now (default: its file: URL)")
	fs.Var(&to, "to", "the URL the tree will move to: report only what breaks in that move")
	gram := fs.String("grammar", "", "also report URLs this grammar rejects: "+strings.Join(grammar.Names(), ", "))
	asJSON := fs.Bool("json", false, "one JSON object a finding")
	fix := fs.Bool("fix", false, "rewrite absolute and root-relative links into the tree to their relative form, in place")
	jobs := fs.Int("j", defaultJobs(), "files checked in parallel")
	maxSize := fs.Int64("max-size", defaultMaxSize, "largest input file, in bytes")
	var contentType string
	contentTypeFlag(fs, &contentType)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	usageErr := func(format string, a ...any) int {
		s.errorf("check: "+format, a...)
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	dir := fs.Arg(0)
	if info, err := os.Stat(dir); err != nil {
		s.errorf("check: %v", err)
		return exitFailure
	} else if !info.IsDir() {
		return usageErr("%s is not a directory", dir)
	}
	if *jobs < 1 {
		return usageErr("-j must be at least 1")
	}
	m, err := tree.NewMapper(root.value)
	if err != nil {
		return usageErr("--url: %v", err)
	}
	rootURL, err := m.Root(dir)
	if err != nil {
		return usageErr("--url: %v", err)
	}
	if to.set {
		if to.value == "" {
			return usageErr("--to: the URL of the new place is empty")
		}
		if _, err := tree.NewMapper(to.value); err != nil {
			return usageErr("--to: %v", err)
		}
	}
	c := &tree.Checker{Spec: *spec, Options: *opts, Dir: dir, Root: rootURL, To: to.value, ContentType: contentType}
	if *gram != "" {
		if err := grammar.Validate(*gram, ""); errors.Is(err, grammar.ErrUnknownGrammar) {
			return usageErr("%v", err)
		}
		name := *gram
		c.Grammar = func(raw string) error {
			err := grammar.Validate(name, raw)
			if ge, ok := errors.AsType[*grammar.Error](err); ok {
				return fmt.Errorf("invalid under %s: offset %d: %s", ge.Grammar, ge.Offset, ge.Reason())
			}
			return err
		}
	}
	if err := c.Prepare(); err != nil {
		return usageErr("%v", err)
	}

	type result struct {
		findings []tree.Finding
		fixed    int // links --fix rewrote
		err      error
	}
	work := func(w walked) result {
		if w.err != nil {
			return result{err: w.err}
		}
		f := w.f
		if f.Kind != tree.HTML {
			return result{}
		}
		if !*fix {
			data, err := tree.ReadFile(f.Path, *maxSize)
			if err != nil {
				return result{err: err}
			}
			found, err := c.Check(f, data)
			return result{findings: found, err: err}
		}
		var r result
		var after []byte
		_, r.err = tree.Update(f.Path, *maxSize, func(old []byte) ([]byte, error) {
			found, err := c.Check(f, old)
			if err != nil {
				return nil, err
			}
			after, r.fixed, err = c.Fix(f, old, found)
			return after, err
		})
		if r.err != nil {
			return r
		}
		// What is left is what the fix could not mend.
		r.findings, r.err = c.Check(f, after)
		return r
	}
	var (
		out    = bufio.NewWriter(s.out)
		enc    = json.NewEncoder(out)
		found  = 0
		failed = 0
		fixed  = 0
		files  = 0
	)
	enc.SetEscapeHTML(false)
	emit := func(w walked, r result) error {
		if r.err != nil {
			failed++
			out.Flush()
			s.errorf("%s", fileError(w.f.Path, r.err))
			return nil
		}
		if r.fixed > 0 {
			fixed += r.fixed
			files++
		}
		for _, f := range r.findings {
			found++
			if *asJSON {
				enc.Encode(f)
				continue
			}
			fmt.Fprintf(out, "%s:%d:%d: %s: %s: %s", f.File, f.Line, f.Column, f.Problem, f.Link, f.Reason)
			if f.Relative != "" {
				fmt.Fprintf(out, " (relative: %s)", f.Relative)
			}
			fmt.Fprintln(out)
		}
		return nil
	}
	err = tree.Ordered(*jobs, walkSeq(tree.Walk([]string{dir})), work, emit)
	out.Flush()
	if err != nil {
		s.errorf("check: %v", err)
		return exitFailure
	}
	if *fix {
		s.errorf("check: fixed %d links in %d files", fixed, files)
	}
	if found > 0 || failed > 0 {
		return exitFailure
	}
	return exitOK
}
