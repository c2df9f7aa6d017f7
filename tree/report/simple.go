package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// textWriter writes "FILE:LINE:COLUMN: PROBLEM: LINK: REASON", one
// finding a line, as compilers do.
type textWriter struct{ w io.Writer }

func (t *textWriter) File(string) {}

func (t *textWriter) Finding(f Finding) error {
	_, err := fmt.Fprintf(t.w, "%s:%d:%d: %s: %s\n", f.File, f.Line, f.Column, f.Problem, message(f.Finding))
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
	if f.BaselineState == "" {
		return j.enc.Encode(f.Finding)
	}
	return j.enc.Encode(struct {
		Finding
		State string `json:"baseline_state"`
	}{f, f.BaselineState})
}

func (j *jsonWriter) Close() error { return nil }

// githubWriter writes GitHub Actions workflow commands: "::error
// file=F,line=L,col=C,endColumn=E,title=T::MESSAGE", escaped as
// actions/toolkit's command.ts escapes them.
type githubWriter struct{ w io.Writer }

func (g *githubWriter) File(string) {}

func (g *githubWriter) Finding(f Finding) error {
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

func (g *githubWriter) Close() error { return nil }

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
