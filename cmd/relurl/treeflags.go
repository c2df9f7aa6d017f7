package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	mimetype "mime"
	"os"
	"runtime"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/extract"
	"github.com/relurl/relurl/harvest"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/linkfilter"
	"github.com/relurl/relurl/manifest"
	"github.com/relurl/relurl/referral"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/treerewrite"
	"github.com/relurl/relurl/xmlrewrite"
)

// defaultHTMLSpec is the mode links in HTML resolve under unless --spec
// says otherwise: the WHATWG URL Standard, as browsers resolve them.
const defaultHTMLSpec = resolve.WHATWG

// defaultJobs is the default of -j: every core.
func defaultJobs() int { return runtime.GOMAXPROCS(0) }

// defaultMaxSize bounds what one input may need held in memory (an MHTML
// archive is read whole; HTML and WARC are streamed).
const defaultMaxSize = 256 << 20

// treeFlags are the flags of the subcommands that read files and trees:
// rewrite, links and check.
type treeFlags struct {
	input     string // rewrite --input-format for standard input
	base      optionalString
	spec      *resolve.Spec
	opts      *resolve.Options
	jobs      int
	fromList  string
	listRoot  string
	savedFrom bool
	strict    bool
	maxSize   int64
	mapper    *tree.Mapper
	// html is the template of every document's rewrite options: what the
	// rewrite flags set (the <base> element, fragments, ...).
	html  htmlrewrite.Options
	local archive.LocalMode // MHTML: links to parts of the archive
	// walker walks the arguments (rewrite -i removes stale temporary
	// files with it).
	walker tree.Walker
	// refer is the walker's Refer: what the tree's pages tell of its
	// other files (a sheet's encoding, a module's import map).
	refer *referral.Reader
}

// addTreeFlags binds the input flags to fs; HTML links resolve under the
// WHATWG URL Standard unless --spec says otherwise, as browsers do.
func addTreeFlags(fs *flag.FlagSet, baseHelp string) *treeFlags {
	t := new(treeFlags)
	t.spec, t.opts = specFlag(fs, defaultHTMLSpec)
	fs.Var(&t.base, "base", baseHelp)
	fs.IntVar(&t.jobs, "j", defaultJobs(), "files processed in parallel")
	fs.StringVar(&t.fromList, "from-list", "", `read input paths, one a line, from this file ("-": standard input), relative to --list-root`)
	fs.StringVar(&t.listRoot, "list-root", "", "the root of the tree the inputs (and --from-list paths) are in, whose URL is --base (default: the current directory)")
	fs.BoolVar(&t.savedFrom, "saved-from", false, `take a file's URL from its "<!-- saved from url=(NNNN)URL -->" comment when it has one`)
	fs.Int64Var(&t.maxSize, "max-size", defaultMaxSize, "the most held in memory for one input, in bytes: an MHTML archive, the look-ahead for a stream's <base>; files and streams of any size are read through")
	contentTypeFlag(fs, &t.html.ContentType)
	scriptingFlag(fs, &t.html.Scripting)
	fs.BoolVar(&t.strict, "strict", false, "only a BASE in HEAD with an absolute HREF sets a document's base (the draft's §10 appendix), not the first <base href> as in browsers")
	return t
}

// contentTypeFlag binds --content-type to v: the Content-Type an HTML
// input was served with, whose charset outranks a <meta> declaration (and
// yields only to a byte order mark), as in browsers (HTML Standard
// §13.2.3.1, "determining the character encoding", step 3).
func contentTypeFlag(fs *flag.FlagSet, v *string) {
	fs.Func("content-type", `the Content-Type HTML inputs were served with, e.g. "text/html; charset=windows-1252": its charset outranks <meta>, as in browsers`, func(s string) error {
		if _, _, err := mimetype.ParseMediaType(s); err != nil {
			return fmt.Errorf("%q: %s", s, mediaTypeProblem(err))
		}
		*v = s
		return nil
	})
}

