package archive

import (
	"bytes"
	"errors"
	"io"
	"mime/multipart"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", name))
	require.NoError(t, err)
	return data
}

func parseFixture(t testing.TB, name string, opts Options) *Message {
	t.Helper()
	if opts.Spec == 0 {
		opts.Spec = resolve.RFC3986
	}
	m, err := Parse(readFixture(t, name), opts)
	require.NoError(t, err, name)
	return m
}

// partSummary is what the fixture table asserts of each part.
type partSummary struct {
	Path, Type, Encoding string
	Truncated            bool
	Base                 string
	Source               base.Source
}

func summarize(m *Message) []partSummary {
	var s []partSummary
	for _, p := range m.Parts() {
		s = append(s, partSummary{p.Path, p.MediaType, p.Encoding, p.Truncated, p.Base.URL, p.Base.Source})
	}
	return s
}

// TestFixtures reads every MHTML fixture of testdata/mhtml and asserts the
// structure and part bases testdata/mhtml/README.md describes. The part
// bases follow RFC 2557 §5: (b) the part's absolute Content-Location,
// (c) the enclosing heading's, (e) thismessage:/.
func TestFixtures(t *testing.T) {
	const tm = ThisMessage
	var (
		H = base.Header
		C = base.Composite
		D = base.Default
	)
	tests := []struct {
		file  string
		parts []partSummary
	}{
		{"mhtml/chromium/relative_url.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", false, "http://localhost/page_with_image.html", H},
			{"2", "image/png", "base64", false, "http://localhost/resources/red_square.png", H},
		}},
		{"mhtml/chromium/multi_frames_ie.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "image/png", "base64", false, "http://localhost/resources/red_square.png", H},
			{"2", "multipart/alternative", "", false, tm, D},
			{"2.1", "text/html", "quoted-printable", false, "http://localhost/top_frame.html", H},
			{"2.2", "text/html", "7bit", false, "http://localhost/frame_0.html", H},
			{"3", "text/html", "7bit", false, "http://localhost/frame_1.html", H},
			{"4", "text/html", "quoted-printable", false, "http://localhost/frame_4.html", H},
			{"5", "text/html", "7bit", false, "http://localhost/frame_2.html", H},
		}},
		{"mhtml/chromium/multi_frames_unmht.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", false, "http://localhost/top_frame.html", H},
			{"2", "text/html", "quoted-printable", false, "http://localhost/frame_0.html", H},
			{"3", "text/html", "quoted-printable", false, "http://localhost/frame_1.html", H},
			{"4", "text/html", "quoted-printable", false, "http://localhost/frame_2.html", H},
			{"5", "text/html", "quoted-printable", false, "http://localhost/frame_4.html", H},
			{"6", "image/png", "base64", false, "http://localhost/resources/red_square.png", H},
		}},
		{"mhtml/chromium/multi_frames_contentid.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", false, "http://localhost/top_frame.html", H},
			{"2", "text/html", "quoted-printable", false, "http://localhost/frame_0.html", H},
			{"3", "text/html", "quoted-printable", false, "http://localhost/frame_1.html", H},
			{"4", "text/html", "quoted-printable", false, "http://localhost/frame_2.html", H},
			{"5", "text/html", "quoted-printable", false, "http://localhost/frame_4.html", H},
			{"6", "image/png", "base64", false, "http://localhost/resources/red_square.png", H},
		}},
		// Unquoted start=<...:...> and boundary (Opera): the lenient
		// parameter parser keeps the boundary.
		{"mhtml/chromium/relaxed-content-type-parameters.mht", []partSummary{
			{"", "multipart/related", "", false, "file://localhost/relaxed-content-type-parameters.mhtml_original", H},
			{"1", "text/html", "7bit", false, "file://localhost/relaxed-content-type-parameters.mhtml_original", H},
		}},
		{"mhtml/chromium/page_with_css_and_js_ie.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", false, "http://localhost/page_with_css_and_js.html", H},
			{"2", "image/png", "base64", false, "http://localhost/resources/red_square.png", H},
			{"3", "text/css", "7bit", false, "http://localhost/resources/hide_image.css", H},
			{"4", "application/octet-stream", "quoted-printable", false, "http://localhost/resources/remove_image_script.js", H},
		}},
		{"mhtml/chromium/page_with_css_and_js_unmht.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", false, "http://localhost/page_with_css_and_js.html", H},
			{"2", "text/css", "quoted-printable", false, "http://localhost/resources/hide_image.css", H},
			{"3", "text/javascript", "quoted-printable", false, "http://localhost/resources/remove_image_script.js", H},
			{"4", "image/png", "base64", false, "http://localhost/resources/red_square.png", H},
		}},
		{"mhtml/chromium/simple_page_unmht.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", false, "http://localhost/simple_page.html", H},
		}},
		{"mhtml/chromium/page_with_image_unmht.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", false, "http://localhost/page_with_image.html", H},
			{"2", "image/png", "base64", false, "http://localhost/resources/red_square.png", H},
		}},
		// No Content-Transfer-Encoding header: identity.
		{"mhtml/chromium/content_transfer_encoding_none.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "", false, "http://localhost/content_transfer_encoding_none.html", H},
			{"2", "image/png", "base64", false, "http://localhost/resources/red_square.png", H},
		}},
		// A relative Content-Location with no absolute base anywhere:
		// resolved against thismessage:/ (RFC 2557 §5(e), §8.2(c)).
		{"mhtml/chromium/transfer_encoding_7bit.mht", []partSummary{
			{"", "multipart/related", "", false, "thismessage:/transfer_encoding_7bit.html_original", H},
			{"1", "text/html", "7bit", false, "thismessage:/transfer_encoding_7bit.html_original", H},
		}},
		{"mhtml/chromium/transfer_encoding_8bit.mht", []partSummary{
			{"", "multipart/related", "", false, "thismessage:/transfer_encoding_8bit.html_original", H},
			{"1", "text/html", "8bit", false, "thismessage:/transfer_encoding_8bit.html_original", H},
		}},
		{"mhtml/chromium/prefetch-preload.mht", []partSummary{
			{"", "multipart/related", "", false, "http://localhost/prefetch-preload.mhtml_original", H},
			{"1", "text/html", "binary", false, "http://localhost/prefetch-preload.mhtml_original", H},
			{"2", "text/css", "binary", false, "http://localhost/resources/style1.css", H},
			{"3", "text/css", "binary", false, "http://localhost/resources/style2.css", H},
			{"4", "image/png", "base64", false, "http://localhost/resources/red_square.png", H},
		}},
		// MULTIPART/RELATED in capitals.
		{"mhtml/chromium/mhtml-with-capital-mimetype-loading.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", false, "http://localhost/mhtml-with-capital-mimetype-loading-expected.html", H},
		}},
		{"mhtml/chromium/resource_not_found_in_archive.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", false, "http://localhost/resource_not_in_archive-expected.html", H},
		}},
		// No closing boundary: the one image part, marked truncated.
		{"mhtml/chromium/malformed_mhtml_no_footer.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "image/png", "base64", true, "http://localhost/resources/red_square.png", H},
		}},
		// One dash too few on the first delimiter: the HTML part is
		// preamble, only the PNG is a part.
		{"mhtml/chromium/invalid-bad-boundary2.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "image/png", "base64", false, "http://localhost/resources/red_square.png", H},
		}},
		{"mhtml/distill-io/simple.mhtml", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", false, "http://example.com/", H},
			{"2", "text/css", "base64", false, "http://example.com/style.css", H},
			{"3", "image/png", "base64", false, "http://example.com/logo.png", H},
		}},
		// EOF inside the second part: the first is whole, the second
		// truncated.
		{"mhtml/distill-io/truncated.mhtml", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", false, "http://example.com/", H},
			{"2", "text/plain", "quoted-printable", true, "http://example.com/truncated.txt", H},
		}},
		// LF-only, 4-space continuation lines; the second part has no
		// Content-Location or Content-ID, so its base is the enclosing
		// one, and it never reaches a closing boundary.
		{"mhtml/mhtml2html/missing_headers.mhtml", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", false, "http://msindwan.bitbucket.org/", H},
			{"2", "text/html", "quoted-printable", true, tm, D},
		}},
		{"mhtml/mhtml2html/unexpected_eof.mhtml", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "quoted-printable", true, "http://msindwan.bitbucket.org/", H},
		}},
		// Hand-written: RFC 2110 §4.2 Content-Base over a relative
		// Content-Location, and over an absolute one.
		{"mime/content-base.mht", []partSummary{
			{"", "multipart/related", "", false, tm, D},
			{"1", "text/html", "", false, "http://www.ietf.cnri.reston.va.us/images/", H},
			{"2", "text/html", "", false, "http://base.example/dir/", H},
			{"3", "image/gif", "base64", false, "http://www.ietf.cnri.reston.va.us/images/", H},
		}},
		// Hand-written, RFC 2557 §9.3: the multipart heading's
		// Content-Location is the base of the parts' relative ones; a
		// folded URL loses its whitespace (RFC 2017 §3.1); a
		// "Content-Location: CID:..." is a label, not a base.
		{"mime/relative-location.mht", []partSummary{
			{"", "multipart/related", "", false, "http://www.ietf.cnri.reston.va.us/", H},
			{"1", "text/html", "quoted-printable", false, "http://www.ietf.cnri.reston.va.us/index.html", H},
			{"2", "image/gif", "base64", false, "http://www.ietf.cnri.reston.va.us/images/ietflogo1.gif", H},
			{"3", "image/gif", "base64", false, "http://www.ietf.cnri.reston.va.us/images/ietflogo2.gif", H},
			{"4", "image/gif", "base64", false, "http://www.ietf.cnri.reston.va.us/", C},
		}},
		// Hand-written, the draft's §3.3 recursion: a Base: header at each
		// of three levels, each relative one resolved against the level
		// above; LF-only; a message/rfc822 part encloses its own message.
		{"mime/nested-base.eml", []partSummary{
			{"", "multipart/mixed", "", false, "http://a.example/one/", H},
			{"1", "multipart/related", "", false, "http://a.example/one/two/", H},
			{"1.1", "multipart/alternative", "", false, "http://a.example/one/two/three/", H},
			{"1.1.1", "text/html", "", false, "http://a.example/one/two/three/", C},
			{"1.1.2", "text/html", "", false, "http://a.example/one/two/three/four/", H},
			{"2", "message/rfc822", "", false, "http://a.example/one/", C},
			{"2.1", "text/html", "", false, "http://b.example/msg/", H},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			m := parseFixture(t, tt.file, Options{})
			assert.Equal(t, tt.parts, summarize(m))
		})
	}
}

