package grammar

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A choice is one way through an alternation or repetition of a grammar:
// kid i of an alternation, or, for a repetition, its least count (0) or
// more (1).
type choice struct {
	n *node
	i int
}

// generator derives random strings from a grammar's productions, steering
// towards the choices it has not made yet.
type generator struct {
	rs      *ruleSet
	rng     *rand.Rand
	all     map[choice]bool // every choice reachable from the start rule
	covered map[choice]bool // the choices of the samples kept
	made    map[choice]bool // the choices of the sample being built
	out     []byte
	top     int // the kid of the start rule's alternation taken last
}

func newGenerator(t *testing.T, rs *ruleSet, start string, seed uint64) *generator {
	g := &generator{rs: rs, rng: rand.New(rand.NewPCG(seed, 1)), all: map[choice]bool{}, covered: map[choice]bool{}}
	r, ok := rs.lookup(start)
	require.True(t, ok, start)
	g.collect(r.body, map[*rule]bool{})
	return g
}

// collect lists the choices reachable from n.
func (g *generator) collect(n *node, seen map[*rule]bool) {
	switch n.kind {
	case kAlt:
		for i := range n.kids {
			g.all[choice{n, i}] = true
		}
	case kRep:
		if n.max != n.min {
			g.all[choice{n, 0}], g.all[choice{n, 1}] = true, true
		}
	case kRef:
		r, _ := g.rs.lookup(n.name)
		if !seen[r] {
			seen[r] = true
			g.collect(r.body, seen)
		}
		return
	}
	for _, k := range n.kids {
		g.collect(k, seen)
	}
}

// sample derives one string from rule start.
func (g *generator) sample(start string) string {
	g.out, g.made, g.top = g.out[:0], map[choice]bool{}, -1
	r, _ := g.rs.lookup(start)
	g.gen(r.body, true)
	return string(g.out)
}

// keep counts the last sample's choices as covered.
func (g *generator) keep() {
	for c := range g.made {
		g.covered[c] = true
	}
}

// pick returns one of n options, an uncovered one half the time.
func (g *generator) pick(nd *node, n int) int {
	if g.rng.IntN(2) == 0 {
		var open []int
		for i := range n {
			if !g.covered[choice{nd, i}] && !g.made[choice{nd, i}] {
				open = append(open, i)
			}
		}
		if len(open) > 0 {
			return open[g.rng.IntN(len(open))]
		}
	}
	return g.rng.IntN(n)
}

func (g *generator) gen(n *node, top bool) {
	switch n.kind {
	case kLit:
		for i := 0; i < len(n.lit); i++ {
			c := n.lit[i]
			if g.rng.IntN(5) == 0 { // quoted strings match either case
				c = fold(c)
			}
			g.out = append(g.out, c)
		}
	case kClass:
		var members []byte
		for c := range 256 {
			if n.set.has(byte(c)) {
				members = append(members, byte(c))
			}
		}
		g.out = append(g.out, members[g.rng.IntN(len(members))])
	case kRef:
		r, _ := g.rs.lookup(n.name)
		g.gen(r.body, false)
	case kSeq:
		for _, k := range n.kids {
			g.gen(k, false)
		}
	case kAlt:
		i := g.pick(n, len(n.kids))
		g.made[choice{n, i}] = true
		if top {
			g.top = i
		}
		g.gen(n.kids[i], false)
	case kRep:
		count := n.min
		if n.max != n.min {
			more := g.pick(n, 2)
			g.made[choice{n, more}] = true
			if more == 1 {
				hi := n.min + 3
				if n.max >= 0 {
					hi = min(hi, n.max)
				}
				count = n.min + 1 + g.rng.IntN(hi-n.min)
			}
		}
		for range count {
			g.gen(n.kids[0], false)
		}
	}
}

// foreign lists the bytes no terminal of the grammar matches: inserted
// anywhere, every production forbids them.
func foreign(rs *ruleSet) []byte {
	var alphabet byteSet
	var walk func(n *node)
	walk = func(n *node) {
		switch n.kind {
		case kLit:
			for i := 0; i < len(n.lit); i++ {
				alphabet.addFold(n.lit[i])
			}
		case kClass:
			alphabet.union(n.set)
		}
		for _, k := range n.kids {
			walk(k)
		}
	}
	for _, r := range rs.rules {
		walk(r.body)
	}
	var out []byte
	for c := range 256 {
		if !alphabet.has(byte(c)) {
			out = append(out, byte(c))
		}
	}
	return out
}

