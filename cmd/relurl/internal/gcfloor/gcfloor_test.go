package gcfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

var sink []byte

// churn allocates n bytes of garbage in 32 KiB pieces (a page's buffers)
// while live stays reachable, and returns how many collections ran and
// the largest heap goal seen after one.
func churn(t *testing.T, n int, live [][]byte) (cycles uint32, maxGoal uint64) {
	t.Helper()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	start := ms.NumGC
	goal := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}}
	last := start
	for i := 0; i < n; i += 32 << 10 {
		sink = make([]byte, 32<<10)
		if i%(1<<20) == 0 {
			// Let the finalizer that adjusts GOGC run between cycles,
			// as it does in a program that does more than allocate.
			runtime.Gosched()
			runtime.ReadMemStats(&ms)
			// The first two cycles run on what the finalizer of the
			// collection before set (it runs after it, concurrently).
			if ms.NumGC != last && ms.NumGC > start+2 {
				last = ms.NumGC
				metrics.Read(goal)
				maxGoal = max(maxGoal, goal[0].Value.Uint64())
			}
		}
	}
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(live)
	return ms.NumGC - start, maxGoal
}

// goals records, for each adjustment while it is set, the goal the floor
// set and the live heap it set it for, as /gc/heap metrics tell them
// right after SetGCPercent. (A goal read between a cycle's end and the
// adjustment that follows it is the cycle's own, GOGC's from before
// scaled by what it found live — which includes what the program
// allocated while it marked, more on a loaded machine.)
type goals struct {
	mu         sync.Mutex
	goal, over uint64 // largest goal; largest excess over max(live+floor, 2×live)
}

func watchGoals(t *testing.T, floor uint64) *goals {
	g := &goals{}
	s := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}, {Name: "/gc/heap/live:bytes"}}
	f := func() {
		metrics.Read(s)
		goal, live := s[0].Value.Uint64(), s[1].Value.Uint64()
		g.mu.Lock()
		defer g.mu.Unlock()
		g.goal = max(g.goal, goal)
		if want := max(live+floor, 2*live); goal > want {
			g.over = max(g.over, goal-want)
		}
	}
	afterAdjust.Store(&f)
	t.Cleanup(func() { afterAdjust.Store(nil) })
	return g
}

// collect runs a collection and waits for the floor to adjust after it.
func collect(t *testing.T) {
	t.Helper()
	n := adjustments.Load()
	runtime.GC()
	deadline := time.Now().Add(5 * time.Second)
	for adjustments.Load() == n {
		if time.Now().After(deadline) {
			t.Fatal("no adjustment within 5 s of a collection")
		}
		time.Sleep(time.Millisecond)
	}
}

func hold(n int) [][]byte {
	var b [][]byte
	for ; n > 0; n -= 64 << 10 {
		b = append(b, make([]byte, 64<<10))
	}
	return b
}

// TestFloorSmallHeap: with 1 MB live, 256 MB of garbage is collected
// about 256/16 times under a 16 MB floor, against about 256/4 times
// without it, and the goal stays near live + floor.
func TestFloorSmallHeap(t *testing.T) {
	live := hold(1 << 20)
	runtime.GC()
	without, _ := churn(t, 256<<20, live)

	stop := Floor(16 << 20)
	collect(t)
	g := watchGoals(t, 16<<20)
	with, _ := churn(t, 256<<20, live)
	stop()
	g.mu.Lock()
	defer g.mu.Unlock()
	t.Logf("collections: %d without the floor, %d with it; largest goal set %d MB, at most %d KB above max(live+floor, 2×live)", without, with, g.goal>>20, g.over>>10)
	if with == 0 || with*3 > without {
		t.Errorf("with a 16 MB floor %d collections, without %d: want fewer than a third", with, without)
	}
	// 1 MB for the roots (stacks, globals), which GOGC also scales. (What
	// a cycle finds live includes what the churn allocated while it
	// marked: on a loaded machine tens of MB, and the goal is then twice
	// that.)
	if g.over > 1<<20 {
		t.Errorf("heap goal %d MB, %d KB above max(live+floor, 2×live), with a 16 MB floor", g.goal>>20, g.over>>10)
	}
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GOGC after stop = %d, want 100 restored", p)
	}
}

// TestFloorLargeHeap: a live heap above half the floor is collected as
// with GOGC=100 (goal about twice live), never later.
func TestFloorLargeHeap(t *testing.T) {
	live := hold(24 << 20)
	stop := Floor(16 << 20)
	defer stop()
	collect(t)
	g := watchGoals(t, 16<<20)
	churn(t, 256<<20, live)
	stop()
	g.mu.Lock()
	defer g.mu.Unlock()
	t.Logf("largest goal set %d MB with 24 MB live, at most %d KB above twice the live heap", g.goal>>20, g.over>>10)
	if g.over > 1<<20 {
		t.Errorf("heap goal %d MB with 24 MB live, %d KB above twice the live heap: want about 2×live as GOGC=100 (GOGC=400 would be 5×)", g.goal>>20, g.over>>10)
	}
}

// TestFloorLeavesUserSetting: a GOGC chosen by the program (or the
// environment) is left alone.
func TestFloorLeavesUserSetting(t *testing.T) {
	old := debug.SetGCPercent(50)
	defer debug.SetGCPercent(old)
	stop := Floor(16 << 20)
	runtime.GC()
	runtime.GC()
	if p := debug.SetGCPercent(50); p != 50 {
		t.Errorf("GOGC = %d under a program's 50", p)
	}
	stop()
	if p := debug.SetGCPercent(50); p != 50 {
		t.Errorf("GOGC = %d after stop, want the program's 50", p)
	}
}

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		floor, live, roots uint64
		want               int
	}{
		{16 << 20, 0, 0, 400},             // the minimum heap decides: 4 MB×4
		{8 << 20, 1 << 20, 0, 225},        // 1 + 1×2.25 = 3.25 MB, minimum 9 MB
		{16 << 20, 4 << 20, 0, 400},       // 4 + 4×4 = 20 MB, minimum 16 MB
		{16 << 20, 4 << 20, 4 << 20, 200}, // 4 + 8×2 = 20 MB
		{16 << 20, 16 << 20, 0, 100},      // 2×live reaches live+floor
		{16 << 20, 40 << 20, 0, 100},
	} {
		if got := percent(c.floor, c.live, c.roots); got != c.want {
			t.Errorf("percent(%d, %d, %d) = %d, want %d", c.floor, c.live, c.roots, got, c.want)
		}
	}
}
