package base

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/resolve"
)

// TestLocation follows RFC 9110 §10.2.2: a Location value may be relative
// and is resolved against the URL that answered (RFC 3986 §5), and a value
// without a fragment inherits the fragment of the request.
func TestLocation(t *testing.T) {
	tests := []struct {
		answered, location, want string
	}{
		// RFC 9110 §10.2.2's own examples: "For example, a GET request
		// generated for the URI reference "http://www.example.org/~tim"
		// might result in a 303 (See Other) response containing the header
		// field: Location: /People.html#tim"; "Location:
		// http://www.example.net/index.html".
		{"http://www.example.org/~tim", "/People.html#tim", "http://www.example.org/People.html#tim"},
		{"http://www.example.org/~tim", "http://www.example.net/index.html", "http://www.example.net/index.html"},
		// Its fragment rule, as RFC 7231 §7.1.2 illustrates it: a 303 to
		// /People.html for a request of ".../~tim#frag" keeps "#frag".
		{"http://www.example.org/~tim#frag", "/People.html", "http://www.example.org/People.html#frag"},
		{"http://a/b/c/d;p?q", "../g", "http://a/b/g"},
		{"http://a/b/c/d;p?q", "g?y", "http://a/b/c/g?y"},
		{"http://a/b/c/d;p?q", "//other/x", "http://other/x"},
		{"https://a/x#f", "#", "https://a/x#"},
		{"https://a/x", " /y ", "https://a/y"},
	}
	for _, tt := range tests {
		got, err := Location(tt.answered, tt.location)
		require.NoError(t, err, tt.location)
		assert.Equal(t, tt.want, got, "%s + %s", tt.answered, tt.location)
	}
	_, err := Location("http://a/", "")
	assert.Error(t, err)
	_, err = Location("relative", "x")
	assert.ErrorIs(t, err, resolve.ErrRelativeBase)
}

// TestRedirectChain: draft §3.3, "if the retrieval was the result of a
// redirected request, the last URL used (i.e., that which resulted in the
// actual retrieval of the document) is the base URL"; each relative
// Location is resolved against the URL that answered it.
func TestRedirectChain(t *testing.T) {
	c, err := Redirected(resolve.RFC3986, "http://a.example/start#top", "/moved/here", "../there/page.html", "https://b.example/final/")
	require.NoError(t, err)
	assert.Equal(t, "https://b.example/final/#top", c.Retrieval)
	r := c.Decide(Element{})
	assert.Equal(t, "retrieval: last of 3 redirects", r.Provenance())

	c, err = Redirected(resolve.RFC3986, "http://a.example/start", "x/y", "z")
	require.NoError(t, err)
	assert.Equal(t, "http://a.example/x/z", c.Retrieval)
	assert.Equal(t, "retrieval: last of 2 redirects", c.Fallback().Provenance())

	c, err = Redirected(resolve.RFC3986, "http://a.example/")
	require.NoError(t, err)
	assert.Equal(t, "retrieval: request URL", c.Fallback().Provenance())
}

// TestFromResponse: after net/http's client followed redirects,
// resp.Request.URL is the last URL; FromResponse adds the fragment net/http
// drops and counts the redirects.
func TestFromResponse(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/a", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "b/c", http.StatusFound) })
	mux.HandleFunc("/b/c", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "../d", http.StatusMovedPermanently) })
	mux.HandleFunc("/d", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Location", "/elsewhere/")
		w.Write([]byte("<a href=x>"))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()

	resp, err := srv.Client().Get(srv.URL + "/a#section")
	require.NoError(t, err)
	resp.Body.Close()
	c := FromResponse(resolve.WHATWG, resp)
	r := c.Fallback()
	assert.Equal(t, srv.URL+"/d#section", r.URL)
	assert.Equal(t, "retrieval: last of 2 redirects", r.Provenance())
	assert.Len(t, r.Warnings, 1, "Content-Location is reported, not used")

	c.ContentLocation = true
	assert.Equal(t, srv.URL+"/elsewhere/", c.Fallback().URL)
}

// TestSavedFrom reads the "mark of the web" that Internet Explorer and
// Chrome write into saved pages.
func TestSavedFrom(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		want string
		line int
	}{
		{"chrome", "<!DOCTYPE html>\n<!-- saved from url=(0026)https://example.com/a/b/c -->\n<html><head>", "https://example.com/a/b/c", 2},
		{"ie", "<!-- saved from url=(0022)http://internet.e-mail -->\r\n<HTML><HEAD>", "http://internet.e-mail", 1},
		{"byte order mark", "\ufeff<!-- saved from url=(0013)http://a.b/c/ -->", "http://a.b/c/", 1},
		{"after html", "<html><!-- saved from url=(0014)http://a.b/c/ -->", "http://a.b/c/", 1},
		{"length bounds the url", "<!-- saved from url=(0009)http://a/b/ and more -->", "http://a/", 1},
		{"wrong length", "<!-- saved from url=(0099)http://a/b/ -->", "http://a/b/", 1},
		{"about:internet", "<!-- saved from url=(0014)about:internet -->", "", 0},
		{"after body", "<body><!-- saved from url=(0010)http://a/b -->", "", 0},
		{"after text", "text <!-- saved from url=(0010)http://a/b -->", "", 0},
		{"not a mark", "<!-- saved from somewhere -->", "", 0},
		{"no digits", "<!-- saved from url=(x)http://a/b -->", "", 0},
		{"CR line ends", "<!DOCTYPE html>\r<!---->\r<!-- saved from url=(0010)http://a/b -->", "http://a/b", 3},
		// Only the first 4 KiB are read: a comment they cut off is not
		// taken for a shorter URL.
		{"cut off", "<!DOCTYPE html>" + strings.Repeat(" ", 4096-15-40) + "<!-- saved from url=(0037)https://example.com/articles/one.html -->", "", 0},
		{"unterminated", "<!-- saved from url=(0010)http://a/b", "", 0},
	}
	for _, tt := range tests {
		u, line, ok := SavedFrom([]byte(tt.doc))
		assert.Equal(t, tt.want, u, tt.name)
		assert.Equal(t, tt.line, line, tt.name)
		assert.Equal(t, tt.want != "", ok, tt.name)
	}
}

func TestFileURL(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a b#c.html")
	require.NoError(t, os.WriteFile(path, nil, 0o644))
	u, err := FileURL(path)
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(u, "file:///"), u)
	assert.True(t, strings.HasSuffix(u, "/a%20b%23c.html"), u)
	if runtime.GOOS != "windows" {
		assert.Equal(t, "file://"+strings.ReplaceAll(strings.ReplaceAll(dir, " ", "%20"), "#", "%23")+"/a%20b%23c.html", u)
	}
	// A document next to it resolves against the file's directory.
	got, err := resolve.Reference(resolve.RFC3986, u, "img/x.png")
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(got, "/img/x.png"), got)
}