// generated runs the generator on each grammar until every choice of its
// start rule is covered, and returns the strings kept.
func generated(t *testing.T) map[string][]string {
	t.Helper()
	samples := map[string][]string{}
	for _, name := range Names() {
		g, err := lookup(name)
		require.NoError(t, err)
		rs, _, err := g.compiled()
		require.NoError(t, err)
		start := g.starts[0]
		if name == "rfc1738" {
			start = "url"
		}
		gen := newGenerator(t, rs, start, 1738)
		for i := 0; i < 20000 && (len(gen.covered) < len(gen.all) || len(samples[name]) < 500); i++ {
			s := gen.sample(start)
			// RFC 1738: an otherurl with a predefined scheme is read by
			// that scheme's rule (see rfc1738.bnf).
			if name == "rfc1738" && gen.top == len(rfc1738Schemes) && rfc1738Start(s) != "otherurl" {
				continue
			}
			gen.keep()
			samples[name] = append(samples[name], s)
		}
		for c := range gen.all {
			if !gen.covered[c] {
				t.Errorf("%s: choice %d of %q never taken", name, c.i, c.n.text)
			}
		}
		t.Logf("%s: %d choices covered by %d samples", name, len(gen.all), len(samples[name]))
	}
	return samples
}

// Strings derived from a grammar's productions, with every alternative
// taken, match that grammar.
func TestGenerated(t *testing.T) {
	for name, samples := range generated(t) {
		for _, s := range samples {
			assert.NoError(t, Validate(name, s), "%s %q", name, s)
		}
	}
}

// A byte every production forbids, inserted into a valid string, is
// reported at the offset where it was inserted.
func TestMutated(t *testing.T) {
	rng := rand.New(rand.NewPCG(2396, 3986))
	for name, samples := range generated(t) {
		g, _ := lookup(name)
		rs, _, _ := g.compiled()
		bad := foreign(rs)
		require.NotEmpty(t, bad, name)
		for _, s := range samples {
			i := rng.IntN(len(s) + 1)
			b := bad[rng.IntN(len(bad))]
			in := s[:i] + string([]byte{b}) + s[i:]
			var e *Error
			if !assert.ErrorAs(t, Validate(name, in), &e, "%s %q", name, in) {
				continue
			}
			assert.Equal(t, i, e.Offset, "%s %q", name, in)
			assert.Equal(t, "unexpected "+strconv.Quote(string([]byte{b}))+" in "+e.Production, e.Reason(), "%s %q", name, in)
			assert.NotEmpty(t, e.Production)
		}
	}
}

// The DFA cache gives the NFA walk's answers, live states included.
func TestCacheMatchesWalk(t *testing.T) {
	rng := rand.New(rand.NewPCG(1808, 1995))
	for name, samples := range generated(t) {
		g, _ := lookup(name)
		rs, nfas, _ := g.compiled()
		bad := foreign(rs)
		for _, s := range samples {
			i := rng.IntN(len(s) + 1)
			for _, in := range []string{s, s[:i], s[:i] + string(bad[:1]) + s[i:], s[i:]} {
				m := nfas[g.start(in)]
				off1, live1 := m.run(in, new(matcher))
				off2, live2 := m.simulate(in, new(matcher))
				assert.Equal(t, off2, off1, "%s %q", name, in)
				assert.Equal(t, fmt.Sprint(live2), fmt.Sprint(live1), "%s %q", name, in)
			}
		}
	}
}

// When the DFA cache is full, matching goes on with states built for the
// one call, and gives the same answers.
func TestCacheFull(t *testing.T) {
	g, _ := lookup("rfc3986")
	rs, _, err := g.compiled()
	require.NoError(t, err)
	m, err := compile(rs, "URI-reference")
	require.NoError(t, err)
	for i := len(m.dfa.byKey); i < maxDFAStates; i++ {
		m.dfa.byKey[strconv.Itoa(i)] = dead
	}
	for _, in := range []string{"http://[::1]:80/a?b#c", "http://[::1]:8x/", "%4", ""} {
		off1, live1 := m.run(in, new(matcher))
		off2, live2 := m.simulate(in, new(matcher))
		assert.Equal(t, off2, off1, in)
		assert.Equal(t, live2, live1, in)
	}
	assert.Len(t, m.dfa.byKey, maxDFAStates)
}

// simulate is run without the DFA cache: the plain NFA walk, to check the
// cache against.
func (m *nfa) simulate(s string, mt *matcher) (int, []int32) {
	cur := append([]int32(nil), m.closure[m.start]...)
	accept := m.accepts[m.start]
	var next []int32
	for i := 0; i < len(s); i++ {
		if len(cur) == 0 { // the input matched up to i and nothing may follow
			return i, cur
		}
		next, accept = m.advance(cur, s[i], mt, next[:0])
		if len(next) == 0 && !accept {
			return i, cur
		}
		cur, next = next, cur
	}
	if accept {
		return -1, nil
	}
	return len(s), cur
}

// Validate may be called from many goroutines: the grammars compile once
// and the DFA cache grows under its lock (run with -race).
func TestConcurrent(t *testing.T) {
	samples := generated(t)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 {
		wg.Go(func() {
			for name, list := range samples {
				for i := w; i < len(list); i += 8 {
					if err := Validate(name, list[i]); err != nil {
						errs <- err
						return
					}
					if Validate(name, list[i]+"\x00") == nil {
						errs <- fmt.Errorf("%s accepts a NUL", name)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
