package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/tree"
)

// textWriter writes "FILE:LINE:COLUMN: PROBLEM: LINK: REASON", one
// finding a line, as compilers do.
type textWriter struct{ w io.Writer }

func (t *textWriter) File(string) {}

func (t *textWriter) Finding(f Finding) error {
	var err error
	if f.Line > 0 {
		_, err = fmt.Fprintf(t.w, "%s:%d:%d: %s: %s\n", tree.DisplayName(f.File), f.Line, f.Column, f.Problem, message(f.Finding))
	} else {
		_, err = fmt.Fprintf(t.w, "%s: %s: %s\n", f.File, f.Problem, message(f.Finding)) // a finding about the file
	}
	return err
}

func (t *textWriter) Close() error { return nil }

// jsonWriter writes one JSON object a finding (JSON Lines).
type jsonWriter struct{ enc *json.Encoder }

func newJSONWriter(w io.Writer) *jsonWriter {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return &jsonWriter{enc}
}

func (j *jsonWriter) File(string) {}

func (j *jsonWriter) Finding(f Finding) error {
	// A name that is not UTF-8 is percent-encoded, losslessly, and
	// says so (tree.JSONName).
	name, escaped := tree.JSONName(f.File)
	var enc string
	if escaped {
		enc = tree.PercentEncoded
	}
	// "link" was the name of "raw" before relurl's JSON used one name per
	// thing; it is written too for one release (docs/output.md).
	if !escaped {
		return j.enc.Encode(struct {
			linkcheck.Finding
			Link  string `json:"link"`
			State string `json:"baseline_state,omitempty"`
		}{f.Finding, f.Link, f.BaselineState})
	}
	return j.enc.Encode(struct {
		linkcheck.Finding
		File         string `json:"file"`
		FileEncoding string `json:"file_encoding,omitempty"`
		Link         string `json:"link"`
		State        string `json:"baseline_state,omitempty"`
	}{f.Finding, name, enc, f.Link, f.BaselineState})
}

func (j *jsonWriter) Close() error { return nil }

// githubWriter writes GitHub Actions workflow commands: "::error
// file=F,line=L,col=C,endColumn=E,title=T::MESSAGE", escaped as
// actions/toolkit's command.ts escapes them. GitHub shows only ten
// annotations of a kind per step, so with Options.StepSummary it also
// writes a Markdown table of the findings there on Close.
type githubWriter struct {
	w       io.Writer
	o       Options
	counts  map[linkcheck.Problem]int
	rows    []linkcheck.Finding
	dropped int
}

// maxSummaryRows bounds the findings listed in a step summary (GitHub
// takes 1 MiB of it per step).
const maxSummaryRows = 1000

func (g *githubWriter) File(string) {}

func (g *githubWriter) Finding(f Finding) error {
	if g.o.StepSummary != nil {
		if g.counts == nil {
			g.counts = map[linkcheck.Problem]int{}
		}
		g.counts[f.Problem]++
		if len(g.rows) < maxSummaryRows {
			g.rows = append(g.rows, f.Finding)
		} else {
			g.dropped++
		}
	}
	b := bufio.NewWriter(g.w)
	b.WriteString("::error file=")
	b.WriteString(EscapeProperty(f.File))
	if f.Line > 0 {
		fmt.Fprintf(b, ",line=%d", f.Line)
		if col := column(f.Finding); col > 0 {
			fmt.Fprintf(b, ",col=%d,endLine=%d,endColumn=%d", col, f.Line, endColumn(f.Finding))
		}
	}
	b.WriteString(",title=")
	b.WriteString(EscapeProperty("relurl: " + f.Problem.String()))
	b.WriteString("::")
	b.WriteString(EscapeData(message(f.Finding)))
	b.WriteString("\n")
	return b.Flush()
}

func (g *githubWriter) Close() error {
	w := g.o.StepSummary
	if w == nil {
		return nil
	}
	b := bufio.NewWriter(w)
	name := g.o.Name
	if name == "" {
		name = "."
	}
	fmt.Fprintf(b, "### %s check %s\n\n", g.o.Tool, markdownCell(name))
	if len(g.rows) == 0 {
		b.WriteString("No findings.\n\n")
		return b.Flush()
	}
	b.WriteString("| problem | findings |\n|---|---:|\n")
	for _, p := range problems() {
		if n := g.counts[p]; n > 0 {
			fmt.Fprintf(b, "| `%s` | %d |\n", p, n)
		}
	}
	b.WriteString("\n| file | line | problem | link | reason |\n|---|---:|---|---|---|\n")
	for _, f := range g.rows {
		fmt.Fprintf(b, "| %s | %d | `%s` | %s | %s |\n", markdownCell(f.File), f.Line, f.Problem, markdownCode(f.Link), markdownCell(f.Reason))
	}
	if g.dropped > 0 {
		fmt.Fprintf(b, "\n%d more not listed.\n", g.dropped)
	}
	b.WriteString("\n")
	return b.Flush()
}

// markdownCell makes s safe in a GitHub Markdown table cell: no line
// breaks, "|" escaped, and HTML's "<" "&" as entities.
func markdownCell(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ", "|", "\\|", "<", "&lt;", "&", "&amp;").Replace(s)
}

// markdownCode is s as inline code in a table cell.
func markdownCode(s string) string {
	if s == "" || strings.ContainsAny(s, "`\r\n|") {
		return markdownCell(s)
	}
	return "`" + s + "`"
}

// EscapeData escapes the message of a workflow command: "%" first, then
// CR and LF (actions/toolkit packages/core/src/command.ts escapeData).
func EscapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// EscapeProperty escapes a property value of a workflow command: as
// EscapeData, and ":" and "," too (command.ts escapeProperty).
func EscapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
