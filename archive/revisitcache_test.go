package archive

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/relurl/relurl/resolve"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// held is what the revisit cache of x really holds: each payload's whole
// buffer, its keys and content type, counted once per entry.
func held(x *warcExtractor) (bytes int, entries int) {
	seen := map[uint64]bool{}
	for k, c := range x.cache {
		bytes += len(k)
		if !seen[c.id] {
			seen[c.id] = true
			bytes += cap(c.body) + len(c.contentType)
		}
	}
	return bytes, len(seen)
}

// TestRevisitCacheCountsWhatItHolds: the revisit cache is
// bounded by the bytes it holds, not by its payloads' lengths: a short
// payload in a large buffer (a lying Content-Length reserves up to 4 MiB)
// does not keep the buffer, and many empty payloads do not grow it
// without end.
func TestRevisitCacheCountsWhatItHolds(t *testing.T) {
	x := &warcExtractor{cache: map[string]cached{}}
	rec := func(i int) *Record {
		return &Record{Header: Header{
			{Name: "WARC-Record-ID", Value: fmt.Sprintf("<urn:uuid:%d>", i)},
			{Name: "WARC-Payload-Digest", Value: fmt.Sprintf("sha1:D%d", i)},
		}}
	}
	for i := range 100 {
		body := make([]byte, 1000, 4<<20)
		x.remember(rec(i), body, "text/html")
	}
	b, n := held(x)
	assert.LessOrEqual(t, b, maxRevisitCache, "bytes held by %d payloads of 1000 bytes", n)
	assert.Equal(t, 100, n, "all 100 short payloads fit")
	c, ok := x.referred(rec(0))
	require.True(t, ok)
	assert.Len(t, c.body, 1000)

	x = &warcExtractor{cache: map[string]cached{}}
	for i := range 300_000 {
		x.remember(rec(i), nil, "text/html")
	}
	b, n = held(x)
	assert.Less(t, n, maxRevisitCache/(cacheEntryCost+2*cacheKeyCost)+1, "empty payloads kept")
	assert.LessOrEqual(t, b+n*(cacheEntryCost+2*cacheKeyCost), maxRevisitCache)
	_, ok = x.referred(rec(299_999))
	assert.True(t, ok, "the most recent is kept")
	_, ok = x.referred(rec(0))
	assert.False(t, ok, "the oldest went")
}

// TestRevisitCacheLyingLength: records whose Content-Length claims 4 MiB
// but hold a short page each (the reader resynchronizes at the next
// record) leave the heap small while their payloads stay reachable for
// revisits: 64 of them held 256 MiB when the cache counted lengths.
func TestRevisitCacheLyingLength(t *testing.T) {
	var data strings.Builder
	const n = 64
	for i := range n {
		http := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<a href=p%d>x</a>", i)
		fmt.Fprintf(&data, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:%d>\r\nWARC-Target-URI: http://x.example/%d\r\n"+
			"WARC-Payload-Digest: sha1:D%d\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", i, i, i, 4<<20, http)
	}
	revisit := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
	fmt.Fprintf(&data, "WARC/1.1\r\nWARC-Type: revisit\r\nWARC-Target-URI: http://x.example/again\r\nWARC-Refers-To: <urn:uuid:0>\r\n"+
		"Content-Length: %d\r\n\r\n%s\r\n\r\n", len(revisit), revisit)
	var heap uint64
	var links []string
	_, err := ScanWARCLinks(strings.NewReader(data.String()), Options{Spec: resolve.RFC3986}, func(l WARCLink) error {
		links = append(links, l.URL)
		if strings.HasSuffix(l.Target, "/again") {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			heap = m.HeapAlloc
		}
		return nil
	}, func(*RecordError) error { return nil })
	require.NoError(t, err)
	require.Len(t, links, n+1)
	assert.Equal(t, "http://x.example/p0", links[n], "the revisit gets the first record's payload")
	assert.Less(t, heap, uint64(64<<20), "heap while the cache holds %d short payloads", n)
}
