// Package jsonscan reads a JSON text (RFC 8259) and reports every value
// with its byte span and its path, so that a caller can replace the bytes
// of one string and leave every other byte as it was: the reader behind
// relurl's import maps (HTML §8.1.5.3) and web app manifests.
//
// It is strict where JSON.parse is (what a browser rejects, an import map
// or a manifest it ignores): one value, optional whitespace around it;
// strings with valid escapes and no raw control characters; the number
// grammar of RFC 8259 §6; true, false, null. Nesting is bounded by
// MaxDepth. Lone surrogates in \u escapes decode to U+FFFD.
package jsonscan

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// MaxDepth bounds the nesting of arrays and objects.
const MaxDepth = 512

// Kind is the type of a JSON value.
type Kind int

// The kinds of JSON values.
const (
	Object Kind = iota
	Array
	String
	Number
	Literal // true, false or null
)

// Value is one value, or one object member's name (Key), met in the text.
type Value struct {
	Kind Kind
	Key  bool // an object member's name (a String)
	// Start and End span the value's bytes; for a string, its content
	// without the quotes. An object's or array's End is -1: it is reported
	// when it starts.
	Start, End int
	Text       string // a string's decoded content
	// Path holds the names of the members enclosing the value, "[]" for
	// an array element; a key's path ends with the object it names a member
	// of. Valid only during the call.
	Path []string
}

// SyntaxError is the error of a text that is not JSON.
type SyntaxError struct {
	Offset int // the byte where reading stopped
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("json: %s at byte %d", e.Msg, e.Offset)
}

// Scan reads data as one JSON text and calls fn, in order, for every
// value and every object member's name. It returns a *SyntaxError when
// data is not JSON (fn may have been called for what came before).
func Scan(data []byte, fn func(Value)) error {
	s := scanner{src: data, fn: fn}
	s.space()
	if err := s.value(); err != nil {
		return err
	}
	s.space()
	if s.i != len(data) {
		return s.fail("data after the value")
	}
	return nil
}

type scanner struct {
	src  []byte
	i    int
	fn   func(Value)
	path []string
	b    strings.Builder
}

func (s *scanner) fail(msg string) error {
	return &SyntaxError{Offset: s.i, Msg: msg}
}

