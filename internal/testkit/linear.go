package testkit

import (
	"testing"
	"time"
)

// Linear checks that the work of run grows at most linearly with n: it
// times run(n) and run(2n), each the fastest of seven tries (a shared
// machine only ever adds time), and fails when doubling n more than
// multiplies the time by maxGrowth (2.5 is linear with a margin; a
// quadratic reader gives 4). n should make run(n) take some
// milliseconds, so that timer and scheduling noise stay small; under
// -short the test is skipped, as timing is not a unit test's business.
func Linear(t *testing.T, n int, maxGrowth float64, run func(n int)) {
	t.Helper()
	if testing.Short() {
		t.Skip("timing: not under -short")
	}
	best := func(n int) time.Duration {
		var min time.Duration
		for i := range 7 {
			start := time.Now()
			run(n)
			d := time.Since(start)
			if i == 0 || d < min {
				min = d
			}
		}
		return min
	}
	run(n) // warm: the first run pays for what is built once
	t1, t2 := best(n), best(2*n)
	// Below a millisecond the ratio is noise: a floor keeps it honest.
	const floor = time.Millisecond
	growth := float64(max(t2, floor)) / float64(max(t1, floor))
	t.Logf("n=%d: %v; 2n: %v (×%.2f)", n, t1, t2, growth)
	// A loaded machine can slow one side: two more tries before failing.
	for try := 0; growth > maxGrowth && try < 2; try++ {
		t1, t2 = best(n), best(2*n)
		growth = float64(max(t2, floor)) / float64(max(t1, floor))
		t.Logf("again: n=%d: %v; 2n: %v (×%.2f)", n, t1, t2, growth)
	}
	if growth > maxGrowth {
		t.Errorf("doubling the input multiplied the time by %.2f (more than %.1f): not linear", growth, maxGrowth)
	}
}
