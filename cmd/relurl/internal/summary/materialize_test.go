package summary

import (
	"bytes"
	"testing"

	"github.com/relurl/relurl/materialize"
)

func TestMaterializeLine(t *testing.T) {
	for _, tc := range []struct {
		sum  materialize.Summary
		want string
	}{
		{materialize.Summary{Inputs: 1, Captures: 7, URLs: 7, Pages: 5, Redirects: 2, Uncaptured: 7, Links: 12, Local: 5},
			"relurl: materialize: 5 pages, 0 resources, 2 redirects, 7 uncaptured links (7 URLs from 7 captures in 1 input, 12 links, 5 local); 0 warnings, 0 problems; into out\n"},
		{materialize.Summary{Inputs: 2, Pages: 1, Resources: 3, Warnings: 1, Problems: 2, Stale: 4, Removed: 3},
			"relurl: materialize: 1 page, 3 resources, 0 redirects, 0 uncaptured links (0 URLs from 0 captures in 2 inputs, 0 links, 0 local); 1 warning, 2 problems; 4 stale files of an earlier run, 3 removed; into out\n"},
	} {
		var b bytes.Buffer
		if err := (Materialize{tc.sum, "out"}).WriteLine(&b); err != nil {
			t.Fatal(err)
		}
		if b.String() != tc.want {
			t.Errorf("WriteLine(%+v)\n got %q\nwant %q", tc.sum, b.String(), tc.want)
		}
	}
}

func TestMaterializeJSON(t *testing.T) {
	var b bytes.Buffer
	if err := (Materialize{materialize.Summary{Inputs: 1, Pages: 2, Stale: 1}, "d"}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	want := `{"inputs":1,"captures":0,"urls":0,"pages":2,"resources":0,"redirects":0,"revisits":0,"links":0,"local":0,"uncaptured":0,"error_responses":0,"excluded":0,"dropped":0,"warnings":0,"problems":0,"stale":1,"removed":0,"dir":"d"}` + "\n"
	if b.String() != want {
		t.Errorf("WriteJSON\n got %s\nwant %s", b.String(), want)
	}
}

func TestMaterializeFailed(t *testing.T) {
	for _, tc := range []struct {
		sum  materialize.Summary
		want bool
	}{
		{materialize.Summary{Inputs: 1}, false},
		{materialize.Summary{Inputs: 0}, true},
		{materialize.Summary{Inputs: 3, Problems: 1}, true},
	} {
		if got := (Materialize{Summary: tc.sum}).Failed(); got != tc.want {
			t.Errorf("Failed(%+v) = %v, want %v", tc.sum, got, tc.want)
		}
	}
}
