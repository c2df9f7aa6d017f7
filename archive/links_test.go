package archive

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/resolve"
)

type linkSummary struct {
	Part, Raw, URL, Target string
	Source                 base.Source
}

func fixtureLinks(t *testing.T, name string, opts Options) []linkSummary {
	t.Helper()
	m := parseFixture(t, name, opts)
	var got []linkSummary
	require.NoError(t, m.Links(func(l Link) error {
		require.NoError(t, l.Err, l.Raw)
		got = append(got, linkSummary{l.Part, l.Raw, l.URL, l.TargetPart, l.Base.Source})
		return nil
	}))
	return got
}

// TestLinks: every link of every HTML (and CSS) part, resolved against
// the part's base by the layers (RFC 2557 §5), with the part of the
// archive it names (§8).
func TestLinks(t *testing.T) {
	var (
		E = base.Embedded
		H = base.Header
		C = base.Composite
	)
	const (
		red  = "http://localhost/resources/red_square.png"
		ietf = "http://www.ietf.cnri.reston.va.us/"
	)
	tests := []struct {
		file string
		want []linkSummary
	}{
		// §5(b): the relative src against the part's absolute
		// Content-Location, landing on the image part.
		{"mhtml/chromium/relative_url.mht", []linkSummary{
			{"1", red, red, "2", H},
			{"1", "resources/red_square.png", red, "2", H},
		}},
		// §5(a): <base href> over the Content-Location.
		{"mhtml/chromium/page_with_image_unmht.mht", []linkSummary{
			{"1", "resources/red_square.png", red, "2", E},
		}},
		{"mhtml/chromium/content_transfer_encoding_none.mht", []linkSummary{
			{"1", "resources/red_square.png", red, "2", H},
		}},
		// A QP soft line break inside href: decoded before extraction.
		{"mhtml/chromium/page_with_css_and_js_unmht.mht", []linkSummary{
			{"1", "resources/hide_image.css", "http://localhost/resources/hide_image.css", "2", E},
			{"1", "resources/remove_image_script.js", "http://localhost/resources/remove_image_script.js", "3", E},
			{"1", "resources/red_square.png", red, "4", E},
			{"1", "resources/red_square.png", red, "4", E},
			{"1", "resources/red_square.png", red, "4", E},
		}},
		// RFC 2392: cid: URLs name Content-IDs.
		{"mhtml/chromium/multi_frames_contentid.mht", []linkSummary{
			{"1", "cid:frame0@foo.bar", "cid:frame0@foo.bar", "2", E},
			{"1", "cid:frame1@foo.bar", "cid:frame1@foo.bar", "3", E},
			{"1", "cid:frame2@foo.bar", "cid:frame2@foo.bar", "4", E},
			{"1", "cid:redsquare@foo.bar", "cid:redsquare@foo.bar", "6", E},
			{"4", "cid:frame4@foo.bar", "cid:frame4@foo.bar", "5", E},
			{"5", "cid:redsquare@foo.bar", "cid:redsquare@foo.bar", "6", E},
		}},
		// A URL that is not in the archive (and a bare "=" kept by the
		// lenient QP decoder).
		{"mhtml/chromium/resource_not_found_in_archive.mht", []linkSummary{
			{"1", "http://localhost/resources/red-square.png", "http://localhost/resources/red-square.png", "", H},
		}},
		{"mhtml/distill-io/simple.mhtml", []linkSummary{
			{"1", "style.css", "http://example.com/style.css", "2", H},
			{"1", "logo.png", "http://example.com/logo.png", "3", H},
		}},
		// RFC 2110 §4.2: Content-Base is the base of the HTML and of the
		// part's own relative Content-Location.
		{"mime/content-base.mht", []linkSummary{
			{"1", "foo1.bar2", ietf + "images/foo1.bar2", "3", H},
			{"1", "../index.html", ietf + "index.html", "", H},
			{"2", "pic.png", "http://base.example/dir/pic.png", "", H},
		}},
		// RFC 2557 §9.3: relative part locations against the multipart
		// heading's; the folded one; cid: matched to Content-ID.
		{"mime/relative-location.mht", []linkSummary{
			{"1", "images/ietflogo1.gif", ietf + "images/ietflogo1.gif", "2", H},
			{"1", "images/ietflogo2.gif", ietf + "images/ietflogo2.gif", "3", H},
			{"1", "cid:logo3@ietf.example", "cid:logo3@ietf.example", "4", H},
			{"1", ietf + "images/missing.gif", ietf + "images/missing.gif", "", H},
		}},
		// The draft's §3.3 recursion, three levels deep.
		{"mime/nested-base.eml", []linkSummary{
			{"1.1.1", "page.html", "http://a.example/one/two/three/page.html", "", C},
			{"1.1.2", "page.html", "http://a.example/one/two/three/four/page.html", "", H},
			{"2.1", "m.html", "http://b.example/msg/m.html", "", H},
		}},
	}
	for _, spec := range []resolve.Spec{resolve.RFC3986, resolve.WHATWG} {
		for _, tt := range tests {
			t.Run(spec.String()+"/"+tt.file, func(t *testing.T) {
				assert.Equal(t, tt.want, fixtureLinks(t, tt.file, Options{Spec: spec}))
			})
		}
	}
}

