package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"strings"
	"unicode/utf8"

	"github.com/relurl/relurl/base"
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
// BaseSource under its name before them, for one release (README).
type baseOutput struct {
	Base       string   `json:"base"`
	BaseSource string   `json:"base_source"`
	Detail     string   `json:"detail"`
	Warnings   []string `json:"warnings,omitempty"`
	Source     string   `json:"source"` // deprecated: base_source
}

func runBase(args []string, s stdio) int {
	fs := newFlagSet("base", "[--base DOCUMENT_URL] [--header 'Name: value']... [--content-type VALUE] [--scripting] [--strict] [--spec S] [--content-location] [--saved-from] FILE|-", s)
	spec, opts := specFlag(fs, defaultHTMLSpec)
	var retrieval optionalString
	fs.Var(&retrieval, "base", "the document's URL, where it was retrieved from after redirects (draft §3.3: the retrieval layer, below <base> and headers); default: the file's own file: URL")
	alias(fs, "url", "base") // its old name, kept for one release (README)
	var headers headerFlag
	fs.Var(&headers, "header", "a message header of the document, 'Name: value' (draft §3.2: Base, Content-Base, Content-Location); repeatable")
	strict := fs.Bool("strict", false, "only a BASE in HEAD with an absolute HREF counts (the draft's §10 appendix)")
	contentLocation := fs.Bool("content-location", false, "let a Content-Location header count, as for a MIME part (browsers ignore it in HTTP)")
	var contentType string
	contentTypeFlag(fs, &contentType)
	var scripting bool
	scriptingFlag(fs, &scripting)
	savedFrom := fs.Bool("saved-from", false, "without --base, take the document's URL from a saved page's <!-- saved from url=(NNNN)... --> comment")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	if fs.NArg() != 1 {
		return wrongArgs(fs, s, "base", fs.NArg(), "one document: a FILE, or - for standard input")
	}
	if contentType != "" {
		if headers.h == nil {
			headers.h = make(textproto.MIMEHeader)
		}
		headers.h.Set("Content-Type", contentType)
	}
	name := fs.Arg(0)
	var in io.Reader = s.in
	if info, err := os.Stat(name); name != "-" && err == nil && info.IsDir() {
		s.errorf("base: %s is a directory: relurl base reads one document (a file, or - for standard input)", name)
		fs.Usage()
		return exitUsage
	}
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			s.errorf("base: %v", err)
			return exitFailure
		}
		defer f.Close()
		in = f
	}
	input := base.Input{
		Name:    name,
		Default: base.HTML, // what is no other kind is read as HTML
		Context: base.Context{
			Spec:            *spec,
			Options:         *opts,
			Header:          headers.h,
			ContentLocation: *contentLocation, ContentLocationSwitch: "--content-location",
			Strict: *strict,
		},
		Scripting: scripting,
		SavedFrom: !retrieval.set && *savedFrom,
		ScanLimit: -1, // only the base is wanted: scan on, keep nothing
	}
	switch {
	case retrieval.set:
		input.Context.Retrieval = retrieval.value
	case name != "-":
		u, err := base.FileURL(name)
		if err != nil {
			s.errorf("%v", err)
			return exitFailure
		}
		input.Context.Retrieval, input.Context.RetrievalDetail = u, "file: URL of "+name
	}
	doc, err := base.Open(in, input)
	if err != nil {
		s.errorf("base: %s: %v", name, err)
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
