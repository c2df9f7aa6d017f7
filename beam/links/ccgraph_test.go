package links

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/testing/ptest"
)

func TestCCHost(t *testing.T) {
	for in, want := range map[string]string{
		"www.example.com":  "com.example",
		"WWW.Example.COM.": "com.example",
		"www.com":          "com.www", // two labels: www kept
		"a.b.example.org":  "org.example.b.a",
		"localhost":        "",
		"192.168.0.1":      "",
		"www.10.0.0.1":     "",
		"":                 "",
	} {
		if got := CCHost(in); got != want {
			t.Errorf("CCHost(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCCHostGraph runs CCHostGraph and WriteCCGraph on prism: vertices
// numbered in the order of the reversed names, edges sorted by id, no
// self-loops (www.example.com and example.com are one host), IPs left
// out, each edge once.
func TestCCHostGraph(t *testing.T) {
	edges := []HostEdge{
		{Source: "www.example.com", Target: "b.example.org", Count: 3},
		{Source: "example.com", Target: "www.example.com", Count: 1}, // a self-loop once www. is folded
		{Source: "b.example.org", Target: "a.example.net", Count: 2},
		{Source: "b.example.org", Target: "10.0.0.1", Count: 1},
		{Source: "example.com", Target: "b.example.org", Count: 1}, // the first edge again
	}
	prefix := filepath.Join(t.TempDir(), "cc")
	p, s := beam.NewPipelineWithRoot()
	WriteCCGraph(s, prefix, CCHostGraph(s, beam.CreateList(s, edges)))
	if err := ptest.Run(p); err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	wantV := "0\tcom.example\n1\tnet.example.a\n2\torg.example.b\n"
	wantE := "0\t2\n2\t1\n"
	if got := read(prefix + "-vertices.txt"); got != wantV {
		t.Errorf("vertices:\n%s\nwant\n%s", got, wantV)
	}
	if got := read(prefix + "-edges.txt"); got != wantE {
		t.Errorf("edges:\n%s\nwant\n%s", got, strings.TrimSpace(wantE))
	}
}