// TestLinksCSS: a stylesheet part's url() values resolve against the
// part's base; Chrome's "Content-Location: cid:css-..." label is not a
// base, so the enclosing page's Snapshot-Content-Location is.
func TestLinksCSS(t *testing.T) {
	msg := "Snapshot-Content-Location: https://page.example/dir/\r\n" +
		"Content-Type: multipart/related; type=\"text/html\"; boundary=\"B\"\r\n\r\n" +
		"--B\r\nContent-Type: text/css\r\nContent-Location: cid:css-1@mhtml.blink\r\n\r\n" +
		"a{background:url(x.png)}\r\n" +
		"--B\r\nContent-Type: text/css\r\nContent-Location: https://cdn.example/s/site.css\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" +
		"@import \"more.css\";\r\nb{background:url(=\r\n../img/y.png)}\r\n--B--\r\n"
	var got []linkSummary
	err := Links(strings.NewReader(msg), Options{Spec: resolve.WHATWG}, func(l Link) error {
		got = append(got, linkSummary{l.Part, l.Raw, l.URL, l.TargetPart, l.Base.Source})
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, []linkSummary{
		{"1", "x.png", "https://page.example/dir/x.png", "", base.Composite},
		{"2", "more.css", "https://cdn.example/s/more.css", "", base.Header},
		{"2", "../img/y.png", "https://cdn.example/img/y.png", "", base.Header},
	}, got)
}

// TestLinksNoSpec: the zero Spec is an error, as in package resolve.
func TestLinksNoSpec(t *testing.T) {
	err := Links(strings.NewReader("x"), Options{}, func(Link) error { return nil })
	assert.EqualError(t, err, "archive: links: no resolution spec")
	_, err = Rewrite(&bytes.Buffer{}, strings.NewReader("x"), Options{})
	assert.EqualError(t, err, "archive: rewrite: no resolution spec")
	err = WARCLinks(strings.NewReader("x"), Options{}, func(WARCLink) error { return nil })
	assert.EqualError(t, err, "archive: WARC links: no resolution spec")
}

var mhtmlFixtures = func() []string {
	var files []string
	for _, pattern := range []string{"mhtml/*/*.mht", "mhtml/*/*.mhtml", "mime/*.mht", "mime/*.eml"} {
		m, _ := filepath.Glob(filepath.Join("..", "testdata", pattern))
		for _, f := range m {
			files = append(files, strings.TrimPrefix(filepath.ToSlash(f), "../testdata/"))
		}
	}
	return files
}()

// TestRewriteRoundTrip: for every MHTML fixture that parses, a rewrite
// keeps every header, delimiter and non-HTML part byte-identical, every
// part still decodes, the rewritten HTML's links are absolute, and a
// second rewrite (nothing left to change) is byte-identical to the first.
func TestRewriteRoundTrip(t *testing.T) {
	for _, f := range mhtmlFixtures {
		t.Run(f, func(t *testing.T) {
			data := readFixture(t, f)
			opts := Options{Spec: resolve.WHATWG}
			in, err := Parse(data, opts)
			if err != nil {
				t.Skipf("does not parse: %v", err)
			}
			var out bytes.Buffer
			st, err := in.Rewrite(&out)
			require.NoError(t, err)
			res, err := Parse(out.Bytes(), opts)
			require.NoError(t, err)
			require.Equal(t, len(in.Parts()), len(res.Parts()))
			for i, p := range in.Parts() {
				q := res.Parts()[i]
				assert.Equal(t, in.RawHeader(p), res.RawHeader(q), "header of part %s", p.Path)
				if contentKind(p) == base.Other {
					if len(p.Parts) == 0 {
						assert.Equal(t, in.Raw(p), res.Raw(q), "body of part %s", p.Path)
					}
					continue
				}
				_, err := res.Decode(q)
				assert.NoError(t, err, "part %s decodes", p.Path)
			}
			require.NoError(t, res.Links(func(l Link) error {
				if l.Err == nil && !strings.HasPrefix(l.Raw, "#") {
					assert.Equal(t, l.URL, l.Raw, "part %s", l.Part)
				}
				return nil
			}))
			var again bytes.Buffer
			st2, err := res.Rewrite(&again)
			require.NoError(t, err)
			assert.Equal(t, 0, st2.Changed)
			assert.Equal(t, out.String(), again.String())
			if st.Changed == 0 {
				assert.Equal(t, string(data), out.String(), "nothing to change: byte-identical")
			}
		})
	}
}

// TestRewriteUnchanged: an archive whose links are all absolute already
// comes out byte-identical.
func TestRewriteUnchanged(t *testing.T) {
	for _, f := range []string{"mhtml/chromium/prefetch-preload.mht", "mhtml/chromium/resource_not_found_in_archive.mht", "mhtml/chromium/multi_frames_ie.mht"} {
		data := readFixture(t, f)
		var out bytes.Buffer
		st, err := Rewrite(&out, bytes.NewReader(data), Options{Spec: resolve.RFC3986})
		require.NoError(t, err, f)
		assert.Equal(t, 0, st.Changed, f)
		assert.Equal(t, string(data), out.String(), f)
	}
}

// TestRewriteEncodings: rewritten parts are re-encoded in their own
// transfer encoding: quoted-printable with soft breaks at 76 columns and
// the file's CRLF, base64 in 76-column lines, 8bit as is.
func TestRewriteEncodings(t *testing.T) {
	long := strings.Repeat("long/", 20)
	html := `<p><a href="` + long + `a.html">a</a> <img src="i.png"> caf` + "\xc3\xa9" + `</p>`
	msg := "Content-Type: multipart/related; boundary=B\r\nContent-Location: http://x.example/d/\r\n\r\n" +
		"--B\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\n" + string(encodeQP([]byte(html), "\r\n")) + "\r\n" +
		"--B\r\nContent-Type: text/html\r\nContent-Transfer-Encoding: base64\r\n\r\n" + string(encodeBase64([]byte(html), "\r\n")) + "\r\n" +
		"--B\r\nContent-Type: text/html; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\n" + html + "\r\n" +
		"--B--\r\n"
	var out bytes.Buffer
	st, err := Rewrite(&out, strings.NewReader(msg), Options{Spec: resolve.RFC3986})
	require.NoError(t, err)
	assert.Equal(t, 3, st.Changed)
	assert.Equal(t, 6, st.Rewritten)
	want := `<p><a href="http://x.example/d/` + long + `a.html">a</a> <img src="http://x.example/d/i.png"> caf` + "\xc3\xa9" + `</p>`
	m, err := Parse(out.Bytes(), Options{Spec: resolve.RFC3986})
	require.NoError(t, err)
	for _, path := range []string{"1", "2", "3"} {
		b, err := m.Decode(m.Part(path))
		require.NoError(t, err)
		assert.Equal(t, want, string(b), path)
	}
	assert.Equal(t, string(encodeQP([]byte(want), "\r\n")), string(m.Raw(m.Part("1"))))
	assert.Equal(t, string(encodeBase64([]byte(want), "\r\n")), string(m.Raw(m.Part("2"))))
	for _, line := range strings.Split(out.String(), "\r\n") {
		if !strings.Contains(line, "caf\xc3\xa9") {
			assert.LessOrEqual(t, len(line), 76, line)
		}
	}
}

// TestRewriteFixture: relative_url.mht (IE, quoted-printable) rewritten:
// both img srcs absolute, the PNG part and every header untouched.
func TestRewriteFixture(t *testing.T) {
	data, err := os.ReadFile("../testdata/mhtml/chromium/relative_url.mht")
	require.NoError(t, err)
	var out bytes.Buffer
	st, err := Rewrite(&out, bytes.NewReader(data), Options{Spec: resolve.RFC3986})
	require.NoError(t, err)
	assert.Equal(t, Stats{Parts: 1, Changed: 1, Links: 2, Rewritten: 1}, st)
	m, err := Parse(out.Bytes(), Options{Spec: resolve.RFC3986})
	require.NoError(t, err)
	html, err := m.Decode(m.Part("1"))
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(html), `src="http://localhost/resources/red_square.png"`))
	assert.NotContains(t, string(html), `src="resources/`)
}

