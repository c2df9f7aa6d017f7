package resolve

import (
	"fmt"
	"testing"
)

func TestParseNormalization(t *testing.T) {
	tests := []struct {
		in   string
		want Normalization
		bad  bool
	}{
		{in: "", want: 0},
		{in: "remove-fragment", want: RemoveFragment},
		{in: "Sort-Query, remove-empty-query", want: SortQuery | RemoveEmptyQuery},
		{in: "crawler,remove-directory-index", want: Crawler | RemoveDirectoryIndex},
		{in: "syntax", want: SyntaxBased},
		{in: "scheme", want: SchemeBased},
		{in: "decode-unreserved,uppercase-escapes,lowercase-scheme,lowercase-host,remove-default-port,remove-dot-segments,add-root-path",
			want: SyntaxBased | SchemeBased},
		{in: "fragment", bad: true},
		{in: "crawler,", bad: true},
	}
	for _, tt := range tests {
		got, err := ParseNormalization(tt.in)
		if (err != nil) != tt.bad || got != tt.want {
			t.Errorf("ParseNormalization(%q) = %v, %v; want %v (error %v)", tt.in, got, err, tt.want, tt.bad)
		}
	}
	// Every name reads back as its flag.
	for _, nn := range normalizationNames {
		if got, err := ParseNormalization(nn.name); err != nil || got != nn.n {
			t.Errorf("ParseNormalization(%q) = %v, %v; want %v", nn.name, got, err, nn.n)
		}
	}
}

func ExampleParseNormalization() {
	n, _ := ParseNormalization("crawler,remove-directory-index")
	u, _ := Normalize("HTTP://Example.COM:80/a/./index.html?b=2&a=1#top", n)
	fmt.Println(u)
	// Output: http://example.com/a/?a=1&b=2
}
