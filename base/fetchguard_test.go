package base

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// encode applies the content coding c to b as a server would.
func encode(t *testing.T, c string, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	var w io.WriteCloser
	switch c {
	case "gzip", "x-gzip":
		w = gzip.NewWriter(&buf)
	case "deflate": // RFC 9110: zlib
		w = zlib.NewWriter(&buf)
	case "raw-deflate": // what many servers send as "deflate"
		w, _ = flate.NewWriter(&buf, flate.DefaultCompression)
	case "br":
		w = brotli.NewWriter(&buf)
	default:
		t.Fatalf("no coding %s", c)
	}
	w.Write(b)
	require.NoError(t, w.Close())
	return buf.Bytes()
}

// TestFetchContentCodings: every content coding the WARC reader decodes,
// alone and stacked (RFC 9110 §8.4: applied in the order listed, undone
// last first), is undone by Fetch, which asks for them in Accept-Encoding.
func TestFetchContentCodings(t *testing.T) {
	page := []byte(`<html><a href="x.html">x</a></html>`)
	for _, tc := range []struct {
		header string   // Content-Encoding sent
		apply  []string // codings applied, in order
	}{
		{"gzip", []string{"gzip"}},
		{"x-gzip", []string{"x-gzip"}},
		{"deflate", []string{"deflate"}},
		{"deflate", []string{"raw-deflate"}},
		{"br", []string{"br"}},
		{"gzip, gzip", []string{"gzip", "gzip"}},
		{"deflate, br", []string{"deflate", "br"}},
		{"br,gzip", []string{"br", "gzip"}},
		{"identity", nil},
		{"GZIP", []string{"gzip"}},
	} {
		t.Run(tc.header+"/"+strings.Join(tc.apply, "+"), func(t *testing.T) {
			var accept string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				accept = r.Header.Get("Accept-Encoding")
				b := page
				for _, c := range tc.apply {
					b = encode(t, c, b)
				}
				w.Header().Set("Content-Type", "text/html")
				w.Header().Set("Content-Encoding", tc.header)
				w.Write(b)
			}))
			defer srv.Close()
			doc, err := Fetch(context.Background(), nil, srv.URL+"/", FetchLimits{})
			require.NoError(t, err)
			assert.Equal(t, string(page), string(doc.Body))
			assert.Equal(t, "gzip, deflate, br", accept)
			assert.Equal(t, tc.header, doc.Decoded)
		})
	}
	// A coding that does not decode, or is unknown: an error, never the
	// encoded bytes as the page.
	for _, bad := range []struct{ header, body string }{{"br", "not brotli at all"}, {"gzip", "plain"}, {"compress", "x"}} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Encoding", bad.header)
			io.WriteString(w, bad.body)
		}))
		_, err := Fetch(context.Background(), nil, srv.URL+"/", FetchLimits{})
		assert.ErrorIs(t, err, ErrContentEncoding, bad.header)
		srv.Close()
	}
	// The decoded body is bounded too: a small gzip bomb is refused.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(encode(t, "gzip", bytes.Repeat([]byte("a"), 1<<20)))
	}))
	defer srv.Close()
	_, err := Fetch(context.Background(), nil, srv.URL+"/", FetchLimits{MaxBytes: 64 << 10})
	assert.ErrorIs(t, err, ErrTooLarge)
}

// TestFetchSameHost: with SameHost a redirect to another host is refused;
// one to the same host (another port) is followed. 127.0.0.1 and
// localhost are two hosts.
func TestFetchSameHost(t *testing.T) {
	target := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<p>") }))
	defer target.Close()
	_, port, _ := net.SplitHostPort(target.Listener.Addr().String())
	origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := "127.0.0.1"
		if r.URL.Path == "/away" {
			host = "localhost"
		}
		http.Redirect(w, r, "http://"+host+":"+port+"/page", http.StatusFound)
	}))
	defer origin.Close()

	doc, err := Fetch(context.Background(), nil, origin.URL+"/near", FetchLimits{SameHost: true})
	require.NoError(t, err)
	assert.Equal(t, "http://127.0.0.1:"+port+"/page", doc.URL)

	_, err = Fetch(context.Background(), nil, origin.URL+"/away", FetchLimits{SameHost: true})
	assert.ErrorIs(t, err, ErrOtherHost)
	assert.ErrorContains(t, err, "http://localhost:"+port+"/page")

	if _, err := net.LookupHost("localhost"); err == nil {
		doc, err = Fetch(context.Background(), nil, origin.URL+"/away", FetchLimits{})
		require.NoError(t, err, "followed without SameHost")
		assert.Equal(t, "http://localhost:"+port+"/page", doc.URL)
	}
}

// TestFetchDenyPrivate: the test server is on loopback, so DenyPrivate
// refuses it (at connect time, through the dialer's Control hook), by
// address and by a name that resolves to it; without the option it is
// fetched. A redirect into loopback is refused the same way.
func TestFetchDenyPrivate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "<p>") }))
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())

	_, err := Fetch(context.Background(), nil, srv.URL+"/", FetchLimits{DenyPrivate: true})
	assert.ErrorIs(t, err, ErrPrivateAddress)
	if _, lerr := net.LookupHost("localhost"); lerr == nil {
		_, err = Fetch(context.Background(), nil, "http://localhost:"+port+"/", FetchLimits{DenyPrivate: true})
		assert.ErrorIs(t, err, ErrPrivateAddress, "a name is checked after DNS")
	}
	doc, err := Fetch(context.Background(), nil, srv.URL+"/", FetchLimits{})
	require.NoError(t, err)
	assert.Equal(t, "<p>", string(doc.Body))

	// The client's own transport settings are kept, its proxy is not.
	_, err = Fetch(context.Background(), &http.Client{Transport: &http.Transport{}}, srv.URL+"/", FetchLimits{DenyPrivate: true})
	assert.ErrorIs(t, err, ErrPrivateAddress)
	_, err = Fetch(context.Background(), &http.Client{Transport: roundTripFunc(nil)}, srv.URL+"/", FetchLimits{DenyPrivate: true})
	assert.ErrorIs(t, err, errTransport)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestPublic(t *testing.T) {
	for addr, want := range map[string]bool{
		"93.184.215.14": true, "2606:2800:21f:cb07:6820:80da:af6b:8b2c": true, "8.8.8.8": true,
		"127.0.0.1": false, "127.1.2.3": false, "::1": false, "10.1.2.3": false, "172.16.0.1": false,
		"172.31.255.255": false, "172.32.0.1": true, "192.168.1.1": false, "169.254.169.254": false,
		"fe80::1": false, "fc00::1": false, "fd12::1": false, "100.64.0.1": false, "100.128.0.1": true,
		"0.0.0.0": false, "::": false, "::ffff:127.0.0.1": false, "::ffff:10.0.0.1": false, "224.0.0.1": false,
	} {
		assert.Equal(t, want, Public(netip.MustParseAddr(addr)), addr)
	}
	assert.Error(t, DenyPrivateControl("tcp4", "127.0.0.1:80", nil))
	assert.NoError(t, DenyPrivateControl("tcp4", "8.8.8.8:443", nil))
	assert.Error(t, DenyPrivateControl("tcp6", "[::1]:80", nil))
}
