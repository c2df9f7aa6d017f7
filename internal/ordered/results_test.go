package ordered

import (
	"errors"
	"fmt"
	"iter"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestResultsKeepsInputOrder(t *testing.T) {
	items := make([]int, 200)
	for i := range items {
		items[i] = i
	}
	var running, peak atomic.Int32
	var got []int
	err := Results(4, slices.Values(items), func(i int) int {
		n := running.Add(1)
		for {
			p := peak.Load()
			if n <= p || peak.CompareAndSwap(p, n) {
				break
			}
		}
		// Later items finish first, so order has to be restored.
		time.Sleep(time.Duration(200-i) * time.Microsecond)
		running.Add(-1)
		return i * i
	}, func(i, sq int) error {
		assert.Equal(t, i*i, sq)
		got = append(got, i)
		return nil
	})
	assert.NoError(t, err)
	assert.Equal(t, items, got)
	assert.LessOrEqual(t, peak.Load(), int32(4), "no more than the workers asked for")
	assert.Greater(t, peak.Load(), int32(1), "work runs in parallel")
}

func TestResultsStopsOnError(t *testing.T) {
	before := runtime.NumGoroutine()
	boom := errors.New("boom")
	var started atomic.Int32
	endless := iter.Seq[int](func(yield func(int) bool) {
		for i := 0; ; i++ {
			if !yield(i) {
				return
			}
		}
	})
	err := Results(3, endless, func(i int) int { started.Add(1); return i }, func(i, _ int) error {
		if i == 10 {
			return boom
		}
		return nil
	})
	assert.ErrorIs(t, err, boom)
	assert.Less(t, started.Load(), int32(10+3*3+3), "the window bounds the work started past the error")
	time.Sleep(10 * time.Millisecond)
	assert.LessOrEqual(t, runtime.NumGoroutine(), before+1, "no goroutine is left behind")
}

func TestResultsEmptyAndZeroWorkers(t *testing.T) {
	n := 0
	err := Results(0, slices.Values([]int{1, 2, 3}), func(i int) int { return i }, func(int, int) error { n++; return nil })
	assert.NoError(t, err)
	assert.Equal(t, 3, n)
	err = Results(2, slices.Values([]int(nil)), func(i int) int { return i }, func(int, int) error { n++; return nil })
	assert.NoError(t, err)
	assert.Equal(t, 3, n)
}

// spin is CPU work with no memory traffic and no system calls.
func spin(n int) int {
	x := 0
	for i := range n {
		x = x*31 + i
	}
	return x
}

// BenchmarkResults is the control for the tree benchmarks of cmd/relurl:
// work that only needs a CPU, through the same pool, with one worker and
// with two. Its j=2/j=1 ratio is the most any tree run on the same machine
// at the same moment can reach; on a machine shared with other jobs it is
// well below 2.
func BenchmarkResults(b *testing.B) {
	items := make([]int, 256)
	for _, j := range []int{1, 2} {
		b.Run(fmt.Sprintf("j=%d", j), func(b *testing.B) {
			for b.Loop() {
				Results(j, slices.Values(items), func(int) int { return spin(200000) }, func(int, int) error { return nil })
			}
		})
	}
}
