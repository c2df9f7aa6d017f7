package grammar

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seedsDir holds the founding documents when they sit beside the checkout;
// a fresh clone has none, and the test is skipped.
const seedsDir = "../../../shared/seeds/"

// The grammar files hold the seed texts' productions, word for word, but
// for the repairs their headers state.
func TestFilesMatchSeeds(t *testing.T) {
	if _, err := os.Stat(seedsDir); err != nil {
		t.Skip("the seed documents are not here")
	}
	excerpt := func(file, first, last string) string {
		data, err := os.ReadFile(seedsDir + file)
		require.NoError(t, err)
		s := string(data)
		i := strings.Index(s, first)
		require.GreaterOrEqual(t, i, 0, first)
		j := strings.Index(s[i:], last)
		require.GreaterOrEqual(t, j, 0, last)
		return s[i : i+j+len(last)]
	}
	tests := []struct {
		name, file, first, last string
		repairs                 map[string]string // rule: its text in our file
		extra                   []string          // rules our file adds
	}{
		{name: "rfc1738", file: "002_076139cda596704c.txt", first: "genericurl     =", last: "digits         = 1*digit",
			repairs: map[string]string{"gopherurl": `gopherurl = "gopher://" hostport [ "/" [ gtype [ selector [ "%09" search [ "%09" gopher+_string ] ] ] ] ]`}},
		{name: "rfc1808", file: "000_f1979a4e6aa7bce8.txt", first: "URL = ", last: `punctuation = "<" | ">" | "#" | "%" | <">`},
		{name: "rfc1808-draft", file: "relative-url-draft-05.txt", first: "URL = ", last: `punctuation = "<" | ">" | "#" | "%" | <">`},
		{name: "rfc2396", file: "003_b2edf07f70551db2.txt", first: "URI-reference = [", last: `"8" | "9"`},
		{name: "rfc3986", file: "003_b2edf07f70551db2.txt", first: "URI           = scheme", last: `/ "*" / "+" / "," / ";" / "="`,
			extra: []string{"ALPHA", "DIGIT", "HEXDIG"}},
	}
	for _, tt := range tests {
		g, err := lookup(tt.name)
		require.NoError(t, err)
		ours, _, err := g.compiled()
		require.NoError(t, err)
		src := excerpt(tt.file, tt.first, tt.last)
		if tt.name == "rfc1738" {
			// The RFC's bare / cannot be parsed; compare the rest.
			src = strings.Replace(src, "hostport [ / [", `hostport [ "/" [`, 1)
		}
		seed, err := parseRules(src, g.nt)
		require.NoError(t, err, tt.name)
		assert.Len(t, ours.rules, len(seed.rules)+len(tt.extra), tt.name)
		for _, r := range seed.rules {
			o, ok := ours.lookup(r.name)
			if !assert.True(t, ok, "%s: rule %s missing", tt.name, r.name) {
				continue
			}
			want := r.text
			if repaired, ok := tt.repairs[r.name]; ok {
				want = repaired
			}
			assert.Equal(t, want, o.text, "%s: rule %s", tt.name, r.name)
		}
		for _, name := range tt.extra {
			_, ok := ours.lookup(name)
			assert.True(t, ok, "%s: rule %s", tt.name, name)
		}
	}
}
