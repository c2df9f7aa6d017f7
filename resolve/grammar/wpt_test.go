package grammar

import (
	"encoding/json"
	"flag"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wptFailures returns the inputs of testdata/wpt-url/urltestdata.json that
// the URL Standard's parser rejects ("failure": true), in file order.
func wptFailures(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../testdata/wpt-url/urltestdata.json")
	require.NoError(t, err)
	var entries []json.RawMessage // strings are section comments
	require.NoError(t, json.Unmarshal(data, &entries))
	var inputs []string
	for _, raw := range entries {
		var c struct {
			Input   string
			Failure bool
		}
		if json.Unmarshal(raw, &c) == nil && c.Failure {
			inputs = append(inputs, c.Input)
		}
	}
	return inputs
}

// authorityRE splits a URI into scheme and authority (RFC 3986 Appendix B).
var authorityRE = regexp.MustCompile(`^([A-Za-z][A-Za-z0-9+.-]*):(//([^/?#]*))?`)

// whyOnlyWHATWG says why the URL Standard rejects a string that RFC 3986's
// grammar accepts. The two disagree on purpose: the grammar is syntax,
// while the URL Standard's parser also resolves against a base and checks
// the meaning of hosts and ports.
func whyOnlyWHATWG(in string) string {
	m := authorityRE.FindStringSubmatch(in)
	if m == nil {
		return "relative reference with no usable base"
	}
	scheme := strings.ToLower(m[1])
	if m[2] == "" {
		return "special scheme without //: the URL Standard still wants a host"
	}
	auth := m[3]
	if i := strings.LastIndexByte(auth, '@'); i >= 0 {
		auth = auth[i+1:]
	}
	host, port := auth, ""
	if i := strings.LastIndexByte(auth, ':'); i >= 0 && !strings.HasSuffix(auth, "]") {
		host, port = auth[:i], auth[i+1:]
	}
	switch {
	case port != "" && scheme == "file":
		return "port on a file URL"
	case port != "":
		if n, err := strconv.ParseUint(port, 10, 64); err != nil || n > 65535 {
			return "port above 65535"
		}
	}
	switch {
	case host == "":
		return "empty host"
	case strings.Contains(host, "%"):
		return "host whose percent-decoding the host parser refuses"
	}
	return "host the IPv4 parser refuses"
}

var update = flag.Bool("update", false, "rewrite testdata/wpt-failures-valid-rfc3986.txt")

// The WPT inputs the URL Standard rejects: those RFC 3986's grammar also
// rejects, and why the others differ. The others are listed, with the
// reason, in testdata/wpt-failures-valid-rfc3986.txt.
func TestWPTFailures(t *testing.T) {
	inputs := wptFailures(t)
	require.Len(t, inputs, 267)
	rejected := 0
	why := map[string]int{}
	var list strings.Builder
	for _, in := range inputs {
		if Validate("rfc3986", in) != nil {
			rejected++
			continue
		}
		reason := whyOnlyWHATWG(in)
		why[reason]++
		list.WriteString(strconv.Quote(in) + "\t" + reason + "\n")
	}
	const golden = "testdata/wpt-failures-valid-rfc3986.txt"
	if *update {
		require.NoError(t, os.WriteFile(golden, []byte(list.String()), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err)
	assert.Equal(t, string(want), list.String())
	assert.Equal(t, 119, rejected)
	assert.Equal(t, map[string]int{
		// "i", "../i", "?i" against "sc:sd"; "a", "#", "" with no base
		"relative reference with no usable base": 16,
		// "http:@/www.example.com", "http:" against an https base
		"special scheme without //: the URL Standard still wants a host": 10,
		// "http://f:999999/c"
		"port above 65535": 5,
		// "file://example:1/"
		"port on a file URL": 1,
		// "http://user:pass@/", "sc://:12/", "data://:443"
		"empty host": 16,
		// "http://ho%00st/", "http://%25", "file://%43%7C"
		"host whose percent-decoding the host parser refuses": 63,
		// "http://192.168.0.257", "http://1.2.3.4.5", "http://foo.09"
		"host the IPv4 parser refuses": 37,
	}, why)
}