// TestFixtureErrors: the malformed fixtures that have no usable part fail
// with a clear error naming the message and the cause.
func TestFixtureErrors(t *testing.T) {
	tests := []struct {
		file string
		want error
		msg  string
	}{
		// Junk before the first delimiter's dashes: no body part before
		// the close delimiter.
		{"mhtml/chromium/invalid-bad-boundary.mht", ErrNoParts, `archive: read the message: multipart body has no delimiter line for its boundary (boundary "----=_NextPart_000_CA35_2BC72789.A73F63D7")`},
		// multipart/related without boundary=.
		{"mhtml/mhtml2html/missing_boundary_header.mhtml", ErrNoBoundary, "archive: read the message: multipart without a boundary parameter (multipart/related)"},
		// Part headers where the first delimiter should be.
		{"mhtml/mhtml2html/missing_boundary.mhtml", ErrNoParts, `archive: read the message: multipart body has no delimiter line for its boundary (boundary "----MultipartBoundary--13Auk8ODqvYITpKWs1cqVnvH965JWLgToStNEOgxaj----")`},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			_, err := Parse(readFixture(t, tt.file), Options{Spec: resolve.RFC3986})
			require.Error(t, err)
			assert.ErrorIs(t, err, tt.want)
			assert.Equal(t, tt.msg, err.Error())
			var e *Error
			require.True(t, errors.As(err, &e))
			assert.Equal(t, "the message", e.Where)
		})
	}
}

