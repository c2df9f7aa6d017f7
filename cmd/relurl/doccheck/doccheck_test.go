package doccheck

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer/html"
)

var update = flag.Bool("update", false, "write the synopsis blocks of docs/cli/*.md from the command's -h")

var (
	relurl string // the command, built from this checkout
	root   string // the repository's root
)

func TestMain(m *testing.M) {
	flag.Parse()
	dir, err := os.MkdirTemp("", "doccheck")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	relurl = filepath.Join(dir, "relurl")
	if out, err := exec.Command("go", "build", "-o", relurl, "..").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	root, _ = filepath.Abs("../../..")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// pages returns README.md and every Markdown page under docs/, relative to
// the repository's root.
func pages(t *testing.T) []string {
	t.Helper()
	list := []string{"README.md"}
	err := filepath.WalkDir(filepath.Join(root, "docs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(root, p)
			list = append(list, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// A block is one fenced code block of a page.
type block struct {
	page   string
	line   int      // of the opening fence, 1-based
	lines  []string // between the fences
	notRun string   // the reason given by a "<!-- not run: REASON -->" line just above
	marker string   // the HTML comment just above the fence, if any
}

var notRun = regexp.MustCompile(`^<!-- not run: (.+) -->$`)

// blocks returns the fenced code blocks of a page.
func blocks(t *testing.T, page string) []block {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, page))
	if err != nil {
		t.Fatal(err)
	}
	var out []block
	var cur *block
	prev := "" // the last non-blank line outside a block
	for i, l := range strings.Split(string(data), "\n") {
		if strings.HasPrefix(l, "```") {
			if cur == nil {
				cur = &block{page: page, line: i + 1}
				if m := notRun.FindStringSubmatch(prev); m != nil {
					cur.notRun = m[1]
				}
				if strings.HasPrefix(prev, "<!--") {
					cur.marker = prev
				}
			} else {
				out = append(out, *cur)
				cur = nil
			}
			continue
		}
		if cur != nil {
			cur.lines = append(cur.lines, l)
		} else if strings.TrimSpace(l) != "" {
			prev = strings.TrimSpace(l)
		}
	}
	return out
}

// An example is one "$ COMMAND" of a block and the output shown under it.
type example struct {
	command string
	output  []string
}

// examples splits a block into its commands; a block with no "$ " line
// (a synopsis, a program) has none. A command ending in "\" goes on.
func examples(b block) []example {
	var out []example
	for i := 0; i < len(b.lines); i++ {
		l := b.lines[i]
		if !strings.HasPrefix(l, "$ ") {
			if len(out) > 0 {
				out[len(out)-1].output = append(out[len(out)-1].output, l)
			}
			continue
		}
		cmd := strings.TrimPrefix(l, "$ ")
		for strings.HasSuffix(cmd, "\\") && i+1 < len(b.lines) {
			i++
			cmd = strings.TrimSuffix(cmd, "\\") + "\n" + b.lines[i]
		}
		out = append(out, example{command: cmd})
	}
	return out
}

// TestExamples runs every "$ " example of README.md and docs/ in a copy of
// testdata, with relurl on PATH, and compares its output with the output
// shown: lines that begin "relurl: " with standard error, the others with
// standard output, each in order; a line "..." stands for any lines. An
// example with no output shown must exit 0. A block marked
// "<!-- not run: REASON -->" is skipped and its reason logged.
func TestExamples(t *testing.T) {
	ran := 0
	for _, page := range pages(t) {
		for _, b := range blocks(t, page) {
			exs := examples(b)
			if len(exs) == 0 {
				continue
			}
			name := fmt.Sprintf("%s:%d", b.page, b.line)
			if b.notRun != "" {
				t.Logf("%s: not run: %s", name, b.notRun)
				continue
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				if out, err := exec.Command("cp", "-r", filepath.Join(root, "testdata"), dir).CombinedOutput(); err != nil {
					t.Fatalf("cp: %v: %s", err, out)
				}
				for _, ex := range exs {
					runExample(t, dir, ex)
					ran++
				}
			})
		}
	}
	t.Logf("%d examples run", ran)
}

func runExample(t *testing.T, dir string, ex example) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-o", "pipefail", "-c", ex.command)
	cmd.Dir = dir
	// A command that leaves a process behind (a server started with "&")
	// must not hold the test: its group is killed when the command ends.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.WaitDelay = 2 * time.Second
	defer func() {
		if cmd.Process != nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
	}()
	cmd.Env = append(os.Environ(),
		"PATH="+filepath.Dir(relurl)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+dir, "LC_ALL=C.UTF-8", "TZ=UTC", "NO_COLOR=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var wantOut, wantErr []string
	for _, l := range ex.output {
		if strings.HasPrefix(l, "relurl: ") {
			wantErr = append(wantErr, l)
		} else {
			wantOut = append(wantOut, l)
		}
	}
	wantOut = trimBlank(wantOut)
	if len(ex.output) == 0 || len(trimBlank(ex.output)) == 0 {
		if err != nil {
			t.Errorf("$ %s\n%v\nstderr:\n%s", ex.command, err, stderr.String())
		}
		return
	}
	gotOut, gotErr := lines(stdout.String()), lines(stderr.String())
	if !match(wantOut, gotOut) || !match(wantErr, gotErr) {
		t.Errorf("$ %s\nshown:\n%s\nprinted (stdout):\n%s\nprinted (stderr):\n%s",
			ex.command, strings.Join(ex.output, "\n"), stdout.String(), stderr.String())
	}
}

func lines(s string) []string {
	s = strings.TrimRight(s, "\n")
	if s == "" {
		return nil
	}
	out := strings.Split(s, "\n")
	for i := range out {
		out[i] = strings.TrimRight(out[i], " \t")
	}
	return out
}

func trimBlank(l []string) []string {
	for len(l) > 0 && strings.TrimSpace(l[len(l)-1]) == "" {
		l = l[:len(l)-1]
	}
	return l
}

// match reports whether got is want, where a want line "..." matches any
// run of lines (none included).
func match(want, got []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if strings.TrimSpace(want[0]) == "..." {
		for i := 0; i <= len(got); i++ {
			if match(want[1:], got[i:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && strings.TrimRight(want[0], " \t") == got[0] && match(want[1:], got[1:])
}

// commands returns the commands "relurl -h" lists.
func commands(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command(relurl, "-h").CombinedOutput()
	if err != nil {
		t.Fatalf("relurl -h: %v", err)
	}
	var names []string
	in := false
	for _, l := range strings.Split(string(out), "\n") {
		if l == "commands:" {
			in = true
			continue
		}
		if in && strings.HasPrefix(l, "  ") {
			names = append(names, strings.Fields(l)[0])
		} else if in {
			break
		}
	}
	if len(names) == 0 {
		t.Fatalf("relurl -h lists no commands:\n%s", out)
	}
	return names
}

const synopsisMarker = "<!-- synopsis: relurl %s -h -->"

// TestSynopsis: each command has its page docs/cli/NAME.md, and the page's
// synopsis block is what "relurl NAME -h" and "relurl help NAME" print.
// With -update it writes the blocks.
func TestSynopsis(t *testing.T) {
	if _, err := os.Stat(filepath.Join(root, "docs", "cli")); err != nil {
		t.Skip("docs/cli/ (a page per command) is not written yet")
	}
	for _, name := range commands(t) {
		t.Run(name, func(t *testing.T) {
			help, err := exec.Command(relurl, name, "-h").Output()
			if err != nil {
				t.Fatalf("relurl %s -h: %v", name, err)
			}
			viaHelp, err := exec.Command(relurl, "help", name).Output()
			if err != nil {
				t.Fatalf("relurl help %s: %v", name, err)
			}
			if !bytes.Equal(help, viaHelp) {
				t.Errorf("relurl help %s and relurl %s -h differ", name, name)
			}
			page := filepath.Join(root, "docs", "cli", name+".md")
			data, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			marker := fmt.Sprintf(synopsisMarker, name)
			text := string(data)
			at := strings.Index(text, marker+"\n```text\n")
			if at < 0 {
				t.Fatalf("%s has no %q line followed by a ```text block", page, marker)
			}
			start := at + len(marker) + len("\n```text\n")
			end := strings.Index(text[start:], "\n```\n")
			if end < 0 {
				t.Fatalf("%s: the synopsis block has no end", page)
			}
			want := strings.TrimRight(string(help), "\n")
			if got := text[start : start+end]; got != want {
				if *update {
					text = text[:start] + want + text[start+end:]
					if err := os.WriteFile(page, []byte(text), 0o644); err != nil {
						t.Fatal(err)
					}
					return
				}
				t.Errorf("%s's synopsis is not what relurl %s -h prints (go test ./cmd/relurl/doccheck -run TestSynopsis -update writes it):\n%s", page, name, want)
			}
		})
	}
}

// TestCommandTable: README's command table lists every command, each
// linked to its page, and no other.
func TestCommandTable(t *testing.T) {
	if _, err := os.Stat(filepath.Join(root, "docs", "cli")); err != nil {
		t.Skip("docs/cli/ (a page per command) is not written yet")
	}
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| \\[`relurl ([a-z]+)`\\]\\(docs/cli/([a-z]+)\\.md\\) \\|")
	var listed []string
	for _, l := range strings.Split(string(data), "\n") {
		if m := row.FindStringSubmatch(l); m != nil {
			if m[1] != m[2] {
				t.Errorf("README: relurl %s links to docs/cli/%s.md", m[1], m[2])
			}
			listed = append(listed, m[1])
		}
	}
	want := commands(t)
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("README's command table lists %v; relurl -h lists %v", listed, want)
	}
}

// TestPackageTable: README's package table names every public package of
// the module ("go list ./..." but internal and cmd packages) and no other,
// so a package added, moved or renamed is not left out of the front door.
func TestPackageTable(t *testing.T) {
	out, err := exec.Command("go", "list", "-C", root, "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/relurl/relurl/"
	var want []string
	for _, p := range strings.Fields(string(out)) {
		rel := strings.TrimPrefix(p, module)
		if rel == p || rel == "cmd" || strings.HasPrefix(rel, "cmd/") ||
			strings.Contains("/"+rel+"/", "/internal/") {
			continue
		}
		want = append(want, rel)
	}
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The table is the one under "## Packages": its rows begin "| `NAME` |".
	text := string(data)
	at := strings.Index(text, "\n## Packages\n")
	if at < 0 {
		t.Fatal("README has no \"## Packages\" section")
	}
	section := text[at+1:]
	if end := strings.Index(section[1:], "\n## "); end >= 0 {
		section = section[:end+1]
	}
	row := regexp.MustCompile("^\\| `([a-z/]+)` \\|")
	var listed []string
	for _, l := range strings.Split(section, "\n") {
		if m := row.FindStringSubmatch(l); m != nil {
			listed = append(listed, m[1])
		}
	}
	slices.Sort(listed)
	slices.Sort(want)
	if !slices.Equal(listed, want) {
		t.Errorf("README's package table lists %v; the module's public packages are %v", listed, want)
	}
}

var mdLink = regexp.MustCompile(`(href|src)="([^":#?]+)\.md(#[^"]*)?"`)

// TestLinks renders README.md and docs/ to HTML, as a site whose pages
// stand where the Markdown files do (a link to a .md file goes to its
// .html), and runs relurl check over it: no link may be missing, point
// to a missing anchor or climb out of the repository. A link to a file of
// the repository that is not a page (a fixture, a script) counts when the
// file exists.
func TestLinks(t *testing.T) {
	site := t.TempDir()
	md := goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithParserOptions(parser.WithAutoHeadingID()),
		goldmark.WithRendererOptions(html.WithUnsafe()),
	)
	target := regexp.MustCompile(`(?:href|src)="([^"#?:]+)`)
	for _, page := range pages(t) {
		data, err := os.ReadFile(filepath.Join(root, page))
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		if err := md.Convert(data, &body); err != nil {
			t.Fatalf("%s: %v", page, err)
		}
		out := mdLink.ReplaceAllString(body.String(), `$1="$2.html$3"`)
		for _, m := range target.FindAllStringSubmatch(out, -1) {
			ref := m[1]
			if strings.HasSuffix(ref, ".html") || strings.HasPrefix(ref, "/") {
				continue
			}
			// A repository file (or folder) the page links to: stand in for it.
			inRepo := filepath.Join(filepath.Dir(filepath.Join(root, page)), ref)
			rel, err := filepath.Rel(root, inRepo)
			if err != nil || strings.HasPrefix(rel, "..") {
				continue
			}
			if fi, err := os.Stat(inRepo); err == nil {
				dst := filepath.Join(site, rel)
				if fi.IsDir() {
					os.MkdirAll(dst, 0o755)
					os.WriteFile(filepath.Join(dst, "index.html"), nil, 0o644)
				} else {
					os.MkdirAll(filepath.Dir(dst), 0o755)
					os.WriteFile(dst, nil, 0o644)
				}
			}
		}
		dst := filepath.Join(site, strings.TrimSuffix(page, ".md")+".html")
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		doc := "<!DOCTYPE html><meta charset=utf-8><title>" + page + "</title>\n" + out
		if err := os.WriteFile(dst, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(relurl, "check", "--host", "file", "--format", "json", site)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Run()
	sc := bufio.NewScanner(&stdout)
	checked := 0
	for sc.Scan() {
		var f struct {
			File, Raw, Problem, Reason string
			Line                       int
		}
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("%v: %s", err, sc.Text())
		}
		switch f.Problem {
		case "missing", "missing-anchor", "climbs-out":
			rel, _ := filepath.Rel(site, f.File)
			t.Errorf("%s: %s: %s (%s)", strings.TrimSuffix(rel, ".html")+".md", f.Problem, f.Raw, f.Reason)
		}
		checked++
	}
	if strings.Contains(stderr.String(), "error") {
		t.Errorf("relurl check: %s", stderr.String())
	}
	t.Logf("relurl check: %s", strings.TrimSpace(stderr.String()))
}
