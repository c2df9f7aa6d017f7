package testkit

import (
	"testing"
	"time"
)

// Linear checks that the work of run grows at most linearly with n: it
// times run(n) and run(2n), taking turns, each the fastest of seven
// tries (a shared machine only ever adds time), and fails when doubling n more than
// multiplies the time by maxGrowth (2.5 is linear with a margin; a
// quadratic reader gives 4). n should make run(n) take some
// milliseconds, so that timer and scheduling noise stay small; under
// -short the test is skipped, as timing is not a unit test's business.
func Linear(t *testing.T, n int, maxGrowth float64, run func(n int)) {
	t.Helper()
	if testing.Short() {
		t.Skip("timing: not under -short")
	}
	// The two sizes take turns, so that a load on the machine falls on
	// both alike; each keeps its fastest try (load only ever adds time).
	measure := func() (t1, t2 time.Duration) {
		for i := range 7 {
			start := time.Now()
			run(n)
			d1 := time.Since(start)
			start = time.Now()
			run(2 * n)
			d2 := time.Since(start)
			if i == 0 || d1 < t1 {
				t1 = d1
			}
			if i == 0 || d2 < t2 {
				t2 = d2
			}
		}
		return t1, t2
	}
	run(n) // warm: the first run pays for what is built once
	// Below a millisecond the ratio is noise: a floor keeps it honest.
	const floor = time.Millisecond
	t1, t2 := measure()
	growth := float64(max(t2, floor)) / float64(max(t1, floor))
	t.Logf("n=%d: %v; 2n: %v (×%.2f)", n, t1, t2, growth)
	// A loaded machine can still slow one side: more tries before failing.
	for try := 0; growth > maxGrowth && try < 4; try++ {
		t1, t2 = measure()
		growth = float64(max(t2, floor)) / float64(max(t1, floor))
		t.Logf("again: n=%d: %v; 2n: %v (×%.2f)", n, t1, t2, growth)
	}
	if growth > maxGrowth {
		t.Errorf("doubling the input multiplied the time by %.2f (more than %.1f): not linear", growth, maxGrowth)
	}
}
