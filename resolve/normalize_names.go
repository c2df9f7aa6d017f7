package resolve

import (
	"fmt"
	"strings"
)

// normalizationNames are the names ParseNormalization reads, in the order
// of the declarations (sets last).
var normalizationNames = []struct {
	name string
	n    Normalization
}{
	{"decode-unreserved", DecodeUnreserved},
	{"uppercase-escapes", UppercaseEscapes},
	{"lowercase-scheme", LowercaseScheme},
	{"lowercase-host", LowercaseHost},
	{"remove-default-port", RemoveDefaultPort},
	{"remove-dot-segments", RemoveDotSegments},
	{"remove-directory-index", RemoveDirectoryIndex},
	{"add-root-path", AddRootPath},
	{"sort-query", SortQuery},
	{"remove-empty-query", RemoveEmptyQuery},
	{"remove-fragment", RemoveFragment},
	{"syntax", SyntaxBased},
	{"scheme", SchemeBased},
	{"crawler", Crawler},
}

// NormalizationNames returns the names ParseNormalization reads: one for
// each normalization, the declaration's name in lower case with hyphens
// ("remove-default-port"), then "syntax" (SyntaxBased), "scheme"
// (SchemeBased) and "crawler" (Crawler).
func NormalizationNames() []string {
	names := make([]string, len(normalizationNames))
	for i, nn := range normalizationNames {
		names[i] = nn.name
	}
	return names
}

// ParseNormalization returns the normalizations named in the
// comma-separated list s (see NormalizationNames), combined; names are
// matched ASCII case-insensitively, spaces around them ignored. An empty
// list is no normalization.
func ParseNormalization(s string) (Normalization, error) {
	var n Normalization
	if strings.TrimSpace(s) == "" {
		return 0, nil
	}
	for name := range strings.SplitSeq(s, ",") {
		name = strings.TrimSpace(name)
		found := false
		for _, nn := range normalizationNames {
			if strings.EqualFold(name, nn.name) {
				n |= nn.n
				found = true
				break
			}
		}
		if !found {
			return 0, fmt.Errorf("unknown normalization %q (want %s)", name, strings.Join(NormalizationNames(), ", "))
		}
	}
	return n, nil
}