// TestRewriteLocal: with Options.Local, a link that names a part of the
// archive (RFC 2557 §8) is pointed at it: by its Content-ID as a cid: URL
// (RFC 2392; "/" escaped), or by its resolved Content-Location; the
// fragment stays, links outside the archive stay absolute.
func TestRewriteLocal(t *testing.T) {
	msg := "Content-Type: multipart/related; boundary=B\r\nContent-Location: http://x.example/d/\r\n\r\n" +
		"--B\r\nContent-Type: text/html\r\nContent-Location: page.html\r\n\r\n" +
		`<img src="i.png"> <a href="i.png#top">i</a> <a href="other.html">o</a> <iframe src="cid:f@x"></iframe>` +
		` <div style="background:url(i.png)"></div><style>p{background:url('i.png')}</style>` + "\r\n" +
		"--B\r\nContent-Type: image/png\r\nContent-ID: <img/1@x>\r\nContent-Location: i.png\r\nContent-Transfer-Encoding: base64\r\n\r\niVBORw0KGgo=\r\n" +
		"--B\r\nContent-Type: text/html\r\nContent-ID: <f@x>\r\nContent-Location: http://x.example/frame.html\r\n\r\n<p>frame</p>\r\n" +
		"--B--\r\n"
	tests := []struct {
		mode      LocalMode
		want      string
		localized int
	}{
		{LocalNone, `<img src="http://x.example/d/i.png"> <a href="http://x.example/d/i.png#top">i</a> <a href="http://x.example/d/other.html">o</a> <iframe src="cid:f@x"></iframe>` +
			` <div style="background:url(http://x.example/d/i.png)"></div><style>p{background:url('http://x.example/d/i.png')}</style>`, 0},
		{LocalCID, `<img src="cid:img%2F1@x"> <a href="cid:img%2F1@x#top">i</a> <a href="http://x.example/d/other.html">o</a> <iframe src="cid:f@x"></iframe>` +
			` <div style="background:url(cid:img%2F1@x)"></div><style>p{background:url('cid:img%2F1@x')}</style>`, 4},
		{LocalLocation, `<img src="http://x.example/d/i.png"> <a href="http://x.example/d/i.png#top">i</a> <a href="http://x.example/d/other.html">o</a> <iframe src="http://x.example/frame.html"></iframe>` +
			` <div style="background:url(http://x.example/d/i.png)"></div><style>p{background:url('http://x.example/d/i.png')}</style>`, 1},
	}
	for _, tt := range tests {
		var out bytes.Buffer
		st, err := Rewrite(&out, strings.NewReader(msg), Options{Spec: resolve.WHATWG, Local: tt.mode})
		require.NoError(t, err)
		assert.Equal(t, tt.localized, st.Localized, tt.mode)
		m, err := Parse(out.Bytes(), Options{Spec: resolve.WHATWG})
		require.NoError(t, err)
		b, err := m.Decode(m.Part("1"))
		require.NoError(t, err)
		assert.Equal(t, tt.want, string(b), tt.mode)
	}
}

