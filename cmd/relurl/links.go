package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/mime"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/tree"
)

const linksSynopsis = `[--base URL] [--spec S] [--format jsonl|text] [filters] PATH... | -

Prints every link of HTML, MHTML and WARC files (directories are walked),
one JSON object a line (fields raw, url or error, tag, attr, kind, rel,
line, column, offset, file, base, base_source; part and target_part for
MHTML; record and target for WARC), or with --format text one absolute URL
a line. With --from-list, paths are read one a line as they come, so the
command is a streaming filter (Hadoop Streaming, Spark's RDD.pipe).
Exit status: 0 done, 1 some file failed, 2 usage.`

// maxUnique bounds the URLs --unique remembers (about 1 GiB of memory
// for long URLs); past it, new URLs are printed without being remembered.
const maxUnique = 1 << 22

// linkRecord is one line of the JSON Lines output.
type linkRecord struct {
	Raw    string   `json:"raw"`
	URL    string   `json:"url,omitempty"`
	Error  string   `json:"error,omitempty"`
	Tag    string   `json:"tag"`
	Attr   string   `json:"attr"`
	Kind   string   `json:"kind"`
	Rel    []string `json:"rel"`
	Line   int      `json:"line"`
	Column int      `json:"column"`
	Offset int64    `json:"offset"`
	File   string   `json:"file"`
	// FileEncoding is "percent" when File is not valid UTF-8 and was
	// percent-encoded (tree.JSONName); absent otherwise.
	FileEncoding string  `json:"file_encoding,omitempty"`
	Part         *string `json:"part,omitempty"`        // MHTML: the part the link is in
	TargetPart   string  `json:"target_part,omitempty"` // MHTML: the part the URL names
	Record       *int64  `json:"record,omitempty"`      // WARC: the record's offset
	Target       string  `json:"target,omitempty"`      // WARC: the record's target URI
	Base         string  `json:"base"`
	BaseSource   string  `json:"base_source"`
}

// linkFilter is what --internal, --external and --kind keep.
type linkFilter struct {
	internal, external bool
	kinds              map[string]bool // nil: every kind
}

// linksOutput is the output of one file: its lines, and the URL of each
// for --unique.
type linksOutput struct {
	buf  []byte
	ends []int    // where each line ends in buf
	urls []string // each line's URL ("" for a link that failed)
	err  error
}

