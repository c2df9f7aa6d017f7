package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"path/filepath"
)

// JUnit XML as GitLab ("Unit test reports": testsuites/testsuite/testcase,
// failure, system-out) and Jenkins read it: one test case per finding,
// failed, and one passing test case per file without findings. The
// failure's message is repeated in its body: older GitLab showed only the
// body.

// JUnitSuites is the document element of a JUnit report.
type JUnitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Suites   []JUnitSuite `xml:"testsuite"`
}

// JUnitSuite is one testsuite: the checked tree.
type JUnitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []JUnitCase `xml:"testcase"`
}

// JUnitCase is one testcase: a finding, or a file without findings.
type JUnitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	File      string        `xml:"file,attr,omitempty"`
	Line      int           `xml:"line,attr,omitempty"`
	Failure   *JUnitFailure `xml:"failure"`
}

// JUnitFailure is a finding.
type JUnitFailure struct {
	Type    string `xml:"type,attr"`
	Message string `xml:"message,attr"`
	Body    string `xml:",chardata"`
}

type junitWriter struct {
	w     io.Writer
	o     Options
	files []string
	found map[string]bool
	cases []JUnitCase
}

func (j *junitWriter) File(path string) { j.files = append(j.files, path) }

func (j *junitWriter) Finding(f Finding) error {
	if j.found == nil {
		j.found = map[string]bool{}
	}
	file := filepath.ToSlash(f.File)
	j.found[file] = true
	j.cases = append(j.cases, JUnitCase{
		Classname: file,
		Name:      fmt.Sprintf("%d:%d %s %s", f.Line, f.Column, f.Problem, f.Link),
		File:      file,
		Line:      f.Line,
		Failure: &JUnitFailure{Type: f.Problem.String(), Message: message(f.Finding),
			Body: fmt.Sprintf("%s:%d:%d: %s: %s", file, f.Line, f.Column, f.Problem, message(f.Finding))},
	})
	return nil
}

func (j *junitWriter) Close() error {
	failures := len(j.cases)
	for _, p := range j.files {
		p = filepath.ToSlash(p)
		if !j.found[p] {
			j.cases = append(j.cases, JUnitCase{Classname: p, Name: "no findings", File: p})
		}
	}
	name := j.o.Name
	if name == "" {
		name = j.o.Tool + " check"
	}
	doc := JUnitSuites{Name: j.o.Tool + " check", Tests: len(j.cases), Failures: failures,
		Suites: []JUnitSuite{{Name: name, Tests: len(j.cases), Failures: failures, Cases: j.cases}}}
	if _, err := io.WriteString(j.w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(j.w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(j.w, "\n")
	return err
}
