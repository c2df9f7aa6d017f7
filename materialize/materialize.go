package materialize

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/internal/errtext"
	"github.com/relurl/relurl/resolve"
	"github.com/relurl/relurl/safewrite"
)

// Options control a materialization.
type Options struct {
	// Dir is the directory the tree is written into; it is created when
	// missing, and files already in it are replaced atomically (a file
	// that already holds the right bytes is left alone).
	Dir string
	// At picks, among several captures of a URL, the one closest to it in
	// time. The zero value picks the latest.
	At time.Time
	// Hosts, when not empty, keeps only the captures of these hosts
	// (lower-case, without port); links to the others stay absolute.
	Hosts []string
	// Limits bound the records and MHTML files read; the zero value is
	// package archive's defaults.
	Limits archive.Limits
	// MaxToken bounds one token (a tag, a text run) of a page or a
	// stylesheet, as htmlrewrite.Options.MaxToken does; a document with a
	// longer one is written as captured and counted as a problem. Zero is
	// htmlrewrite's default.
	MaxToken int
	// RemoveStale removes the stale files of an earlier run over Dir: the
	// files its DIR/urls.jsonl lists that this run does not write, when
	// they still hold the bytes that run wrote (its file_digest). Without
	// it they are kept. Either way each is passed to Warn (Warning.Stale)
	// and counted in Summary.Stale.
	RemoveStale bool
	// ErrorPages writes the URLs whose capture is an HTTP error (status
	// 4xx or 5xx, and no better capture of the URL: see Run) as files of
	// kind "error" and points the links to them there. By default they are
	// not written and links to them stay absolute, so that the tree never
	// shows a server's error page as the captured resource. Either way
	// each is counted in Summary.ErrorResponses.
	ErrorPages bool
	// Force lets Run replace DIR/index.html and DIR/urls.jsonl when they
	// are not files relurl wrote (see ForeignFileError).
	Force bool
	// Warn, when set, gets every warning and every problem (a record or
	// an input that could not be used, a file that could not be written).
	Warn func(Warning)
	// Progress, when set, is called after each file written with the
	// files done and the files to write.
	Progress func(done, total int)
}

// A Warning is something a reader or the writer had to skip or assume.
// Problem warnings mean data was lost: a record, a part or an input that
// is not in the tree, or a file that could not be written.
type Warning struct {
	Input   string // the input file (and the WARC inside a WACZ after ":")
	Where   string // "record at 1234", "part 1.2", a file of the tree, or ""
	Message string
	Problem bool
	// Stale marks the note of a stale file of an earlier run (Where is the
	// file; the message says whether it was kept or removed): neither a
	// warning nor a problem, counted in Summary.Stale and Removed.
	Stale bool
}

// String gives the warning as relurl prints it: INPUT: WHERE: MESSAGE.
func (w Warning) String() string {
	s := w.Input
	if w.Where != "" {
		s += ": " + w.Where
	}
	return s + ": " + w.Message
}

// A Summary counts what a materialization did. The JSON names are the
// fields of `relurl materialize --json`.
type Summary struct {
	Inputs     int `json:"inputs"`     // input files read
	Captures   int `json:"captures"`   // captures read (records and parts)
	URLs       int `json:"urls"`       // distinct URLs captured, each with one file
	Pages      int `json:"pages"`      // HTML files written
	Resources  int `json:"resources"`  // other files written
	Redirects  int `json:"redirects"`  // redirect stub pages written
	Revisits   int `json:"revisits"`   // files whose payload came from a revisit's original
	Links      int `json:"links"`      // links seen in the documents written
	Local      int `json:"local"`      // links rewritten to a file of the tree
	Uncaptured int `json:"uncaptured"` // links to URLs not captured (or captured as an HTTP error, without ErrorPages), left (or made) absolute
	// ErrorResponses counts the URLs whose capture is an HTTP error (4xx,
	// 5xx): not written, or with ErrorPages written as kind "error".
	ErrorResponses int `json:"error_responses"`
	Excluded       int `json:"excluded"` // captures of hosts the Hosts option leaves out
	// Dropped counts the captures of a URL that is not http or https
	// (file:, ftp:, ...): a tree served over HTTP cannot hold them; each
	// is named in a warning. (dns: records hold no resource and are not
	// counted.)
	Dropped  int `json:"dropped"`
	Warnings int `json:"warnings"`
	Problems int `json:"problems"` // records, parts, inputs or files lost (see Warning.Problem)
	Stale    int `json:"stale"`    // files of an earlier run over Dir that this run does not write
	Removed  int `json:"removed"`  // of those, removed (Options.RemoveStale)
}

