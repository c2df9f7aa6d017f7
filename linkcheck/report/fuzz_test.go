package report

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzReadBaseline: whatever the bytes given to check --baseline,
// ReadBaseline returns a baseline or an error, never panics; a baseline
// matches each of its own fingerprints once; and the SARIF log written
// with it lists every finding it holds as absent, in a log that reads
// back as a baseline with none (absent results are not findings).
func FuzzReadBaseline(f *testing.F) {
	// Seeds in testdata/fuzz/FuzzReadBaseline: a log relurl wrote,
	// duplicates, absent results, results without relurl's fingerprint.
	f.Add([]byte(`{"version":"2.1.0","runs":[{"results":[{"ruleId":"missing","partialFingerprints":{"relurlFinding/v1":"a"}}]}]}`))
	f.Add([]byte(`{"version":"2.0.0","runs":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := ReadBaseline(bytes.NewReader(data))
		if err != nil {
			if b != nil {
				t.Fatalf("ReadBaseline(%q): a baseline and an error", data)
			}
			return
		}
		n := b.Len()
		if n != len(b.order) {
			t.Fatalf("Len %d, %d in order", n, len(b.order))
		}
		if b.Absent() != n {
			t.Fatalf("Absent %d before any match, Len %d", b.Absent(), n)
		}
		var out bytes.Buffer
		w, err := New("sarif", &out, Options{Baseline: b})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatalf("writing with the baseline of %q: %v", data, err)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					BaselineState string `json:"baselineState"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(out.Bytes(), &log); err != nil {
			t.Fatalf("the log written with the baseline of %q is not JSON: %v\n%s", data, err, out.Bytes())
		}
		absent := 0
		for _, run := range log.Runs {
			for _, r := range run.Results {
				if r.BaselineState != "absent" {
					t.Fatalf("a result %q, not absent, with no finding", r.BaselineState)
				}
				absent++
			}
		}
		if absent != n {
			t.Fatalf("%d results absent, the baseline of %q has %d", absent, data, n)
		}
		again, err := ReadBaseline(bytes.NewReader(out.Bytes()))
		if err != nil || again.Len() != 0 {
			t.Fatalf("the log written reads back as %v, %v: want no finding", again, err)
		}
		for _, fp := range b.order {
			if b.State(fp) != "unchanged" {
				t.Fatalf("fingerprint %q of the baseline is new", fp)
			}
		}
		if b.Absent() != 0 {
			t.Fatalf("Absent %d after matching every fingerprint", b.Absent())
		}
	})
}
