package base

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/textproto"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/resolve"
)

// decidedPart is what walkMessage found for one leaf part.
type decidedPart struct {
	Path   string // "1.1.2": the part's position at each level
	Result Result
}

// walkMessage decides the base of every leaf part of a MIME entity,
// giving each part the base of its enclosing entity as retrieval context
// (draft §3.3), as the mime package does. It stands in for that package
// here, with the standard library's multipart reader.
func walkMessage(t *testing.T, c *Context, header textproto.MIMEHeader, body io.Reader, path string, out *[]decidedPart) {
	t.Helper()
	mediaType, params, err := mime.ParseMediaType(header.Get("Content-Type"))
	require.NoError(t, err)
	if !strings.HasPrefix(mediaType, "multipart/") {
		doc, err := io.ReadAll(body)
		require.NoError(t, err)
		r := c.Fallback()
		if mediaType == "text/html" {
			r = decide(t, c, string(doc))
		}
		*out = append(*out, decidedPart{path, r})
		return
	}
	// A composite entity has no content of its own to embed a base in:
	// its base comes from its headers or its retrieval context.
	entityBase := c.Fallback()
	mr := multipart.NewReader(body, params["boundary"])
	for i := 1; ; i++ {
		p, err := mr.NextRawPart()
		if errors.Is(err, io.EOF) {
			return
		}
		require.NoError(t, err)
		part, err := c.Part(entityBase, mediaType, p.Header, fmt.Sprintf("part %s%d", path, i))
		require.NoError(t, err)
		walkMessage(t, part, p.Header, p, path+fmt.Sprint(i)+".", out)
	}
}

// TestNestedMultipart: three levels of multipart, each with a Base header
// relative to the level above, the draft's §3.3: "a composite entity can
// redefine the retrieval context of its component parts via inclusion of
// a base-header, and this redefinition applies recursively for a
// hierarchy of composite parts."
func TestNestedMultipart(t *testing.T) {
	f, err := os.Open("../testdata/base/nested-multipart.eml")
	require.NoError(t, err)
	defer f.Close()
	br := bufio.NewReader(f)
	header, err := textproto.NewReader(br).ReadMIMEHeader()
	require.NoError(t, err)

	top := &Context{Spec: resolve.RFC1808, Header: header, HeaderOf: "the message", Retrieval: "http://retrieved.example/mail"}
	var parts []decidedPart
	walkMessage(t, top, header, br, "", &parts)

	want := []decidedPart{
		{"1.1.1.", Result{URL: "http://www.ics.uci.edu/Test/a/b/", Source: Composite, Detail: "base of enclosing multipart/alternative"}},
		{"1.1.2.", Result{URL: "http://www.ics.uci.edu/Test/a/b/c", Source: Header, Detail: "Base of part 1.1.2 (relative, resolved against the composite base)"}},
		{"1.1.3.", Result{URL: "http://www.ics.uci.edu/Test/a/b/", Source: Composite, Detail: "base of enclosing multipart/alternative"}},
	}
	assert.Equal(t, want, parts)

	// The HTML part with its own Base header is the draft's appendix page
	// again: "../x" is http://www.ics.uci.edu/Test/a/x.
	x, err := resolve.Reference(resolve.RFC1808, parts[1].Result.URL, "../x")
	require.NoError(t, err)
	assert.Equal(t, "http://www.ics.uci.edu/Test/a/x", x)
}

// TestNestingBound: Part refuses to go deeper than MaxNesting.
func TestNestingBound(t *testing.T) {
	c := &Context{Spec: resolve.RFC3986, Retrieval: "http://a/"}
	var err error
	for i := 0; i < MaxNesting; i++ {
		c, err = c.Part(c.Fallback(), "multipart/mixed", nil, fmt.Sprintf("part %d", i))
		require.NoError(t, err)
	}
	assert.Equal(t, "http://a/", c.Fallback().URL)
	assert.Equal(t, MaxNesting, c.Depth)
	_, err = c.Part(c.Fallback(), "multipart/mixed", nil, "one too many")
	assert.ErrorIs(t, err, ErrNesting)
}
