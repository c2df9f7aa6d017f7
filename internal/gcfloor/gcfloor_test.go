package gcfloor

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

var sink []byte

// churn allocates n bytes of garbage in 32 KiB pieces (a page's buffers)
// while live stays reachable, and returns how many collections ran and
// the largest heap goal seen after one.
func churn(t *testing.T, n int, live [][]byte, tuned bool) (cycles uint32, maxGoal, maxRoom, maxOver uint64) {
	t.Helper()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	start := ms.NumGC
	goal := []metrics.Sample{{Name: "/gc/heap/goal:bytes"}, {Name: "/gc/heap/live:bytes"}}
	last := start
	adjusted := adjustments.Load()
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
				if tuned {
					// The goal to check is the one the floor sets after
					// the cycle: until its finalizer runs (late on a
					// loaded machine) the cycle's own goal is GOGC's
					// from before, scaled by whatever it found live.
					waitAdjusted(adjusted)
				}
				adjusted = adjustments.Load()
				metrics.Read(goal)
				g, l := goal[0].Value.Uint64(), goal[1].Value.Uint64()
				maxGoal = max(maxGoal, g)
				if g > l {
					maxRoom = max(maxRoom, g-l)
				}
				if g > 2*l {
					maxOver = max(maxOver, g-2*l)
				}
			}
		}
	}
	runtime.ReadMemStats(&ms)
	runtime.KeepAlive(live)
	return ms.NumGC - start, maxGoal, maxRoom, maxOver
}

// waitAdjusted waits up to a second for an adjustment after the count
// was since.
func waitAdjusted(since int64) {
	for deadline := time.Now().Add(time.Second); adjustments.Load() == since && time.Now().Before(deadline); {
		time.Sleep(100 * time.Microsecond)
	}
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
	without, _, _, _ := churn(t, 256<<20, live, false)

	stop := Floor(16 << 20)
	collect(t)
	with, goal, room, _ := churn(t, 256<<20, live, true)
	stop()
	t.Logf("collections: %d without the floor, %d with it; largest goal %d MB, largest room above live %d MB", without, with, goal>>20, room>>20)
	if with == 0 || with*3 > without {
		t.Errorf("with a 16 MB floor %d collections, without %d: want fewer than a third", with, without)
	}
	// The goal is the live heap plus the floor: what a cycle finds live
	// includes what the churn allocated while it marked (more on a loaded
	// machine), so the room above live is checked, not the goal alone,
	// with 4 MB for the roots and for a goal read before the adjustment
	// that follows its cycle.
	if room > 20<<20 {
		t.Errorf("heap goal %d MB, %d MB above the live heap, with a 16 MB floor", goal>>20, room>>20)
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
	_, goal, _, over := churn(t, 256<<20, live, true)
	t.Logf("largest goal %d MB with 24 MB live, at most %d MB above twice what the cycle found live", goal>>20, over>>20)
	// What a cycle finds live includes what the churn allocated while it
	// marked (more on a loaded machine): the goal is checked against it.
	if over > 2<<20 || goal > 100<<20 {
		t.Errorf("heap goal %d MB with 24 MB live, %d MB above twice the live heap found: want about 2×live as GOGC=100 (GOGC=400 would be 5×)", goal>>20, over>>20)
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
