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

	"github.com/relurl/relurl/internal/countio"
	"github.com/relurl/relurl/link"
	"github.com/relurl/relurl/resolve"
)

// scanTrace scans file with or without the pipeline and returns what the
// handler was given, in order: links, record errors, the scan's end.
func scanTrace(t *testing.T, file []byte, pipelined bool) []string {
	return scanTraceFrom(t, bytes.NewReader(file), Options{Spec: resolve.WHATWG}, pipelined)
}

// scanTraceFrom is scanTrace of r with opts.
func scanTraceFrom(t *testing.T, r io.Reader, opts Options, pipelined bool) []string {
	t.Helper()
	var out []string
	link := func(l WARCLink) error {
		out = append(out, fmt.Sprintf("link %d %q %q %q %v %v %q %q", l.Record, l.Target, l.Raw, l.URL, l.Kind, l.Base.Source, l.Base.URL, l.Attr))
		return nil
	}
	st, err := scanWARC(r, opts, WARCHandler{
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
	for _, rec := range manyRecords(n, rng) {
		z := gzip.NewWriter(&file)
		z.Write(rec)
		z.Close()
	}
	return file.Bytes()
}

// manyFrames is manyMembers as a .warc.zst: one zstd frame a record,
// after a dictionary frame when dict is not nil.
func manyFrames(t *testing.T, n int, rng *rand.Rand, dict []byte) []byte {
	var recs []string
	for _, rec := range manyRecords(n, rng) {
		recs = append(recs, string(rec))
	}
	file, _ := zstdFrames(t, dict, recs...)
	return file
}

// manyRecords are the records of manyMembers.
func manyRecords(n int, rng *rand.Rand) [][]byte {
	var out [][]byte
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
		out = append(out, rec.Bytes())
	}
	return out
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
	damaged := func(name string, many []byte, magic string) {
		files[name] = many
		files[name+"-cut"] = many[:len(many)*2/3]
		for k := range 12 {
			b := bytes.Clone(many)
			for range 1 + k%3 {
				b[rng.IntN(len(b))] ^= byte(1 + rng.IntN(255))
			}
			files[fmt.Sprintf("%s-flipped-%d", name, k)] = b
		}
		at := len(many) / 2
		files[name+"-garbage"] = append(append(bytes.Clone(many[:at]), []byte("garbage"+magic+" more")...), many[at:]...)
	}
	damaged("many", manyMembers(600, rng), "\x1f\x8b\x08")
	damaged("many.zst", manyFrames(t, 300, rng, nil), "\x28\xb5\x2f\xfd")
	damaged("many-dict.zst", manyFrames(t, 200, rng, testDict(t)), "\x28\xb5\x2f\xfd")
	gz := files["example.warc.gz"]
	files["example-cut"] = gz[:len(gz)-10]
	for name, b := range files {
		seq := scanTrace(t, b, false)
		pipe := scanTrace(t, b, true)
		assert.Equal(t, seq, pipe, name)
		// As a stream read as it comes, a few bytes at a time.
		st := &Stream{R: &dribble{r: bytes.NewReader(b), rng: rand.New(rand.NewPCG(uint64(len(b)), 7))}}
		stream := scanTraceFrom(t, st, Options{Spec: resolve.WHATWG, Stream: st}, true)
		assert.Equal(t, seq, stream, name+" as a stream")
		if strings.HasPrefix(name, "many") && !strings.Contains(name, "-") {
			assert.Greater(t, len(seq), 200, "links of %s", name)
		}
	}
}

// dribble gives at most a few kilobytes a read, as a pipe does.
type dribble struct {
	r   io.Reader
	rng *rand.Rand
}

func (d *dribble) Read(p []byte) (int, error) {
	return d.r.Read(p[:min(len(p), 1+d.rng.IntN(8<<10))])
}

// TestPipelineZstd: a .warc.zst is decoded on the worker, as a .warc.gz,
// with or without a dictionary frame.
func TestPipelineZstd(t *testing.T) {
	for _, dict := range [][]byte{nil, testDict(t)} {
		file := manyFrames(t, 20, rand.New(rand.NewPCG(3, 3)), dict)
		w := NewWARCReader(bytes.NewReader(file))
		w.pipeline(nil)
		rec, err := w.Next()
		require.NoError(t, err)
		assert.NotNil(t, w.m.pipe, "the worker decodes the frames")
		assert.Equal(t, "https://m.example/0/", rec.TargetURI)
		n := 1
		for {
			_, err := w.Next()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			n++
		}
		assert.Equal(t, 20, n)
		assert.Nil(t, w.m.pipe, "the worker stopped at the end")
		require.NoError(t, w.Close())
	}
}

// TestPipelineStream: a stream read as it comes goes through the worker;
// each record is given as soon as its member has come, before the next
// is written; the stream's Wait runs on the goroutine that reads the
// records (each time it waits for the worker), never on the worker's,
// which reads the stream (under -race, a write of waits there would be
// a race with the reads of it here).
func TestPipelineStream(t *testing.T) {
	recs := manyRecords(5, rand.New(rand.NewPCG(5, 5)))
	pr, pw := io.Pipe()
	waits := 0
	st := &Stream{R: pr, Wait: func() error { waits++; return nil }}
	w := NewWARCReader(st)
	w.pipeline(st)
	defer w.Close()
	for i, rec := range recs {
		var m bytes.Buffer
		z := gzip.NewWriter(&m)
		z.Write(rec)
		z.Close()
		go func() {
			time.Sleep(20 * time.Millisecond) // most likely after Next waits
			pw.Write(m.Bytes())
		}()
		got, err := w.Next()
		require.NoError(t, err)
		assert.Equal(t, fmt.Sprintf("https://m.example/%d/", i), got.TargetURI)
		if i > 0 {
			assert.NotNil(t, w.m.pipe, "the worker reads the stream")
		}
	}
	assert.Positive(t, waits, "Wait before waiting for the worker")
	pw.Close()
	_, err := w.Next()
	assert.Equal(t, io.EOF, err)
}

// TestPipelineStops: a scan that ends early (the handler's error) stops
// the worker, which reads the source no more.
func TestPipelineStops(t *testing.T) {
	file := manyMembers(300, rand.New(rand.NewPCG(2, 2)))
	before := runtime.NumGoroutine()
	stop := fmt.Errorf("stop")
	src := &countio.Reader{R: bytes.NewReader(file)}
	_, err := scanWARC(src, Options{Spec: resolve.WHATWG}, WARCHandler{
		Document: func(*Document) error { return stop },
		RecordError: func(e *RecordError) error {
			return nil
		},
	}, true)
	require.ErrorIs(t, err, stop)
	n := src.N
	assert.Less(t, n, int64(len(file)), "read ahead past the queue")
	// Other tests' goroutines may still be ending: wait a little for the
	// count to come back rather than compare one instant.
	for end := time.Now().Add(2 * time.Second); runtime.NumGoroutine() > before && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	assert.LessOrEqual(t, runtime.NumGoroutine(), before, "goroutines after the scan")
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

// BenchmarkWARCPipeline extracts the links of corpus A from a .warc.gz
// and a .warc.zst, each sequentially, pipelined, and pipelined as a
// Stream (standard input); MB/s counts uncompressed HTML. With two
// cores, pipelined takes the longer of decoding and parsing, sequential
// their sum.
func BenchmarkWARCPipeline(b *testing.B) {
	gz, size := corpusWARC(b)
	var recs []string
	w := NewWARCReader(bytes.NewReader(gz))
	for {
		rec, err := w.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			b.Fatal(err)
		}
		block, _ := io.ReadAll(rec.Block)
		recs = append(recs, fmt.Sprintf("WARC/1.1\r\nWARC-Type: %s\r\nWARC-Target-URI: %s\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n",
			rec.Type, rec.TargetURI, rec.Header.Get("Content-Type"), len(block), block))
	}
	zst, _ := zstdFrames(&testing.T{}, nil, recs...)
	for _, f := range []struct {
		name string
		file []byte
	}{{"gz", gz}, {"zst", zst}} {
		for _, mode := range []string{"sequential", "pipelined", "stream"} {
			b.Run(f.name+"/"+mode, func(b *testing.B) {
				b.SetBytes(size)
				opts := Options{Spec: resolve.WHATWG}
				n := 0
				count := func(link.Link) error { n++; return nil }
				for b.Loop() {
					n = 0
					var src io.Reader = bytes.NewReader(f.file)
					if mode == "stream" {
						opts.Stream = &Stream{R: src}
						src = opts.Stream
					}
					_, err := scanWARC(src, opts, WARCHandler{
						Link:     count,
						Document: func(d *Document) error { return readArchived(d, opts, count) },
					}, mode != "sequential")
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(n), "links/op")
			})
		}
	}
}
