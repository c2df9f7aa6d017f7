// Package progress draws the one-line progress display of relurl's long
// commands (rewrite, links over trees, check, materialize) on a terminal:
// files done, the total once the walk knows it ("123/?" until then), the
// rate over the last seconds and the time left. It draws nothing when its
// output is not a terminal, and it takes the line away before any other
// output line is written (through [Bar.Writer]), so that no warning,
// report line or summary is ever glued to it.
//
// Every method works on a nil *Bar, which does nothing: that is the
// display of a command whose standard error is not a terminal.
package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"
)

// Interval is how often the line is drawn again (tests shorten it to draw
// at every file).
var Interval = 200 * time.Millisecond

const (
	// window is how far back the rate looks: long enough to even out a
	// few slow files, short enough to follow a change of pace.
	window = 5 * time.Second
	// warmup is how long the rate is not shown: the first files' rate
	// says nothing of the rest (a few small files in a millisecond).
	warmup = time.Second
)

// A Bar is the progress display of one command on a terminal.
type Bar struct {
	mu       sync.Mutex
	w        io.Writer
	what     string
	now      func() time.Time
	width    func() int    // the terminal's columns, 0 if unknown
	interval time.Duration // Interval when made

	done, total int
	known       bool // total is known
	start       time.Time
	samples     []sample // (time, done) of the last window, oldest first
	lastDraw    time.Time

	drawn     bool // the line is on the terminal
	lineStart bool // the terminal's cursor is at the start of a line
	finished  bool
	stop      chan struct{}
}

type sample struct {
	t    time.Time
	done int
}

// New returns the display of a command called what on f, or nil when f is
// not a terminal. It draws the line again every 200 ms until Finish, so
// that the time left moves on while one large file is read.
func New(f *os.File, what string) *Bar {
	if f == nil || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	fd := int(f.Fd())
	b := newBar(f, what, time.Now, func() int {
		w, _, err := term.GetSize(fd)
		if err != nil {
			return 0
		}
		return w
	})
	go b.tick()
	return b
}

func newBar(w io.Writer, what string, now func() time.Time, width func() int) *Bar {
	t := now()
	return &Bar{w: w, what: what, now: now, width: width, interval: Interval, start: t,
		samples: []sample{{t, 0}}, lineStart: true, stop: make(chan struct{})}
}

func (b *Bar) tick() {
	t := time.NewTicker(max(b.interval, 10*time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
			b.mu.Lock()
			b.draw()
			b.mu.Unlock()
		}
	}
}

// Add counts n more files done.
func (b *Bar) Add(n int) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.done += n
	if b.known && b.done > b.total {
		b.total = b.done // a file added to the tree while it was walked
	}
	if b.now().Sub(b.lastDraw) >= b.interval {
		b.draw()
	}
}

// SetTotal says how many files there are in all, once the walk knows.
func (b *Bar) SetTotal(n int) {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.total, b.known = max(n, b.done), true
	// Drawn now, not at the next file: the walk may end after the last one.
	if b.now().Sub(b.lastDraw) >= b.interval {
		b.draw()
	}
}

// Finish takes the line away for good.
func (b *Bar) Finish() {
	if b == nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.finished {
		b.finished = true
		close(b.stop)
	}
	b.clear()
}

// Writer returns w, which writes to the same terminal, made to take the
// line away before each write, and to draw it again only once what was
// written ends a line. On a nil Bar it returns w.
func (b *Bar) Writer(w io.Writer) io.Writer {
	if b == nil {
		return w
	}
	return &lineWriter{b, w}
}

type lineWriter struct {
	b *Bar
	w io.Writer
}

func (lw *lineWriter) Write(p []byte) (int, error) {
	b := lw.b
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(p) == 0 {
		return 0, nil
	}
	b.clear()
	n, err := lw.w.Write(p)
	if n > 0 {
		b.lineStart = p[n-1] == '\n'
	}
	return n, err
}

// clear takes the line away (mu held).
func (b *Bar) clear() {
	if b.drawn {
		io.WriteString(b.w, "\r\x1b[K")
		b.drawn = false
	}
}

// draw writes the line over the last one (mu held): not while another
// line is half written, nor after Finish.
func (b *Bar) draw() {
	if b.finished || !b.lineStart {
		return
	}
	t := b.now()
	b.lastDraw = t
	b.sample(t)
	line := b.line(t)
	if w := b.width(); w > 1 && len(line) > w-1 {
		line = line[:w-1] // a wrapped line could not be taken away
	}
	io.WriteString(b.w, "\r"+line+"\x1b[K")
	b.drawn = true
}

// sample records (t, done) and forgets the samples older than the window,
// keeping one from before it to measure from.
func (b *Bar) sample(t time.Time) {
	b.samples = append(b.samples, sample{t, b.done})
	i := 0
	for i+1 < len(b.samples) && t.Sub(b.samples[i+1].t) >= window {
		i++
	}
	b.samples = b.samples[i:]
}

// rate returns the files per second over the last window, and false
// during the warm-up.
func (b *Bar) rate(t time.Time) (float64, bool) {
	if t.Sub(b.start) < warmup {
		return 0, false
	}
	first := b.samples[0]
	span := t.Sub(first.t).Seconds()
	if span <= 0 {
		return 0, false
	}
	return float64(b.done-first.done) / span, true
}

// line is the text of the display at time t.
func (b *Bar) line(t time.Time) string {
	var sb strings.Builder
	sb.WriteString(b.what)
	if b.known && b.total > 0 {
		fmt.Fprintf(&sb, " %3d%% (%d/%d", b.done*100/b.total, b.done, b.total)
	} else if b.known {
		fmt.Fprintf(&sb, " (%d/%d", b.done, b.total)
	} else {
		fmt.Fprintf(&sb, " (%d/?", b.done)
	}
	if r, ok := b.rate(t); ok {
		fmt.Fprintf(&sb, ", %s files/s", formatRate(r))
		if b.known && r > 0 {
			left := time.Duration(float64(b.total-b.done) / r * float64(time.Second))
			fmt.Fprintf(&sb, ", ETA %s", formatETA(left))
		}
	}
	sb.WriteString(")")
	return sb.String()
}

// formatRate writes r with two significant digits below 10, whole above.
func formatRate(r float64) string {
	if r < 10 {
		return fmt.Sprintf("%.1f", r)
	}
	return fmt.Sprintf("%.0f", r)
}

// formatETA writes d as 4s, 3m04s or 1h02m.
func formatETA(d time.Duration) string {
	s := int(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s%3600/60)
}

// IsTerminal reports whether w is a terminal.
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
