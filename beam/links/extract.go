package links

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/mime"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/tree"
)

// Options say how Extract reads documents. The zero value reads them as
// `relurl links` does by default.
type Options struct {
	// Spec is the resolution mode; zero means WHATWG, as browsers (and
	// relurl links) resolve HTML.
	Spec resolve.Spec
	// Strict makes only a BASE in HEAD with an absolute HREF count
	// (relurl links --strict).
	Strict bool
	// ContentLocation makes a WARC response's HTTP Content-Location a base
	// layer (mime.Options.ContentLocation).
	ContentLocation bool
	// MaxSize bounds an MHTML file, which is read into memory whole;
	// zero means 256 MiB (relurl links --max-size). WARC and HTML files
	// are streamed, whatever their size.
	MaxSize int64
}

const defaultMaxSize = 256 << 20

func (o Options) withDefaults() Options {
	if o.Spec == 0 {
		o.Spec = resolve.WHATWG
	}
	if o.MaxSize <= 0 {
		o.MaxSize = defaultMaxSize
	}
	return o
}

// fileStats is what reading one file gave, for the counters.
type fileStats struct {
	records       int64 // WARC records read; MHTML parts with links; HTML documents
	links         int64
	failedRecords int64
	failed        bool // the file as a whole failed (or ended early)
}

// extractor reads one file and hands out its links and failures.
type extractor struct {
	opts  Options
	path  string // the file's name, to open
	name  string // the name in the records (tree.JSONName)
	enc   string // its file_encoding
	emit  func(Link)
	fail  func(Failure)
	stats fileStats
}

// extractFile reads the file called path from r: a WARC (plain or gzip),
// an MHTML or an HTML document, told apart as relurl links does
// (base.FormatOf). size is the file's size, or -1 when unknown.
func extractFile(path string, size int64, r io.Reader, opts Options, emit func(Link), fail func(Failure)) fileStats {
	x := &extractor{opts: opts.withDefaults(), path: path, name: path, emit: emit, fail: fail}
	if name, escaped := tree.JSONName(path); escaped {
		x.name, x.enc = name, tree.PercentEncoded
	}
	br := bufio.NewReaderSize(r, 64<<10)
	head, err := br.Peek(tree.HeadLen)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		x.fileFailed(err)
		return x.stats
	}
	switch base.FormatOf(path, head) {
	case base.WARC:
		x.warc(br)
	case base.MHTML:
		x.mhtml(br, size)
	case base.HTML:
		x.html(br)
	case base.Other:
		x.fileFailed(errors.New("not an HTML, MHTML or WARC file (by name and content)"))
	default:
		// relurl links reads these too (CSS, SVG/XML, manifests, JS
		// modules); this pipeline does not yet.
		x.fileFailed(fmt.Errorf("a %v file: relurl-beam reads WARC, MHTML and HTML only", base.FormatOf(path, head)))
	}
	return x.stats
}

func (x *extractor) fileFailed(err error) {
	x.stats.failed = true
	x.fail(Failure{File: x.name, FileEncoding: x.enc, Error: err.Error()})
}

// docURL is the retrieval URL of a file: its file: URL when it is local,
// as relurl links gives a file named on its own; a path with a scheme
// (gs://bucket/a.html) is its own URL.
func (x *extractor) docURL() (string, error) {
	if hasScheme(x.path) {
		return x.path, nil
	}
	var m tree.Mapper
	return m.URL(tree.File{Path: x.path})
}

// hasScheme reports whether path starts with a URL scheme and "://".
func hasScheme(path string) bool {
	i := strings.Index(path, "://")
	if i <= 0 {
		return false
	}
	for j, c := range path[:i] {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || j > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return false
		}
	}
	return true
}

// readWhole reads an MHTML file, bounded by MaxSize.
func (x *extractor) readWhole(r io.Reader, size int64) ([]byte, error) {
	if size > x.opts.MaxSize {
		return nil, tree.ErrTooLarge
	}
	data, err := io.ReadAll(io.LimitReader(r, x.opts.MaxSize+1))
	if err == nil && int64(len(data)) > x.opts.MaxSize {
		err = tree.ErrTooLarge
	}
	return data, err
}

func (x *extractor) mimeOptions(retrieval string) mime.Options {
	return mime.Options{Spec: x.opts.Spec, Retrieval: retrieval, Strict: x.opts.Strict, ContentLocation: x.opts.ContentLocation, Limits: mime.Limits{Size: x.opts.MaxSize}}
}

// link makes the Link of an htmlrewrite.Link found with base b.
func (x *extractor) link(l htmlrewrite.Link, b base.Result) Link {
	r := Link{
		Raw: l.Raw, URL: l.URL, Tag: l.Tag, Attr: l.Attr, Kind: l.Kind.String(), Rel: l.Rel,
		Line: l.Line, Column: l.Column, Offset: l.Offset, File: x.name, FileEncoding: x.enc,
		Base: b.URL, BaseSource: b.Source.String(), Page: b.URL,
	}
	if l.Err != nil {
		r.Error = l.Err.Error()
	}
	return r
}

// html streams an HTML document: htmlrewrite.Open decides its base
// before the first link (spooling to a temporary file when the <base> is
// not settled early), so the links go out as they are found.
func (x *extractor) html(r io.Reader) {
	u, err := x.docURL()
	if err != nil {
		x.fileFailed(err)
		return
	}
	o := htmlrewrite.Options{Spec: x.opts.Spec, Context: base.Context{Spec: x.opts.Spec, Retrieval: u, Strict: x.opts.Strict}}
	d, err := htmlrewrite.Open(r, o)
	if err != nil {
		x.fileFailed(err)
		return
	}
	defer d.Close()
	x.stats.records++
	b := d.Base()
	_, err = d.Links(func(l htmlrewrite.Link) error {
		out := x.link(l, b)
		out.Page = u
		x.out(out)
		return nil
	})
	if err != nil {
		x.fileFailed(err)
	}
}

func (x *extractor) mhtml(r io.Reader, size int64) {
	u, err := x.docURL()
	if err != nil {
		x.fileFailed(err)
		return
	}
	data, err := x.readWhole(r, size)
	if err != nil {
		x.fileFailed(err)
		return
	}
	parts := map[string]bool{}
	err = mime.Links(bytes.NewReader(data), x.mimeOptions(u), func(l mime.Link) error {
		r := x.link(l, l.Base)
		r.Part, r.HasPart, r.TargetPart = l.Part, true, l.TargetPart
		parts[l.Part] = true
		x.out(r)
		return nil
	})
	x.stats.records += int64(len(parts))
	if err != nil {
		x.fileFailed(err)
	}
}

func (x *extractor) out(l Link) {
	x.stats.links++
	x.emit(l)
}

// warc streams a WARC file: each damaged record is a dead letter with
// its offset and target, and the file goes on at the next record
// (mime.ScanWARCLinks); a file that cannot be read on is a failed file.
func (x *extractor) warc(r io.Reader) {
	st, err := mime.ScanWARCLinks(r, x.mimeOptions(""), func(l mime.WARCLink) error {
		out := x.link(l, l.Base)
		out.Record, out.HasRecord, out.Target, out.Page = l.Record, true, l.Target, l.Target
		x.emit(out)
		return nil
	}, func(e *mime.RecordError) error {
		x.fail(Failure{File: x.name, FileEncoding: x.enc, Offset: e.Offset, HasOffset: true, Target: e.Target, Error: e.Message()})
		return nil
	})
	x.stats.records += st.Records
	x.stats.links += st.Links
	x.stats.failedRecords += st.RecordErrors
	if err != nil {
		x.fileFailed(err)
	}
}
