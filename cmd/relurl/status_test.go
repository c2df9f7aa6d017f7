package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"github.com/relurl/relurl/cmd/relurl/internal/linkout"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// page returns a WARC response record for http://x.example/NAME whose
// page links to NAME-a and NAME-b (Content-Length declared, or the true
// one when declared < 0), with extra bytes of text before the links.
func page(name string, declared, extra int) string {
	p := fmt.Sprintf("<p>%s%s</p><a href=%s-a>a</a> <img src=%s-b>", strings.Repeat("text ", 40), strings.Repeat("x", extra), name, name)
	http := "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n" + p
	if declared < 0 {
		declared = len(http)
	}
	return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://x.example/" + name +
		"\r\nContent-Length: " + strconv.Itoa(declared) + "\r\n\r\n" + http + "\r\n\r\n"
}

func gz(b string) []byte {
	var buf bytes.Buffer
	z := gzip.NewWriter(&buf)
	z.Write([]byte(b))
	z.Close()
	return buf.Bytes()
}

// members returns a record-at-time .warc.gz and its members' offsets.
func members(recs ...string) ([]byte, []int) {
	var file []byte
	var offs []int
	for _, r := range recs {
		offs = append(offs, len(file))
		file = append(file, gz(r)...)
	}
	return file, offs
}

// zstdWARC returns a .warc.zst (IIPC WARC-zstd: a frame per record, the
// dictionary first in a skippable frame when there is one).
func zstdWARC(t *testing.T, dict []byte, recs ...string) []byte {
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
	for _, r := range recs {
		file = enc.EncodeAll([]byte(r), file)
	}
	return file
}

// pageLinks are the output lines of --fields target,url for the pages.
func pageLinks(names ...string) []string {
	var out []string
	for _, n := range names {
		for _, s := range []string{"a", "b"} {
			out = append(out, fmt.Sprintf(`{"target":"http://x.example/%s","url":"http://x.example/%s-%s"}`, n, n, s))
		}
	}
	return out
}

func recordError(file string, off int, target, msg string) string {
	return fmt.Sprintf(`{"status":"record-error","file":%q,"offset":%d,"target":%q,"error":%q}`, file, off, target, msg)
}

func okStatus(file string, records, links, rerrs int) string {
	return fmt.Sprintf(`{"status":"ok","file":%q,"records":%d,"links":%d,"record_errors":%d}`, file, records, links, rerrs)
}

func errStatus(file, msg string, records, links, rerrs int) string {
	return fmt.Sprintf(`{"status":"error","file":%q,"error":%q,"records":%d,"links":%d,"record_errors":%d}`, file, msg, records, links, rerrs)
}

// runRelurl runs relurl in-process with stdin and returns stdout's lines,
// stderr and the exit status.
func runRelurl(stdin []byte, args ...string) ([]string, string, int) {
	var out, errb bytes.Buffer
	code := run(args, stdio{in: bytes.NewReader(stdin), out: &out, err: &errb})
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if out.Len() == 0 {
		lines = nil
	}
	return lines, errb.String(), code
}