// TestNextRawPart cross-checks the splitter with the standard library's
// multipart.Reader.NextRawPart, which leaves transfer encodings alone, on
// every well-formed single-level fixture: the same parts, the same bytes.
func TestNextRawPart(t *testing.T) {
	files := []string{
		"mhtml/chromium/relative_url.mht",
		"mhtml/chromium/multi_frames_unmht.mht",
		"mhtml/chromium/multi_frames_contentid.mht",
		"mhtml/chromium/page_with_css_and_js_ie.mht",
		"mhtml/chromium/page_with_css_and_js_unmht.mht",
		"mhtml/chromium/prefetch-preload.mht",
		"mhtml/distill-io/simple.mhtml",
		"mime/content-base.mht",
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			data := readFixture(t, f)
			m := parseFixture(t, f, Options{})
			mr := multipart.NewReader(bytes.NewReader(data[m.Root.body:]), m.Root.Params["boundary"])
			for i, p := range m.Root.Parts {
				rp, err := mr.NextRawPart()
				require.NoError(t, err, "part %d", i+1)
				body, err := io.ReadAll(rp)
				require.NoError(t, err)
				assert.Equal(t, string(body), string(m.Raw(p)), "part %s", p.Path)
				assert.Equal(t, rp.Header.Get("Content-Location"), p.Header.Get("Content-Location"))
			}
			_, err := mr.NextRawPart()
			assert.Equal(t, io.EOF, err)
		})
	}
}