// TestRewriteThisMessage: thismessage:/ is a base for matching inside the
// archive only (RFC 2557 §5(e)); a rewrite leaves the relative references
// of a part with no other base as written, while Links still reports them
// resolved and matched.
func TestRewriteThisMessage(t *testing.T) {
	msg := "Content-Type: multipart/related; boundary=B\r\n\r\n" +
		"--B\r\nContent-Type: text/html\r\nContent-Location: page.html\r\n\r\n<img src=\"i.png\"> <a href=\"http://abs.example/x\">a</a>\r\n" +
		"--B\r\nContent-Type: image/png\r\nContent-ID: <i@x>\r\nContent-Location: i.png\r\n\r\npng\r\n" +
		"--B--\r\n"
	var out bytes.Buffer
	st, err := Rewrite(&out, strings.NewReader(msg), Options{Spec: resolve.RFC3986})
	require.NoError(t, err)
	assert.Equal(t, 0, st.Changed)
	assert.Equal(t, msg, out.String())

	var got []linkSummary
	require.NoError(t, Links(strings.NewReader(msg), Options{Spec: resolve.RFC3986}, func(l Link) error {
		got = append(got, linkSummary{l.Part, l.Raw, l.URL, l.TargetPart, l.Base.Source})
		return nil
	}))
	assert.Equal(t, []linkSummary{
		{"1", "i.png", "thismessage:/i.png", "2", base.Header},
		{"1", "http://abs.example/x", "http://abs.example/x", "", base.Header},
	}, got)

	out.Reset()
	_, err = Rewrite(&out, strings.NewReader(msg), Options{Spec: resolve.RFC3986, Local: LocalCID})
	require.NoError(t, err)
	assert.Contains(t, out.String(), `<img src="cid:i@x">`)
}

