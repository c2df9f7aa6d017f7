package progress

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// clock is a fake time source the test moves on.
type clock struct{ t time.Time }

func (c *clock) now() time.Time          { return c.t }
func (c *clock) advance(d time.Duration) { c.t = c.t.Add(d) }

func testBar(width int) (*Bar, *bytes.Buffer, *clock) {
	var buf bytes.Buffer
	c := &clock{time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	return newBar(&buf, "rewrite", c.now, func() int { return width }), &buf, c
}

// screen is what a terminal shows after out: "\r" goes back to the start
// of the line, ESC [ K clears the rest of it, "\n" ends it.
func screen(out string) []string {
	var lines []string
	var cur []byte
	col := 0
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '\r':
			col = 0
		case out[i] == '\n':
			lines = append(lines, string(cur))
			cur, col = nil, 0
		case strings.HasPrefix(out[i:], "\x1b[K"):
			cur = cur[:col]
			i += 2
		default:
			if col < len(cur) {
				cur[col] = out[i]
			} else {
				cur = append(cur, out[i])
			}
			col++
		}
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

// last returns the last line drawn in out.
func last(out string) string {
	i := strings.LastIndex(out, "\r")
	j := strings.LastIndex(out, "\x1b[K")
	if i < 0 || j < i {
		return ""
	}
	return out[i+1 : j]
}

func TestLine(t *testing.T) {
	b, buf, c := testBar(200)
	b.Add(1)
	// Drawn at once, with no total and no rate yet.
	if got, want := last(buf.String()), "rewrite (1/?)"; got != want {
		t.Errorf("first line = %q, want %q", got, want)
	}
	// A burst of small files in the first instant shows no rate: the
	// rate waits for a second of history.
	c.advance(time.Millisecond)
	b.Add(500)
	c.advance(Interval)
	b.Add(1)
	if got, want := last(buf.String()), "rewrite (502/?)"; got != want {
		t.Errorf("during warm-up = %q, want %q", got, want)
	}
	// Then a steady 10 files/s for 10 s: the rate is the window's, not
	// the burst's, and the total once known gives the percentage and ETA.
	for range 49 {
		c.advance(Interval)
		b.Add(2)
	}
	b.SetTotal(1002)
	c.advance(Interval)
	b.Add(2)
	if got, want := last(buf.String()), "rewrite  60% (602/1002, 10 files/s, ETA 40s)"; got != want {
		t.Errorf("steady = %q, want %q", got, want)
	}
}

func TestFormatETA(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{4 * time.Second, "4s"},
		{184 * time.Second, "3m04s"},
		{3720 * time.Second, "1h02m"},
	} {
		if got := formatETA(tt.d); got != tt.want {
			t.Errorf("formatETA(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

// TestClearedBeforeOutput: no line written through Writer is glued to the
// display, and the display comes back only at the start of a line.
func TestClearedBeforeOutput(t *testing.T) {
	b, buf, c := testBar(200)
	out, errw := b.Writer(buf), b.Writer(buf)
	b.Add(1)
	out.Write([]byte("a.html: would rewrite 1 of 2 links\n"))
	c.advance(Interval)
	b.Add(1)
	errw.Write([]byte("relurl: b.html: warning: "))
	c.advance(Interval)
	b.Add(1) // not drawn: a line is half written
	errw.Write([]byte("something\n"))
	c.advance(Interval)
	b.Add(1)
	b.Finish()
	got := screen(buf.String())
	want := []string{"a.html: would rewrite 1 of 2 links", "relurl: b.html: warning: something"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("screen:\n%q\nwant\n%q\n(raw %q)", got, want, buf.String())
	}
	if n := strings.Count(buf.String(), "rewrite ("); n != 3 {
		t.Errorf("drawn %d times, want 3 (raw %q)", n, buf.String())
	}
	// After Finish nothing is drawn.
	n := buf.Len()
	c.advance(time.Second)
	b.Add(1)
	b.mu.Lock()
	b.draw()
	b.mu.Unlock()
	if buf.Len() != n {
		t.Errorf("drawn after Finish: %q", buf.String()[n:])
	}
}

// TestNarrow: the line never wraps (a wrapped line could not be taken
// away with "\r").
func TestNarrow(t *testing.T) {
	b, buf, _ := testBar(10)
	b.Add(123456)
	if got := last(buf.String()); len(got) != 9 {
		t.Errorf("line %q on a 10-column terminal", got)
	}
}

// TestNotATerminal: New gives no display for a file or a pipe, and a nil
// Bar writes nothing and passes writes through.
func TestNotATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "err"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for _, out := range []*os.File{f, w} {
		if b := New(out, "rewrite"); b != nil {
			t.Errorf("New(%s) = %v, want nil", out.Name(), b)
		}
	}
	var b *Bar
	b.Add(1)
	b.SetTotal(2)
	var buf bytes.Buffer
	if b.Writer(&buf) != &buf {
		t.Error("nil Bar's Writer is not the writer")
	}
	b.Finish()
}