// TestFind: RFC 2557 §8.2(d) matching of resolved URLs to resolved
// Content-Locations, and §8.3: cid: URLs match Content-ID only, never a
// "Content-Location: CID:" (RFC 2392 §2: brackets off, %-decoded).
func TestFind(t *testing.T) {
	m := parseFixture(t, "mime/relative-location.mht", Options{})
	tests := []struct {
		ref, want string
	}{
		{"http://www.ietf.cnri.reston.va.us/images/ietflogo1.gif", "2"},
		{"http://www.ietf.cnri.reston.va.us/images/ietflogo2.gif", "3"},
		{"http://www.ietf.cnri.reston.va.us/images/ietflogo2.gif#frag", "3"},
		{"http://www.ietf.cnri.reston.va.us/index.html", "1"},
		{"cid:logo3@ietf.example", "4"},
		{"CID:logo3%40ietf.example", "4"},
		{"cid:other@ietf.example", ""}, // only a Content-Location says so
		{"http://www.ietf.cnri.reston.va.us/images/missing.gif", ""},
		{"images/ietflogo1.gif", ""}, // unresolved references never match
	}
	for _, tt := range tests {
		got := ""
		if p := m.Find(tt.ref); p != nil {
			got = p.Path
		}
		assert.Equal(t, tt.want, got, tt.ref)
	}

	// RFC 2557 §9.4: no base anywhere; "ietflogo.gif" and the part's
	// relative Content-Location both resolve against thismessage:/.
	m = parseFixture(t, "mhtml/chromium/transfer_encoding_7bit.mht", Options{})
	assert.Equal(t, "1", m.Find("thismessage:/transfer_encoding_7bit.html_original").Path)
}

// TestDefaultBase: the last layer is thismessage:/ (RFC 2557 §5(e)), or
// the draft's empty base (§3.4) on request; a retrieval URL or Chrome's
// Snapshot-Content-Location comes before it.
func TestDefaultBase(t *testing.T) {
	const f = "mhtml/mhtml2html/missing_headers.mhtml"
	m := parseFixture(t, f, Options{EmptyDefault: true})
	assert.Equal(t, base.Result{Source: base.Default}, m.Part("2").Base)

	m = parseFixture(t, f, Options{Retrieval: "file:///saved/page.mhtml"})
	assert.Equal(t, base.Result{URL: "file:///saved/page.mhtml", Source: base.Composite, Detail: "base of enclosing multipart/related"}, m.Part("2").Base)
	assert.Equal(t, base.Result{URL: "file:///saved/page.mhtml", Source: base.Retrieval, Detail: "retrieval URL"}, m.Root.Base)

	snap := "Snapshot-Content-Location: https://snap.example/page\r\n" + string(readFixture(t, f))
	m, err := Parse([]byte(snap), Options{Spec: resolve.RFC3986, Retrieval: "file:///saved/page.mhtml"})
	require.NoError(t, err)
	assert.Equal(t, base.Result{URL: "https://snap.example/page", Source: base.Retrieval, Detail: "Snapshot-Content-Location"}, m.Root.Base)
	assert.Equal(t, "https://snap.example/page", m.Part("2").Base.URL)
}

