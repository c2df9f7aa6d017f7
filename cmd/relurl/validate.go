package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/resolve/grammar"
)

// defaultGrammar is the grammar of validate when --grammar is not given.
const defaultGrammar = "rfc3986"

func runValidate(args []string, s stdio) int {
	fs := newFlagSet("validate", "[--grammar NAME] URL... | [--grammar NAME] --jsonl", s)
	name := fs.String("grammar", defaultGrammar, "the grammar to check against: "+strings.Join(grammar.Names(), ", "))
	jsonl := fs.Bool("jsonl", false, `read one URL per line from stdin, write one JSON line per URL: {"line": N, "url": ..., "valid": ...}`)
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	// A bad name is a usage error, found before any URL is read.
	if err := grammar.Validate(*name, ""); errors.Is(err, grammar.ErrUnknownGrammar) {
		s.errorf("validate: %s", unknownGrammar(*name))
		return exitUsage
	}
	if *jsonl {
		if fs.NArg() > 0 {
			s.errorf("validate: --jsonl takes its URLs from stdin")
			return exitUsage
		}
		return validateJSONL(*name, s)
	}
	if fs.NArg() == 0 {
		return wrongArgs(fs, s, "validate", 0, "URLs to validate (or --jsonl to read them from standard input)")
	}
	w := bufio.NewWriter(s.out)
	code := exitOK
	for _, u := range fs.Args() {
		if err := grammar.Validate(*name, u); err != nil {
			if _, err := fmt.Fprintf(w, "%s: %s\n", u, reason(err)); err != nil {
				return s.writeFailed("validate", err)
			}
			code = exitFailure
		}
	}
	return s.flushed("validate", w, code)
}

// unknownGrammar says that package grammar has no grammar name.
func unknownGrammar(name string) string {
	return fmt.Sprintf("no such grammar %q (want %s)", name, strings.Join(grammar.Names(), ", "))
}

// reason is "offset N: what is wrong in which production".
func reason(err error) string {
	var e *grammar.Error
	if errors.As(err, &e) {
		return fmt.Sprintf("offset %d: %s", e.Offset, e.Reason())
	}
	return err.Error()
}

// validateJSONL checks each line of stdin and writes one JSON line for it,
// in order. The exit status is 1 if any URL is invalid or stdin cannot be
// read, 0 otherwise.
func validateJSONL(name string, s stdio) int {
	type result struct {
		Line       int    `json:"line"`
		URL        string `json:"url"`
		Valid      bool   `json:"valid"`
		Offset     *int   `json:"offset,omitempty"`
		Error      string `json:"error,omitempty"`
		Production string `json:"production,omitempty"`
	}
	var (
		out   = bufio.NewWriter(s.out)
		enc   = json.NewEncoder(out)
		lines = inputs.NewLineReader(s.in)
		code  = exitOK
	)
	enc.SetEscapeHTML(false)
	for n := 1; ; n++ {
		line, err := lines.Next()
		if errors.Is(err, io.EOF) {
			return s.flushed("validate", out, code)
		}
		if err != nil {
			if werr := enc.Encode(result{Line: n, Error: err.Error()}); werr != nil {
				return s.writeFailed("validate", werr)
			}
			code = exitFailure
			if errors.Is(err, inputs.ErrLineTooLong) {
				continue
			}
			s.flushed("validate", out, exitFailure)
			s.errorf("validate: reading stdin: %v", err)
			return exitFailure
		}
		r := result{Line: n, URL: string(line), Valid: true}
		if err := grammar.Validate(name, r.URL); err != nil {
			r.Valid, r.Error, code = false, err.Error(), exitFailure
			var e *grammar.Error
			if errors.As(err, &e) {
				r.Offset, r.Error, r.Production = &e.Offset, e.Reason(), e.Production
			}
		}
		if err := enc.Encode(r); err != nil {
			return s.writeFailed("validate", err)
		}
	}
}
