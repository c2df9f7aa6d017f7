package safewrite

import (
	"runtime"
	"strings"
	"sync"

	"github.com/relurl/relurl/internal/safedir"
)

// Dirs holds open the directories of a tree that a Writer whose Dirs it
// is writes files into with WriteInStream (a mirror a run fills), reached
// from the tree's root as every write reaches them (no link below the
// root followed; missing ones made): the files of a directory, written
// one after the other, need no openat and close of its root and every
// directory down to it each. At most a few are held; those not in use
// are closed when more are needed, and all of them when the Dirs is no
// longer reachable. The zero Dirs is ready; it is safe for concurrent
// use, and is not to be copied once used.
//
// A directory stays the one first opened while it is held: a link put
// in its place (or in place of a directory above it) during the run is
// never followed; a directory removed during the run fails the writes
// into it (no file can be made in a removed directory); one moved
// elsewhere during the run gets the rest of its files there, as a
// process's working directory does.
type Dirs struct {
	mu   sync.Mutex
	held map[string]*openDir // by the directory's path in the tree
	// cleanup closes the held directories once the Dirs is
	// unreachable (set with the first).
	cleanup bool
	// room is 1 when directories may be held (roomToHold, asked once),
	// -1 when the descriptor limit is too low: each is closed after use.
	room int8
}

type openDir struct {
	d    *safedir.Dir
	refs int
	gone bool // no longer held: closed by its last user
}

// openDirsMax bounds the directories held: a walk writes the files of
// one directory after the other, so a few suffice.
const openDirsMax = 8

// parent returns the open directory of the file rel in the tree at root,
// its name there, and done, to be called when the directory is no longer
// used.
func (o *Dirs) parent(root, rel string) (d *safedir.Dir, name string, done func(), err error) {
	c, err := safedir.Components(rel)
	if err != nil {
		return nil, "", nil, err
	}
	if len(c) == 0 {
		_, _, err := safedir.OpenParent(root, rel, true) // its error
		return nil, "", nil, err
	}
	dir := strings.Join(c[:len(c)-1], "/")
	name = c[len(c)-1]
	key := root + "\x00" + dir
	o.mu.Lock()
	if h := o.held[key]; h != nil {
		h.refs++
		o.mu.Unlock()
		return h.d, name, func() { o.release(h) }, nil
	}
	o.mu.Unlock()
	d, err = safedir.OpenTree(root, dir, true)
	if err != nil {
		return nil, "", nil, err
	}
	h := &openDir{d: d, refs: 1}
	o.mu.Lock()
	defer o.mu.Unlock()
	if prev := o.held[key]; prev != nil {
		// Opened meanwhile by another worker: use that one.
		d.Close()
		prev.refs++
		return prev.d, name, func() { o.release(prev) }, nil
	}
	if len(o.held) >= openDirsMax {
		for k, old := range o.held {
			if old.refs == 0 {
				old.d.Close()
				delete(o.held, k)
			}
		}
	}
	if o.room == 0 {
		o.room = -1
		if safedir.RoomToHold() {
			o.room = 1
		}
	}
	if len(o.held) >= openDirsMax || o.room < 0 {
		h.gone = true // every one held is in use, or none may be: this one is not kept
		return d, name, func() { o.release(h) }, nil
	}
	if o.held == nil {
		o.held = map[string]*openDir{}
	}
	if !o.cleanup {
		o.cleanup = true
		runtime.AddCleanup(o, func(held map[string]*openDir) {
			for _, h := range held {
				if !h.gone {
					h.d.Close()
				}
			}
		}, o.held)
	}
	o.held[key] = h
	return d, name, func() { o.release(h) }, nil
}

func (o *Dirs) release(h *openDir) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if h.refs--; h.refs == 0 && h.gone {
		h.d.Close()
	}
}
