package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/resolve"
)

// headerFlag collects repeated --header 'Name: value' flags.
type headerFlag struct{ h textproto.MIMEHeader }

func (f *headerFlag) String() string { return "" }

func (f *headerFlag) Set(s string) error {
	name, value, ok := strings.Cut(s, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t\r\n") {
		return errors.New(`want "Name: value"`)
	}
	if f.h == nil {
		f.h = make(textproto.MIMEHeader)
	}
	f.h.Add(name, strings.TrimSpace(value))
	return nil
}

// baseOutput is the line relurl base prints. Its names are those of the
// link records of relurl links (base, base_source); Source repeats
// BaseSource under its name before them, for one release (docs/output.md).
type baseOutput struct {
	Base       string   `json:"base"`
	BaseSource string   `json:"base_source"`
	Detail     string   `json:"detail"`
	Warnings   []string `json:"warnings,omitempty"`
	Source     string   `json:"source"` // deprecated: base_source
}

func runBase(args []string, s stdio) int {
	f := newBaseFlags(s)
	if code := f.parse(args); code >= 0 {
		return code
	}
	in, closeIn, err := f.open()
	if err != nil {
		return s.exit("base", err)
	}
	defer closeIn()
	input, err := f.input()
	if err != nil {
		s.errorf("%v", err)
		return exitFailure
	}
	doc, err := base.Open(in, input)
	if err != nil {
		s.errorf("base: %s: %v", f.name, err)
		return exitFailure
	}
	r := doc.Base
	enc := json.NewEncoder(s.out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(baseOutput{
		Base:       escapeNonUTF8(r.URL),
		BaseSource: r.Source.String(),
		Detail:     r.Detail,
		Warnings:   append(doc.Warnings, r.Warnings...),
		Source:     r.Source.String(),
	}); err != nil {
		s.errorf("base: %v", err)
		return exitFailure
	}
	return exitOK
}

// baseFlags are the flags of relurl base.
type baseFlags struct {
	fs                      *flag.FlagSet
	s                       stdio
	spec                    *resolve.Spec
	opts                    *resolve.Options
	retrieval               optionalString
	headers                 headerFlag
	contentType             string
	strict, contentLocation bool
	scripting, savedFrom    bool
	name                    string // the document, once parsed: a file or "-"
}

// newBaseFlags binds base's flags to a new flag set.
func newBaseFlags(s stdio) *baseFlags {
	fs := newFlagSet("base", "[--base DOCUMENT_URL] [--header 'Name: value']... [--content-type VALUE] [--scripting] [--strict] [--spec S] [--content-location] [--saved-from] FILE|-", s)
	f := &baseFlags{fs: fs, s: s}
	f.spec, f.opts = specFlag(fs, defaultHTMLSpec)
	fs.Var(&f.retrieval, "base", "the document's URL, where it was retrieved from after redirects (draft §3.3: the retrieval layer, below <base> and headers); default: the file's own file: URL")
	alias(fs, "url", "base") // its old name, kept for one release (docs/output.md)
	fs.Var(&f.headers, "header", "a message header of the document, 'Name: value' (draft §3.2: Base, Content-Base, Content-Location); repeatable")
	fs.BoolVar(&f.strict, "strict", false, "only a BASE in HEAD with an absolute HREF counts (the draft's §10 appendix)")
	fs.BoolVar(&f.contentLocation, "content-location", false, "let a Content-Location header count, as for a MIME part (browsers ignore it in HTTP)")
	contentTypeFlag(fs, &f.contentType)
	scriptingFlag(fs, &f.scripting)
	fs.BoolVar(&f.savedFrom, "saved-from", false, "without --base, take the document's URL from a saved page's <!-- saved from url=(NNNN)... --> comment")
	return f
}

// parse parses args and returns -1 to go on, or the exit status to return
// (its error said).
func (f *baseFlags) parse(args []string) int {
	if code := parseFlags(f.fs, args); code >= 0 {
		return code
	}
	if f.fs.NArg() != 1 {
		return wrongArgs(f.fs, f.s, "base", f.fs.NArg(), "one document: a FILE, or - for standard input")
	}
	if f.contentType != "" {
		if f.headers.h == nil {
			f.headers.h = make(textproto.MIMEHeader)
		}
		f.headers.h.Set("Content-Type", f.contentType)
	}
	f.name = f.fs.Arg(0)
	if info, err := os.Stat(f.name); f.name != "-" && err == nil && info.IsDir() {
		return usageProblem(f.fs, f.s, "base", fmt.Sprintf("%s is a directory: relurl base reads one document (a file, or - for standard input)", f.name))
	}
	return -1
}

// open opens the document: the file, or standard input for "-".
func (f *baseFlags) open() (io.Reader, func(), error) {
	if f.name == "-" {
		return f.s.in, func() {}, nil
	}
	in, err := os.Open(f.name)
	if err != nil {
		return nil, nil, err
	}
	return in, func() { in.Close() }, nil
}

// input says what package base is to read of the document, as the flags
// say: its URL (--base, else its file's), headers and rules.
func (f *baseFlags) input() (base.Input, error) {
	input := base.Input{
		Name:    f.name,
		Default: base.HTML, // what is no other kind is read as HTML
		Context: base.Context{
			Spec:            *f.spec,
			Options:         *f.opts,
			Header:          f.headers.h,
			ContentLocation: f.contentLocation, ContentLocationSwitch: "--content-location",
			Strict: f.strict,
		},
		Scripting: f.scripting,
		SavedFrom: !f.retrieval.set && f.savedFrom,
		ScanLimit: -1, // only the base is wanted: scan on, keep nothing
	}
	switch {
	case f.retrieval.set:
		input.Context.Retrieval = f.retrieval.value
	case f.name != "-":
		u, err := base.FileURL(f.name)
		if err != nil {
			return input, err
		}
		input.Context.Retrieval, input.Context.RetrievalDetail = u, "file: URL of "+f.name
	}
	return input, nil
}

// escapeNonUTF8 percent-encodes (RFC 3986 §2.1) each byte of u that is not
// part of valid UTF-8. A page's raw bytes reach the base URL unchanged under
// the RFC modes, and encoding/json would replace them with U+FFFD.
func escapeNonUTF8(u string) string {
	if utf8.ValidString(u) {
		return u
	}
	var b strings.Builder
	for i := 0; i < len(u); {
		r, n := utf8.DecodeRuneInString(u[i:])
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, "%%%02X", u[i])
		} else {
			b.WriteString(u[i : i+n])
		}
		i += n
	}
	return b.String()
}
