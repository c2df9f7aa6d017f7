package grammar

import (
	_ "embed"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
)

// MaxLength is the longest input Validate reads; a longer one fails with
// ErrTooLong at this offset. Matching is linear, so the cap only bounds
// the time one call may take (docs/performance.md).
const MaxLength = 64 << 10

// Errors carried by, or returned instead of, *Error.
var (
	// ErrTooLong: the input is longer than MaxLength bytes.
	ErrTooLong = fmt.Errorf("input longer than %d bytes", MaxLength)
	// ErrUnknownGrammar: Validate was given a name Names does not list.
	ErrUnknownGrammar = errors.New("no such grammar")
)

// Error reports where and why an input does not match a grammar.
type Error struct {
	Grammar string // the grammar's name, such as "rfc3986"
	Input   string
	// Offset is the byte offset of the first byte no reading of the
	// grammar accepts (Input[Offset] is the offending byte), or
	// len(Input) when the input ends too early.
	Offset int
	// Missing is, when the input ends too early, what the grammar wants
	// next, in its own words: a literal or a rule named in Production
	// (`"]"`, `HEXDIG`, `encoded822addr`). It is empty when a byte is
	// refused.
	Missing string
	// Production is the rule that failed, as the RFC writes it
	// ("port = *DIGIT"), so it can be found in the RFC.
	Production string
	Err        error // ErrTooLong, or nil
}

// Reason is the error without the grammar and input: what is wrong at
// Offset and in which production.
func (e *Error) Reason() string {
	switch {
	case e.Err != nil:
		return e.Err.Error()
	case e.Offset < len(e.Input):
		return "unexpected " + strconv.Quote(e.Input[e.Offset:e.Offset+1]) + " in " + e.Production
	default:
		return "missing " + e.Missing + " in " + e.Production
	}
}

func (e *Error) Error() string {
	return e.Grammar + " validate " + quoteShort(e.Input) + ": offset " + strconv.Itoa(e.Offset) + ": " + e.Reason()
}

// Unwrap returns ErrTooLong for an input over MaxLength, or nil.
func (e *Error) Unwrap() error { return e.Err }

// quoteShort quotes s, eliding the middle of a long input so that an
// error message stays readable.
func quoteShort(s string) string {
	const keep = 64
	if len(s) <= 2*keep {
		return strconv.Quote(s)
	}
	return strconv.Quote(s[:keep]) + "..." + strconv.Quote(s[len(s)-keep:])
}

//go:embed rfc1738.bnf
var rfc1738Text string

//go:embed rfc1808.bnf
var rfc1808Text string

//go:embed rfc1808-draft.bnf
var rfc1808DraftText string

//go:embed rfc2396.bnf
var rfc2396Text string

//go:embed rfc3986.abnf
var rfc3986Text string

// A grammar is one seed grammar, compiled on first use.
type grammar struct {
	name   string
	text   string
	nt     notation
	starts []string              // the rules matching may begin with
	start  func(s string) string // which of starts s is read by

	once  sync.Once
	rules *ruleSet
	nfas  map[string]*nfa
	err   error
}

// rfc1738Schemes are the schemes RFC 1738 §5 gives a rule of their own,
// named scheme + "url".
var rfc1738Schemes = []string{"http", "ftp", "news", "nntp", "telnet", "gopher", "wais", "mailto", "file", "prospero"}

// rfc1738Start reads s by its scheme's rule, or as an otherurl: RFC 1738
// §2.1 asks for case-insensitive schemes.
func rfc1738Start(s string) string {
	if scheme, _, ok := strings.Cut(s, ":"); ok {
		for i, name := range rfc1738Schemes {
			if strings.EqualFold(scheme, name) {
				return rfc1738Rules[i]
			}
		}
	}
	return "otherurl"
}

func oneStart(name string) func(string) string { return func(string) string { return name } }

var grammars = []*grammar{
	{name: "rfc1738", text: rfc1738Text, nt: bnf, start: rfc1738Start,
		starts: append(rfc1738Rules[:len(rfc1738Rules):len(rfc1738Rules)], "otherurl", "url")},
	{name: "rfc1808", text: rfc1808Text, nt: bnf, start: oneStart("URL"), starts: []string{"URL"}},
	{name: "rfc1808-draft", text: rfc1808DraftText, nt: bnf, start: oneStart("URL"), starts: []string{"URL"}},
	{name: "rfc2396", text: rfc2396Text, nt: bnf, start: oneStart("URI-reference"), starts: []string{"URI-reference"}},
	{name: "rfc3986", text: rfc3986Text, nt: abnf, start: oneStart("URI-reference"), starts: []string{"URI-reference"}},
}