// TestLinksRecovery: for each damaged input (a cut record, a corrupt
// member, a bad length, ...), through
// a file and through standard input: exactly which links survive, which
// status lines appear, and the exit status under --on-error exit (1) and
// report (0).
func TestLinksRecovery(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, data, 0o644))
		return p
	}
	type fixture struct {
		name string
		data []byte
		// want are the output lines, with FILE standing for the file field.
		want   func(file string) []string
		failed bool
		stderr string // a line expected on stderr without --status
	}
	var fixtures []fixture

	// One corrupt gzip member in the middle: its record is reported, the
	// next member goes on.
	corrupt, offs := members(page("r1", -1, 0), page("r2", -1, 0), page("r3", -1, 0), page("r4", -1, 0))
	corrupt[offs[3]-8] ^= 0xff // r3's CRC-32
	fixtures = append(fixtures, fixture{"corrupt.warc.gz", corrupt, func(f string) []string {
		l := append(pageLinks("r1", "r2"), recordError(f, offs[2], "http://x.example/r3",
			fmt.Sprintf("corrupt compressed data: gzip: invalid checksum; resumed at %d", offs[3])))
		return append(append(l, pageLinks("r4")...), okStatus(f, 4, 6, 1))
	}, true, "record at " + strconv.Itoa(offs[2]) + " (http://x.example/r3): corrupt compressed data"})

	// A lying Content-Length in an uncompressed WARC: r1's block would
	// swallow r2; it is cut at r2's WARC/1.1 line, and r2 read again.
	r1, r2, r3 := page("r1", -1, 0), page("r2", -1, 0), page("r3", -1, 0)
	lying := page("r1", len(r1)+40, 0)
	fixtures = append(fixtures, fixture{"lying.warc", []byte(lying + r2 + r3), func(f string) []string {
		l := append(pageLinks("r1"), recordError(f, 0, "http://x.example/r1",
			fmt.Sprintf("Content-Length does not match the record: Content-Length %d runs past the record: a record starts at block offset %d; block cut there and the bytes after it read again",
				len(r1)+40, len(r1)-strings.Index(r1, "HTTP/1.1"))))
		return append(append(l, pageLinks("r2", "r3")...), okStatus(f, 3, 6, 1))
	}, true, ""})

	// A record over the decode bound (--max-size 2000): skipped, the file
	// goes on.
	big, boffs := members(page("r1", -1, 0), page("r2", -1, 3000), page("r3", -1, 0))
	fixtures = append(fixtures, fixture{"big.warc.gz", big, func(f string) []string {
		l := append(pageLinks("r1"), recordError(f, boffs[1], "http://x.example/r2", "too large: payload over 2000 bytes decoded; record skipped"))
		return append(append(l, pageLinks("r3")...), okStatus(f, 3, 4, 1))
	}, true, ""})

	// A truncated file: the complete records, then the cut one.
	trunc, toffs := members(page("r1", -1, 0), page("r2", -1, 0), page("r3", -1, 0))
	trunc = trunc[:toffs[2]+20]
	fixtures = append(fixtures, fixture{"trunc.warc.gz", trunc, func(f string) []string {
		l := append(pageLinks("r1", "r2"), recordError(f, toffs[2], "", fmt.Sprintf("truncated: the file ends inside the gzip member at %d", toffs[2])))
		return append(l, okStatus(f, 2, 4, 1))
	}, true, ""})

	// .warc.zst without and with a dictionary: every link.
	var samples [][]byte
	for i := range 10 {
		samples = append(samples, []byte(page("s"+strconv.Itoa(i), -1, 0)))
	}
	dict, err := zstd.BuildDict(zstd.BuildDictOptions{ID: 7, Contents: samples, History: []byte(page("h", -1, 0))})
	require.NoError(t, err)
	for _, d := range [][]byte{nil, dict} {
		name := "plain.warc.zst"
		if d != nil {
			name = "dict.warc.zst"
		}
		fixtures = append(fixtures, fixture{name, zstdWARC(t, d, page("r1", -1, 0), page("r2", -1, 0)), func(f string) []string {
			return append(pageLinks("r1", "r2"), okStatus(f, 2, 4, 0))
		}, false, ""})
	}

	for _, fx := range fixtures {
		path := write(fx.name, fx.data)
		for _, onError := range []string{"exit", "report"} {
			wantCode := 0
			if fx.failed && onError == "exit" {
				wantCode = 1
			}
			args := []string{"links", "--status", "--fields", "target,url", "--on-error", onError, "--max-size", "2000"}
			t.Run(fx.name+"/file/"+onError, func(t *testing.T) {
				lines, stderr, code := runRelurl(nil, append(args, path)...)
				assert.Equal(t, fx.want(path), lines)
				assert.Equal(t, wantCode, code, stderr)
			})
			t.Run(fx.name+"/stdin/"+onError, func(t *testing.T) {
				lines, stderr, code := runRelurl(fx.data, append(args, "--name", fx.name, "-")...)
				assert.Equal(t, fx.want(fx.name), lines)
				assert.Equal(t, wantCode, code, stderr)
			})
		}
		if fx.stderr != "" {
			t.Run(fx.name+"/stderr", func(t *testing.T) {
				// Without --status the record error is on stderr.
				lines, stderr, code := runRelurl(nil, "links", "--format", "text", path)
				// In the user's terms: no package name.
				assert.Contains(t, stderr, path+": "+fx.stderr)
				assert.NotContains(t, stderr, "archive:")
				assert.Equal(t, 1, code)
				assert.Len(t, lines, 6)
			})
		}
	}
}