// TestEncodingRefused: an HTML part in an encoding a tokenizer cannot
// read as bytes (ISO-2022-JP; UTF-16 is decoded, TestUTF16Part) is left
// as stored, with a warning, and the other parts are still read and
// rewritten.
func TestEncodingRefused(t *testing.T) {
	msg := "Content-Type: multipart/related; boundary=B\r\nContent-Location: http://x.example/\r\n\r\n" +
		"--B\r\nContent-Type: text/html; charset=iso-2022-jp\r\n\r\n<a href=\"z\">\x1b$B\r\n" +
		"--B\r\nContent-Type: text/html\r\n\r\n<a href=\"y\">y</a>\r\n" +
		"--B--\r\n"
	var out bytes.Buffer
	st, err := Rewrite(&out, strings.NewReader(msg), Options{Spec: resolve.RFC3986})
	require.NoError(t, err)
	assert.Equal(t, 1, st.Changed)
	require.Len(t, st.Warnings, 1)
	assert.Contains(t, st.Warnings[0], "part 1: left as stored")
	assert.Contains(t, out.String(), "<a href=\"z\">\x1b$B\r\n")
	assert.Contains(t, out.String(), `<a href="http://x.example/y">`)

	var urls []string
	require.NoError(t, Links(strings.NewReader(msg), Options{Spec: resolve.RFC3986}, func(l Link) error {
		urls = append(urls, l.URL)
		return nil
	}))
	assert.Equal(t, []string{"http://x.example/y"}, urls)
}

// TestDraftSection3: the draft's own §3.2 example header, folded inside
// its angle brackets ("any whitespace ... inside the angle brackets
// should be ignored"); §3.2's last paragraph (an embedded base takes
// precedence over the base-header); §3.3 (a component part's retrieval
// context is the base of the composite entity it is part of).
func TestDraftSection3(t *testing.T) {
	msg := "MIME-Version: 1.0\r\n" +
		"Base: <URL:http://www.ics.uci.edu/Test/\r\n a/b/c>\r\n" +
		"Content-Type: multipart/mixed; boundary=B\r\n\r\n" +
		"--B\r\nContent-Type: text/html\r\n\r\n<a href=\"g\">§3.3</a>\r\n" +
		"--B\r\nContent-Type: text/html\r\nbase: <URL:http://www.ics.uci.edu/Other/x>\r\n\r\n<a href=\"g\">§3.2</a>\r\n" +
		"--B\r\nContent-Type: text/html\r\nBase: <URL:http://www.ics.uci.edu/Other/x>\r\n\r\n<base href=\"http://embedded.example/e/f\"><a href=\"g\">§3.1</a>\r\n" +
		"--B--\r\n"
	var got []linkSummary
	require.NoError(t, Links(strings.NewReader(msg), Options{Spec: resolve.RFC1808}, func(l Link) error {
		got = append(got, linkSummary{l.Part, l.Raw, l.URL, l.TargetPart, l.Base.Source})
		return nil
	}))
	assert.Equal(t, []linkSummary{
		{"1", "g", "http://www.ics.uci.edu/Test/a/b/g", "", base.Composite},
		{"2", "g", "http://www.ics.uci.edu/Other/g", "", base.Header},
		{"3", "g", "http://embedded.example/e/g", "", base.Embedded},
	}, got)
}