// rfc1738Rules names the rule of each of rfc1738Schemes.
var rfc1738Rules = func() []string {
	r := make([]string, len(rfc1738Schemes))
	for i, s := range rfc1738Schemes {
		r[i] = s + "url"
	}
	return r
}()

// Names lists the grammars Validate knows, oldest first.
func Names() []string {
	names := make([]string, len(grammars))
	for i, g := range grammars {
		names[i] = g.name
	}
	return names
}

// lookup returns the grammar called name (case is ignored).
func lookup(name string) (*grammar, error) {
	for _, g := range grammars {
		if strings.EqualFold(g.name, name) {
			return g, nil
		}
	}
	return nil, fmt.Errorf("grammar: %w %q (want %s)", ErrUnknownGrammar, name, strings.Join(Names(), ", "))
}

// compiled parses and compiles g once.
func (g *grammar) compiled() (*ruleSet, map[string]*nfa, error) {
	g.once.Do(func() {
		g.rules, g.err = parseRules(g.text, g.nt)
		if g.err != nil {
			g.err = fmt.Errorf("grammar %s: %w", g.name, g.err)
			return
		}
		g.nfas = map[string]*nfa{}
		for _, s := range g.starts {
			m, err := compile(g.rules, s)
			if err != nil {
				g.err = fmt.Errorf("grammar %s: %w", g.name, err)
				return
			}
			g.nfas[s] = m
		}
	})
	return g.rules, g.nfas, g.err
}

var matchers = sync.Pool{New: func() any { return new(matcher) }}

// Validate reports whether s matches the grammar called name (one of
// Names). It returns nil if it does, a *Error saying where and why if it
// does not, or an error wrapping ErrUnknownGrammar.
//
// The input is the URL exactly as written: nothing is trimmed or decoded.
// Each grammar is matched as its RFC writes it; where the text needs a
// reading, the grammar file says which (see the package documentation).
func Validate(name, s string) error {
	g, err := lookup(name)
	if err != nil {
		return err
	}
	_, nfas, err := g.compiled()
	if err != nil {
		return err
	}
	if len(s) > MaxLength {
		return &Error{Grammar: g.name, Input: s, Offset: MaxLength, Err: ErrTooLong}
	}
	m := nfas[g.start(s)]
	mt := matchers.Get().(*matcher)
	off, live := m.run(s, mt)
	var e *Error
	if off >= 0 {
		e = m.explain(g.name, s, off, live)
	}
	matchers.Put(mt)
	if e != nil {
		return e
	}
	return nil
}

// explain builds the error for a failure at off with the live states.
// A refused byte is reported in the most deeply nested rule that was
// under way; a missing end in the rule of the shortest way to finish.
func (m *nfa) explain(grammarName, s string, off int, live []int32) *Error {
	e := &Error{Grammar: grammarName, Input: s, Offset: off}
	best := int32(-1)
	for _, st := range live {
		if best < 0 {
			best = st
			continue
		}
		x, b := &m.states[st], &m.states[best]
		if off < len(s) && x.pdepth > b.pdepth ||
			off == len(s) && (x.dist < b.dist || x.dist == b.dist && x.pdepth > b.pdepth) {
			best = st
		}
	}
	if best < 0 {
		// The input matched up to off and the start rule allows nothing more.
		e.Production = m.rules.rules[m.insts[0].rule].text
		return e
	}
	x := &m.states[best]
	e.Production = m.rules.rules[x.prod].text
	if off < len(s) {
		return e
	}
	e.Missing = x.label
	if in := x.startsIn; in >= 0 && m.insts[in].depth > x.pdepth {
		// It would begin a rule of its own: name the one that is an
		// element of the production, so that the message reads against
		// it ("missing encoded822addr", not the xchar that begins it),
		// or, when the production only renames that rule (otherurl =
		// genericurl), the element of that rule. Every rule between the
		// production and the innermost one begins here too, or one of
		// them would be the production.
		depth := x.pdepth + 1
		if m.rules.rules[x.prod].body.kind == kRef {
			depth++
		}
		for m.insts[in].depth > depth {
			in = m.insts[in].parent
		}
		e.Missing = m.rules.rules[m.insts[in].rule].name
	}
	return e
}
