package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
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
		fs.Usage()
		return exitUsage
	}
	if contentType != "" {
		if headers.h == nil {
			headers.h = make(textproto.MIMEHeader)
		}
		headers.h.Set("Content-Type", contentType)
	}
	name := fs.Arg(0)
	var in io.Reader = s.in
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			s.errorf("base: %v", err)
			return exitFailure
		}
		defer f.Close()
		in = f
	}
	br := bufio.NewReaderSize(in, 4<<10)

	c := base.Context{
		Spec:            *spec,
		Options:         *opts,
		Header:          headers.h,
		ContentLocation: *contentLocation,
		Strict:          *strict,
	}
	switch {
	case retrieval.set:
		c.Retrieval = retrieval.value
	case *savedFrom && savedFromURL(br, &c):
	case name != "-":
		u, err := base.FileURL(name)
		if err != nil {
			s.errorf("%v", err)
			return exitFailure
		}
		c.Retrieval, c.RetrievalDetail = u, "file: URL of "+name
	}

	var doc io.Reader = br
	prefix, _ := br.Peek(1024)
	docEnc, charset, _ := htmlrewrite.Encoding(prefix, headers.h.Get("Content-Type"))
	switch charset {
	case "utf-16le", "utf-16be":
		// A UTF-16 page is scanned as the text it decodes to (UTF-8).
		endian := unicode.LittleEndian
		if charset == "utf-16be" {
			endian = unicode.BigEndian
		}
		doc = transform.NewReader(br, unicode.UTF16(endian, unicode.UseBOM).NewDecoder())
	default:
		if c.Options.QueryEncoding == nil {
			// <base href> is text in the document's encoding (the WHATWG
			// mode decodes it with this).
			c.Options.QueryEncoding = docEnc
		}
	}
	e, warnings, err := base.ScanHTML(doc, *strict, base.Scripting(scripting))
	if err != nil {
		s.errorf("base: %s: %v", name, err)
		return exitFailure
	}
	r := c.Decide(e)
	enc := json.NewEncoder(s.out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(baseOutput{
		Base:       escapeNonUTF8(r.URL),
		BaseSource: r.Source.String(),
		Detail:     r.Detail,
		Warnings:   append(warnings, r.Warnings...),
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

// savedFromURL sets c's retrieval URL from the mark of the web at the start
// of br, and reports whether there was one.
func savedFromURL(br *bufio.Reader, c *base.Context) bool {
	head, _ := br.Peek(br.Size())
	u, line, ok := base.SavedFrom(head)
	if ok {
		c.Retrieval, c.RetrievalDetail = u, fmt.Sprintf("<!-- saved from url=... --> at line %d", line)
	}
	return ok
}
