package archive

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/klauspost/compress/zstd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/resolve"
)

// htmlRecord returns a WARC response record for http://x.example/NAME
// whose page links to NAME-a and NAME-b, with Content-Length declared
// (the true length when declared < 0).
func htmlRecord(name string, declared int) string {
	page := fmt.Sprintf("<p>%s</p><a href=%s-a>a</a> <img src=%s-b>", strings.Repeat("text ", 40), name, name)
	http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
	if declared < 0 {
		declared = len(http)
	}
	return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.example/" + name +
		"\r\nContent-Type: application/http;msgtype=response\r\nContent-Length: " + strconv.Itoa(declared) + "\r\n\r\n" + http + "\r\n\r\n"
}

// gzipMembers compresses each record as its own member, and returns the
// file and where each member starts.
func gzipMembers(recs ...string) ([]byte, []int) {
	var file []byte
	var offs []int
	for _, r := range recs {
		offs = append(offs, len(file))
		file = append(file, gzipBytes([]byte(r))...)
	}
	return file, offs
}

// event is one thing ScanWARCLinks reported: a link ("target -> url") or
// a record error ("error at OFFSET (target): kind").
type scan struct {
	events []string
	stats  scanStats
	err    error
}

func scanLinks(data []byte, lim Limits) scan {
	var s scan
	s.stats, s.err = ScanWARCLinks(bytes.NewReader(data), Options{Spec: resolve.RFC3986, Limits: lim},
		func(l WARCLink) error {
			s.events = append(s.events, strings.TrimPrefix(l.Target, "http://x.example/")+" -> "+strings.TrimPrefix(l.URL, "http://x.example/"))
			return nil
		},
		func(e *RecordError) error {
			s.events = append(s.events, fmt.Sprintf("error at %d (%s): %v", e.Offset, strings.TrimPrefix(e.Target, "http://x.example/"), e.Err))
			return nil
		})
	return s
}

func links(names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, n+" -> "+n+"-a", n+" -> "+n+"-b")
	}
	return out
}

// TestRecoverCorruptMember: one damaged gzip member in the middle of a
// record-at-time .warc.gz (WARC 1.1 Annex D) costs that record only: a
// record error at the member's offset, then the next member.
func TestRecoverCorruptMember(t *testing.T) {
	file, offs := gzipMembers(htmlRecord("r1", -1), htmlRecord("r2", -1), htmlRecord("r3", -1), htmlRecord("r4", -1))
	for _, tc := range []struct {
		name    string
		damage  func([]byte)
		target  string
		records int64
	}{
		// Deflate data garbled near the member's end: its header decodes,
		// so the error names the record.
		{"inflate", func(f []byte) {
			for i := offs[3] - 30; i < offs[3]-12; i++ {
				f[i] ^= 0x55
			}
		}, "r3", 4},
		// CRC-32 wrong (RFC 1952 §2.3.1): every byte decodes, none is
		// trusted.
		{"crc", func(f []byte) { f[offs[3]-8] ^= 0xff }, "r3", 4},
		// The member's header itself: nothing of it is known.
		{"header", func(f []byte) { f[offs[2]+2] = 0x07 }, "", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := bytes.Clone(file)
			tc.damage(f)
			s := scanLinks(f, Limits{})
			require.NoError(t, s.err)
			want := append(links("r1", "r2"), fmt.Sprintf("error at %d (%s): %v", offs[2], tc.target, ErrCorrupt))
			want = append(want, links("r4")...)
			assert.Equal(t, want, s.events)
			assert.Equal(t, scanStats{WARCStats: WARCStats{Records: tc.records, Documents: 3, RecordErrors: 1}, Links: 6}, s.stats)
		})
	}
	t.Run("message", func(t *testing.T) {
		f := bytes.Clone(file)
		f[offs[3]-8] ^= 0xff
		_, err := ScanWARCLinks(bytes.NewReader(f), Options{Spec: resolve.RFC3986}, func(WARCLink) error { return nil }, nil)
		assert.EqualError(t, err, fmt.Sprintf("archive: record at %d (http://x.example/r3): corrupt compressed data: gzip: invalid checksum; resumed at %d", offs[2], offs[3]))
	})
}

