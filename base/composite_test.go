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

// rfc2557Example96 is RFC 2557 §9.6 ("Example showing permitted and
// forbidden references between nested body parts"), headers as printed,
// bodies cut to the references this test follows and base64 data left
// out. The RFC omits the empty line that ends each nested multipart's
// heading; it is restored here.
const rfc2557Example96 = `From: foo1@bar.net
To: foo2@bar.net
Subject: A simple example
Mime-Version: 1.0
Content-Type: multipart/related; boundary="boundary-example-1";
          type="text/html"

--boundary-example-1
Content-Type: text/html;charset="US-ASCII"
Content-ID: <foo3@foo1@bar.net>

<IMG SRC="http://www.ietf.cnri.reston.va.us/images/ietflogo.gif"
ALT="IETF logo with white background">

--boundary-example-1
Content-Location:
         http://www.ietf.cnri.reston.va.us/images/ietflogo.gif
Content-Type: IMAGE/GIF
Content-Transfer-Encoding: BASE64

R0lGODlhGAGgAPEAAP/////ZRaCgoAAAACH+PUNvcHlyaWdodCAoQykgMTk5

--boundary-example-1
Content-Location:
     http://www.ietf.cnri.reston.va.us/more-info
Content-Type: multipart/related; boundary="boundary-example-2";
           type="text/html"

--boundary-example-2
Content-Type: text/html;charset="US-ASCII"
Content-ID: <foo4@foo1@bar.net>

The image reference below will be resolved with the image
in the surrounding multipart/related above.
<IMG SRC="images/ietflogo.gif"
ALT="IETF logo with white background">

--boundary-example-2--
--boundary-example-1--
`

// TestRFC2557Example96: the nested multipart/related's folded, absolute
// Content-Location is the base of its HTML part (RFC 2557 §5 (b), (c)),
// so that part's "images/ietflogo.gif" resolves to the Content-Location of
// the image "in the surrounding multipart/related above".
func TestRFC2557Example96(t *testing.T) {
	br := bufio.NewReader(strings.NewReader(rfc2557Example96))
	header, err := textproto.NewReader(br).ReadMIMEHeader()
	require.NoError(t, err)
	top := &Context{Spec: resolve.RFC3986, Header: header, HeaderOf: "the message", ContentLocation: true}
	var parts []decidedPart
	walkMessage(t, top, header, br, "", &parts)
	require.Len(t, parts, 3)

	assert.Equal(t, "default", parts[0].Result.Provenance(), "no base for the outer HTML part")
	assert.Equal(t, Result{URL: "http://www.ietf.cnri.reston.va.us/images/ietflogo.gif", Source: Header, Detail: "Content-Location of part 2"}, parts[1].Result)
	inner := parts[2].Result
	assert.Equal(t, Result{URL: "http://www.ietf.cnri.reston.va.us/more-info", Source: Composite, Detail: "base of enclosing multipart/related"}, inner)
	img, err := resolve.Reference(resolve.RFC3986, inner.URL, "images/ietflogo.gif")
	require.NoError(t, err)
	assert.Equal(t, parts[1].Result.URL, img)
}

// TestRFC2557Example95: "Content-Location: CID:something@else ; this
// header is disregarded" (RFC 2557 §9.5) labels the part; it is no base.
func TestRFC2557Example95(t *testing.T) {
	c := Context{
		Spec:      resolve.RFC3986,
		Header:    textproto.MIMEHeader{"Content-Location": {"CID:something@else ; this header is disregarded"}},
		HeaderOf:  "part 2",
		Enclosing: &Result{URL: "http://outer.example/", Source: Retrieval},
	}
	r := c.Fallback()
	assert.Equal(t, "composite: base of enclosing entity", r.Provenance())
	assert.Equal(t, []string{`Content-Location of part 2 "CID:something@else ; this header is disregarded" ignored: a cid: URL labels a part and cannot be a base`}, r.Warnings)
}