// Run materializes the captures in inputs (WARC files, plain, .warc.gz or
// as the WARC reader takes them; WACZ files; MHTML files) as one tree of
// plain files under opts.Dir; see the package documentation. It returns
// an error only when nothing could be done (no Dir, an unusable Dir); the
// inputs, records and files that failed are counted in Summary.Problems
// and passed to opts.Warn.
func Run(inputs []string, opts Options) (Summary, error) {
	if opts.Limits.DecodedBytes <= 0 {
		opts.Limits.DecodedBytes = defaultDecodedBytes
	}
	r := &run{opts: opts, byKey: map[string][]*capture{}, strings: map[string]string{}}
	if opts.Dir == "" {
		return r.sum, errors.New("materialize: no output directory")
	}
	if !opts.Force {
		if err := checkOwnFiles(opts.Dir); err != nil {
			return r.sum, err
		}
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return r.sum, fmt.Errorf("materialize: %w", err)
	}
	for _, h := range opts.Hosts {
		if h = strings.ToLower(strings.TrimSpace(h)); h != "" {
			if r.hosts == nil {
				r.hosts = map[string]bool{}
			}
			r.hosts[h] = true
		}
	}
	for _, in := range inputs {
		if err := r.openStreams(in); err != nil {
			r.problem(in, "", errtext.Of(err))
			continue
		}
		r.sum.Inputs++
	}
	for i, s := range r.streams {
		var err error
		if s.mhtml {
			err = r.indexMHTML(i)
		} else {
			err = r.indexWARC(i)
		}
		if err != nil {
			r.problem(s.String(), "", errtext.Of(err))
		}
	}
	r.resolveRevisits()
	r.choose()
	r.layout()
	r.write()
	r.stale()
	r.writeIndex()
	return r.sum, nil
}

// defaultDecodedBytes is package archive's default bound on one payload.
const defaultDecodedBytes = 128 << 20

type run struct {
	opts    Options
	hosts   map[string]bool
	streams []stream
	byKey   map[string][]*capture
	strings map[string]string // see intern
	seq     int
	sum     Summary

	kept    []URLRecord       // stale files of an earlier run, kept (see stale)
	entries []*entry          // the chosen capture of each URL, sorted by key
	chosen  map[string]*entry // by key
	done    int
	// damaged holds the records reported as a problem, so that a record
	// the reader cut and the payload that then fails to read are one
	// problem, as relurl links --status counts them.
	damaged map[recordAt]bool
}

// recordAt names a record: its stream and its offset.
type recordAt struct {
	stream int
	offset int64
}

// An entry is a URL of the tree: the capture chosen for it and its file.
type entry struct {
	c    *capture
	want place
	file string // slash-separated, relative to Dir
	// redirect is set for a captured redirect: the entry the chain ends
	// at (nil when it leaves the capture) and the final URL.
	redirect  bool
	final     string
	kind      string // "page", "resource", "redirect", "error" (an HTTP error: status 4xx, 5xx)
	written   bool
	rewritten bool     // its links were pointed at the tree
	sum       [32]byte // SHA-256 of the file as written
	tried     bool     // its payload was read (a failure to write it is already a problem)
	title     string   // a page's <title>, for DIR/index.html
}