func runLinks(args []string, s stdio) int {
	fs := newFlagSet("links", linksSynopsis, s)
	t := addTreeFlags(fs, "the URL of the tree's root (of a FILE given alone: its URL)")
	format := fs.String("format", "jsonl", `"jsonl" or "text" (one absolute URL a line)`)
	var filter linkFilter
	fs.BoolVar(&filter.internal, "internal", false, "only links into the tree (under its root URL; in MHTML and WARC: to the same origin as the document)")
	fs.BoolVar(&filter.external, "external", false, "only links out of the tree")
	kinds := fs.String("kind", "", "only these kinds, comma-separated: navigation, resource, form, citation, refresh, css, redirect")
	unique := fs.Bool("unique", false, "print each URL once (text) or each link to a URL once (jsonl); links that failed are kept")
	if code := parseFlags(fs, args); code >= 0 {
		return code
	}
	usageErr := func(format string, a ...any) int {
		s.errorf("links: "+format, a...)
		return exitUsage
	}
	if err := t.check(); err != nil {
		return usageErr("%v", err)
	}
	if *format != "jsonl" && *format != "text" {
		return usageErr(`--format is "jsonl" or "text", not %q`, *format)
	}
	if filter.internal && filter.external {
		return usageErr("--internal and --external exclude each other")
	}
	if *kinds != "" {
		filter.kinds = map[string]bool{}
		for k := range strings.SplitSeq(*kinds, ",") {
			if !slices.Contains(kindNames(), k) {
				return usageErr("unknown --kind %q (want %s)", k, strings.Join(kindNames(), ", "))
			}
			filter.kinds[k] = true
		}
	}
	if fs.NArg() == 0 && t.fromList == "" {
		fs.Usage()
		return exitUsage
	}
	text := *format == "text"
	var seen map[string]bool
	seenFull := false
	if *unique {
		seen = map[string]bool{}
	}
	w := bufio.NewWriterSize(s.out, 64<<10)
	defer w.Flush()
	writeOut := func(o linksOutput) error {
		start := 0
		for i, end := range o.ends {
			line := o.buf[start:end]
			start = end
			if u := o.urls[i]; seen != nil && u != "" {
				if seen[u] {
					continue
				}
				if len(seen) < maxUnique {
					seen[u] = true
				} else if !seenFull {
					seenFull = true
					s.errorf("links: --unique: more than %d URLs; later ones may repeat", maxUnique)
				}
			}
			if _, err := w.Write(line); err != nil {
				return err
			}
		}
		return nil
	}

	if fs.NArg() == 1 && fs.Arg(0) == "-" {
		if t.fromList != "" {
			return usageErr(`"-" reads one document from standard input: no --from-list`)
		}
		data, err := io.ReadAll(io.LimitReader(s.in, t.maxSize+1))
		if err == nil && int64(len(data)) > t.maxSize {
			err = tree.ErrTooLarge
		}
		if err != nil {
			s.errorf("links: standard input: %v", err)
			return exitFailure
		}
		// A stream has no name: WARC and MHTML by their first bytes, else HTML.
		var kind tree.Kind
		switch {
		case bytes.HasPrefix(data, []byte("WARC/")) || bytes.HasPrefix(data, []byte{0x1f, 0x8b}):
			kind = tree.WARC
		case bytes.HasPrefix(bytes.TrimLeft(data, " \t\r\n"), []byte("MIME-Version:")):
			kind = tree.MHTML
		default:
			kind = tree.HTML
		}
		f := tree.File{Path: "-", Kind: kind}
		o := fileLinks(f, data, t.base.value, "", t, filter, text)
		if err := writeOut(o); err != nil {
			s.errorf("links: %v", err)
			return exitFailure
		}
		if o.err != nil {
			w.Flush()
			s.errorf("links: standard input: %v", o.err)
			return exitFailure
		}
		return exitOK
	}
	for _, a := range fs.Args() {
		if a == "-" {
			return usageErr(`"-" (standard input) goes alone`)
		}
	}
	items, done, err := t.inputs(fs.Args(), s)
	if err != nil {
		s.errorf("links: %v", err)
		return exitFailure
	}
	failed := 0
	work := func(wk walked) linksOutput {
		if wk.err != nil {
			return linksOutput{err: wk.err}
		}
		f := wk.f
		if f.Kind == tree.Other {
			if f.Rel == "" {
				return linksOutput{err: fmt.Errorf("not an HTML, MHTML or WARC file (by name and content)")}
			}
			return linksOutput{}
		}
		docURL, err := t.mapper.URL(f)
		if err != nil {
			return linksOutput{err: err}
		}
		root := ""
		if f.Rel != "" {
			root, err = t.mapper.Root(f.Root)
		} else {
			root = directoryOf(docURL)
		}
		if err != nil {
			return linksOutput{err: err}
		}
		root = normalize(t, root)
		if f.Kind == tree.WARC {
			return warcLinks(f, t, filter, text)
		}
		data, err := tree.ReadFile(f.Path, t.maxSize)
		if err != nil {
			return linksOutput{err: err}
		}
		return fileLinks(f, data, docURL, root, t, filter, text)
	}
	// A list is a stream: each file's links go out before the next path
	// is waited for, so a caller can talk to the command line by line.
	streaming := t.fromList != ""
	emit := func(wk walked, o linksOutput) error {
		if err := writeOut(o); err != nil {
			return err
		}
		if o.err != nil {
			failed++
			w.Flush()
			s.errorf("%s", fileError(wk.f.Path, o.err))
		}
		if streaming {
			return w.Flush()
		}
		return nil
	}
	err = tree.Ordered(t.jobs, items, work, emit)
	if lerr := done(); lerr != nil {
		s.errorf("links: %v", lerr)
		failed++
	}
	if err != nil {
		s.errorf("links: %v", err)
		return exitFailure
	}
	if failed > 0 {
		return exitFailure
	}
	return exitOK
}

func kindNames() []string {
	var names []string
	for k := htmlrewrite.Navigation; k <= htmlrewrite.Redirect; k++ {
		names = append(names, k.String())
	}
	return names
}

// directoryOf returns the URL of the directory of the document u: the
// tree a file given alone stands in.
func directoryOf(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	return u[:strings.LastIndexByte(u, '/')+1]
}

// normalize returns u as the resolver writes it (lower-case scheme and
// host, ...), so that resolved links compare with it as strings.
func normalize(t *treeFlags, u string) string {
	r, err := resolve.NewResolver(*t.spec, u, *t.opts)
	if err != nil {
		return u
	}
	if n, err := r.Reference(u); err == nil {
		return n
	}
	return u
}

