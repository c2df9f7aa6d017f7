package linkout

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/harvest"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/link"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewMode(t *testing.T) {
	for _, tc := range []struct{ format, fields, err string }{
		{"jsonl", "", ""},
		{"text", "", ""},
		{"tsv", "url,file", ""},
		{"jsonl", "url, base_source", ""},
		{"csv", "", `--format is "jsonl", "text" or "tsv", not "csv"`},
		{"text", "url", "--fields goes with --format jsonl or tsv"},
		{"jsonl", "url,nope", `unknown field "nope" in --fields (fields: raw, url, error, tag, attr, kind, rel, line, column, offset, file, file_encoding, part, target_part, record, target, base, base_source, inert)`},
	} {
		_, err := NewMode(tc.format, tc.fields)
		if tc.err == "" {
			assert.NoError(t, err, "%s %s", tc.format, tc.fields)
		} else {
			assert.EqualError(t, err, tc.err, "%s %s", tc.format, tc.fields)
		}
	}
}

// testLink is a link of an HTML document, its base from a <base href>.
func testLink(raw string) link.Link {
	return link.Link{Raw: raw, URL: "https://example.com/" + raw, Tag: "a", Attr: "href", Kind: link.Navigation, Line: 1, Column: 10, Offset: 9,
		Base: base.Result{URL: "https://example.com/", Source: base.Embedded}}
}

// TestWriter: the records of each format, and what the status says.
func TestWriter(t *testing.T) {
	bad := testLink("x")
	bad.URL, bad.Err = "", pkgError("bad URL")
	for _, tc := range []struct {
		format, fields string
		want           string
	}{
		{"jsonl", "", `{"raw":"a.html","url":"https://example.com/a.html","tag":"a","attr":"href","kind":"navigation","rel":[],"line":1,"column":10,"offset":9,"file":"d/f.html","base":"https://example.com/","base_source":"embedded"}` + "\n" +
			`{"raw":"x","error":"bad URL","tag":"a","attr":"href","kind":"navigation","rel":[],"line":1,"column":10,"offset":9,"file":"d/f.html","base":"https://example.com/","base_source":"embedded"}` + "\n"},
		{"text", "", "https://example.com/a.html\n"},
		{"tsv", "url,raw,file", "https://example.com/a.html\ta.html\td/f.html\n\tx\td/f.html\n"},
	} {
		m, err := NewMode(tc.format, tc.fields)
		require.NoError(t, err)
		var out bytes.Buffer
		w := NewWriter(ordered.Direct(Out(&out, false, nil)), "d/f.html", m)
		require.NoError(t, w.Link(base.HTML, testLink("a.html")))
		require.NoError(t, w.Link(base.HTML, bad))
		assert.Equal(t, tc.want, out.String(), tc.format)
		r := w.Result(harvest.Result{Warnings: []string{"w"}})
		assert.Equal(t, Result{Warnings: []string{"w"}, Status: Status{File: "d/f.html", Links: 2}}, r, "a link with an error counts")
	}
}

// TestWriterArchives: an MHTML link names its part, a WARC link its
// record; a file name that is not UTF-8 is percent-encoded.
func TestWriterArchives(t *testing.T) {
	m, _ := NewMode("jsonl", "file,file_encoding,part,target_part,record,target")
	var out bytes.Buffer
	w := NewWriter(ordered.Direct(Out(&out, false, nil)), "a\xff.mht", m)
	l := testLink("a.html")
	l.Part, l.TargetPart = "index.html", "a.html"
	w.Link(base.MHTML, l)
	l = testLink("b.html")
	l.Record, l.Target = 0, "https://example.com/"
	w.Link(base.WARC, l)
	assert.Equal(t, `{"file":"a%FF.mht","file_encoding":"percent","part":"index.html","target_part":"a.html"}`+"\n"+
		`{"file":"a%FF.mht","file_encoding":"percent","record":0,"target":"https://example.com/"}`+"\n", out.String())
}

// TestRecordErrors: in band as a status line with --status (after
// "#status\t" in TSV), else on stderr; counted in the status either way.
func TestRecordErrors(t *testing.T) {
	re := &archive.RecordError{Offset: 312, Target: "https://t.example/", Err: archive.ErrTruncated, Detail: "cut"}
	for _, tc := range []struct {
		format      string
		status      bool
		out, stderr string
	}{
		{"jsonl", true, `{"status":"record-error","file":"w.warc","offset":312,"target":"https://t.example/","error":"` + re.Message() + `"}` + "\n", ""},
		{"tsv", true, "#status\t" + `{"status":"record-error","file":"w.warc","offset":312,"target":"https://t.example/","error":"` + re.Message() + `"}` + "\n", ""},
		{"jsonl", false, "", "w.warc: " + re.Error() + "\n"},
	} {
		m, _ := NewMode(tc.format, "")
		m.Status = tc.status
		var out, stderr bytes.Buffer
		m.Stderr = NewStderr(&stderr, func(format string, a ...any) { fmt.Fprintf(&stderr, format+"\n", a...) })
		w := NewWriter(ordered.Direct(Out(&out, false, nil)), "w.warc", m)
		require.NoError(t, w.RecordError(re))
		assert.Equal(t, tc.out, out.String())
		assert.Equal(t, tc.stderr, stderr.String())
		st := w.Result(harvest.Result{Records: 3, RecordErrors: 1}).Status
		assert.True(t, st.Failed(), "a record lost fails the input")
		assert.Equal(t, Status{File: "w.warc", Records: 3, RecordErrors: 1}, st)
	}
}