func (r *run) hostWanted(host string) bool {
	return r.hosts == nil || r.hosts[host]
}

func (r *run) add(c *capture) {
	c.seq = r.seq
	r.seq++
	r.sum.Captures++
	r.byKey[c.key] = append(r.byKey[c.key], c)
}

func (r *run) warn(input, where, msg string) {
	r.sum.Warnings++
	if r.opts.Warn != nil {
		r.opts.Warn(Warning{Input: input, Where: where, Message: msg})
	}
}

func (r *run) problem(input, where, msg string) {
	r.sum.Problems++
	if r.opts.Warn != nil {
		r.opts.Warn(Warning{Input: input, Where: where, Message: msg, Problem: true})
	}
}

// recordProblem reports a problem of the record at offset of the stream
// si, unless that record was reported already: one problem per damaged
// record, however many steps of the run find the damage.
func (r *run) recordProblem(si int, offset int64, where, msg string) {
	k := recordAt{si, offset}
	if r.damaged[k] {
		return
	}
	if r.damaged == nil {
		r.damaged = map[recordAt]bool{}
	}
	r.damaged[k] = true
	r.problem(r.streams[si].String(), where, msg)
}

// resolveRevisits points each revisit at the record holding its payload
// (WARC 1.1 §6.7): by WARC-Refers-To, else by WARC-Payload-Digest, else by
// WARC-Refers-To-Target-URI and -Date. A revisit whose original is not in
// the inputs is dropped with a warning; another capture of its URL, if
// any, takes its place. Only the records some revisit may refer to are
// indexed, so that the lookup costs memory by revisit, not by capture;
// the record ids and references are not kept beyond it.
func (r *run) resolveRevisits() {
	uriDate := func(uri string, d time.Time) string { return uri + " " + d.UTC().Format(time.RFC3339) }
	byID := map[string]*capture{}
	byDigest := map[string]*capture{}
	byURIDate := map[string]*capture{}
	for _, cs := range r.byKey {
		for _, c := range cs {
			if !c.revisit {
				continue
			}
			if c.ref.refersTo != "" {
				byID[c.ref.refersTo] = nil
			}
			if c.digest != "" {
				byDigest[c.digest] = nil
			}
			if c.ref.uri != "" {
				if d, err := time.Parse(time.RFC3339Nano, c.ref.date); err == nil {
					byURIDate[uriDate(c.ref.uri, d)] = nil
				}
			}
		}
	}
	// want sets m[k] to c when a revisit looks k up; of several originals
	// the one read first wins.
	want := func(m map[string]*capture, k string, c *capture) {
		if o, ok := m[k]; ok && (o == nil || c.seq < o.seq) {
			m[k] = c
		}
	}
	for _, cs := range r.byKey {
		for _, c := range cs {
			if c.revisit {
				continue
			}
			c.orig = c
			if c.id != "" {
				want(byID, c.id, c)
			}
			if c.digest != "" {
				want(byDigest, c.digest, c)
			}
			if len(byURIDate) > 0 {
				want(byURIDate, uriDate(c.url, c.date), c)
			}
		}
	}
	for key, cs := range r.byKey {
		kept := cs[:0]
		for _, c := range cs {
			c.id = ""
			if c.revisit {
				ref := c.ref
				c.ref = nil
				var o *capture
				if ref.refersTo != "" {
					o = byID[ref.refersTo]
				}
				if o == nil && c.digest != "" {
					o = byDigest[c.digest]
				}
				if o == nil && ref.uri != "" {
					if d, err := time.Parse(time.RFC3339Nano, ref.date); err == nil {
						o = byURIDate[uriDate(ref.uri, d)]
					}
				}
				if o == nil {
					r.warn(r.streams[c.stream].String(), "record at position "+strconv.FormatInt(c.pos, 10), "revisit of "+c.url+": the original record is not in the inputs")
					continue
				}
				c.orig = o
				if c.status == 0 || c.status == 304 {
					c.status = o.status
				}
				if c.ctype == "" {
					c.ctype = o.ctype
				}
				if c.digest == "" {
					c.digest = o.digest
				}
			}
			kept = append(kept, c)
		}
		if len(kept) == 0 {
			delete(r.byKey, key)
		} else {
			r.byKey[key] = kept
		}
	}
}