// TestRecoverGzipGarbage: bytes between members, and a run of members
// that are not WARC, are skipped to the next member that starts a record.
func TestRecoverGzipGarbage(t *testing.T) {
	r1, r2 := gzipBytes([]byte(htmlRecord("r1", -1))), gzipBytes([]byte(htmlRecord("r2", -1)))
	junk := append([]byte("\x1f\x8b\x08 junk"), gzipBytes([]byte("not a record"))...)
	f := append(append(append([]byte{}, r1...), junk...), r2...)
	s := scanLinks(f, Limits{})
	require.NoError(t, s.err)
	want := append(links("r1"), fmt.Sprintf("error at %d (): %v", len(r1), ErrCorrupt))
	assert.Equal(t, append(want, links("r2")...), s.events)
}

// TestRecoverLyingLengthGzip: with a member per record, the member
// boundary beats Content-Length both ways.
func TestRecoverLyingLengthGzip(t *testing.T) {
	long, offs := gzipMembers(htmlRecord("r1", -1), htmlRecord("r2", 5000), htmlRecord("r3", -1))
	s := scanLinks(long, Limits{})
	require.NoError(t, s.err)
	want := append(links("r1", "r2"), fmt.Sprintf("error at %d (r2): %v", offs[1], ErrContentLength))
	assert.Equal(t, append(want, links("r3")...), s.events)

	// Too short: the block is cut, its links up to there are the
	// record's; the rest of the member is reported skipped.
	short, offs := gzipMembers(htmlRecord("r1", -1), htmlRecord("r2", 275), htmlRecord("r3", -1))
	s = scanLinks(short, Limits{})
	require.NoError(t, s.err)
	want = append(links("r1"), "r2 -> r2-a", fmt.Sprintf("error at %d (r2): %v", offs[1], ErrContentLength))
	assert.Equal(t, append(want, links("r3")...), s.events)
}

// TestRecoverLyingLengthPlain: in an uncompressed WARC, a Content-Length
// that swallows the next record is found by the trailer check (WARC 1.1
// §4: a block is followed by CRLF CRLF); the block is cut at the "WARC/1."
// line inside it and the swallowed records are read again, so each link
// keeps its own record.
func TestRecoverLyingLengthPlain(t *testing.T) {
	r1, r3 := htmlRecord("r1", -1), htmlRecord("r3", -1)
	r2 := htmlRecord("r2", -1)
	lying := htmlRecord("r1", len(r1)+40) // r1's block runs into r2's header
	data := []byte(lying + r2 + r3)
	s := scanLinks(data, Limits{})
	require.NoError(t, s.err)
	want := append(links("r1"), "error at 0 (r1): "+ErrContentLength.Error())
	assert.Equal(t, append(want, links("r2", "r3")...), s.events)

	w := NewWARCReader(bytes.NewReader(data))
	got, _, rerrs, err := readRecordsErrors(t, bytes.NewReader(data))
	require.NoError(t, err)
	_ = w
	require.Len(t, got, 3)
	assert.Equal(t, int64(len(lying)), got[1].Offset, "r2 is at its own offset")
	assert.Equal(t, int64(len(lying)+len(r2)), got[2].Offset)
	require.Len(t, rerrs, 1)
	assert.Contains(t, rerrs[0].Detail, "block cut there and the bytes after it read again")

	// Too short: the rest of r1 up to r2's "WARC/" line is skipped and
	// reported under r1.
	s = scanLinks([]byte(htmlRecord("r1", 275)+r2+r3), Limits{})
	require.NoError(t, s.err)
	want = []string{"r1 -> r1-a", "error at 0 (r1): " + ErrContentLength.Error()}
	assert.Equal(t, append(want, links("r2", "r3")...), s.events)
	_ = r3
}

// TestRecoverMalformedHeader: a record without a Content-Length is
// skipped to the next "WARC/" line, reported once.
func TestRecoverMalformedHeader(t *testing.T) {
	bad := strings.Replace(htmlRecord("r2", -1), "Content-Length:", "Content-Lenght:", 1)
	data := htmlRecord("r1", -1) + bad + htmlRecord("r3", -1)
	s := scanLinks([]byte(data), Limits{})
	require.NoError(t, s.err)
	want := append(links("r1"), fmt.Sprintf("error at %d (r2): %v", len(htmlRecord("r1", -1)), ErrNotWARC))
	assert.Equal(t, append(want, links("r3")...), s.events)
	// The same in a per-record .warc.gz.
	file, offs := gzipMembers(htmlRecord("r1", -1), bad, htmlRecord("r3", -1))
	s = scanLinks(file, Limits{})
	require.NoError(t, s.err)
	want = append(links("r1"), fmt.Sprintf("error at %d (r2): %v", offs[1], ErrNotWARC))
	assert.Equal(t, append(want, links("r3")...), s.events)
}

