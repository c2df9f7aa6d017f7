package grammar

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The seed grammars have no recursive rule, so each is a regular language:
// every rule reference is expanded in place and the result is a Thompson
// NFA whose states each consume one byte of a set. Matching walks all the
// live states at once, byte by byte, so the work is linear in the input
// whatever the grammar's ambiguity (hostname's *( domainlabel "." ) toplabel
// or IPv6address's nine alternatives would send a backtracking matcher back
// and forth; a PEG's ordered choice would reject valid input).

// maxStates bounds a compiled grammar, in case a grammar text expands to
// something huge through counted repetitions.
const maxStates = 1 << 14

// maxNesting bounds rule references inside rule references.
const maxNesting = 64

// A state of the NFA. A consuming state has a set; the others are epsilon
// states that lead to each of outs.
type state struct {
	set      *byteSet
	out      int32   // consuming: the state after the byte
	outs     []int32 // epsilon: the states it leads to
	match    bool    // the accepting state
	inst     int32   // the innermost rule instance the state belongs to
	label    string  // consuming: what it consumes, as the grammar writes it
	prod     int32   // consuming: the rule an error here is reported in
	pdepth   int32   // consuming: how deep prod's instance is nested
	dist     int32   // fewest bytes from here to the accepting state
	startsIn int32   // consuming: the innermost instance it can begin, or -1
}

// An instance is one expansion of a rule: the states [lo, hi) and the
// state entry where matching the rule begins.
type instance struct {
	rule   int32
	parent int32
	depth  int32
	lo, hi int32
	entry  int32
}

// nfa is a compiled start rule.
type nfa struct {
	rules  *ruleSet
	states []state
	insts  []instance
	start  int32
	// closure[i] lists the consuming states reachable from state i by
	// epsilon moves, in grammar order, and whether the match state is.
	closure [][]int32
	accepts []bool
	dfa     *dfa
}

// compiler expands rules into states.
type compiler struct {
	rs      *ruleSet
	states  []state
	insts   []instance
	classes map[*rule]*classInfo
	stack   []int32 // rule indexes being expanded, to refuse recursion
	inst    int32   // the instance being expanded
	err     error
}

type classInfo struct {
	set byteSet
	ok  bool
}

// compile builds the NFA of rule startName.
func compile(rs *ruleSet, startName string) (*nfa, error) {
	r, ok := rs.lookup(startName)
	if !ok {
		return nil, fmt.Errorf("no rule %q", startName)
	}
	c := &compiler{rs: rs, classes: map[*rule]*classInfo{}, inst: -1}
	accept := c.add(state{match: true, inst: -1})
	start := c.ref(r, accept)
	if c.err != nil {
		return nil, c.err
	}
	m := &nfa{rules: rs, states: c.states, insts: c.insts, start: start}
	m.finish()
	return m, nil
}

func (c *compiler) add(s state) int32 {
	if len(c.states) >= maxStates {
		if c.err == nil {
			c.err = fmt.Errorf("grammar expands to more than %d states", maxStates)
		}
		return 0
	}
	c.states = append(c.states, s)
	return int32(len(c.states) - 1)
}

// node compiles n so that it leads to next, and returns its entry state.
// Building back to front means every state's successor already exists.
func (c *compiler) node(n *node, next int32) int32 {
	if c.err != nil {
		return next
	}
	if set, ok := c.classOf(n); ok {
		return c.add(state{set: &set, out: next, inst: c.inst, label: n.text})
	}
	switch n.kind {
	case kLit:
		for i := len(n.lit) - 1; i >= 0; i-- {
			var set byteSet
			set.addFold(n.lit[i])
			next = c.add(state{set: &set, out: next, inst: c.inst, label: strconv.Quote(n.lit[i : i+1])})
		}
		return next
	case kRef:
		r, ok := c.rs.lookup(n.name)
		if !ok {
			c.err = fmt.Errorf("no rule %q", n.name)
			return next
		}
		return c.ref(r, next)
	case kSeq:
		for i := len(n.kids) - 1; i >= 0; i-- {
			next = c.node(n.kids[i], next)
		}
		return next
	case kAlt:
		return c.alt(n, next)
	case kRep:
		return c.rep(n, next)
	}
	c.err = fmt.Errorf("cannot compile %q", n.text)
	return next
}