// choose picks one capture per URL: among those with a status below 400
// (when there are any), the latest, or the one closest to Options.At; a
// tie goes to the one read last.
func (r *run) choose() {
	r.chosen = map[string]*entry{}
	for key, cs := range r.byKey {
		cs = r.withoutSelfRedirects(key, cs)
		best := cs[0]
		for _, c := range cs[1:] {
			if better(c, best, r.opts.At) {
				best = c
			}
		}
		e := &entry{c: best}
		r.chosen[key] = e
		r.entries = append(r.entries, e)
	}
	// The captures not chosen are not needed again (a revisit chosen
	// keeps its original through orig).
	r.byKey, r.strings = nil, nil
	slices.SortFunc(r.entries, func(a, b *entry) int { return cmp.Compare(a.c.key, b.c.key) })
	r.sum.URLs = len(r.entries)
	for _, e := range r.entries {
		c := e.c
		switch {
		case c.location != "":
			e.redirect, e.kind = true, "redirect"
		case c.status >= 400:
			// The server's error page is no capture of the URL: a 404
			// written as "style.css.html" would stand for the stylesheet.
			e.kind = "error"
			r.sum.ErrorResponses++
		case isPage(c.ctype):
			e.kind = "page"
		default:
			e.kind = "resource"
		}
	}
	// Follow each redirect chain to its end (a hop bound and a loop check).
	for _, e := range r.entries {
		if !e.redirect {
			continue
		}
		u := e.c.location
		seen := map[*entry]bool{e: true}
		for hops := 0; hops < 20; hops++ {
			t := r.lookup(u)
			if t == nil || !t.redirect || seen[t] {
				break
			}
			seen[t] = true
			u = t.c.location
		}
		e.final = u
	}
}

// withoutSelfRedirects drops the captures of key that redirect to key
// itself — http to https, the commonest redirect in a crawl, which this
// layout files under one name — when another capture is left: chosen, such
// a redirect would make a stub page that refreshes to itself.
func (r *run) withoutSelfRedirects(key string, cs []*capture) []*capture {
	kept := make([]*capture, 0, len(cs))
	for _, c := range cs {
		if c.location != "" {
			if w, err := resolve.ParseWebURL(c.location, nil, resolve.Options{}); err == nil && keyOf(w) == key {
				continue
			}
		}
		kept = append(kept, c)
	}
	if len(kept) == 0 {
		return cs
	}
	return kept
}

func better(c, best *capture, at time.Time) bool {
	if ok, okBest := c.status < 400, best.status < 400; ok != okBest {
		return ok
	}
	if at.IsZero() {
		return !c.date.Before(best.date)
	}
	d, dBest := c.date.Sub(at).Abs(), best.date.Sub(at).Abs()
	if d != dBest {
		return d < dBest
	}
	return c.seq > best.seq
}

// lookup returns the entry of a URL, or nil when it was not captured.
func (r *run) lookup(u string) *entry {
	web, err := resolve.ParseWebURL(u, nil, resolve.Options{})
	if err != nil {
		return nil
	}
	return r.chosen[keyOf(web)]
}

