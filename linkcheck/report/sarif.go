package report

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf16"

	"github.com/relurl/relurl/linkcheck"
)

// SARIF 2.1.0 (OASIS Standard, 27 March 2020), the subset GitHub code
// scanning reads ("SARIF support for code scanning"): $schema, version,
// runs[].tool.driver.{name, rules[].{id, shortDescription, fullDescription,
// help}}, results[].{ruleId, message, locations[0].physicalLocation
// .{artifactLocation.uri, region}, partialFingerprints}.

// SchemaURI is the $schema of the SARIF relurl writes.
const SchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

// FingerprintKey names relurl's fingerprint in partialFingerprints
// (SARIF §3.27.17: a versioned name).
const FingerprintKey = "relurlFinding/v1"

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool         `json:"tool"`
	Automation *sarifAutomation  `json:"automationDetails,omitempty"`
	ColumnKind string            `json:"columnKind"`
	Results    []json.RawMessage `json:"results"`
}

type sarifAutomation struct {
	ID string `json:"id"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name            string      `json:"name"`
	InformationURI  string      `json:"informationUri"`
	SemanticVersion string      `json:"semanticVersion,omitempty"`
	Rules           []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	Name             string       `json:"name"`
	ShortDescription sarifText    `json:"shortDescription"`
	FullDescription  sarifText    `json:"fullDescription"`
	Help             sarifText    `json:"help"`
	Default          sarifDefault `json:"defaultConfiguration"`
}

type sarifDefault struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	BaselineState       string            `json:"baselineState,omitempty"`
	Properties          *sarifProperties  `json:"properties,omitempty"`
}

type sarifProperties struct {
	Link     string `json:"link"`
	URL      string `json:"url,omitempty"`
	Relative string `json:"relative,omitempty"`
	Target   string `json:"target,omitempty"`
}

type sarifLocation struct {
	Physical sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	Artifact sarifArtifact `json:"artifactLocation"`
	Region   *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
	EndLine     int `json:"endLine,omitempty"`
	EndColumn   int `json:"endColumn,omitempty"`
}

// sarifWriter collects the results and writes the log on Close.
type sarifWriter struct {
	w       io.Writer
	o       Options
	results []json.RawMessage
}

func (s *sarifWriter) File(string) {}

func (s *sarifWriter) Finding(f Finding) error {
	r := sarifResult{
		RuleID:    f.Problem.String(),
		RuleIndex: ruleIndex(f.Problem),
		Level:     "error",
		Message:   sarifText{message(f.Finding)},
		Locations: []sarifLocation{{Physical: sarifPhysical{Artifact: artifact(f.File)}}},
		PartialFingerprints: map[string]string{
			FingerprintKey: f.Fingerprint,
		},
		BaselineState: f.BaselineState,
		Properties:    &sarifProperties{Link: f.Link, URL: f.URL, Relative: f.Relative, Target: f.Target},
	}
	if f.Line > 0 {
		reg := &sarifRegion{StartLine: f.Line}
		if col := column(f.Finding); col > 0 {
			reg.StartColumn, reg.EndLine, reg.EndColumn = col, f.Line, endColumn(f.Finding)
		}
		r.Locations[0].Physical.Region = reg
	}
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	s.results = append(s.results, b)
	return nil
}

func (s *sarifWriter) Close() error {
	run := sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name:            s.o.Tool,
			InformationURI:  "https://github.com/relurl/relurl",
			SemanticVersion: s.o.Version,
		}},
		ColumnKind: "utf16CodeUnits",
		Results:    s.results,
	}
	// One category per checked tree (runAutomationDetails.id
	// "category/"): several trees can be uploaded for one commit.
	run.Automation = &sarifAutomation{ID: category(s.o.Name)}
	for _, p := range problems() {
		short, full, help := Describe(p)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule{
			ID: p.String(), Name: ruleName(p),
			ShortDescription: sarifText{short}, FullDescription: sarifText{full}, Help: sarifText{help},
			Default: sarifDefault{"error"},
		})
	}
	if s.o.Baseline != nil {
		run.Results = append(run.Results, s.o.Baseline.absent()...)
	}
	if run.Results == nil {
		run.Results = []json.RawMessage{}
	}
	enc := json.NewEncoder(s.w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: SchemaURI, Version: "2.1.0", Runs: []sarifRun{run}})
}

// category returns the automation category of the tree name: "relurl-check/site/",
// or "relurl-check/" for the current directory.
func category(name string) string {
	n := strings.Trim(path.Clean(filepath.ToSlash(name)), "/")
	if n == "." || n == "" {
		return "relurl-check/"
	}
	return "relurl-check/" + n + "/"
}

// ruleIndex is p's index in the driver's rules.
func ruleIndex(p linkcheck.Problem) int {
	for i, q := range problems() {
		if q == p {
			return i
		}
	}
	return -1
}

// ruleName is the rule's name in PascalCase ("MissingAnchor"), as SARIF
// §3.49.7 suggests.
func ruleName(p linkcheck.Problem) string {
	var b strings.Builder
	for _, w := range strings.Split(p.String(), "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}

// artifact returns the location of the file path: a relative URI
// reference from the working directory (the repository checkout in CI),
// which GitHub resolves against the checkout; an absolute path becomes a
// file: URI.
func artifact(path string) sarifArtifact {
	p := filepath.ToSlash(path)
	if filepath.IsAbs(path) {
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		return sarifArtifact{URI: (&url.URL{Scheme: "file", Path: p}).String()}
	}
	p = strings.TrimPrefix(p, "./")
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return sarifArtifact{URI: strings.Join(segs, "/"), URIBaseID: "%SRCROOT%"}
}

// column is the finding's column in UTF-16 code units (SARIF's default
// columnKind, and GitHub's), or its byte column when that is unknown.
func column(f linkcheck.Finding) int {
	if f.Column16 > 0 {
		return f.Column16
	}
	return f.Column
}

// endColumn is the column after the link as written (its decoded form:
// character references count as their characters).
func endColumn(f linkcheck.Finding) int {
	return column(f) + max(1, len(utf16.Encode([]rune(f.Link))))
}

// Baseline is the findings of an earlier run, read from its SARIF log.
type Baseline struct {
	results map[string]json.RawMessage // by fingerprint
	order   []string
	seen    map[string]bool
}

// ReadBaseline reads a SARIF log relurl wrote. Results without relurl's
// fingerprint, and results marked "absent", are ignored.
func ReadBaseline(r io.Reader) (*Baseline, error) {
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.NewDecoder(r).Decode(&log); err != nil {
		return nil, fmt.Errorf("baseline: %v", err)
	}
	if log.Version != "2.1.0" {
		return nil, fmt.Errorf("baseline: SARIF version %q, want 2.1.0", log.Version)
	}
	b := &Baseline{results: map[string]json.RawMessage{}, seen: map[string]bool{}}
	for _, run := range log.Runs {
		for _, raw := range run.Results {
			var res struct {
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				BaselineState       string            `json:"baselineState"`
			}
			if json.Unmarshal(raw, &res) != nil || res.BaselineState == "absent" {
				continue
			}
			fp := res.PartialFingerprints[FingerprintKey]
			if fp == "" {
				continue
			}
			if _, dup := b.results[fp]; !dup {
				b.order = append(b.order, fp)
			}
			b.results[fp] = raw
		}
	}
	return b, nil
}

// Len is the number of findings in the baseline.
func (b *Baseline) Len() int { return len(b.results) }

// State returns "unchanged" when the baseline has the fingerprint, else
// "new"; it remembers the fingerprints it matched.
func (b *Baseline) State(fingerprint string) string {
	if _, ok := b.results[fingerprint]; ok {
		b.seen[fingerprint] = true
		return "unchanged"
	}
	return "new"
}

// Absent returns the number of baseline findings State has not matched.
func (b *Baseline) Absent() int { return len(b.results) - len(b.seen) }

// absent returns the baseline results State has not matched, marked
// "absent".
func (b *Baseline) absent() []json.RawMessage {
	var out []json.RawMessage
	for _, fp := range b.order {
		if b.seen[fp] {
			continue
		}
		var m map[string]any
		if json.Unmarshal(b.results[fp], &m) != nil {
			continue
		}
		m["baselineState"] = "absent"
		if raw, err := json.Marshal(m); err == nil {
			out = append(out, raw)
		}
	}
	return out
}