// alt merges the alternatives that are single bytes into one state, so
// pchar is one set plus pct-encoded rather than twenty states.
func (c *compiler) alt(n *node, next int32) int32 {
	var (
		set    byteSet
		labels []string
		outs   []int32
		sep    = " | "
	)
	if strings.Contains(n.text, " / ") {
		sep = " / "
	}
	for _, k := range n.kids {
		if s, ok := c.classOf(k); ok {
			set.union(s)
			labels = append(labels, k.text)
			continue
		}
		outs = append(outs, c.node(k, next))
	}
	if len(labels) > 0 {
		merged := c.add(state{set: &set, out: next, inst: c.inst, label: strings.Join(labels, sep)})
		outs = append([]int32{merged}, outs...)
	}
	return c.add(state{outs: outs, inst: c.inst})
}

func (c *compiler) rep(n *node, next int32) int32 {
	kid := n.kids[0]
	entry := next
	if n.max < 0 {
		loop := c.add(state{inst: c.inst})
		body := c.node(kid, loop)
		c.states[loop].outs = []int32{body, next}
		entry = loop
	} else {
		for range n.max - n.min {
			entry = c.add(state{outs: []int32{c.node(kid, entry), next}, inst: c.inst})
		}
	}
	for range n.min {
		entry = c.node(kid, entry)
	}
	return entry
}

// ref expands rule r in place as a new instance.
func (c *compiler) ref(r *rule, next int32) int32 {
	idx := int32(c.rs.index[strings.ToLower(r.name)])
	if slices.Contains(c.stack, idx) {
		c.err = fmt.Errorf("rule %s is recursive", r.name)
		return next
	}
	if len(c.stack) >= maxNesting {
		c.err = fmt.Errorf("rules nest deeper than %d", maxNesting)
		return next
	}
	c.stack = append(c.stack, idx)
	parent := c.inst
	c.inst = int32(len(c.insts))
	c.insts = append(c.insts, instance{rule: idx, parent: parent, depth: int32(len(c.stack)), lo: int32(len(c.states))})
	entry := c.node(r.body, next)
	c.insts[c.inst].hi = int32(len(c.states))
	c.insts[c.inst].entry = entry
	c.inst = parent
	c.stack = c.stack[:len(c.stack)-1]
	return entry
}

// classOf returns the bytes n matches if n always matches exactly one
// byte, as alpha, pchar's sub-delims or "A" do.
func (c *compiler) classOf(n *node) (byteSet, bool) {
	switch n.kind {
	case kClass:
		return n.set, true
	case kLit:
		if len(n.lit) == 1 {
			var s byteSet
			s.addFold(n.lit[0])
			return s, true
		}
	case kRef:
		r, ok := c.rs.lookup(n.name)
		if !ok {
			return byteSet{}, false
		}
		if ci, ok := c.classes[r]; ok {
			return ci.set, ci.ok
		}
		c.classes[r] = &classInfo{} // a recursive rule is not a class
		set, ok := c.classOf(r.body)
		c.classes[r] = &classInfo{set, ok}
		return set, ok
	case kAlt:
		var set byteSet
		for _, k := range n.kids {
			s, ok := c.classOf(k)
			if !ok {
				return byteSet{}, false
			}
			set.union(s)
		}
		return set, true
	case kSeq:
		if len(n.kids) == 1 {
			return c.classOf(n.kids[0])
		}
	case kRep:
		if n.min == 1 && n.max == 1 {
			return c.classOf(n.kids[0])
		}
	}
	return byteSet{}, false
}

