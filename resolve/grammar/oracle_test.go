package grammar

import (
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
)

// oracle decides membership and viable prefixes straight from a grammar's
// rules, by the textbook reading of each element as the set of offsets
// where it can end. It shares nothing with the automaton but the parsed
// rules, so it checks the compiler, the matcher and the DFA cache.
type oracle struct {
	rs   *ruleSet
	s    string
	memo map[oracleKey]oracleEnds
}

type oracleKey struct {
	n   *node
	pos int
}

// oracleEnds is where an element starting at pos can end, as a bit set
// of offsets (inputs are under 64 bytes), and whether it can run past the
// end of s (then s is a prefix of something it matches).
type oracleEnds struct {
	at   uint64
	more bool
}

// maxOracle is the longest input the oracle takes.
const maxOracle = 63

func (o *oracle) ends(n *node, pos int) oracleEnds {
	k := oracleKey{n, pos}
	if r, ok := o.memo[k]; ok {
		return r
	}
	var r oracleEnds
	switch n.kind {
	case kLit:
		i := 0
		for ; i < len(n.lit) && pos+i < len(o.s); i++ {
			if o.s[pos+i] != n.lit[i] && o.s[pos+i] != fold(n.lit[i]) {
				break
			}
		}
		switch {
		case i == len(n.lit):
			r.at = 1 << (pos + i)
		case pos+i == len(o.s):
			r.more = true
		}
	case kClass:
		switch {
		case pos == len(o.s):
			r.more = true
		case n.set.has(o.s[pos]):
			r.at = 1 << (pos + 1)
		}
	case kRef:
		rule, _ := o.rs.lookup(n.name)
		r = o.ends(rule.body, pos)
	case kSeq:
		cur := uint64(1) << pos
		for _, kid := range n.kids {
			cur = o.step(kid, cur, &r.more)
		}
		r.at = cur
	case kAlt:
		for _, kid := range n.kids {
			e := o.ends(kid, pos)
			r.more = r.more || e.more
			r.at |= e.at
		}
	case kRep:
		cur := uint64(1) << pos
		var seen uint64
		if n.min == 0 {
			r.at, seen = cur, cur
		}
		for count := 1; cur != 0 && (n.max < 0 || count <= n.max); count++ {
			cur = o.step(n.kids[0], cur, &r.more)
			if count >= n.min {
				cur &^= seen
				r.at |= cur
				seen |= cur
			}
		}
	}
	o.memo[k] = r
	return r
}

// step returns where kid can end starting from any offset in from.
func (o *oracle) step(kid *node, from uint64, more *bool) uint64 {
	var to uint64
	for p := 0; p <= len(o.s); p++ {
		if from&(1<<p) != 0 {
			e := o.ends(kid, p)
			*more = *more || e.more
			to |= e.at
		}
	}
	return to
}

// check returns -1 if s matches rule start, or the offset where it stops
// being a prefix of anything the rule matches (len(s) if it is one).
func (o *oracle) check(start, s string) int {
	rule, _ := o.rs.lookup(start)
	viable := func(p string) (bool, bool) {
		o.s, o.memo = p, map[oracleKey]oracleEnds{}
		e := o.ends(rule.body, 0)
		member := e.at&(1<<len(p)) != 0
		return e.more || member, member
	}
	if _, member := viable(s); member {
		return -1
	}
	// Viability only shrinks as the prefix grows: search for the longest
	// viable prefix.
	lo, hi := 0, len(s) // s[:lo] is viable; s[:hi+1] is not, or hi == len(s)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if ok, _ := viable(s[:mid]); ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// A byte the grammar's alphabet has but no reading allows where it is
// inserted is reported at that offset; and for any insertion the matcher
// agrees with the oracle on validity and offset.
func TestMutatedInAlphabet(t *testing.T) {
	rng := rand.New(rand.NewPCG(3986, 1738))
	for name, samples := range generated(t) {
		g, _ := lookup(name)
		rs, _, _ := g.compiled()
		o := &oracle{rs: rs}
		var alphabet []byte
		bad := foreign(rs)
		for c := range 256 {
			if !containsByte(bad, byte(c)) {
				alphabet = append(alphabet, byte(c))
			}
		}
		forbidden, checked := 0, 0
		for _, s := range samples {
			if len(s) >= maxOracle || checked >= 1500 {
				continue
			}
			for range 3 {
				i := rng.IntN(len(s) + 1)
				b := alphabet[rng.IntN(len(alphabet))]
				in := s[:i] + string([]byte{b}) + s[i:]
				want := o.check(g.start(in), in)
				err := Validate(name, in)
				checked++
				if want < 0 {
					assert.NoError(t, err, "%s %q", name, in)
					continue
				}
				var e *Error
				if !assert.ErrorAs(t, err, &e, "%s %q", name, in) {
					continue
				}
				assert.Equal(t, want, e.Offset, "%s %q", name, in)
				if want == i {
					forbidden++
					assert.Equal(t, "unexpected "+strconv.Quote(string([]byte{b}))+" in "+e.Production, e.Reason(), "%s %q", name, in)
				}
			}
		}
		assert.Greater(t, forbidden, 30, name)
		t.Logf("%s: %d insertions checked against the oracle, %d refused at the inserted byte", name, checked, forbidden)
	}
}

func containsByte(bs []byte, b byte) bool {
	for _, c := range bs {
		if c == b {
			return true
		}
	}
	return false
}

// The oracle agrees with the RFC examples and the error table, so the two
// check each other.
func TestOracleOnTables(t *testing.T) {
	for _, tt := range []struct {
		grammar, in string
		want        int
	}{
		{"rfc3986", "http://[::1]:8x/", 14},
		{"rfc3986", "http://[::1", 11},
		{"rfc3986", "http://a/b/c/d;p?q", -1},
		{"rfc3986", "ldap://[2001:db8::7]/c=GB?objectClass?one", -1},
		{"rfc2396", "?y", 0},
		{"rfc1808", "http://a/{x}", 9},
		{"rfc1808-draft", "http://a/{x}", -1},
		{"rfc1738", "http://a:8x/", 10},
		{"rfc1738", "wais://host/db/type", 19},
	} {
		g, _ := lookup(tt.grammar)
		rs, _, _ := g.compiled()
		o := &oracle{rs: rs}
		assert.Equal(t, tt.want, o.check(g.start(tt.in), tt.in), "%s %q", tt.grammar, tt.in)
	}
}