// TestRecoverTooLarge: a record whose payload decodes past
// Limits.DecodedBytes is a record error; the file goes on.
func TestRecoverTooLarge(t *testing.T) {
	big := strings.Replace(htmlRecord("r2", -1), "<p>", "<p>"+strings.Repeat("x", 5000), 1)
	big = strings.Replace(big, "Content-Length: "+strconv.Itoa(len(htmlRecord("r2", -1))), "", 1)
	http := big[strings.Index(big, "HTTP/1.1"):strings.LastIndex(big, "\r\n\r\n")]
	big = "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.example/r2\r\nContent-Length: " + strconv.Itoa(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
	file, offs := gzipMembers(htmlRecord("r1", -1), big, htmlRecord("r3", -1))
	s := scanLinks(file, Limits{DecodedBytes: 4096})
	require.NoError(t, s.err)
	want := append(links("r1"), fmt.Sprintf("error at %d (r2): %v", offs[1], ErrTooLarge))
	assert.Equal(t, append(want, links("r3")...), s.events)
	assert.Equal(t, scanStats{WARCStats: WARCStats{Records: 3, Documents: 2, RecordErrors: 1}, Links: 4}, s.stats)
}

// TestRecoverTruncated: a file cut inside its last member keeps every
// complete record and reports the cut one.
func TestRecoverTruncated(t *testing.T) {
	file, offs := gzipMembers(htmlRecord("r1", -1), htmlRecord("r2", -1), htmlRecord("r3", -1))
	// Cut inside the deflate data, nothing of r3 is known (its one
	// deflate block is not complete); cut in the trailer, every byte of
	// it decoded but unchecked (no CRC-32): its links do not count.
	for _, cut := range []int{offs[2] + 5, offs[2] + (len(file)-offs[2])/2, len(file) - 3} {
		s := scanLinks(file[:cut], Limits{})
		require.NoError(t, s.err)
		target := ""
		if cut == len(file)-3 {
			target = "r3"
		}
		assert.Equal(t, append(links("r1", "r2"), fmt.Sprintf("error at %d (%s): %v", offs[2], target, ErrTruncated)),
			s.events, "cut at %d", cut)
	}
	// Plain: the record is read as far as it goes.
	plain := htmlRecord("r1", -1) + htmlRecord("r2", -1)
	s := scanLinks([]byte(plain[:len(plain)-10]), Limits{})
	require.NoError(t, s.err)
	assert.Equal(t, append(links("r1"), "r2 -> r2-a", "error at "+strconv.Itoa(len(htmlRecord("r1", -1)))+" (r2): "+ErrTruncated.Error()), s.events)
}

// zstdFrames compresses each record as its own zstd frame (with the
// dictionary, when given, in a skippable frame first: the IIPC WARC-zstd
// convention).
func zstdFrames(t *testing.T, dict []byte, recs ...string) ([]byte, []int) {
	opts := []zstd.EOption{zstd.WithEncoderCRC(true)}
	var file []byte
	if dict != nil {
		opts = append(opts, zstd.WithEncoderDict(dict))
		file = binary.LittleEndian.AppendUint32(file, 0x184D2A5D)
		file = binary.LittleEndian.AppendUint32(file, uint32(len(dict)))
		file = append(file, dict...)
	}
	enc, err := zstd.NewWriter(nil, opts...)
	require.NoError(t, err)
	var offs []int
	for _, r := range recs {
		offs = append(offs, len(file))
		file = enc.EncodeAll([]byte(r), file)
	}
	return file, offs
}

func testDict(t *testing.T) []byte {
	var samples [][]byte
	for i := range 20 {
		samples = append(samples, []byte(htmlRecord("s"+strconv.Itoa(i), -1)))
	}
	dict, err := zstd.BuildDict(zstd.BuildDictOptions{ID: 4242, Contents: samples, History: []byte(htmlRecord("hist", -1))})
	require.NoError(t, err)
	return dict
}

// TestWARCZstd: .warc.zst with and without a dictionary gives the
// records at their frames' offsets, and a damaged frame costs its record
// only.
func TestWARCZstd(t *testing.T) {
	for _, dict := range [][]byte{nil, testDict(t)} {
		name := "no dictionary"
		if dict != nil {
			name = "dictionary"
		}
		t.Run(name, func(t *testing.T) {
			file, offs := zstdFrames(t, dict, htmlRecord("r1", -1), htmlRecord("r2", -1), htmlRecord("r3", -1))
			if dict != nil {
				assert.Less(t, len(file)-offs[0], 3*len(gzipBytes([]byte(htmlRecord("r1", -1)))), "the dictionary is used")
			}
			s := scanLinks(file, Limits{})
			require.NoError(t, s.err)
			assert.Equal(t, links("r1", "r2", "r3"), s.events)
			got, _, err := readRecords(t, bytes.NewReader(file))
			require.NoError(t, err)
			require.Len(t, got, 3)
			for i := range got {
				assert.Equal(t, int64(offs[i]), got[i].Offset)
			}
			// A damaged frame: its checksum fails; the next frame goes on.
			f := bytes.Clone(file)
			f[offs[2]-2] ^= 0xff
			s = scanLinks(f, Limits{})
			require.NoError(t, s.err)
			// The frame is one block, checked before any byte comes out:
			// its record is not known.
			want := append(links("r1"), fmt.Sprintf("error at %d (): %v", offs[1], ErrCorrupt))
			assert.Equal(t, append(want, links("r3")...), s.events)
		})
	}
	// The dictionary may itself be zstd-compressed (the convention's
	// second form).
	dict := testDict(t)
	file, _ := zstdFrames(t, dict, htmlRecord("r1", -1))
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	zd := enc.EncodeAll(dict, nil)
	packed := binary.LittleEndian.AppendUint32(binary.LittleEndian.AppendUint32(nil, 0x184D2A5D), uint32(len(zd)))
	packed = append(append(packed, zd...), file[8+len(dict):]...)
	s := scanLinks(packed, Limits{})
	require.NoError(t, s.err)
	assert.Equal(t, links("r1"), s.events)
	// A frame that needs a dictionary the file does not carry.
	s = scanLinks(file[8+len(dict):], Limits{})
	require.NoError(t, s.err)
	assert.Len(t, s.events, 1)
	assert.Contains(t, s.events[0], ErrCorrupt.Error())
}

// TestWARCReaderStreamsGzip: a multi-member file goes through a reader
// that gives one byte at a time, with the same records as at once.
func TestWARCReaderStreamsGzip(t *testing.T) {
	file, _ := gzipMembers(htmlRecord("r1", -1), htmlRecord("r2", -1))
	a, _, err := readRecords(t, bytes.NewReader(file))
	require.NoError(t, err)
	b, _, err := readRecords(t, oneByte{bytes.NewReader(file)})
	require.NoError(t, err)
	assert.Equal(t, a, b)
	var whole bytes.Buffer
	z := gzip.NewWriter(&whole)
	io.WriteString(z, htmlRecord("r1", -1)+htmlRecord("r2", -1))
	z.Close()
	c, _, err := readRecords(t, oneByte{&whole})
	require.NoError(t, err)
	assert.Len(t, c, 2)
}

type oneByte struct{ r io.Reader }

func (o oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(1, len(p))]) }

