package modspec

import (
	"errors"
	"fmt"
	"strings"

	"github.com/relurl/relurl/internal/jsonscan"
)

// Role says what an import map's string is.
type Role int

// The strings of an import map that are URLs.
const (
	// Address is a specifier map's value: a module's URL.
	Address Role = iota
	// Key is a specifier map's key that is URL-like or an absolute URL
	// ("normalize a specifier key" serializes it as a URL: it must keep
	// meaning the URL it meant).
	Key
	// Scope is a key of "scopes": a URL prefix of the referring modules.
	Scope
	// Integrity is a key of "integrity": a module's URL.
	Integrity
)

var roleNames = [...]string{Address: "address", Key: "key", Scope: "scope", Integrity: "integrity"}

func (r Role) String() string {
	if r >= 0 && int(r) < len(roleNames) {
		return roleNames[r]
	}
	return fmt.Sprintf("Role(%d)", int(r))
}

// ErrAddress is the error of an import map address that is not a URL
// (HTML "sort and normalize a module specifier map": an address that is
// not URL-like and not an absolute URL, or one that does not end in "/"
// where its key does, makes the entry null, a module it names fails).
var ErrAddress = errors.New("import map address: not URL-like (\"/\", \"./\", \"../\" or a scheme), the entry is null")

// ErrTrailingSlash is the error of an address that does not end in "/"
// though its key does.
var ErrTrailingSlash = errors.New("import map address: its key ends in \"/\" but it does not, the entry is null")

// Entry is one URL-bearing string of an import map.
type Entry struct {
	Start, End int    // the JSON string's content, quotes excluded
	Text       string // decoded
	Role       Role
	// Path names where it stands: "imports", "scopes", "integrity", or
	// "scopes" and the scope's key, then the specifier key for an address.
	Path []string
	// Err, for an address, says why the entry is null (ErrAddress,
	// ErrTrailingSlash); a URL Key's address is not checked against it
	// until resolved.
	Err error
}

// ImportMap is what an import map's text holds.
type ImportMap struct {
	Entries []Entry
	// Bare holds the specifier keys that are not URLs (bare names, such
	// as "lodash" or "app/"), of "imports" and of every scope: a bare
	// specifier of a module is a link only when one of them maps it.
	Bare     []string
	Warnings []string
}

// ParseImportMap reads an import map's text (HTML §8.1.5.3 "parse an
// import map string"). It returns an error where the HTML Standard throws
// (the text is not JSON, or not an object; imports, scopes, integrity or
// a scope's map not an object): the map is then not registered, nothing
// in it counts. Entries the Standard drops with a warning (an empty key,
// an address that is not a string, an unknown top-level key) come back
// as Warnings.
func ParseImportMap(data []byte) (*ImportMap, error) {
	m := &ImportMap{}
	var typeErr error
	fail := func(format string, args ...any) {
		if typeErr == nil {
			typeErr = fmt.Errorf("import map: "+format, args...)
		}
	}
	err := jsonscan.Scan(data, func(v jsonscan.Value) {
		if typeErr != nil {
			return
		}
		p := v.Path
		if v.Key {
			m.key(v, p)
			return
		}
		switch len(p) {
		case 0:
			if v.Kind != jsonscan.Object {
				fail("not a JSON object")
			}
		case 1:
			switch p[0] {
			case "imports", "scopes", "integrity":
				if v.Kind != jsonscan.Object {
					fail("%q is not a JSON object", p[0])
				}
			}
		case 2:
			switch p[0] {
			case "imports":
				m.address(v, p)
			case "scopes":
				if v.Kind != jsonscan.Object {
					fail("the scope %q is not a JSON object", p[1])
				}
			case "integrity":
				if v.Kind != jsonscan.String {
					m.warn("integrity of %q: not a string, ignored", p[1])
				}
			}
		case 3:
			if p[0] == "scopes" {
				m.address(v, p)
			}
		}
	})
	if err != nil {
		return nil, fmt.Errorf("import map: %w", err)
	}
	if typeErr != nil {
		return nil, typeErr
	}
	return m, nil
}

func (m *ImportMap) warn(format string, args ...any) {
	m.Warnings = append(m.Warnings, fmt.Sprintf("import map: "+format, args...))
}

// key handles an object member's name.
func (m *ImportMap) key(v jsonscan.Value, p []string) {
	e := Entry{Start: v.Start, End: v.End, Text: v.Text, Path: append([]string(nil), p...)}
	switch {
	case len(p) == 0:
		switch v.Text {
		case "imports", "scopes", "integrity":
		default:
			m.warn("unknown top-level key %q, ignored", v.Text)
		}
		return
	case len(p) == 1 && p[0] == "scopes":
		e.Role = Scope
	case len(p) == 1 && p[0] == "integrity":
		if Bare(v.Text) {
			return // not URL-like: the Standard ignores it
		}
		e.Role = Integrity
	case len(p) == 1 && p[0] == "imports", len(p) == 2 && p[0] == "scopes":
		// "normalize a specifier key"
		if v.Text == "" {
			m.warn("empty specifier key, ignored")
			return
		}
		if Bare(v.Text) {
			m.Bare = append(m.Bare, v.Text)
			return
		}
		e.Role = Key
	default:
		return
	}
	m.Entries = append(m.Entries, e)
}

// address handles a specifier map's value; p ends with its key.
func (m *ImportMap) address(v jsonscan.Value, p []string) {
	key := p[len(p)-1]
	if key == "" {
		return // warned about with the key
	}
	if v.Kind != jsonscan.String {
		m.warn("address of %q: not a string, the entry is null", key)
		return
	}
	e := Entry{Start: v.Start, End: v.End, Text: v.Text, Role: Address, Path: append([]string(nil), p...)}
	switch {
	case Bare(strings.TrimSpace(v.Text)):
		e.Err = ErrAddress
	case strings.HasSuffix(key, "/") && !strings.HasSuffix(v.Text, "/"):
		e.Err = ErrTrailingSlash
	}
	m.Entries = append(m.Entries, e)
}