// mediaTypeProblem says what is wrong with a value mime.ParseMediaType
// refused. Of its errors only ErrInvalidMediaParameter is a value to
// compare with; the others are told by their whole text, each said in the
// command's words (the same, without the package's name).
func mediaTypeProblem(err error) string {
	if errors.Is(err, mimetype.ErrInvalidMediaParameter) {
		return "invalid media parameter"
	}
	if p, ok := mediaTypeProblems[err.Error()]; ok {
		return p
	}
	return "not a media type (type/subtype, then ; name=value parameters)"
}

// mediaTypeProblems are mime.ParseMediaType's other errors, by their text.
var mediaTypeProblems = map[string]string{
	"mime: no media type":                          "no media type",
	"mime: expected slash after first token":       "expected slash after first token",
	"mime: expected token after slash":             "expected token after slash",
	"mime: unexpected content after media subtype": "unexpected content after media subtype",
	"mime: duplicate parameter name":               "duplicate parameter name",
}

// scriptingFlag binds --scripting to v: read <noscript> as a browser
// running scripts does (raw text: no links in it, no <base> in it), not as
// relurl, which runs none, reads it by default (markup).
func scriptingFlag(fs *flag.FlagSet, v *bool) {
	fs.BoolVar(v, "scripting", false, "read <noscript> as a browser running scripts does: raw text, so its links are not read and a <base> in it does not count (default: markup, as a user agent without scripting reads it)")
}

// check validates the flags once parsed; errors are usage errors.
func (t *treeFlags) check() error {
	m, err := tree.NewMapper(t.base.value)
	if err != nil {
		return fmt.Errorf("--base: %v", err)
	}
	m.SavedFrom = t.savedFrom
	t.mapper = m
	// A .js file a page loads as a module, a manifest.json a page names:
	// the tree's documents tell their kinds.
	// The pages' own passes tell it (Gather): each is read once.
	t.refer = &referral.Reader{Mapper: m, HTML: t.htmlOptions, Module: t.moduleOptions, MaxSize: t.maxSize, Gather: true}
	t.walker.Refer = t.refer
	if t.jobs < 1 {
		return errors.New("-j must be at least 1")
	}
	if t.maxSize < 1 {
		return errors.New("--max-size must be positive")
	}
	return nil
}

// place decides where the inputs given lie. With --base and several
// inputs (or with --list-root), they are parts of one tree rooted at the
// current directory (or --list-root), as --from-list's lines are: each
// file's URL is --base plus its path from there, never the same URL for
// all. A single file given alone keeps --base as its own URL.
func (t *treeFlags) place(args []string) error {
	several := len(args) > 1 || len(args) == 1 && t.fromList != ""
	if t.listRoot == "" && (!several || t.base.value == "") {
		return nil
	}
	root, name := t.listRoot, "--list-root "+t.listRoot
	if root == "" {
		root, name = ".", "the current directory"
	}
	for _, a := range args {
		if a == "-" {
			continue
		}
		if _, ok := tree.Within(root, a); !ok {
			return fmt.Errorf("%s is not under %s: with --base, inputs given together are placed by their paths from there (--list-root names another root)", a, name)
		}
	}
	t.walker.Under = root
	return nil
}

// list is the --from-list of the flags (none when Path is "").
func (t *treeFlags) list(s stdio) inputs.List {
	return inputs.List{Path: t.fromList, Root: t.listRoot, Stdin: s.in}
}

// htmlOptions returns the options of htmlrewrite for a document retrieved
// from docURL ("" for none).
func (t *treeFlags) htmlOptions(docURL string) htmlrewrite.Options {
	o := t.html
	o.Context = base.Context{Spec: *t.spec, Options: *t.opts, Retrieval: docURL, Strict: t.strict}
	// A stylesheet's environment encoding (CSS Syntax §3.2): the encoding
	// of a page of the tree linking it, when not UTF-8.
	o.SheetEnvironment = t.refer.SheetEnvironment(docURL)
	// A stream whose <base> is not settled within the look-ahead waits
	// in a temporary file, not in memory.
	o.Spool = true
	if t.maxSize < htmlrewrite.DefaultScanLimit {
		o.ScanLimit = int(t.maxSize)
	}
	if t.maxSize < link.DefaultMaxToken {
		o.MaxSize = int(t.maxSize)
	}
	return o
}