// TestRevisitCacheBounded: the revisit cache keeps the most recent
// payloads up to maxRevisitCache bytes: a revisit of an evicted payload
// gives no links (its payload is not in reach), one of a recent payload
// gives its links against the revisit's own target.
func TestRevisitCacheBounded(t *testing.T) {
	resp := func(i int) string {
		page := fmt.Sprintf("<a href=p%d>x</a>", i) + strings.Repeat(" ", maxRevisitCache/5)
		http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + page
		return fmt.Sprintf("WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.example/%d\r\nWARC-Payload-Digest: sha1:D%d\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", i, i, len(http), http)
	}
	revisit := func(i int) string {
		http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
		return fmt.Sprintf("WARC/1.1\r\nWARC-Type: revisit\r\nWARC-Target-URI: http://x.example/again%d\r\nWARC-Payload-Digest: sha1:D%d\r\nContent-Length: %d\r\n\r\n%s\r\n\r\n", i, i, len(http), http)
	}
	var data strings.Builder
	for i := range 7 {
		data.WriteString(resp(i))
	}
	data.WriteString(revisit(0) + revisit(6))
	s := scanLinks([]byte(data.String()), Limits{})
	require.NoError(t, s.err)
	assert.Equal(t, []string{"0 -> p0", "1 -> p1", "2 -> p2", "3 -> p3", "4 -> p4", "5 -> p5", "6 -> p6", "again6 -> p6"}, s.events)
}

