package htmlrewrite

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/stretchr/testify/require"

	"github.com/relurl/relurl/internal/testkit"
	"github.com/relurl/relurl/link"
)

// TestPassedRuns: tokens passed in runs (scanner.pass: written and their
// lines counted once per run, when the run ends or the tokenizer's
// buffer moves) give the output and the link positions of a token-by-token
// reading. Read a byte and half a buffer at a time, the runs end at every
// buffer move; every link's line and column are checked against a count
// of the document's bytes before its offset, in Links and in Rewrite's
// Options.Map, with a tag dropped (BaseRemove) between passed tokens.
func TestPassedRuns(t *testing.T) {
	var b strings.Builder
	b.WriteString("<!DOCTYPE html>\n<html><head>\n<base href=\"http://ex.com/b/\">\n<!-- a\ncomment -->\n")
	for i := range 400 {
		b.WriteString(strings.Repeat("text\n", i%4))
		switch i % 5 {
		case 0:
			b.WriteString("<a href=\"p.html\">x</a>")
		case 1:
			b.WriteString("<p class=x>y\n</p>")
		case 2:
			b.WriteString("<img\nsrc=i.png alt=\"\n\">")
		case 3:
			b.WriteString("<style>\na{b:url(s.png)}\n</style>")
		case 4:
			b.WriteString("<script>\nvar x = '<a href=no>';\n</script>")
		}
	}
	docs := map[string]string{"made": b.String()}
	if os.Getenv(testkit.CorpusEnvA) != "" {
		for i, p := range testkit.PagesA(t) {
			if i%8 == 0 {
				docs[p.Name] = string(p.Data)
			}
		}
	}
	for name, doc := range docs {
		checkRuns(t, name, doc)
	}
}

func checkRuns(t *testing.T, name, doc string) {
	t.Helper()
	check := func(how string, l link.Link) {
		line := 1 + strings.Count(doc[:l.Offset], "\n")
		col := int(l.Offset) - strings.LastIndexByte(doc[:l.Offset], '\n')
		if l.Line != line || l.Column != col {
			t.Fatalf("%s %s: %+v: at line %d column %d", name, how, l, line, col)
		}
	}
	readers := map[string]func(io.Reader) io.Reader{
		"whole":    func(r io.Reader) io.Reader { return r },
		"one byte": iotest.OneByteReader,
		"half":     iotest.HalfReader,
	}
	var want []link.Link
	var wantOut string
	for _, rn := range []string{"whole", "one byte", "half"} {
		var links, copies []link.Link
		opts := testOptions()
		_, err := Links(readers[rn](strings.NewReader(doc)), opts, func(l link.Link) error {
			check("links/"+rn, l)
			links = append(links, l)
			copies = append(copies, deepCopy(l))
			return nil
		})
		require.NoError(t, err, name)
		// A Link's strings are its own: none changes when the reader
		// reads on (they would if they aliased the tokenizer's buffer).
		for i := range links {
			l, c := links[i], copies[i]
			require.Equal(t, fmt.Sprint(c.Err), fmt.Sprint(l.Err), "%s/%s: link %d changed after its token", name, rn, i)
			l.Err, c.Err = nil, nil
			require.Equal(t, c, l, "%s/%s: link %d changed after its token", name, rn, i)
		}
		var mapped []link.Link
		opts.Map = func(l link.Link) (string, bool) {
			check("map/"+rn, l)
			mapped = append(mapped, l)
			return "", false
		}
		opts.Base = BaseRemove
		var out bytes.Buffer
		_, err = Rewrite(&out, readers[rn](strings.NewReader(doc)), opts)
		require.NoError(t, err, name)
		if rn == "whole" {
			want, wantOut = links, out.String()
			require.NotEmpty(t, mapped, name)
			continue
		}
		require.Equal(t, len(want), len(links), "%s/%s: links", name, rn)
		for i := range want {
			require.Equal(t, want[i], links[i], "%s/%s: link %d", name, rn, i)
		}
		require.Equal(t, wantOut, out.String(), "%s/%s: output", name, rn)
	}
}

// deepCopy copies l's strings into new memory.
func deepCopy(l link.Link) link.Link {
	c := l
	c.Raw, c.URL, c.Tag, c.Attr = strings.Clone(l.Raw), strings.Clone(l.URL), strings.Clone(l.Tag), strings.Clone(l.Attr)
	c.Rel = nil
	for _, r := range l.Rel {
		c.Rel = append(c.Rel, strings.Clone(r))
	}
	if l.Err != nil {
		c.Err = errors.New(l.Err.Error()) // compared by message
	}
	return c
}

// TestLastNewline: lastNewline is bytes.LastIndexByte(b, '\n').
func TestLastNewline(t *testing.T) {
	for n := 0; n < 40; n++ {
		for at := -1; at < n; at++ {
			for _, fill := range []byte{'x', 0x8a, 0x0b, 0x09} {
				b := bytes.Repeat([]byte{fill}, n)
				if at >= 0 {
					b[at] = '\n'
					if at > 3 {
						b[at-3] = '\n'
					}
				}
				if got, want := lastNewline(b), bytes.LastIndexByte(b, '\n'); got != want {
					t.Fatalf("%q: %d, want %d", b, got, want)
				}
			}
		}
	}
}

// TestLinksRunsNotCut: in Links, placing a link counts the lines of the
// passed tokens before it where they are, without ending their run: a
// document in one buffer is handed over in a run or two, not one per
// link (ending the run at every link was a Flush, a call and a shorter
// run each time).
func TestLinksRunsNotCut(t *testing.T) {
	doc := strings.Repeat("<p>text\n<a href=\"x.html\">x</a> and <img\nsrc=i.png>\n", 200)
	runs := func(w *bufio.Writer) (int, int) {
		n := 0
		s, r, err := newScanner(strings.NewReader(doc), testOptions(), w, func(l link.Link) error {
			n++
			line := 1 + strings.Count(doc[:l.Offset], "\n")
			col := int(l.Offset) - strings.LastIndexByte(doc[:l.Offset], '\n')
			if l.Line != line || l.Column != col {
				t.Fatalf("%+v: at line %d column %d", l, line, col)
			}
			return nil
		})
		require.NoError(t, err)
		calls := 0
		s.ranFn = func(b []byte) { calls++; s.ran(b) }
		require.NoError(t, s.run(r))
		return calls, n
	}
	calls, n := runs(nil)
	if n != 400 || calls > 2 {
		t.Fatalf("Links: %d links, runs handed over %d times, want at most 2", n, calls)
	}
}
