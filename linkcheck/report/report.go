// Package report writes the findings of a tree check (package linkcheck's
// Checker) in the formats continuous integration reads: plain text, JSON
// Lines, SARIF 2.1.0 as GitHub code scanning accepts it (OASIS "Static
// Analysis Results Interchange Format Version 2.1.0"; GitHub's "SARIF
// support for code scanning"), JUnit XML as GitLab and Jenkins read it,
// and GitHub Actions workflow commands ("::error file=...::..."). It also
// reads a SARIF baseline, so that CI can fail on new findings only (SARIF
// §3.27.24 result.baselineState).
//
// Findings are matched across runs by a fingerprint of their rule, file,
// link as written and the occurrence of that triple in the file (not the
// line, so edits above a link keep it "unchanged").
package report

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/relurl/relurl/linkcheck"
)

// A Writer writes findings in one format. File is called for each file
// checked (JUnit lists the clean ones as passing tests), Finding for each
// finding in order; Close finishes the report (SARIF and JUnit are
// written whole then).
type Writer interface {
	File(path string)
	Finding(f Finding) error
	Close() error
}

// A Finding is a linkcheck.Finding with its fingerprint and, against a
// baseline, its state.
type Finding struct {
	linkcheck.Finding
	Fingerprint string
	// BaselineState is "new" or "unchanged" against a baseline, "" without
	// one (SARIF baselineState).
	BaselineState string
}

// Options configure a Writer.
type Options struct {
	// Tool and Version name the checker in SARIF and JUnit.
	Tool, Version string
	// Name names the run: the checked tree, as given ("site").
	Name string
	// Baseline, when set, makes the SARIF writer list the baseline's
	// findings that are gone as "absent".
	Baseline *Baseline
	// StepSummary, when set, gets a Markdown summary from the github
	// writer (the file $GITHUB_STEP_SUMMARY names).
	StepSummary io.Writer
}

// Formats lists the formats New knows.
func Formats() []string { return []string{"text", "json", "sarif", "junit", "github"} }

// New returns a Writer of format to w.
func New(format string, w io.Writer, o Options) (Writer, error) {
	if o.Tool == "" {
		o.Tool = "relurl"
	}
	switch format {
	case "text":
		return &textWriter{w: w}, nil
	case "json":
		return newJSONWriter(w), nil
	case "sarif":
		return &sarifWriter{w: w, o: o}, nil
	case "junit":
		return &junitWriter{w: w, o: o}, nil
	case "github":
		return &githubWriter{w: w, o: o}, nil
	}
	return nil, fmt.Errorf("no such format %q (want one of %s)", format, strings.Join(Formats(), ", "))
}

// Fingerprints numbers the occurrences of findings, to fingerprint them;
// the zero value is ready to use. Give it the findings in the order the
// checker reports them.
type Fingerprints struct{ seen map[string]int }

// Next returns the fingerprint of f: the first 16 bytes, in hex, of the
// SHA-256 of its rule, its file (slash-separated), its link as written and
// the number of earlier findings with the same three.
func (p *Fingerprints) Next(f linkcheck.Finding) string {
	if p.seen == nil {
		p.seen = map[string]int{}
	}
	key := f.Problem.String() + "\x00" + filepath.ToSlash(f.File) + "\x00" + f.Link
	n := p.seen[key]
	p.seen[key] = n + 1
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%d", key, n))
	return hex.EncodeToString(sum[:16])
}

// rule describes a problem for SARIF and for readers of docs/cli/check.md.
type rule struct {
	short, full, help string
}

// Rules describes each problem: a one-line description, a full one and
// how to mend it.
var rules = map[linkcheck.Problem]rule{
	linkcheck.Absolute: {"Absolute link into the tree",
		"An absolute URL (or a network-path reference \"//host/...\") points into the checked tree: it keeps pointing at the old place when the tree moves.",
		"Use the relative form the finding gives (relurl check --fix writes it)."},
	linkcheck.RootRelative: {"Root-relative link",
		"A \"/...\" link depends on the path the tree is served under: it breaks when the tree moves under another path or host.",
		"Use the relative form the finding gives when the target is in the tree (relurl check --fix writes it)."},
	linkcheck.ClimbsOut: {"Relative link climbs out of the tree",
		"A relative link goes above the root of the tree (\"../..\"): the tree is not self-contained.",
		"Copy the target into the tree, or link to it with an absolute URL."},
	linkcheck.Missing: {"Link target missing from the tree",
		"A link into the tree names a file that the host (see --host) would not serve: no such file, no index document, or a redirect rule that ends nowhere.",
		"Create the file, or change the link. relurl check --fix leaves such links as written unless --fix-missing."},
	linkcheck.BasePin: {"<base href> pins the document",
		"A <base href> element makes every relative link of the document resolve against one fixed URL (HTML Standard \"document base URL\").",
		"Remove the <base> element, or make its href relative."},
	linkcheck.Invalid: {"URL rejected by the grammar",
		"The link is not a valid URL under the grammar chosen with --grammar.",
		"Percent-encode the characters the grammar rejects."},
	linkcheck.MissingAnchor: {"Fragment names nothing in its target",
		"A link with a fragment points into an HTML or SVG file of the tree that has no element with that id and no <a> with that name (HTML Standard \"find a potential indicated element\").",
		"Add the id to the target, or correct the fragment (an image map's usemap names a <map> by its name or id)."},
	linkcheck.CaseCollision: {"Two names are one on a case-insensitive file system",
		"Two names of one directory differ only in letter case or Unicode normalization: on APFS or NTFS (macOS, Windows) they are one file, and copying the tree there loses one of them.",
		"Rename one of the two files, and the links to it."},
	linkcheck.CaseMismatch: {"Link target differs in letter case",
		"The target exists only under another letter case: the link works on case-insensitive file systems (macOS, Windows) and fails on Linux, S3 and static hosts.",
		"Spell the link as the file is named (relurl check --fix does)."},
	linkcheck.Orphan: {"Page no page leads to",
		"No chain of links leads to this page from the tree's index page (or the --entry pages): a reader of the site never reaches it (reported with --orphans).",
		"Link to it from a page readers reach, or remove it."},
}

// Describe returns the short and full descriptions of p and how to mend
// it.
func Describe(p linkcheck.Problem) (short, full, help string) {
	r := rules[p]
	return r.short, r.full, r.help
}

// message is a finding's one-line message.
func message(f linkcheck.Finding) string {
	m := f.Reason
	if f.Link != "" {
		m = f.Link + ": " + m // a finding about a file (an orphan) has no link
	}
	if f.Relative != "" {
		m += " (relative: " + f.Relative + ")"
	}
	return m
}

// problems returns the problems in value order.
func problems() []linkcheck.Problem {
	ps := linkcheck.Problems()
	slices.Sort(ps)
	return ps
}
