package archive

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

type warcLinkSummary struct {
	Record       int64
	Target, Raw  string
	URL          string
	Kind         link.Kind
	Source       base.Source
	BaseURL      string
	Attr, Detail string
}

func warcLinks(t *testing.T, name string, opts Options) []warcLinkSummary {
	t.Helper()
	var got []warcLinkSummary
	require.NoError(t, WARCLinks(openFixture(t, name), opts, func(l WARCLink) error {
		require.NoError(t, l.Err)
		got = append(got, warcLinkSummary{l.Record, l.Target, l.Raw, l.URL, l.Kind, l.Base.Source, l.Base.URL, l.Attr, l.Base.Detail})
		return nil
	}))
	return got
}

func only(links []warcLinkSummary, keep func(warcLinkSummary) bool) []warcLinkSummary {
	var out []warcLinkSummary
	for _, l := range links {
		if keep(l) {
			out = append(out, l)
		}
	}
	return out
}

// TestWARCLinksRedirectChain: testdata/mime/redirects.warc holds a chain
// http://a.example/start -302-> /next (relative, RFC 9110 §10.2.2) -301->
// https://b.example/final (chunked and gzip). Each hop's redirect link,
// resolved against its record's WARC-Target-URI, is the next hop's
// target; the .gz twin gives the same links.
func TestWARCLinksRedirectChain(t *testing.T) {
	for _, f := range []string{"mime/redirects.warc", "mime/redirects.warc.gz"} {
		links := warcLinks(t, f, Options{Spec: resolve.RFC3986})
		redirects := only(links, func(l warcLinkSummary) bool { return l.Kind == link.Redirect })
		require.Len(t, redirects, 2, f)
		assert.Equal(t, "http://a.example/start", redirects[0].Target)
		assert.Equal(t, "/next", redirects[0].Raw)
		assert.Equal(t, "http://a.example/next", redirects[0].URL)
		assert.Equal(t, "location", redirects[0].Attr)
		assert.Equal(t, "http://a.example/next", redirects[1].Target)
		assert.Equal(t, "https://b.example/final", redirects[1].URL)

		var targets []string
		for _, l := range links {
			if len(targets) == 0 || targets[len(targets)-1] != l.Target {
				targets = append(targets, l.Target)
			}
		}
		// The chain, then the other HTML records in file order.
		assert.Equal(t, []string{
			"http://a.example/start", "http://a.example/next", "https://b.example/final",
			"https://b.example/lying", "https://b.example/deflate", "https://b.example/final?again",
			"https://b.example/res.html",
		}, targets, f)
	}
}

// TestWARCLinksBases: the payload base layers: <base href> > (opt-in)
// HTTP Content-Location > WARC-Target-URI; revisit records resolve
// against their own target with the payload of the record they refer to;
// payloads behind lying headers still give their links.
func TestWARCLinksBases(t *testing.T) {
	const f = "mime/redirects.warc"
	pick := func(links []warcLinkSummary, target string) []warcLinkSummary {
		return only(links, func(l warcLinkSummary) bool { return l.Target == target && l.Kind != link.Redirect })
	}
	links := warcLinks(t, f, Options{Spec: resolve.WHATWG})
	final := pick(links, "https://b.example/final")
	require.Len(t, final, 2)
	assert.Equal(t, "https://b.example/page2.html", final[0].URL)
	assert.Equal(t, "https://b.example/img/x.png", final[1].URL)
	assert.Equal(t, base.Retrieval, final[0].Source)
	assert.Equal(t, "WARC-Target-URI", final[0].Detail)

	// RFC 2616 §14.14's Content-Location base, on request only.
	withCL := pick(warcLinks(t, f, Options{Spec: resolve.WHATWG, ContentLocation: true}), "https://b.example/final")
	require.Len(t, withCL, 2)
	assert.Equal(t, "https://b.example/canonical/page2.html", withCL[0].URL)
	assert.Equal(t, base.Header, withCL[0].Source)
	assert.Equal(t, "https://b.example/canonical/final.html", withCL[0].BaseURL)

	// HTTP/2 status line; chunked and br headers over a plain body.
	lying := pick(links, "https://b.example/lying")
	require.Len(t, lying, 1)
	assert.Equal(t, "https://b.example/plain.html", lying[0].URL)
	// deflate sent as zlib.
	deflate := pick(links, "https://b.example/deflate")
	require.Len(t, deflate, 1)
	assert.Equal(t, "https://b.example/z.html", deflate[0].URL)

	// The revisit's payload is the earlier record's with the same
	// WARC-Payload-Digest, resolved against the revisit's own target.
	again := pick(links, "https://b.example/final?again")
	require.Len(t, again, 2)
	assert.Equal(t, "https://b.example/page2.html", again[0].URL)
	assert.Equal(t, "https://b.example/final?again", again[0].BaseURL)

	// A resource record: the block is the payload; its <base> decides.
	res := pick(links, "https://b.example/res.html")
	require.Len(t, res, 1)
	assert.Equal(t, "https://b.example/based/r.html", res[0].URL)
	assert.Equal(t, base.Embedded, res[0].Source)
}