// TestRecoverRandomDamage: whatever bytes of one member of a
// record-at-time .warc.gz are damaged (one to eight random bytes
// flipped, or the member cut short by a random amount), every link comes
// from its own record, every record but the damaged one gives all its
// links, and the damaged one gives all its links or none with a record
// error at its member's offset.
func TestRecoverRandomDamage(t *testing.T) {
	const n = 8
	var recs []string
	var names []string
	for i := range n {
		name := "r" + strconv.Itoa(i)
		names = append(names, name)
		recs = append(recs, htmlRecord(name, -1))
	}
	file, offs := gzipMembers(recs...)
	offs = append(offs, len(file))
	rng := rand.New(rand.NewPCG(7, 8))
	for iter := range damageIterations {
		f := bytes.Clone(file)
		victim := rng.IntN(n)
		start, end := offs[victim], offs[victim+1]
		if iter%4 == 3 {
			cut := start + 1 + rng.IntN(end-start-1)
			f = append(f[:cut:cut], file[end:]...)
		} else {
			for range 1 + rng.IntN(8) {
				f[start+rng.IntN(end-start)] ^= byte(1 + rng.IntN(255))
			}
		}
		got := map[string]int{}
		errAt := map[int64]bool{}
		_, err := ScanWARCLinks(bytes.NewReader(f), Options{Spec: resolve.RFC3986}, func(l WARCLink) error {
			name := strings.TrimPrefix(l.Target, "http://x.example/")
			if !strings.HasPrefix(l.URL, "http://x.example/"+name+"-") {
				t.Fatalf("iteration %d: link %s given to record %s", iter, l.URL, l.Target)
			}
			got[name]++
			return nil
		}, func(e *RecordError) error {
			errAt[e.Offset] = true
			return nil
		})
		require.NoError(t, err, "iteration %d", iter)
		for i, name := range names {
			if i == victim {
				if got[name] != 2 {
					assert.True(t, errAt[int64(start)], "iteration %d: damaged record %s gave %d links and no error at %d (errors at %v)", iter, name, got[name], start, errAt)
				}
				continue
			}
			assert.Equal(t, 2, got[name], "iteration %d: record %s (damage in %s)", iter, name, names[victim])
		}
	}
}

// TestRecoverRandomDamagePlain: in an uncompressed WARC, nothing checks
// the bytes, so a damaged record may give what its damaged bytes hold;
// but no link of another record is given to it, and every other record
// gives all its links, under its own offset.
func TestRecoverRandomDamagePlain(t *testing.T) {
	names := []string{"aaaa", "bbbb", "cccc", "dddd", "eeee", "ffff"}
	var recs []string
	offs := []int{0}
	for i, name := range names {
		recs = append(recs, htmlRecord(name, -1))
		offs = append(offs, offs[i]+len(recs[i]))
	}
	file := []byte(strings.Join(recs, ""))
	rng := rand.New(rand.NewPCG(3, 4))
	for iter := range damageIterations {
		f, victim := damagePlain(rng, file, offs)
		got := map[string]int{}
		_, err := ScanWARCLinks(bytes.NewReader(f), Options{Spec: resolve.RFC3986}, func(l WARCLink) error {
			for i, name := range names {
				if strings.Contains(l.Raw, name) && i != victim && l.Record != int64(offs[i]) {
					t.Fatalf("iteration %d: link %s of record %d given to the record at %d", iter, l.Raw, offs[i], l.Record)
				}
				if l.Record == int64(offs[i]) && i != victim {
					got[name]++
				}
			}
			return nil
		}, func(*RecordError) error { return nil })
		require.NoError(t, err, "iteration %d", iter)
		for i, name := range names {
			if i != victim {
				assert.Equal(t, 2, got[name], "iteration %d: record %s (damage in %s)", iter, name, names[victim])
			}
		}
	}
}

// damagePlain damages one to four bytes of one record of file (records
// at offs): a digit (often of Content-Length) or a flipped byte.
func damagePlain(rng *rand.Rand, file []byte, offs []int) ([]byte, int) {
	f := bytes.Clone(file)
	victim := rng.IntN(len(offs) - 1)
	start, end := offs[victim], offs[victim+1]
	for range 1 + rng.IntN(4) {
		p := start + rng.IntN(end-start)
		if rng.IntN(2) == 0 {
			f[p] = byte('0' + rng.IntN(10))
		} else {
			f[p] ^= byte(1 + rng.IntN(255))
		}
	}
	return f, victim
}

