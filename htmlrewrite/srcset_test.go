package htmlrewrite

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSrcsetWPT: LS §4.8.4.3.10 "parse a srcset attribute", on the rows
// of web-platform-tests parse-a-srcset-attribute.html: the candidate a
// browser picks is one of the URLs the reader finds.
func TestSrcsetWPT(t *testing.T) {
	data, err := os.ReadFile("../testdata/html/srcset/parse-a-srcset-attribute.json")
	require.NoError(t, err)
	var rows []json.RawMessage
	require.NoError(t, json.Unmarshal(data, &rows))
	n := 0
	for _, raw := range rows[1:] {
		var r struct {
			Section, Srcset, Expect string
			Resolve                 bool
		}
		require.NoError(t, json.Unmarshal(raw, &r))
		var urls []string
		for u0, u1 := range srcsetURLs(r.Srcset) {
			urls = append(urls, r.Srcset[u0:u1])
		}
		if r.Expect == "" {
			continue
		}
		n++
		assert.True(t, slices.Contains(urls, r.Expect), "%s: %q: want %q among %q", r.Section, r.Srcset, r.Expect, urls)
	}
	assert.Greater(t, n, 50)
}

// TestSrcsetURLs: the spec's examples of URLs with commas and of
// descriptors with parentheses (notes §1.3).
func TestSrcsetURLs(t *testing.T) {
	for in, want := range map[string][]string{
		"a.png,b.png":                          {"a.png,b.png"},
		"a.png, b.png":                         {"a.png", "b.png"},
		"a.png,, b.png 2x":                     {"a.png", "b.png"},
		"c_scale,w_300/x.jpg 300w, y.jpg 2x":   {"c_scale,w_300/x.jpg", "y.jpg"},
		"data:,a 1x 1x \\,data:;\\,b, data:,c": {"data:,a", "data:;\\,b", "data:,c"},
		"a (1, 2) 1x, b":                       {"a", "b"},
		" \n a.png\t1x ,\r\nb.png ":            {"a.png", "b.png"},
		",,,":                                  nil,
	} {
		var got []string
		for u0, u1 := range srcsetURLs(in) {
			got = append(got, in[u0:u1])
		}
		assert.Equal(t, want, got, "%q", in)
	}
}