// TestLinksStdinNotADocument: random bytes and an empty stream are no
// document: an error status, exit 1 (0 with --on-error report), no link;
// --input-format warc refuses HTML.
func TestLinksStdinNotADocument(t *testing.T) {
	random := make([]byte, 100_000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	random[0] = '<' // not a gzip or zstd start by chance
	tests := []struct {
		name  string
		in    []byte
		flags []string
		msg   string
	}{
		{"random", random, nil, "binary data, not HTML, MHTML or WARC (see --input-format)"},
		{"empty", nil, nil, "empty input"},
		{"empty warc", nil, []string{"--input-format", "warc"}, "empty input"},
		{"html as warc", []byte("<a href=x>x</a>"), []string{"--input-format", "warc"}, `not a WARC file: it starts with neither "WARC/" nor gzip nor zstd (nor ARC's "filedesc://")`},
	}
	for _, tt := range tests {
		for _, onError := range []string{"exit", "report"} {
			args := append([]string{"links", "--status", "--on-error", onError}, tt.flags...)
			lines, stderr, code := runRelurl(tt.in, append(args, "-")...)
			assert.Equal(t, []string{errStatus("-", tt.msg, 0, 0, 0)}, lines, tt.name)
			assert.Contains(t, stderr, "relurl: links: standard input: "+tt.msg, tt.name)
			assert.Equal(t, map[string]int{"exit": 1, "report": 0}[onError], code, tt.name)
		}
	}
	// Usage errors stay 2 under report.
	_, _, code := runRelurl(nil, "links", "--on-error", "report", "--format", "xml", "-")
	assert.Equal(t, 2, code)
	_, _, code = runRelurl(nil, "links", "--on-error", "sometimes", "-")
	assert.Equal(t, 2, code)
	_, _, code = runRelurl(nil, "links", "--fields", "url,nope", "-")
	assert.Equal(t, 2, code)
	_, _, code = runRelurl(nil, "links", "--fields", "url", "--format", "text", "-")
	assert.Equal(t, 2, code)
}

// TestLinksFieldsTSV: --fields keeps the named fields in its order (JSON
// keys; TSV columns); TSV escapes tab, newline, carriage return and
// backslash so that splitting on tabs and unescaping gives every value
// back, equal to the JSON output's; status lines start "#status\t".
func TestLinksFieldsTSV(t *testing.T) {
	html := "<a href=\"a\tb\">x</a><a href='c\\d\ne'>y</a><link rel=\"stylesheet icon\" href=s.css>"
	full, _, code := runRelurl([]byte(html), "links", "--base", "http://x.example/", "-")
	require.Equal(t, 0, code)
	require.Len(t, full, 3)

	fields := []string{"url", "raw", "rel", "line", "record", "file"}
	js, _, code := runRelurl([]byte(html), "links", "--base", "http://x.example/", "--fields", strings.Join(fields, ","), "-")
	require.Equal(t, 0, code)
	tsv, _, code := runRelurl([]byte(html), "links", "--base", "http://x.example/", "--format", "tsv", "--fields", strings.Join(fields, ","), "--status", "-")
	require.Equal(t, 0, code)
	require.Len(t, tsv, 4)
	assert.Equal(t, "#status\t"+okStatus("-", 1, 3, 0), tsv[3])
	for i := range full {
		var all map[string]any
		require.NoError(t, json.Unmarshal([]byte(full[i]), &all))
		// JSON: the named keys, in order, absent ones (record) left out.
		var want bytes.Buffer
		want.WriteByte('{')
		n := 0
		for _, f := range fields {
			v, ok := all[f]
			if !ok {
				continue
			}
			if n > 0 {
				want.WriteByte(',')
			}
			n++
			k, _ := json.Marshal(f)
			b, _ := json.Marshal(v)
			want.Write(k)
			want.WriteByte(':')
			want.Write(b)
		}
		want.WriteByte('}')
		assert.Equal(t, want.String(), js[i])
		// TSV: one column per field, values round-trip.
		cols := strings.Split(tsv[i], "\t")
		require.Len(t, cols, len(fields), tsv[i])
		for j, f := range fields {
			got := linkout.UnescapeTSV(cols[j])
			switch v := all[f].(type) {
			case nil:
				assert.Equal(t, "", got, f)
			case string:
				assert.Equal(t, v, got, f)
			case float64:
				assert.Equal(t, strconv.Itoa(int(v)), got, f)
			case []any:
				var parts []string
				for _, p := range v {
					parts = append(parts, p.(string))
				}
				assert.Equal(t, strings.Join(parts, " "), got, f)
			}
		}
	}
	assert.Equal(t, `a\tb`, strings.Split(tsv[0], "\t")[1])
	assert.Equal(t, `c\\d\ne`, strings.Split(tsv[1], "\t")[1])
	assert.Equal(t, "stylesheet icon", strings.Split(tsv[2], "\t")[2])
}

// TestLinksFromListName: with --from-list, the file field is the list
// line as given, not the path joined onto --list-root.
func TestLinksFromListName(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "a.html"), []byte("<a href=x>x</a>"), 0o644))
	file, _ := members(page("r1", -1, 0))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "c.warc.gz"), file, 0o644))
	list := "./sub//a.html\nc.warc.gz\nsub\nmissing.warc.gz\n"
	lines, _, code := runRelurl([]byte(list), "links", "--from-list", "-", "--list-root", dir, "--base", "http://x.example/", "--fields", "file,url", "--status", "--on-error", "report")
	assert.Equal(t, 0, code)
	assert.Equal(t, []string{
		`{"file":"./sub//a.html","url":"http://x.example/sub/x"}`,
		okStatus("./sub//a.html", 1, 1, 0),
		`{"file":"c.warc.gz","url":"http://x.example/r1-a"}`,
		`{"file":"c.warc.gz","url":"http://x.example/r1-b"}`,
		okStatus("c.warc.gz", 1, 2, 0),
		`{"file":"sub/a.html","url":"http://x.example/sub/x"}`,
		okStatus("sub/a.html", 1, 1, 0),
		errStatus("missing.warc.gz", "stat "+filepath.Join(dir, "missing.warc.gz")+": no such file or directory", 0, 0, 0),
	}, lines)
}