// origin returns scheme://host of u, or "" when it has none.
func origin(u string) string {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return ""
	}
	return strings.ToLower(p.Scheme) + "://" + strings.ToLower(p.Host)
}

// keep reports whether a link to u passes the filter; root is the tree
// root URL, or "" to compare origins with the document's base instead.
func (lf linkFilter) keep(kind htmlrewrite.Kind, u, root, docBase string) bool {
	if lf.kinds != nil && !lf.kinds[kind.String()] {
		return false
	}
	if !lf.internal && !lf.external {
		return true
	}
	var in bool
	if root != "" {
		in = u != "" && strings.HasPrefix(u, root)
	} else {
		o := origin(u)
		in = o != "" && o == origin(docBase)
	}
	return in == lf.internal
}

// encoder writes the lines of one file's output.
type encoder struct {
	out  linksOutput
	buf  bytes.Buffer
	enc  *json.Encoder
	text bool
}

func newEncoder(text bool) *encoder {
	e := &encoder{text: text}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}

func (e *encoder) add(r *linkRecord) {
	if e.text {
		if r.URL == "" {
			return
		}
		e.buf.WriteString(r.URL)
		e.buf.WriteByte('\n')
	} else {
		if r.Rel == nil {
			r.Rel = []string{}
		}
		e.enc.Encode(r)
	}
	e.out.ends = append(e.out.ends, e.buf.Len())
	e.out.urls = append(e.out.urls, r.URL)
}

func (e *encoder) done(err error) linksOutput {
	e.out.buf = e.buf.Bytes()
	e.out.err = err
	return e.out
}

func record(l htmlrewrite.Link, file string, b base.Result) *linkRecord {
	r := &linkRecord{
		Raw: l.Raw, URL: l.URL, Tag: l.Tag, Attr: l.Attr, Kind: l.Kind.String(), Rel: l.Rel,
		Line: l.Line, Column: l.Column, Offset: l.Offset, File: file,
		Base: b.URL, BaseSource: b.Source.String(),
	}
	if name, escaped := tree.JSONName(file); escaped {
		r.File, r.FileEncoding = name, tree.PercentEncoded
	}
	if l.Err != nil {
		r.Error = l.Err.Error()
	}
	return r
}

// fileLinks extracts the links of the HTML or MHTML document data.
func fileLinks(f tree.File, data []byte, docURL, root string, t *treeFlags, lf linkFilter, text bool) linksOutput {
	e := newEncoder(text)
	switch f.Kind {
	case tree.WARC:
		err := mime.WARCLinks(bytes.NewReader(data), t.mimeOptions(""), func(l mime.WARCLink) error {
			return e.warc(l, f, lf)
		})
		return e.done(err)
	case tree.MHTML:
		err := mime.Links(bytes.NewReader(data), t.mimeOptions(docURL), func(l mime.Link) error {
			if !lf.keep(l.Kind, l.URL, "", l.Base.URL) {
				return nil
			}
			r := record(l.Link, f.Path, l.Base)
			part := l.Part
			r.Part, r.TargetPart = &part, l.Target
			e.add(r)
			return nil
		})
		return e.done(err)
	}
	// The base comes back at the end; the records wait for it.
	var links []htmlrewrite.Link
	b, err := htmlrewrite.Links(bytes.NewReader(data), t.htmlOptions(docURL), func(l htmlrewrite.Link) error {
		if lf.keep(l.Kind, l.URL, root, "") {
			links = append(links, l)
		}
		return nil
	})
	for _, l := range links {
		e.add(record(l, f.Path, b))
	}
	return e.done(err)
}

func (e *encoder) warc(l mime.WARCLink, f tree.File, lf linkFilter) error {
	if !lf.keep(l.Kind, l.URL, "", l.Target) {
		return nil
	}
	r := record(l.Link, f.Path, l.Base)
	rec := l.Record
	r.Record, r.Target = &rec, l.Target
	e.add(r)
	return nil
}

// warcLinks streams the WARC file f: it is not read into memory whole.
func warcLinks(f tree.File, t *treeFlags, lf linkFilter, text bool) linksOutput {
	r, err := os.Open(f.Path)
	if err != nil {
		return linksOutput{err: err}
	}
	defer r.Close()
	e := newEncoder(text)
	err = mime.WARCLinks(r, t.mimeOptions(""), func(l mime.WARCLink) error {
		return e.warc(l, f, lf)
	})
	return e.done(err)
}