// TestLinksEmptyDefault: with the draft's empty default (§3.4) instead of
// thismessage:/, a relative reference in a part with no base fails with
// resolve.ErrNoBase, reported on the link, not as an error of the walk.
func TestLinksEmptyDefault(t *testing.T) {
	msg := "Content-Type: multipart/related; boundary=B\r\n\r\n--B\r\nContent-Type: text/html\r\n\r\n<a href=\"rel.html\">r</a>\r\n--B--\r\n"
	var links []Link
	require.NoError(t, Links(strings.NewReader(msg), Options{Spec: resolve.RFC3986, EmptyDefault: true}, func(l Link) error {
		links = append(links, l)
		return nil
	}))
	require.Len(t, links, 1)
	assert.ErrorIs(t, links[0].Err, resolve.ErrNoBase)
	assert.Equal(t, "", links[0].URL)
	assert.Equal(t, base.Default, links[0].Base.Source)
}

// TestRewriteLocalEscaped: Options.Local points a link at its part
// whatever the bytes it is written in (character references, a legacy
// encoding, CSS escapes): it happens in the one rewrite pass.
func TestRewriteLocalEscaped(t *testing.T) {
	msg := "Content-Type: multipart/related; boundary=B\r\nContent-Location: http://x.example/d/\r\n\r\n" +
		"--B\r\nContent-Type: text/html; charset=iso-8859-1\r\nContent-Location: page.html\r\n\r\n" +
		"<img src=\"i&#46;png\"> <img src=\"caf\xe9.png\"> <p style=\"background:url(i\\2e png)\">\r\n" +
		"--B\r\nContent-Type: image/png\r\nContent-ID: <i@x>\r\nContent-Location: i.png\r\n\r\npng\r\n" +
		"--B\r\nContent-Type: image/png\r\nContent-ID: <c@x>\r\nContent-Location: caf%C3%A9.png\r\n\r\npng\r\n" +
		"--B--\r\n"
	var out bytes.Buffer
	st, err := Rewrite(&out, strings.NewReader(msg), Options{Spec: resolve.WHATWG, Local: LocalCID})
	require.NoError(t, err)
	assert.Equal(t, 3, st.Localized)
	m, err := Parse(out.Bytes(), Options{Spec: resolve.WHATWG})
	require.NoError(t, err)
	b, err := m.Decode(m.Part("1"))
	require.NoError(t, err)
	assert.Equal(t, `<img src="cid:i@x"> <img src="cid:c@x"> <p style="background:url(cid:i@x)">`, string(b))
}

// TestStylesheetPart: a text/css part is a stylesheet, not the content of
// a <style> element: one holding "</style" is read and rewritten whole.
func TestStylesheetPart(t *testing.T) {
	msg := "Content-Type: multipart/related; boundary=B\r\nContent-Location: http://x.example/d/\r\n\r\n" +
		"--B\r\nContent-Type: text/css\r\nContent-Location: s.css\r\n\r\n" +
		"/* </style> */ a{background:url(a.png)} b::after{content:\"</style>\"} c{background:url(c.png)}\r\n" +
		"--B\r\nContent-Type: image/png\r\nContent-ID: <c@x>\r\nContent-Location: c.png\r\n\r\npng\r\n" +
		"--B--\r\n"
	var got []linkSummary
	require.NoError(t, Links(strings.NewReader(msg), Options{Spec: resolve.WHATWG}, func(l Link) error {
		got = append(got, linkSummary{l.Part, l.Raw, l.URL, l.TargetPart, l.Base.Source})
		return nil
	}))
	assert.Equal(t, []linkSummary{
		{"1", "a.png", "http://x.example/d/a.png", "", base.Header},
		{"1", "c.png", "http://x.example/d/c.png", "2", base.Header},
	}, got)

	var out bytes.Buffer
	st, err := Rewrite(&out, strings.NewReader(msg), Options{Spec: resolve.WHATWG, Local: LocalCID})
	require.NoError(t, err)
	assert.Empty(t, st.Warnings)
	assert.Contains(t, out.String(), "/* </style> */ a{background:url(http://x.example/d/a.png)} b::after{content:\"</style>\"} c{background:url(cid:c@x)}\r\n")
}

