package grammar

import (
	"encoding/binary"
	"sync"
	"sync/atomic"
)

// The NFA walk costs a pass over every live state per byte. Real URLs
// visit few distinct sets of live states, so each set met is cached as a
// DFA state with its transitions filled in as bytes arrive (a lazy DFA,
// as RE2 builds): after warm-up a byte costs one table load. The cache
// is bounded; past the bound, new sets are built for the one call only.

// maxDFAStates bounds the cached sets per compiled rule; each costs about
// 2 KiB plus its list of NFA states.
const maxDFAStates = 2048

// A dstate is a set of live NFA states, in the order the NFA walk lists
// them (the order decides which production an error names).
type dstate struct {
	live   []int32
	accept bool
	// next[b] is nil while unknown, dead when b kills every state, or
	// the dstate after b.
	next [256]atomic.Pointer[dstate]
}

// dead marks a transition that kills every live state.
var dead = new(dstate)

// dfa is the cache of one compiled rule. Readers follow transitions
// without locking; new states are added under mu.
type dfa struct {
	mu    sync.Mutex
	byKey map[string]*dstate
	start *dstate
}

// key identifies a list of live states and whether it accepts.
func key(live []int32, accept bool) string {
	b := make([]byte, 1, 1+4*len(live))
	if accept {
		b[0] = 1
	}
	for _, s := range live {
		b = binary.LittleEndian.AppendUint32(b, uint32(s))
	}
	return string(b)
}

// initDFA sets up the cache with the start state.
func (m *nfa) initDFA() {
	m.dfa = &dfa{byKey: map[string]*dstate{}}
	live := append([]int32(nil), m.closure[m.start]...)
	m.dfa.start, _ = m.dfa.intern(live, m.accepts[m.start])
}

// intern returns the cached dstate for live, adding it if there is room,
// and whether it is cached. The caller holds mu, or is initDFA.
func (d *dfa) intern(live []int32, accept bool) (*dstate, bool) {
	k := key(live, accept)
	if ds, ok := d.byKey[k]; ok {
		return ds, true
	}
	ds := &dstate{live: live, accept: accept}
	if len(d.byKey) == maxDFAStates {
		return ds, false
	}
	d.byKey[k] = ds
	return ds, true
}

// step computes the dstate after byte b from ds: the NFA walk for one
// byte. It returns dead when b kills every live state.
func (m *nfa) step(ds *dstate, b byte, mt *matcher) *dstate {
	next, accept := m.advance(ds.live, b, mt, nil)
	d := m.dfa
	if len(next) == 0 && !accept {
		ds.next[b].Store(dead)
		return dead
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	nd, cached := d.intern(next, accept)
	if cached {
		ds.next[b].Store(nd)
	}
	return nd
}

// advance is the NFA walk for one byte: it appends to next the states
// reached from live by b (each once, in the order that decides which
// production an error names) and reports whether b completes a match.
func (m *nfa) advance(live []int32, b byte, mt *matcher, next []int32) ([]int32, bool) {
	if len(mt.seen) < len(m.states) {
		mt.seen = make([]uint32, len(m.states))
		mt.gen = 0
	}
	mt.gen++
	if mt.gen == 0 { // wrapped: clear the marks
		clear(mt.seen)
		mt.gen = 1
	}
	accept := false
	for _, st := range live {
		x := &m.states[st]
		if !x.set.has(b) {
			continue
		}
		if m.accepts[x.out] {
			accept = true
		}
		for _, t := range m.closure[x.out] {
			if mt.seen[t] != mt.gen {
				mt.seen[t] = mt.gen
				next = append(next, t)
			}
		}
	}
	return next, accept
}

// run matches s. It returns -1 if s matches, or the offset at which it
// fails and the states that were live there.
func (m *nfa) run(s string, mt *matcher) (int, []int32) {
	ds := m.dfa.start
	for i := 0; i < len(s); i++ {
		b := s[i]
		nd := ds.next[b].Load()
		if nd == nil {
			nd = m.step(ds, b, mt)
		}
		if nd == dead {
			return i, ds.live
		}
		ds = nd
	}
	if ds.accept {
		return -1, nil
	}
	return len(s), ds.live
}
