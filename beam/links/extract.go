package links

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/wat"
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
	// layer (archive.Options.ContentLocation).
	ContentLocation bool
	// WAT reads every input as a WAT file (relurl links --input-format
	// wat); a file named *.wat or *.wat.gz is read as one anyway.
	WAT bool
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

// extractFile reads the file called path from r, of any kind relurl
// links reads (HTML, MHTML, WARC, CSS, SVG, XHTML, feeds, manifests, JS
// modules), told apart as relurl links does (base.FormatOf), through the
// library's front door (extract.Reader): every kind is read by its one
// reader, alone or inside an archive. size is the file's size, or -1 when
// unknown.
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
	if x.opts.WAT || isWATName(path) {
		return x.watFile(br)
	}
	k := base.FormatOf(path, head)
	if k == base.Other {
		x.fileFailed(extract.ErrNotDocument)
		return x.stats
	}
	if k == base.MHTML && size > x.opts.MaxSize {
		x.fileFailed(tree.ErrTooLarge) // held whole: refused before it is read
		return x.stats
	}
	u := ""
	if k != base.WARC {
		// A WARC record's base is its target; any other file's is its
		// URL.
		if u, err = x.docURL(); err != nil {
			x.fileFailed(err)
			return x.stats
		}
	}
	o := extract.Options{
		HTML: htmlrewrite.Options{Document: link.Document{Context: base.Context{Spec: x.opts.Spec, Retrieval: u, Strict: x.opts.Strict}}},
		MIME: archive.Options{Spec: x.opts.Spec, Retrieval: u, Strict: x.opts.Strict, ContentLocation: x.opts.ContentLocation, Limits: archive.Limits{Size: x.opts.MaxSize}},
		// Each damaged WARC record is a dead letter with its offset and
		// target, and the file goes on at the next record.
		RecordError: func(e *archive.RecordError) error {
			x.fail(Failure{File: x.name, FileEncoding: x.enc, Offset: e.Offset, HasOffset: true, Target: e.Target, Error: e.Message()})
			return nil
		},
	}
	parts := map[string]bool{}
	res, err := extract.Reader(br, path, "", o, func(l link.Link) error {
		out := x.link(l)
		switch k {
		case base.WARC:
			out.Record, out.HasRecord, out.Target, out.Page = l.Record, true, l.Target, l.Target
		case base.MHTML:
			out.Part, out.HasPart, out.TargetPart = l.Part, true, l.TargetPart
			parts[l.Part] = true
		default:
			out.Page = u
		}
		x.out(out)
		return nil
	})
	switch k {
	case base.WARC:
		x.stats.records += res.Records
		x.stats.failedRecords += res.RecordErrors
	case base.MHTML:
		x.stats.records += int64(len(parts))
	default:
		x.stats.records++
	}
	if err != nil {
		x.fileFailed(err)
	}
	return x.stats
}

// isWATName reports whether path names a WAT file: *.wat, *.wat.gz
// (Common Crawl's *.warc.wat.gz).
func isWATName(path string) bool {
	return strings.HasSuffix(path, ".wat") || strings.HasSuffix(path, ".wat.gz")
}

// watFile reads a WAT file's links through package wat, as relurl links
// --input-format wat does: each metadata record's links are a WARC
// record's (its offset and WARC-Target-URI), each damaged record a dead
// letter.
func (x *extractor) watFile(r io.Reader) fileStats {
	st, err := wat.Links(r, x.opts.Spec, func(l link.Link) error {
		out := x.link(l)
		out.Record, out.HasRecord, out.Target, out.Page = l.Record, true, l.Target, l.Target
		x.out(out)
		return nil
	}, func(e *archive.RecordError) error {
		x.fail(Failure{File: x.name, FileEncoding: x.enc, Offset: e.Offset, HasOffset: true, Target: e.Target, Error: e.Message()})
		return nil
	})
	x.stats.records += st.Records
	x.stats.failedRecords += st.RecordErrors
	if err != nil {
		x.fileFailed(err)
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

// link makes the Link of a link found with its base: the page it is on
// is its base's URL unless the file's kind says otherwise (extractFile).
func (x *extractor) link(l link.Link) Link {
	b := l.Base
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

func (x *extractor) out(l Link) {
	x.stats.links++
	x.emit(l)
}