// TestLinksARC: .arc and .arc.gz files (warcio's fixtures) are read like
// WARC files, by name and on standard input by their "filedesc://" start.
func TestLinksARC(t *testing.T) {
	for _, f := range []string{"example.arc", "example.arc.gz"} {
		path := filepath.Join("..", "..", "testdata", "warc", f)
		want := []string{`{"target":"http://example.com/","url":"http://www.iana.org/domains/example"}`, okStatus(path, 2, 1, 0)}
		lines, stderr, code := runRelurl(nil, "links", "--status", "--fields", "target,url", path)
		assert.Equal(t, want, lines)
		assert.Equal(t, 0, code, stderr)
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		want[1] = okStatus("-", 2, 1, 0)
		lines, stderr, code = runRelurl(data, "links", "--status", "--fields", "target,url", "-")
		assert.Equal(t, want, lines)
		assert.Equal(t, 0, code, stderr)
	}
}

// TestLinksStdinWARCStreams: the links of a WARC record on standard input
// come out while the input is still open (the command is a filter), and
// the status line when it ends.
func TestLinksStdinWARCStreams(t *testing.T) {
	pr, pw := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"links", "--status", "--fields", "target,url", "-"}, stdio{in: pr, out: outW, err: io.Discard})
		outW.Close()
	}()
	lines := bufio.NewReader(outR)
	first, _ := members(page("r1", -1, 0))
	go pw.Write(first)
	got := make(chan string)
	go func() {
		l, _ := lines.ReadString('\n')
		got <- l
	}()
	select {
	case l := <-got:
		assert.Equal(t, pageLinks("r1")[0]+"\n", l)
	case <-time.After(10 * time.Second):
		t.Fatal("no link while standard input is open")
	}
	second, _ := members(page("r2", -1, 0))
	go func() {
		pw.Write(second)
		pw.Close()
	}()
	rest, _ := io.ReadAll(lines)
	assert.Equal(t, strings.Join(append(pageLinks("r1")[1:], append(pageLinks("r2"), okStatus("-", 2, 4, 0))...), "\n")+"\n", string(rest))
	assert.Equal(t, 0, <-done)
}

// TestLinksFromListLineTooLong: a list line over 1 MiB is skipped, named
// on stderr and in an error status line for the list; the lines after it
// are read.
func TestLinksFromListLineTooLong(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "a.html"), []byte("<a href=x>x</a>"), 0o644))
	list := strings.Repeat("x", 2<<20) + "\na.html\n"
	lines, stderr, code := runRelurl([]byte(list), "links", "--from-list", "-", "--list-root", dir, "--base", "http://x.example/", "--fields", "url", "--status", "--on-error", "report")
	assert.Equal(t, 0, code)
	assert.Contains(t, stderr, "line longer than 1 MiB")
	assert.Equal(t, []string{`{"url":"http://x.example/x"}`, okStatus("a.html", 1, 1, 0), errStatus("-", "--from-list: line longer than 1 MiB", 0, 0, 0)}, lines)
	_, _, code = runRelurl([]byte(list), "links", "--from-list", "-", "--list-root", dir, "--base", "http://x.example/")
	assert.Equal(t, 1, code)
}