// inputKind returns the kind rewrite's --input-format forces on
// standard input, or false for auto.
func (t *treeFlags) inputKind() (base.Format, bool) {
	sf := streamFlags{inputFormat: t.input}
	return sf.kind()
}

// moduleOptions returns the options of package jsmodule for a module
// retrieved from docURL.
func (t *treeFlags) moduleOptions(docURL string) jsmodule.Options {
	return t.extractOptions(docURL).Module
}

// mimeOptions returns the options of package archive for an archive
// retrieved from docURL.
func (t *treeFlags) mimeOptions(docURL string) archive.Options {
	// --max-size bounds what is held: a whole MHTML file, one WARC
	// payload (at most archive's default).
	return archive.Options{Spec: *t.spec, Retrieval: docURL, Strict: t.strict,
		Limits: archive.Limits{Size: t.maxSize, DecodedBytes: min(t.maxSize, 128<<20)}}
}

// extractOptions returns the options of every kind's reader for a
// document retrieved from docURL (package extract picks the one it needs).
func (t *treeFlags) extractOptions(docURL string) extract.Options {
	o := t.htmlOptions(docURL)
	x := xmlrewrite.Options{Document: link.Document{Context: o.Context, Absolute: o.Absolute, Fragments: o.Fragments}}
	if t.maxSize < link.DefaultMaxToken {
		x.MaxSize = int(t.maxSize)
	}
	return extract.Options{
		HTML:     o,
		MIME:     t.mimeOptions(docURL),
		XML:      x,
		Manifest: manifest.Options{Document: link.Document{Context: o.Context, Absolute: o.Absolute, Fragments: o.Fragments, Limits: link.Limits{MaxSize: o.MaxSize}}},
		// A module's bare specifiers count only where the import map
		// of the page loading it maps them (HTML §8.1.5.3).
		Module: jsmodule.Options{
			Document:  link.Document{Context: o.Context, Absolute: o.Absolute, Limits: link.Limits{MaxSize: o.MaxSize}},
			ImportMap: t.refer.ImportMap(docURL)},
	}
}

// rewriter returns the library's rewriter of documents as the flags say
// (its mode is rewrite's to set): each file's URL by the mapper, its
// readers' options by extractOptions and --local, whole-read kinds
// bounded by --max-size.
func (t *treeFlags) rewriter() *treerewrite.Rewriter {
	return &treerewrite.Rewriter{Mapper: t.mapper, MaxSize: t.maxSize, Options: func(docURL string) extract.Options {
		o := t.extractOptions(docURL)
		o.MIME.Local = t.local
		return o
	}}
}

// harvester returns the library's reader of links as the flags say:
// each file's URL by the mapper, its readers' options by extractOptions,
// every input of the kind forced (Other: its own), its links chosen by
// filter.
func (t *treeFlags) harvester(forced base.Format, filter linkfilter.Filter) *harvest.Reader {
	return &harvest.Reader{Mapper: t.mapper, Options: t.extractOptions, Spec: *t.spec, Resolve: *t.opts, Kind: forced, Filter: filter}
}

// fileError formats the error of the input file path: the error alone
// when it names that path already. The name is quoted when it holds
// control characters (tree.DisplayName). maxSize is --max-size, named
// with its value when the file was over it.
func fileError(path string, err error, maxSize int64) string {
	if errors.Is(err, tree.ErrTooLarge) {
		// In the user's terms: how large, and the flag that bounds it.
		over := fmt.Sprintf("over --max-size %d (raise it to read the file)", maxSize)
		msg := "file too large, " + over
		if info, serr := os.Stat(path); serr == nil {
			msg = fmt.Sprintf("file too large: %d bytes, %s", info.Size(), over)
		}
		return tree.DisplayName(path) + ": " + msg
	}
	if pe, ok := errors.AsType[*fs.PathError](err); ok && pe.Path == path {
		// The file first, as every message names it; the system call
		// ("stat", "open") says nothing the error does not.
		return tree.DisplayName(path) + ": " + pe.Err.Error()
	}
	return tree.DisplayName(path) + ": " + errtext.Of(err)
}
