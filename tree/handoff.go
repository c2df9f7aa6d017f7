package tree

import (
	"runtime"
	"sync/atomic"
)

// A heldFD is the descriptor a walk opened a file with to read its
// head, kept open for whoever opens the file next (Open, TakeHeld: a
// Rewriter of package treerewrite): the walk opened it as Open would
// (from the tree's root, following no link below it, and its File
// describes what that descriptor reads), so Open takes it instead of
// opening, checking and reading the file's start again. A walk holds at most handoffLen of them: an older one not taken
// yet is closed (Open then opens the file itself, as before). Those
// still held when the walk ends (the last files, which workers may be
// about to take) are closed once their File is unreachable, if no one
// took them: nothing that drops a File leaks its descriptor, and no more
// than handoffLen of a walk wait for the collector.
type heldFD struct {
	fd *atomic.Int64 // -1 once taken or closed
}

// handoffLen bounds the descriptors a walk holds for its files: a run
// takes each file's a few files after the walk yields it (-j workers,
// each handed the file the walk just yielded), so a handful suffices.
const handoffLen = 16

// take returns the descriptor, now the caller's to close, or -1 when it
// was taken or closed already (or h is nil).
func (h *heldFD) take() int {
	if h == nil {
		return -1
	}
	return int(h.fd.Swap(-1))
}

// closeHeld closes the descriptor fd holds unless it was taken.
func closeHeld(fd *atomic.Int64) {
	if fd := fd.Swap(-1); fd >= 0 {
		closeFD(int(fd))
	}
}

// drop closes the descriptor unless it was taken.
func (h *heldFD) drop() {
	if h != nil {
		closeHeld(h.fd)
	}
}

// A handoff is a walk's descriptors held for the files it yielded, the
// last handoffLen of them, and the directory it last opened files in.
type handoff struct {
	ring [handoffLen]*heldFD
	next int
	dir  walkDir
}

// hold keeps fd for the file about to be yielded, in a free place (one
// whose descriptor was taken or dropped), else in place of the oldest
// one held, which is closed.
func (h *handoff) hold(fd int) *heldFD {
	held := &heldFD{fd: new(atomic.Int64)}
	held.fd.Store(int64(fd))
	for i, old := range h.ring {
		if old == nil || old.fd.Load() < 0 {
			h.ring[i] = held
			return held
		}
	}
	h.ring[h.next].drop()
	h.ring[h.next] = held
	h.next = (h.next + 1) % handoffLen
	return held
}

// end leaves what the walk still holds to be taken, or closed once its
// File is unreachable.
func (h *handoff) end() {
	for i, held := range h.ring {
		if held != nil {
			runtime.AddCleanup(held, closeHeld, held.fd)
			h.ring[i] = nil
		}
	}
	h.dir.close()
}
