// Package gcfloor keeps the garbage collector's heap goal above a floor,
// so that a process whose live heap is small (a command reading one file
// after another: a few megabytes live, its garbage the files' buffers and
// strings) is not collected every few megabytes of allocation, while a
// process whose live heap is large is collected as GOGC=100 would.
//
// Go's collector sets the next heap goal at the live heap times
// 1+GOGC/100 (runtime/debug.SetGCPercent), but never below 4 MB×GOGC/100.
// With the default GOGC of 100 a tree of 50 MB of pages is collected
// about 40 times, each cycle stopping the workers twice and marking with
// write barriers on, and each shrinking the heap so that the next
// allocations fault fresh pages in. A soft memory limit
// (debug.SetMemoryLimit) cannot replace the floor: it lowers the goal,
// never raises it, and a GOGC high enough for a small heap would let a
// large one grow without bound.
//
// Floor raises GOGC, after each collection, to what makes the goal
// max(live+floor, 2×live): at least floor bytes are allocated between
// two collections, and the heap never exceeds the live heap plus the
// floor or what GOGC=100 allows, whichever is larger. (GOGC also scales
// the runtime's minimum heap, 4 MB at GOGC=100: GOGC=400 alone gives a
// 16 MB minimum, but lets a 10 MB live heap grow to 50 MB.)
package gcfloor

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// Floor keeps the heap goal at least floor bytes above the live heap (see
// the package doc)
// until stop is called, which restores the GOGC in force before. It does
// nothing, and stop nothing, when floor is 0 or below GOGC=100's own
// minimum, or when the collector was configured by the user: GOGC set to
// in the environment, or a GOGC other than 100 set by SetGCPercent. A
// memory limit (GOMEMLIMIT) still applies: it lowers the goal.
func Floor(floor uint64) (stop func()) {
	prev := debug.SetGCPercent(100)
	if os.Getenv("GOGC") != "" || prev != 100 || floor <= minimumHeap {
		debug.SetGCPercent(prev)
		return func() {}
	}
	t := &tuner{floor: floor, sample: []metrics.Sample{
		{Name: "/gc/heap/live:bytes"}, {Name: "/gc/scan/stack:bytes"}, {Name: "/gc/scan/globals:bytes"},
	}}
	t.adjust()
	t.arm()
	return func() {
		t.mu.Lock()
		t.stopped = true
		t.mu.Unlock()
		debug.SetGCPercent(100)
	}
}

// minimumHeap is the runtime's heap goal before any collection at
// GOGC=100 (heapMinimum in runtime/mgcpacer.go).
const minimumHeap = 4 << 20

// tuner is the state of one Floor.
type tuner struct {
	floor   uint64
	mu      sync.Mutex
	stopped bool
	sample  []metrics.Sample
}

// sentinel is an object whose finalizer runs once per collection: it is
// made unreachable at once, so the next cycle finds it dead and queues
// the finalizer, which makes the next one. (Large enough to not be a
// tiny allocation, whose finalizer may wait for its neighbours.)
type sentinel struct{ _ [32]byte }

func (t *tuner) arm() {
	runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.stopped {
			return
		}
		t.adjust()
		t.arm()
	})
}

// adjust sets GOGC so that the next goal is max(live+floor, 2×live).
func (t *tuner) adjust() {
	metrics.Read(t.sample)
	var v [3]uint64
	for i, s := range t.sample {
		if s.Value.Kind() == metrics.KindUint64 {
			v[i] = s.Value.Uint64()
		}
	}
	debug.SetGCPercent(percent(t.floor, v[0], v[1]+v[2]))
	adjustments.Add(1)
	if f := afterAdjust.Load(); f != nil {
		(*f)()
	}
}

// afterAdjust, when set (by tests), is called after each adjustment, with
// the goal it set in force. (Atomic: adjustments run on the finalizer
// goroutine, tests set it on theirs.)
var afterAdjust atomic.Pointer[func()]

// adjustments counts adjust's calls (tests wait for one).
var adjustments atomic.Int64

// percent is the GOGC whose goal for a live heap of live bytes and roots
// (stacks and globals) of roots bytes is max(live+room, 2×live). The
// runtime's goal at GOGC p is the larger of live + (live+roots)×p/100
// and its minimum heap, 4 MB×p/100 (heapMinimum in runtime/mgcpacer.go):
// p is the largest that keeps both at or below live+room, and never
// below 100.
func percent(room, live, roots uint64) int {
	p := (live + room) * 100 / minimumHeap
	if live+roots > 0 {
		p = min(p, room*100/(live+roots))
	}
	return int(max(p, 100))
}
