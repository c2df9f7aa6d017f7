package base

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/resolve"
)

// testServer serves the pages the Fetch tests ask for on loopback.
func testServer(t *testing.T) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	redirect := func(path, location string, status int) {
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Location", location)
			w.WriteHeader(status)
		})
	}
	// A chain of three redirects, two of them relative.
	redirect("/start", "/dir/one", http.StatusMovedPermanently)
	redirect("/dir/one", "../other/two#moved", http.StatusFound)
	redirect("/other/two", "three.html", http.StatusSeeOther)
	mux.HandleFunc("/other/three.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Location", "/canonical/page.html")
		fmt.Fprint(w, "<html><head><title>t</title></head><body><a href=x>x</a></body></html>")
	})
	// A page with a relative <base href>.
	mux.HandleFunc("/based/page.html", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "<html><head>\n<base href=\"../assets/\">\n</head></html>")
	})
	redirect("/loop", "/loop", http.StatusFound)
	redirect("/no-location", "", http.StatusFound)
	redirect("/to-ftp", "ftp://example.com/file", http.StatusFound)
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Write(bytes.Repeat([]byte("x"), 2000))
	})
	mux.HandleFunc("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-time.After(5 * time.Second):
		case <-r.Context().Done():
		}
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "<p>gone</p>", http.StatusNotFound) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestFetchRedirects: the chain is followed and recorded, each relative
// Location resolved against the URL that answered it, the fragment
// inherited from the request until a Location brings its own (RFC 9110
// §10.2.2), and the last URL is the retrieval URL (draft §3.3).
func TestFetchRedirects(t *testing.T) {
	srv := testServer(t)
	doc, err := Fetch(context.Background(), srv.Client(), srv.URL+"/start#top", FetchLimits{})
	require.NoError(t, err)
	assert.Equal(t, srv.URL+"/start#top", doc.Requested)
	assert.Equal(t, []Hop{
		{URL: srv.URL + "/start#top", Status: 301, Location: "/dir/one"},
		{URL: srv.URL + "/dir/one#top", Status: 302, Location: "../other/two#moved"},
		{URL: srv.URL + "/other/two#moved", Status: 303, Location: "three.html"},
	}, doc.Redirects)
	assert.Equal(t, srv.URL+"/other/three.html#moved", doc.URL)
	assert.Equal(t, http.StatusOK, doc.Status)
	assert.Contains(t, string(doc.Body), "<a href=x>")

	e, _, err := ScanHTML(bytes.NewReader(doc.Body), false)
	require.NoError(t, err)
	r := doc.Context.Decide(e)
	assert.Equal(t, srv.URL+"/other/three.html#moved", r.URL)
	assert.Equal(t, "retrieval: last of 3 redirects", r.Provenance())
	x, err := resolve.Reference(doc.Context.Spec, r.URL, "x")
	require.NoError(t, err)
	assert.Equal(t, srv.URL+"/other/x", x)

	// Content-Location counts only when asked.
	assert.Equal(t, []string{"Content-Location of the HTTP response ignored: browsers do not use it for an HTTP response (Context.ContentLocation honours it)"}, r.Warnings)
	doc.Context.ContentLocation = true
	r = doc.Context.Decide(e)
	assert.Equal(t, srv.URL+"/canonical/page.html", r.URL)
	assert.Equal(t, "header: Content-Location of the HTTP response (relative, resolved against the retrieval base)", r.Provenance())
}

// TestFetchBase: a fetched page's relative <base href> is resolved
// against the URL it was fetched from.
func TestFetchBase(t *testing.T) {
	srv := testServer(t)
	doc, err := Fetch(context.Background(), srv.Client(), srv.URL+"/based/page.html", FetchLimits{})
	require.NoError(t, err)
	assert.Empty(t, doc.Redirects)
	e, _, err := ScanHTML(bytes.NewReader(doc.Body), false)
	require.NoError(t, err)
	r := doc.Context.Decide(e)
	assert.Equal(t, Result{URL: srv.URL + "/assets/", Source: Embedded, Detail: "<base href> at line 2"}, r)
}

// TestFetchErrors: every limit gives an error that says which, and no
// document.
func TestFetchErrors(t *testing.T) {
	srv := testServer(t)
	tests := []struct {
		name string
		url  string
		lim  FetchLimits
		want error
	}{
		{"redirect loop", srv.URL + "/loop", FetchLimits{}, ErrTooManyRedirects},
		{"redirect limit", srv.URL + "/start", FetchLimits{MaxRedirects: 2}, ErrTooManyRedirects},
		{"no location", srv.URL + "/no-location", FetchLimits{}, ErrNoLocation},
		{"redirect to ftp", srv.URL + "/to-ftp", FetchLimits{}, ErrScheme},
		{"file URL", "file:///etc/passwd", FetchLimits{}, ErrScheme},
		{"relative URL", "/start", FetchLimits{}, ErrScheme},
		{"too large", srv.URL + "/big", FetchLimits{MaxBytes: 1999}, ErrTooLarge},
		{"negative redirects", srv.URL + "/start", FetchLimits{MaxRedirects: -1}, errBadRedirects},
	}
	for _, tt := range tests {
		doc, err := Fetch(context.Background(), srv.Client(), tt.url, tt.lim)
		assert.Nil(t, doc, tt.name)
		assert.ErrorIs(t, err, tt.want, tt.name)
	}

	// Both limits are inclusive: three redirects are within MaxRedirects 3.
	doc, err := Fetch(context.Background(), srv.Client(), srv.URL+"/start", FetchLimits{MaxRedirects: 3})
	require.NoError(t, err)
	assert.Len(t, doc.Redirects, 3)
	doc, err = Fetch(context.Background(), srv.Client(), srv.URL+"/big", FetchLimits{MaxBytes: 2000})
	require.NoError(t, err)
	assert.Len(t, doc.Body, 2000)

	// A status other than 2xx is the caller's to judge.
	doc, err = Fetch(context.Background(), srv.Client(), srv.URL+"/missing", FetchLimits{})
	require.NoError(t, err)
	assert.Equal(t, http.StatusNotFound, doc.Status)
}

// TestFetchTimeout: the context bounds the fetch.
func TestFetchTimeout(t *testing.T) {
	srv := testServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := Fetch(ctx, srv.Client(), srv.URL+"/slow", FetchLimits{})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 4*time.Second)
	assert.True(t, strings.HasPrefix(err.Error(), `base: fetch "`+srv.URL+`/slow": `), err.Error())

	// Without a deadline in the context and with a client that has no
	// timeout, the limit still bounds the fetch.
	start = time.Now()
	_, err = Fetch(context.Background(), &http.Client{}, srv.URL+"/slow", FetchLimits{Timeout: 100 * time.Millisecond})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Less(t, time.Since(start), 4*time.Second)
}

// TestFetchDefaultTimeout: the default limit applies only when nothing else
// bounds the fetch, so that a caller's longer deadline is not cut short.
func TestFetchDefaultTimeout(t *testing.T) {
	withDeadline, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		client *http.Client
		limit  time.Duration
		want   time.Duration
	}{
		{"nothing else", context.Background(), &http.Client{}, 0, DefaultTimeout},
		{"context deadline", withDeadline, &http.Client{}, 0, 0},
		{"client timeout", context.Background(), &http.Client{Timeout: time.Minute}, 0, 0},
		{"limit", withDeadline, &http.Client{Timeout: time.Minute}, time.Second, time.Second},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, timeout(tt.ctx, tt.client, tt.limit), tt.name)
	}
}