// TestOpaqueLocation: Chrome labels stylesheet parts "Content-Location:
// cid:css-...@mhtml.blink"; such a label cannot be a base (RFC 2557 §5(b)
// wants an absolute URI that can carry relative references), so the part
// takes the enclosing base.
func TestOpaqueLocation(t *testing.T) {
	msg := "Snapshot-Content-Location: https://page.example/dir/\r\n" +
		"Content-Type: multipart/related; type=\"text/html\"; boundary=\"B\"\r\n\r\n" +
		"--B\r\nContent-Type: text/css\r\nContent-Location: cid:css-1@mhtml.blink\r\n\r\n" +
		"a{background:url(x.png)}\r\n--B--\r\n"
	m, err := Parse([]byte(msg), Options{Spec: resolve.RFC3986})
	require.NoError(t, err)
	p := m.Part("1")
	assert.Equal(t, base.Result{
		URL: "https://page.example/dir/", Source: base.Composite, Detail: "base of enclosing multipart/related",
		Warnings: []string{`Content-Location of part 1 "cid:css-1@mhtml.blink" ignored: a cid: URL labels a part and cannot be a base`},
	}, p.Base)
	// Strict RFC 2557 §8.3: a cid: URL does not match that label.
	assert.Nil(t, m.Find("cid:css-1@mhtml.blink"))
}

// TestMessageHTTP: a message/http entity's status line and header are
// read, and its Content-Location is an HTTP one: a base only with
// Options.ContentLocation.
func TestMessageHTTP(t *testing.T) {
	msg := "Content-Type: message/http\r\nContent-Location: http://outer.example/\r\n\r\n" +
		"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Location: /moved/here.html\r\n" +
		"Transfer-Encoding: chunked\r\n\r\n5\r\n<a hr\r\n3\r\nef>\r\n0\r\n\r\n"
	for _, cl := range []bool{false, true} {
		m, err := Parse([]byte(msg), Options{Spec: resolve.RFC3986, ContentLocation: cl})
		require.NoError(t, err)
		p := m.Part("1")
		require.NotNil(t, p)
		assert.Equal(t, "HTTP/1.1 200 OK", p.StartLine)
		assert.Equal(t, "text/html", p.MediaType)
		body, err := m.Decode(p)
		require.NoError(t, err)
		assert.Equal(t, "<a href>", string(body))
		want := "http://outer.example/"
		if cl {
			want = "http://outer.example/moved/here.html"
		}
		assert.Equal(t, want, p.Base.URL)
	}
}

// TestBounds: nesting depth, part count, header size and message size
// each fail with an error naming the part.
func TestBounds(t *testing.T) {
	nested := func(depth int) []byte {
		var b strings.Builder
		for i := 0; i < depth; i++ {
			b.WriteString("Content-Type: multipart/mixed; boundary=b" + strings.Repeat("x", i) + "\r\n\r\n--b" + strings.Repeat("x", i) + "\r\n")
		}
		b.WriteString("Content-Type: text/plain\r\n\r\nhi\r\n")
		return []byte(b.String())
	}
	_, err := Parse(nested(5), Options{Limits: Limits{Depth: 3}})
	assert.ErrorIs(t, err, ErrTooDeep)
	assert.EqualError(t, err, "archive: read part 1.1.1.1: nesting too deep (more than 3 levels)")
	_, err = Parse(nested(3), Options{Limits: Limits{Depth: 3}})
	assert.NoError(t, err)

	many := "Content-Type: multipart/mixed; boundary=b\r\n\r\n" + strings.Repeat("--b\r\n\r\nx\r\n", 20) + "--b--\r\n"
	_, err = Parse([]byte(many), Options{Limits: Limits{Parts: 10}})
	assert.ErrorIs(t, err, ErrTooManyParts)
	assert.EqualError(t, err, "archive: read part 10: too many parts (the message has more than 10: not read)")

	big := "Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nX-Big: " + strings.Repeat("a", 200) + "\r\n\r\nx\r\n--b--\r\n"
	_, err = Parse([]byte(big), Options{Limits: Limits{HeaderBytes: 100}})
	assert.ErrorIs(t, err, ErrHeaderTooLarge)
	assert.EqualError(t, err, "archive: read part 1: header too large (more than 100 bytes)")

	_, err = Read(strings.NewReader(many), Options{Limits: Limits{Size: 50}})
	assert.ErrorIs(t, err, ErrTooLarge)

	m, err := Parse([]byte(many), Options{Limits: Limits{DecodedBytes: 0}})
	require.NoError(t, err)
	m.lim.DecodedBytes = 0
	_, err = m.Decode(m.Part("1"))
	assert.ErrorIs(t, err, ErrTooLarge)
	assert.EqualError(t, err, "archive: decode part 1: too large")
}