// TestFinish: the status line (jsonl, tsv; ok, error in the user's
// terms, a file name that is not UTF-8) and the Hadoop counters.
func TestFinish(t *testing.T) {
	for _, tc := range []struct {
		format   string
		st       Status
		line     string
		counters string
	}{
		{"jsonl", Status{File: "a.html", Links: 3}, `{"status":"ok","file":"a.html","records":0,"links":3,"record_errors":0}` + "\n",
			"reporter:counter:relurl,inputs,1\nreporter:counter:relurl,links,3\n"},
		{"tsv", Status{File: "w.warc", Records: 5, Links: 7, RecordErrors: 2}, "#status\t" + `{"status":"ok","file":"w.warc","records":5,"links":7,"record_errors":2}` + "\n",
			"reporter:counter:relurl,inputs,1\nreporter:counter:relurl,records,5\nreporter:counter:relurl,links,7\nreporter:counter:relurl,record_errors,2\n"},
		{"jsonl", Status{File: "b\xff.html", Err: pkgError("gone")}, `{"status":"error","file":"b%FF.html","file_encoding":"percent","error":"gone","records":0,"links":0,"record_errors":0}` + "\n",
			"reporter:counter:relurl,inputs,1\nreporter:counter:relurl,inputs_failed,1\n"},
	} {
		m, _ := NewMode(tc.format, "")
		var out, stderr bytes.Buffer
		m.Stderr = NewStderr(&stderr, nil)
		out.Reset()
		require.NoError(t, m.Finish(Out(&out, false, nil), &tc.st))
		assert.Equal(t, "", out.String()+stderr.String(), "neither --status nor --counters")
		m.Status, m.HadoopCounters = true, true
		require.NoError(t, m.Finish(Out(&out, false, nil), &tc.st))
		assert.Equal(t, tc.line, out.String())
		assert.Equal(t, tc.counters, stderr.String())
	}
}

// TestOutUnique: a URL is written once; records without a URL (status
// lines) always.
func TestOutUnique(t *testing.T) {
	var b bytes.Buffer
	full := 0
	out := Out(&b, true, func() { full++ })
	for _, r := range []struct{ key, rec string }{{"u1", "a\n"}, {"u2", "b\n"}, {"u1", "c\n"}, {"", "s\n"}, {"", "s\n"}} {
		require.NoError(t, out(r.key, []byte(r.rec)))
	}
	assert.Equal(t, "a\nb\ns\ns\n", b.String())
	assert.Equal(t, 0, full)
}

// TestFailed: an input that could not be read fails with its error and
// its status line says so.
func TestFailed(t *testing.T) {
	err := errors.New("no such file")
	r := Failed("gone.html", err)
	assert.True(t, r.Status.Failed())
	m, _ := NewMode("jsonl", "")
	assert.Equal(t, `{"status":"error","file":"gone.html","error":"no such file","records":0,"links":0,"record_errors":0}`+"\n", string(m.StatusLine(&r.Status)))
}

// TestNoKeys: with NoKeys the records go to the sink without their URL
// as key (so that a buffered input's records are written in one call,
// ordered.Out), otherwise with it (Out's unique set needs it).
func TestNoKeys(t *testing.T) {
	for _, noKeys := range []bool{false, true} {
		var keys []string
		sink := ordered.Direct(func(key string, _ []byte) error {
			keys = append(keys, key)
			return nil
		})
		m, err := NewMode("jsonl", "")
		require.NoError(t, err)
		m.NoKeys = noKeys
		w := NewWriter(sink, "f.html", m)
		require.NoError(t, w.Link(base.HTML, link.Link{Raw: "a", URL: "https://x.example/a"}))
		want := "https://x.example/a"
		if noKeys {
			want = ""
		}
		assert.Equal(t, []string{want}, keys, "NoKeys %v", noKeys)
	}
}

// TestLinkAllocs: writing a link's record allocates nothing, in every
// kind of input: the record, its MHTML part and WARC record offset are
// the writer's own (an allocation a link was what an archive's links
// cost before).
func TestLinkAllocs(t *testing.T) {
	m, _ := NewMode("jsonl", "")
	w := NewWriter(ordered.Direct(Out(io.Discard, false, nil)), "a.mht", m)
	l := testLink("a.html")
	l.Part, l.TargetPart, l.Record, l.Target = "index.html", "a.html", 99, "https://t.example/"
	for _, k := range []base.Format{base.HTML, base.MHTML, base.WARC} {
		w.Link(k, l) // the line buffer grows once
		if n := testing.AllocsPerRun(100, func() { w.Link(k, l) }); n != 0 {
			t.Errorf("%v: %.1f allocations a link, want 0", k, n)
		}
	}
}

// pkgError is a library's error: its text starts with its package's name,
// its Text (package errtext) is without it, as records and statuses say it.
type pkgError string

func (e pkgError) Error() string { return "pkg: " + string(e) }
func (e pkgError) Text() string  { return string(e) }