// TestWARCLinksFixtures: the warcio fixtures' expectations from
// testdata/warc/README.md.
func TestWARCLinksFixtures(t *testing.T) {
	const iana = "http://www.iana.org/domains/example"
	t.Run("revisit", func(t *testing.T) {
		// The response and its revisit (uri-agnostic identical payload
		// digest) both give the page's one link.
		for _, f := range []string{"warc/example.warc", "warc/example.warc.gz", "warc/example-bad-non-chunked.warc.gz"} {
			links := warcLinks(t, f, Options{Spec: resolve.RFC3986})
			require.Len(t, links, 2, f)
			for _, l := range links {
				assert.Equal(t, iana, l.URL)
				assert.Equal(t, "http://example.com/", l.BaseURL)
			}
		}
		links := warcLinks(t, "warc/example.warc.gz", Options{Spec: resolve.RFC3986})
		assert.Equal(t, []int64{784, 2621}, []int64{links[0].Record, links[1].Record})
	})
	t.Run("redirect", func(t *testing.T) {
		// The only redirect: Location /domains/reserved against
		// http://www.iana.org/domains/example, and the same href in the
		// body; the file is one gzip member.
		links := warcLinks(t, "warc/example-bad.warc.gz.bad", Options{Spec: resolve.RFC3986})
		last := only(links, func(l warcLinkSummary) bool { return l.Target == iana })
		require.Len(t, last, 2)
		assert.Equal(t, link.Redirect, last[0].Kind)
		assert.Equal(t, "http://www.iana.org/domains/reserved", last[0].URL)
		assert.Equal(t, "/domains/reserved", last[1].Raw)
		assert.Equal(t, "http://www.iana.org/domains/reserved", last[1].URL)
	})
	t.Run("chunked", func(t *testing.T) {
		// De-chunked payload; root-relative links against the target.
		links := warcLinks(t, "warc/example-iana.org-chunked.warc", Options{Spec: resolve.RFC3986})
		require.NotEmpty(t, links)
		assert.Equal(t, "/_css/2015.1/screen.css", links[0].Raw)
		assert.Equal(t, "http://www.iana.org/_css/2015.1/screen.css", links[0].URL)
		for _, l := range links {
			assert.Equal(t, int64(405), l.Record)
			assert.True(t, strings.HasPrefix(l.URL, "http") || strings.HasPrefix(l.URL, "mailto:"), l.URL)
		}
	})
	t.Run("wget brackets", func(t *testing.T) {
		links := warcLinks(t, "warc/example-wget-bad-target-uri.warc.gz", Options{Spec: resolve.RFC3986})
		require.Len(t, links, 1)
		assert.Equal(t, "http://example.com/", links[0].Target)
	})
	t.Run("resource", func(t *testing.T) {
		links := warcLinks(t, "warc/example-resource.warc.gz", Options{Spec: resolve.RFC3986})
		require.Len(t, links, 1)
		assert.Equal(t, warcLinkSummary{802, "http://example.com/", iana, iana, link.Navigation, base.Retrieval, "http://example.com/", "href", "WARC-Target-URI"}, links[0])
	})
	t.Run("truncated", func(t *testing.T) {
		// Content-Length too short: the gzip payload decodes as far as
		// it goes, the 4 bytes after it are a record error, and the
		// reader finds the next record.
		var links []WARCLink
		var rerrs []*RecordError
		st, err := ScanWARCLinks(openFixture(t, "warc/example-trunc.warc"), Options{Spec: resolve.RFC3986},
			func(l WARCLink) error { links = append(links, l); return nil },
			func(e *RecordError) error { rerrs = append(rerrs, e); return nil })
		require.NoError(t, err)
		require.Len(t, links, 1)
		assert.Equal(t, iana, links[0].URL)
		require.Len(t, rerrs, 1)
		assert.Equal(t, int64(1197), rerrs[0].Offset)
		assert.ErrorIs(t, rerrs[0], ErrContentLength)
		assert.Equal(t, scanStats{WARCStats: WARCStats{Records: 4, Documents: 1, RecordErrors: 1}, Links: 1}, st)
	})
	t.Run("no HTML", func(t *testing.T) {
		for _, f := range []string{"warc/example-digest.warc", "warc/example-space-in-target-uri.warc.gz", "warc/post-test.warc.gz", "warc/example-wrong-chunks.warc.gz"} {
			links := warcLinks(t, f, Options{Spec: resolve.RFC3986})
			if f == "warc/example-wrong-chunks.warc.gz" {
				require.Len(t, links, 1, f)
				assert.Equal(t, iana, links[0].URL)
				continue
			}
			assert.Empty(t, links, f)
		}
	})
}

// TestResolveLocation: RFC 9110 §10.2.2: Location resolves against the
// target URI and inherits its fragment when it has none.
func TestResolveLocation(t *testing.T) {
	tests := []struct{ target, loc, want string }{
		{"http://www.iana.org/domains/example", "/domains/reserved", "http://www.iana.org/domains/reserved"},
		{"http://a/b/c#frag", "d", "http://a/b/d#frag"},
		{"http://a/b/c#frag", "d#own", "http://a/b/d#own"},
		{"http://a/b/c", " https://x/ ", "https://x/"},
	}
	for _, tt := range tests {
		got, err := resolveLocation(resolve.RFC3986, tt.target, tt.loc)
		require.NoError(t, err)
		assert.Equal(t, tt.want, got)
	}
}

// TestWARCCharset: an HTTP Content-Type whose parameters
// mime.ParseMediaType rejects still gives the payload its charset:
// KOI8-R's 0xE9 is И, not windows-1252's é.
func TestWARCCharset(t *testing.T) {
	http := "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=koi8-r; name=a b\r\n\r\n<a href=\"\xe9\">x</a>"
	warc := "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.example/\r\n" +
		"Content-Type: application/http; msgtype=response\r\nContent-Length: " + strconv.Itoa(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
	var urls []string
	require.NoError(t, WARCLinks(strings.NewReader(warc), Options{Spec: resolve.WHATWG}, func(l WARCLink) error {
		urls = append(urls, l.URL)
		return nil
	}))
	assert.Equal(t, []string{"http://x.example/%D0%98"}, urls)
}