// TestWARCWarnings: what a record's payload's base left to say (here a
// <base> inside <svg>, ignored) reaches WARCStats.Warnings, naming the
// record.
func TestWARCWarnings(t *testing.T) {
	http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<svg><base href=\"/x/\"></svg><a href=a>a</a>"
	rec := "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.example/\r\nContent-Length: " + strconv.Itoa(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
	st, err := ScanWARCLinks(strings.NewReader(rec+rec), Options{Spec: resolve.WHATWG}, func(WARCLink) error { return nil }, nil)
	require.NoError(t, err)
	require.Len(t, st.Warnings, 2)
	assert.True(t, strings.HasPrefix(st.Warnings[0], "record at 0: "), st.Warnings[0])
	assert.True(t, strings.HasPrefix(st.Warnings[1], "record at "+strconv.Itoa(len(rec))+": "), st.Warnings[1])
	assert.Contains(t, st.Warnings[0], "<base href>")
}

// TestWARCNotRead: a record whose payload is in an encoding whose bytes
// cannot be read as they are (an HTML page declaring ISO-2022-JP in a
// <meta>, one served as ISO-2022-KR, the "replacement" encoding) gives no links and is named in WARCStats.Warnings,
// as an MHTML part is; it used to pass without a word.
func TestWARCNotRead(t *testing.T) {
	record := func(ct, body string) string {
		http := "HTTP/1.1 200 OK\r\nContent-Type: " + ct + "\r\n\r\n" + body
		return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.example/\r\nContent-Length: " + strconv.Itoa(len(http)) + "\r\n\r\n" + http + "\r\n\r\n"
	}
	html := record("text/html", `<meta charset="iso-2022-jp"><a href=a>a</a>`)
	other := record("text/html; charset=iso-2022-kr", `<a href=b>b</a>`) // the "replacement" encoding
	n := 0
	st, err := ScanWARCLinks(strings.NewReader(html+other), Options{Spec: resolve.WHATWG}, func(WARCLink) error { n++; return nil }, nil)
	require.NoError(t, err)
	assert.Zero(t, n, "links")
	require.Len(t, st.Warnings, 2)
	assert.Equal(t, "record at 0: not read for links: the document's encoding is not ASCII-compatible: iso-2022-jp", st.Warnings[0])
	assert.True(t, strings.HasPrefix(st.Warnings[1], "record at "+strconv.Itoa(len(html))+": not read for links: "), st.Warnings[1])
}

// TestWARCZstdWindow: a valid frame whose window is larger than the
// decoder holds is named as such (a *WindowError, with its window and
// the limit), not as corrupt data; the next frame is read.
func TestWARCZstdWindow(t *testing.T) {
	file, _ := zstdFrames(t, nil, htmlRecord("r1", -1))
	// A frame declaring a 1 GiB window (Window_Descriptor: exponent 20),
	// then a frame as the encoder writes it.
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderCRC(true))
	require.NoError(t, err)
	big := enc.EncodeAll([]byte(htmlRecord("r2", -1)), nil)
	if big[4]&0x20 != 0 {
		// Single segment: no Window_Descriptor. Declare the window in
		// one (the header grows by a byte); a 1-byte Frame_Content_Size
		// exists only in a single segment.
		require.NotZero(t, big[4]>>6, "a record this size has a 2-byte or longer content size")
		big = append(append([]byte{}, big[:4]...), append([]byte{big[4] &^ 0x20, 20 << 3}, big[5:]...)...)
	} else {
		big[5] = 20 << 3
	}
	file = append(file, big...)
	file = append(file, zstdFramesOnly(t, htmlRecord("r3", -1))...)
	s := scanLinks(file, Limits{})
	require.NoError(t, s.err)
	var found bool
	for _, e := range s.events {
		if strings.Contains(e, "zstd window 1073741824 exceeds limit 8388608") {
			found = true
		}
		assert.NotContains(t, e, ErrCorrupt.Error())
	}
	assert.True(t, found, "%q", s.events)
	assert.Contains(t, s.events, links("r3")[0])
}

func zstdFramesOnly(t *testing.T, recs ...string) []byte {
	file, _ := zstdFrames(t, nil, recs...)
	return file
}