func (s *scanner) space() {
	for s.i < len(s.src) {
		switch s.src[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) value() error {
	if s.i >= len(s.src) {
		return s.fail("unexpected end")
	}
	switch c := s.src[s.i]; {
	case c == '{':
		return s.object()
	case c == '[':
		return s.array()
	case c == '"':
		return s.str(false)
	case c == '-' || '0' <= c && c <= '9':
		return s.number()
	default:
		for _, lit := range [...]string{"true", "false", "null"} {
			if strings.HasPrefix(string(s.src[s.i:min(len(s.src), s.i+5)]), lit) {
				s.fn(Value{Kind: Literal, Start: s.i, End: s.i + len(lit), Path: s.path})
				s.i += len(lit)
				return nil
			}
		}
		return s.fail(fmt.Sprintf("unexpected %q", c))
	}
}

func (s *scanner) object() error {
	if len(s.path) >= MaxDepth {
		return s.fail("nested too deep")
	}
	s.fn(Value{Kind: Object, Start: s.i, End: -1, Path: s.path})
	s.i++
	s.space()
	if s.i < len(s.src) && s.src[s.i] == '}' {
		s.i++
		return nil
	}
	for {
		s.space()
		if s.i >= len(s.src) || s.src[s.i] != '"' {
			return s.fail("expected a member name")
		}
		if err := s.str(true); err != nil {
			return err
		}
		key := s.b.String()
		s.space()
		if s.i >= len(s.src) || s.src[s.i] != ':' {
			return s.fail("expected ':'")
		}
		s.i++
		s.space()
		s.path = append(s.path, key)
		err := s.value()
		s.path = s.path[:len(s.path)-1]
		if err != nil {
			return err
		}
		s.space()
		if s.i >= len(s.src) {
			return s.fail("unexpected end")
		}
		switch s.src[s.i] {
		case '}':
			s.i++
			return nil
		case ',':
			s.i++
		default:
			return s.fail("expected ',' or '}'")
		}
	}
}

func (s *scanner) array() error {
	if len(s.path) >= MaxDepth {
		return s.fail("nested too deep")
	}
	s.fn(Value{Kind: Array, Start: s.i, End: -1, Path: s.path})
	s.i++
	s.space()
	if s.i < len(s.src) && s.src[s.i] == ']' {
		s.i++
		return nil
	}
	s.path = append(s.path, "[]")
	defer func() { s.path = s.path[:len(s.path)-1] }()
	for {
		s.space()
		if err := s.value(); err != nil {
			return err
		}
		s.space()
		if s.i >= len(s.src) {
			return s.fail("unexpected end")
		}
		switch s.src[s.i] {
		case ']':
			s.i++
			return nil
		case ',':
			s.i++
		default:
			return s.fail("expected ',' or ']'")
		}
	}
}

// number reads RFC 8259 §6: -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
func (s *scanner) number() error {
	start := s.i
	digits := func() int {
		n := 0
		for s.i < len(s.src) && '0' <= s.src[s.i] && s.src[s.i] <= '9' {
			s.i++
			n++
		}
		return n
	}
	if s.src[s.i] == '-' {
		s.i++
	}
	switch {
	case s.i < len(s.src) && s.src[s.i] == '0':
		s.i++
	case digits() == 0:
		return s.fail("bad number")
	}
	if s.i < len(s.src) && s.src[s.i] == '.' {
		s.i++
		if digits() == 0 {
			return s.fail("bad number")
		}
	}
	if s.i < len(s.src) && (s.src[s.i] == 'e' || s.src[s.i] == 'E') {
		s.i++
		if s.i < len(s.src) && (s.src[s.i] == '+' || s.src[s.i] == '-') {
			s.i++
		}
		if digits() == 0 {
			return s.fail("bad number")
		}
	}
	s.fn(Value{Kind: Number, Start: start, End: s.i, Path: s.path})
	return nil
}

// str reads the string at s.i into s.b and reports it.
func (s *scanner) str(key bool) error {
	s.b.Reset()
	s.i++
	v0 := s.i
	for s.i < len(s.src) {
		c := s.src[s.i]
		switch {
		case c == '"':
			s.fn(Value{Kind: String, Key: key, Start: v0, End: s.i, Text: s.b.String(), Path: s.path})
			s.i++
			return nil
		case c < 0x20:
			return s.fail("control character in a string")
		case c == '\\':
			if err := s.escape(); err != nil {
				return err
			}
		default:
			// Copy the run of plain bytes at once.
			j := s.i + 1
			for j < len(s.src) && s.src[j] != '"' && s.src[j] != '\\' && s.src[j] >= 0x20 {
				j++
			}
			s.b.Write(s.src[s.i:j])
			s.i = j
		}
	}
	return s.fail("unterminated string")
}

func (s *scanner) escape() error {
	if s.i+1 >= len(s.src) {
		return s.fail("unterminated string")
	}
	e := s.src[s.i+1]
	s.i += 2
	switch e {
	case '"', '\\', '/':
		s.b.WriteByte(e)
	case 'b':
		s.b.WriteByte('\b')
	case 'f':
		s.b.WriteByte('\f')
	case 'n':
		s.b.WriteByte('\n')
	case 'r':
		s.b.WriteByte('\r')
	case 't':
		s.b.WriteByte('\t')
	case 'u':
		r, ok := s.hex4(s.i)
		if !ok {
			return s.fail(`bad \u escape`)
		}
		s.i += 4
		if utf16.IsSurrogate(r) {
			if s.i+6 <= len(s.src) && s.src[s.i] == '\\' && s.src[s.i+1] == 'u' {
				if r2, ok := s.hex4(s.i + 2); ok {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						s.b.WriteRune(d)
						s.i += 6
						return nil
					}
				}
			}
			r = utf8.RuneError
		}
		s.b.WriteRune(r)
	default:
		s.i--
		return s.fail("bad escape")
	}
	return nil
}

func (s *scanner) hex4(i int) (rune, bool) {
	if i+4 > len(s.src) {
		return 0, false
	}
	var r rune
	for _, c := range s.src[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// Quote returns s escaped for the content of a JSON string (RFC 8259 §7):
// the quote, the backslash and control characters escaped; with html,
// also "<" (as \u003c), so that the text cannot end or open an HTML
// <script> element it stands in.
func Quote(s string, html bool) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c == '<' && html {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20 || c == '<' && html:
			fmt.Fprintf(&b, `\u%04x`, c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