// finish computes the epsilon closures, the distances to the accepting
// state and the rule each consuming state reports its errors in.
func (m *nfa) finish() {
	n := len(m.states)
	m.closure = make([][]int32, n)
	m.accepts = make([]bool, n)
	seen := make([]int32, n)
	gen := int32(0)
	for i := range m.states {
		gen++
		m.closure[i], m.accepts[i] = m.close(int32(i), seen, gen, nil)
	}
	m.distances()
	m.productions()
	m.initDFA()
}

// close lists the consuming states reachable from s by epsilon moves, in
// depth-first order (the grammar's order of alternatives).
func (m *nfa) close(s int32, seen []int32, gen int32, list []int32) ([]int32, bool) {
	stack := []int32{s}
	accept := false
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] == gen {
			continue
		}
		seen[s] = gen
		st := &m.states[s]
		switch {
		case st.match:
			accept = true
		case st.set != nil:
			list = append(list, s)
		default:
			for i := len(st.outs) - 1; i >= 0; i-- {
				stack = append(stack, st.outs[i])
			}
		}
	}
	return list, accept
}

// distances sets each state's dist: the fewest bytes that lead from it to
// the accepting state, by relaxation (consuming edges cost 1, epsilon 0).
func (m *nfa) distances() {
	const inf = int32(1 << 30)
	for i := range m.states {
		m.states[i].dist = inf
		if m.states[i].match {
			m.states[i].dist = 0
		}
	}
	for changed := true; changed; {
		changed = false
		for i := range m.states {
			st := &m.states[i]
			d := st.dist
			if st.set != nil {
				d = min(d, m.states[st.out].dist+1)
			}
			for _, o := range st.outs {
				d = min(d, m.states[o].dist)
			}
			if d < st.dist {
				st.dist, changed = d, true
			}
		}
	}
}

// productions sets each consuming state's prod: the innermost rule in
// which the state can follow a byte that rule has already consumed. A
// byte refused there is that rule's failure: in "http://a:8x" the x is
// refused by port = *DIGIT, not by DIGIT, which is a single byte, nor by
// pct-encoded, which a "%" would only begin.
func (m *nfa) productions() {
	n := len(m.states)
	inner := make([]int32, n) // innermost instance found so far, by depth
	for i := range inner {
		inner[i] = -1
		m.states[i].startsIn = -1
	}
	seen := make([]int32, n)
	gen := int32(0)
	for ii := range m.insts {
		in := &m.insts[ii]
		// The states reachable after a byte consumed inside the instance,
		// by epsilon moves that stay inside it.
		gen++
		var stack []int32
		for s := in.lo; s < in.hi; s++ {
			if m.states[s].set != nil {
				stack = append(stack, m.states[s].out)
			}
		}
		m.mark(in, stack, seen, gen, func(s int32) {
			if inner[s] < 0 || m.insts[inner[s]].depth < in.depth {
				inner[s] = int32(ii)
			}
		})
		// The states that can begin the instance.
		gen++
		m.mark(in, []int32{in.entry}, seen, gen, func(s int32) {
			if st := &m.states[s]; st.startsIn < 0 || m.insts[st.startsIn].depth < in.depth {
				st.startsIn = int32(ii)
			}
		})
	}
	for i := range m.states {
		st := &m.states[i]
		switch {
		case st.set == nil:
		case inner[i] >= 0:
			st.prod, st.pdepth = m.insts[inner[i]].rule, m.insts[inner[i]].depth
		default:
			st.prod, st.pdepth = m.insts[0].rule, m.insts[0].depth
		}
	}
}

// mark calls f for each consuming state of instance in reachable from
// stack by epsilon moves inside the instance.
func (m *nfa) mark(in *instance, stack []int32, seen []int32, gen int32, f func(int32)) {
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if s < in.lo || s >= in.hi || seen[s] == gen {
			continue
		}
		seen[s] = gen
		st := &m.states[s]
		if st.set != nil {
			f(s)
			continue
		}
		stack = append(stack, st.outs...)
	}
}

// matcher holds the scratch space of a step of the DFA cache: marks of
// the NFA states already listed.
type matcher struct {
	seen []uint32
	gen  uint32
}