// layout gives every entry its file, unique in its directory even on a
// case-insensitive file system, with directories taking precedence over
// files of the same name (a file that clashes gets "~N" before its
// extension); the order is that of the names wanted, then of the URLs,
// so the same captures always give the same tree.
func (r *run) layout() {
	type node struct {
		sub   map[string]*node
		files []*entry
	}
	newNode := func() *node { return &node{sub: map[string]*node{}} }
	top := newNode()
	for _, e := range r.entries {
		ct := e.c.ctype
		if e.redirect {
			ct = "text/html"
		}
		e.want = placeOf(e.c.webURL(), ct)
		n := top
		for _, d := range e.want.dirs {
			if n.sub[d] == nil {
				n.sub[d] = newNode()
			}
			n = n.sub[d]
		}
		n.files = append(n.files, e)
	}
	var assign func(n *node, prefix string, used map[string]bool)
	assign = func(n *node, prefix string, used map[string]bool) {
		unique := func(name, ext string) string {
			got := name
			for i := 1; used[fold(got)]; i++ {
				got = withSuffix(name, ext, i)
			}
			used[fold(got)] = true
			return got
		}
		for _, d := range slices.Sorted(maps.Keys(n.sub)) {
			final := unique(d, "")
			assign(n.sub[d], prefix+final+"/", map[string]bool{})
		}
		slices.SortStableFunc(n.files, func(a, b *entry) int { return cmp.Compare(a.want.name, b.want.name) })
		for _, e := range n.files {
			e.file = prefix + unique(e.want.name, e.want.ext)
			e.want = place{} // not needed again
		}
	}
	assign(top, "", map[string]bool{"index.html": true, "urls.jsonl": true})
}

// put writes data to the file of the tree rel (slash-separated) with
// package tree's writer, which makes the missing directories and follows
// no symbolic link below Dir, so that nothing outside Dir is touched.
func (r *run) put(rel string, data []byte) error {
	if !filepath.IsLocal(filepath.FromSlash(rel)) {
		return fmt.Errorf("%q is not a local path", rel)
	}
	// The tree can be made again from its inputs: atomic renames without
	// fsyncs, and files that already hold the bytes are left as they are.
	return safewrite.Writer{NoSync: true, KeepSame: true}.WriteIn(r.opts.Dir, rel, data, 0o644)
}

// putEntry writes the file of e and keeps its digest for urls.jsonl.
func (r *run) putEntry(e *entry, data []byte) error {
	if err := r.put(e.file, data); err != nil {
		return err
	}
	e.sum = sha256.Sum256(data)
	return nil
}

func (r *run) progress() {
	r.done++
	if r.opts.Progress != nil {
		r.opts.Progress(r.done, len(r.entries))
	}
}

// isPage reports whether a capture is a page (listed in the index with
// its title) rather than a resource, by its type alone, before its payload
// is read: a type browsers render as a document, HTML (base.FormatOfType)
// or XHTML (RFC 3236), whichever reader base.FormatOfContent then gives it.
func isPage(ctype string) bool {
	mt := mediaType(ctype)
	return base.FormatOfType(mt) == base.HTML || mt == "application/xhtml+xml"
}

func mediaType(ctype string) string {
	mt, _ := archive.ParseMediaType(ctype)
	return mt
}

// ParseTimestamp reads a time as --at takes it: a WARC/CDX timestamp of
// 4 to 14 digits (YYYY[MM[DD[hh[mm[ss]]]]], the missing fields the
// earliest), or RFC 3339. The time is UTC unless RFC 3339 gives a zone.
func ParseTimestamp(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	digits := len(s) >= 4 && len(s) <= 14 && len(s)%2 == 0 && strings.Trim(s, "0123456789") == ""
	if !digits {
		return time.Time{}, fmt.Errorf("timestamp %q: want YYYY[MM[DD[hh[mm[ss]]]]] or RFC 3339", s)
	}
	full := s + "0101000000"[len(s)-4:]
	t, err := time.Parse("20060102150405", full)
	if err != nil {
		return time.Time{}, fmt.Errorf("timestamp %q: %v", s, err)
	}
	return t, nil
}
