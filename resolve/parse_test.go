package resolve

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestParse checks the draft's §2.4 parsing rules, one component at a time,
// in the order they are applied.
func TestParse(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want URL
	}{
		{"§2.4 the §5 base", "http://a/b/c/d;p?q#f", URL{Scheme: "http", NetLoc: "a", Path: "b/c/d", Params: "p", Query: "q", Fragment: "f",
			HasScheme: true, HasNetLoc: true, HasParams: true, HasQuery: true, HasFragment: true, AbsPath: true}},
		{"§2.4.1 first crosshatch", "g#s/./x#y", URL{Path: "g", Fragment: "s/./x#y", HasFragment: true}},
		{"§2.4.1 crosshatch last: empty but present", "g#", URL{Path: "g", HasFragment: true}},
		{"§2.4.2 scheme may start with a digit", "1a+b.c-d:x", URL{Scheme: "1a+b.c-d", Path: "x", HasScheme: true}},
		{"§2.4.2 colon after a non-scheme character", "a/b:c", URL{Path: "a/b:c"}},
		{"§2.4.2 colon as first character", ":x", URL{Path: ":x"}},
		{"§2.4.2 scheme only", "http:", URL{Scheme: "http", HasScheme: true}},
		{"§2.4.3 net_loc runs to the next slash, taking ? and ;", "//g?y;z/p", URL{NetLoc: "g?y;z", Path: "p", HasNetLoc: true, AbsPath: true}},
		{"§2.4.3 no slash after net_loc", "//g", URL{NetLoc: "g", HasNetLoc: true}},
		{"§2.4.3 empty net_loc", "file:///x", URL{Scheme: "file", Path: "x", HasScheme: true, HasNetLoc: true, AbsPath: true}},
		{"§2.4.4 query before params", "g;x?y;z", URL{Path: "g", Params: "x", Query: "y;z", HasParams: true, HasQuery: true}},
		{"§2.4.4 question mark last", "g?", URL{Path: "g", HasQuery: true}},
		{"§2.4.5 params may hold slashes", "g;x=1/../y", URL{Path: "g", Params: "x=1/../y", HasParams: true}},
		{"§2.4.6 leading slash remembered", "/g", URL{Path: "g", AbsPath: true}},
		{"§2.4.6 empty", "", URL{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Parse(tt.in)
			assert.Equal(t, tt.want, got, "Parse(%q)", tt.in)
			assert.Equal(t, tt.in, got.String(), "Parse(%q).String()", tt.in)
		})
	}
}

// TestParseRoundTrip: §4 step 7 recombination gives back every input.
func TestParseRoundTrip(t *testing.T) {
	for _, tab := range loadSpecTables(t) {
		for _, s := range []string{tab.Base} {
			u := Parse(s)
			assert.Equal(t, s, u.String())
		}
		for _, c := range tab.Cases {
			for _, s := range []string{c.Ref, c.Want} {
				u := Parse(s)
				assert.Equal(t, s, u.String())
			}
		}
	}
}