// TestPartCharset: a part's charset is the one its Content-Type names,
// even when the header has parameters mime.ParseMediaType rejects (RFC
// 2045 §5.1 read leniently): KOI8-R's 0xE9 is И, not windows-1252's é.
func TestPartCharset(t *testing.T) {
	msg := "Content-Type: multipart/related; boundary=B\r\nContent-Location: http://x.example/\r\n\r\n" +
		"--B\r\nContent-Type: text/html; charset=koi8-r; name=a b\r\n\r\n<a href=\"\xe9\">x</a>\r\n" +
		"--B\r\nContent-Type: text/css; charset=koi8-r; name=a b\r\n\r\na{background:url(\xe9)}\r\n" +
		"--B--\r\n"
	var urls []string
	require.NoError(t, Links(strings.NewReader(msg), Options{Spec: resolve.WHATWG}, func(l Link) error {
		urls = append(urls, l.URL)
		return nil
	}))
	assert.Equal(t, []string{"http://x.example/%D0%98", "http://x.example/%D0%98"}, urls)
}

// TestXMLAndManifestParts: an MHTML file's SVG, Atom, RSS
// (also as application/xml, by its root element) and web app manifest
// parts have their links read and rewritten as WARC records' are, each
// against its part's base (a feed's links against the xml:base in scope);
// an XML part of another vocabulary (a sitemap) is not read.
func TestXMLAndManifestParts(t *testing.T) {
	msg := "Content-Type: multipart/related; boundary=B\r\nContent-Location: http://x.example/d/\r\n\r\n" +
		"--B\r\nContent-Type: image/svg+xml\r\nContent-Location: icons/set.svg\r\n\r\n" +
		`<svg xmlns="http://www.w3.org/2000/svg"><use href="a.svg#x"/><image href="../c.png"/></svg>` + "\r\n" +
		"--B\r\nContent-Type: application/xml\r\nContent-Location: feed\r\n\r\n" +
		`<feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://blog.example/a/"><link href="p1"/></feed>` + "\r\n" +
		"--B\r\nContent-Type: text/xml\r\nContent-Location: sitemap.xml\r\n\r\n" +
		`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>/x</loc></url></urlset>` + "\r\n" +
		"--B\r\nContent-Type: application/manifest+json\r\nContent-Location: app.webmanifest\r\n\r\n" +
		`{"start_url":"./","icons":[{"src":"c.png"}]}` + "\r\n" +
		"--B\r\nContent-Type: image/png\r\nContent-ID: <c@x>\r\nContent-Location: c.png\r\n\r\npng\r\n" +
		"--B--\r\n"
	var got []string
	require.NoError(t, Links(strings.NewReader(msg), Options{Spec: resolve.WHATWG}, func(l Link) error {
		got = append(got, l.Part+" "+l.Kind.String()+" "+l.URL+" "+l.TargetPart+" "+l.Base.Source.String())
		return nil
	}))
	assert.Equal(t, []string{
		"1 resource http://x.example/d/icons/a.svg#x  header",
		"1 resource http://x.example/d/c.png 5 header",
		"2 feed https://blog.example/a/p1  embedded",
		"4 manifest http://x.example/d/  header",
		"4 manifest http://x.example/d/c.png 5 header",
	}, got)

	var out bytes.Buffer
	st, err := Rewrite(&out, strings.NewReader(msg), Options{Spec: resolve.WHATWG, Local: LocalCID})
	require.NoError(t, err)
	assert.Equal(t, 3, st.Parts)
	assert.Contains(t, out.String(), `<svg xmlns="http://www.w3.org/2000/svg"><use href="http://x.example/d/icons/a.svg#x"/><image href="cid:c@x"/></svg>`)
	assert.Contains(t, out.String(), `<link href="https://blog.example/a/p1"/>`)
	assert.Contains(t, out.String(), `<loc>/x</loc>`)
	assert.Contains(t, out.String(), `{"start_url":"http://x.example/d/","icons":[{"src":"cid:c@x"}]}`)
}