// TestUnknownEncoding: RFC 2045 §6.4: a body in an unknown transfer
// encoding is opaque: returned as stored, with an error that says why.
func TestUnknownEncoding(t *testing.T) {
	msg := "Content-Type: text/html\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\nbegin 644\r\n"
	m, err := Parse([]byte(msg), Options{})
	require.NoError(t, err)
	b, err := m.Decode(m.Root)
	assert.Equal(t, "begin 644\r\n", string(b))
	assert.EqualError(t, err, `archive: decode the message: unknown Content-Transfer-Encoding "x-uuencode"`)
}

// TestFixtureBodies: decoded bodies as testdata/mhtml/README.md describes
// them: QP soft breaks joined inside a URL, a bare "=" kept (RFC 2045
// §6.7 note), 8bit UTF-8 untouched, base64 decoded to a PNG signature.
func TestFixtureBodies(t *testing.T) {
	tests := []struct {
		file, part, contains string
	}{
		{"mhtml/chromium/page_with_css_and_js_unmht.mht", "1", `href="resources/hide_image.css"`},
		{"mhtml/chromium/page_with_css_and_js_ie.mht", "1", "</HTML>"},
		{"mhtml/chromium/resource_not_found_in_archive.mht", "1", `<img src="http://localhost/resources/red-square.png">`},
		{"mhtml/chromium/resource_not_found_in_archive.mht", "1", `<meta charset="ISO-8859-1">`},
		{"mhtml/chromium/transfer_encoding_8bit.mht", "1", "\xf0\x9f\x98\x89"},
		{"mhtml/chromium/relative_url.mht", "2", "\x89PNG\r\n\x1a\n"},
		{"mhtml/distill-io/simple.mhtml", "1", "Hello = World"},
		{"mhtml/distill-io/simple.mhtml", "2", "123abc"},
		{"mhtml/distill-io/truncated.mhtml", "2", "this body never reaches a closing boundary"},
	}
	for _, tt := range tests {
		m := parseFixture(t, tt.file, Options{})
		p := m.Part(tt.part)
		require.NotNil(t, p, tt.file)
		b, err := m.Decode(p)
		require.NoError(t, err, tt.file)
		assert.Contains(t, string(b), tt.contains, tt.file)
	}
}

// A message of more than Limits.Parts parts is refused by a named error,
// one of the readers' limits (link.ErrIncomplete).
func TestTooManyPartsNamed(t *testing.T) {
	var b strings.Builder
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"b\"\r\n\r\n")
	for range 4 {
		b.WriteString("--b\r\nContent-Type: text/html\r\n\r\n<p>x\r\n")
	}
	b.WriteString("--b--\r\n")
	_, err := Read(strings.NewReader(b.String()), Options{Spec: resolve.WHATWG, Limits: Limits{Parts: 3}})
	assert.ErrorIs(t, err, ErrTooManyParts)
	assert.ErrorIs(t, err, link.ErrIncomplete)
	assert.Contains(t, err.Error(), "the message has more than 3: not read")
}
