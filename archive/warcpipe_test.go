package archive

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/resolve"
)

// scanTrace scans file with or without the pipeline and returns what the
// handler was given, in order: links, record errors, the scan's end.
func scanTrace(t *testing.T, file []byte, pipelined bool) []string {
	t.Helper()
	opts := Options{Spec: resolve.WHATWG}
	var out []string
	link := func(l WARCLink) error {
		out = append(out, fmt.Sprintf("link %d %q %q %q %v %v %q %q", l.Record, l.Target, l.Raw, l.URL, l.Kind, l.Base.Source, l.Base.URL, l.Attr))
		return nil
	}
	st, err := scanWARC(bytes.NewReader(file), opts, WARCHandler{
		Link:     link,
		Document: func(d *Document) error { return readArchived(d, opts, link) },
		RecordError: func(e *RecordError) error {
			out = append(out, fmt.Sprintf("error %d %q %v", e.Offset, e.Target, e))
			return nil
		},
	}, pipelined)
	return append(out, fmt.Sprintf("end %d %d %d %v", st.Records, st.Documents, st.RecordErrors, err))
}

// manyMembers is a .warc.gz of n response records, one gzip member each,
// with pages large enough to span several pipeline chunks now and then.
func manyMembers(n int, rng *rand.Rand) []byte {
	var file bytes.Buffer
	for i := range n {
		var page strings.Builder
		page.WriteString("<!doctype html><title>p</title>")
		for j := range rng.IntN(40) {
			fmt.Fprintf(&page, `<a href="/p%d/%d">x</a><img src="i%d.png">`, i, j, j)
		}
		if i%97 == 5 { // a big one: over a chunk
			page.WriteString(strings.Repeat("<p>filler text</p>\n", (pipeChunk*3/2)/19))
			page.WriteString(`<a href="after-the-filler">`)
		}
		body := page.String()
		http := fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n", len(body))
		var rec bytes.Buffer
		fmt.Fprintf(&rec, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://m.example/%d/\r\n"+
			"Content-Type: application/http;msgtype=response\r\nContent-Length: %d\r\n\r\n%s%s\r\n\r\n", i, len(http)+len(body), http, body)
		z := gzip.NewWriter(&file)
		z.Write(rec.Bytes())
		z.Close()
	}
	return file.Bytes()
}

// TestPipelineSameAsSequential: the pipelined scan gives the same links,
// record errors and counts as the sequential one, on every WARC fixture,
// good and damaged, and on a generated many-member file whole, with
// bytes flipped, cut short and with garbage between members.
func TestPipelineSameAsSequential(t *testing.T) {
	files := map[string][]byte{}
	names, err := filepath.Glob(filepath.Join("..", "testdata", "warc", "*"))
	require.NoError(t, err)
	for _, name := range names {
		if strings.HasSuffix(name, ".txt") || strings.HasSuffix(name, ".md") {
			continue
		}
		b, err := os.ReadFile(name)
		require.NoError(t, err)
		files[filepath.Base(name)] = b
	}
	rng := rand.New(rand.NewPCG(31, 1))
	many := manyMembers(600, rng)
	files["many"] = many
	files["many-cut"] = many[:len(many)*2/3]
	for k := range 12 {
		b := bytes.Clone(many)
		for range 1 + k%3 {
			b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
		}
		files[fmt.Sprintf("many-flipped-%d", k)] = b
	}
	at := len(many) / 2
	files["many-garbage"] = append(append(bytes.Clone(many[:at]), []byte("garbage\x1f\x8b\x08 more")...), many[at:]...)
	gz := files["example.warc.gz"]
	files["example-cut"] = gz[:len(gz)-10]
	for name, b := range files {
		seq := scanTrace(t, b, false)
		pipe := scanTrace(t, b, true)
		assert.Equal(t, seq, pipe, name)
		if name == "many" {
			assert.Greater(t, len(seq), 600, "links of %s", name)
		}
	}
}

// TestPipelineStops: a scan that ends early (the handler's error) stops
// the worker, which reads the source no more.
func TestPipelineStops(t *testing.T) {
	file := manyMembers(300, rand.New(rand.NewPCG(2, 2)))
	before := runtime.NumGoroutine()
	stop := fmt.Errorf("stop")
	src := &pipeCountReader{r: bytes.NewReader(file)}
	_, err := scanWARC(src, Options{Spec: resolve.WHATWG}, WARCHandler{
		Document: func(*Document) error { return stop },
		RecordError: func(e *RecordError) error {
			return nil
		},
	}, true)
	require.ErrorIs(t, err, stop)
	n := src.n
	assert.Less(t, n, int64(len(file)), "read ahead past the queue")
	assert.Equal(t, before, runtime.NumGoroutine())
}

type pipeCountReader struct {
	r io.Reader
	n int64
}

func (c *pipeCountReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestPipelineBounded: the worker keeps at most the queue's chunks
// decoded ahead, however far behind the parser is.
func TestPipelineBounded(t *testing.T) {
	var rec bytes.Buffer
	body := bytes.Repeat([]byte("<a href=x>y</a>\n"), 4<<20/16) // 4 MiB: compresses ~100x
	fmt.Fprintf(&rec, "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: https://big.example/\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", len(body), body)
	var file bytes.Buffer
	for range 8 { // 32 MiB decoded
		z := gzip.NewWriter(&file)
		z.Write(rec.Bytes())
		z.Close()
	}
	w := NewWARCReader(bytes.NewReader(file.Bytes()))
	w.m.pipeOK = true
	defer w.m.stopPipe()
	_, err := w.Next()
	require.NoError(t, err)
	p := w.m.pipe
	require.NotNil(t, p)
	// Let the worker run as far ahead as it can: it fills the queue, then
	// waits for the parser.
	for deadline := time.Now().Add(5 * time.Second); len(p.events) < pipeChunks-1 && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(50 * time.Millisecond)
	// Every decoded chunk is a buffer of the free list's: pipeChunks at most.
	assert.LessOrEqual(t, len(p.events), 3*pipeChunks)
	ahead := 0
	for _, e := range drain(p.events) {
		if e.kind == pipeData {
			ahead += len(e.buf)
		}
	}
	assert.LessOrEqual(t, ahead, pipeChunks*pipeChunk)
	assert.GreaterOrEqual(t, ahead, (pipeChunks-1)*pipeChunk, "the worker runs ahead")
}

func drain(c chan pipeEvent) []pipeEvent {
	var out []pipeEvent
	for {
		select {
		case e := <-c:
			out = append(out, e)
		default:
			return out
		}
	}
}
