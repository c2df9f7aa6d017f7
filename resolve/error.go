package resolve

import (
	"errors"
	"strconv"
)

// Error records a failed resolution and the inputs that caused it, in the
// manner of net/url's Error.
type Error struct {
	Op   string // "resolve", "parse base", "relativize", ...
	Spec Spec
	Base string
	Ref  string
	Err  error
}

func (e *Error) Error() string {
	s := e.Spec.String() + " " + e.Op + " " + quoteInput(e.Ref)
	if e.Base != "" {
		s += " against " + quoteInput(e.Base)
	}
	return s + ": " + e.Err.Error()
}

// quoteInput quotes an input for an error message, eliding the middle of a
// long one: a hostile 64 KiB link must not make a 64 KiB message. The
// Error's fields keep the whole input.
func quoteInput(s string) string {
	const keep = 64
	if len(s) > 2*keep {
		s = s[:keep] + "..." + s[len(s)-keep:]
	}
	return strconv.Quote(s)
}

// Unwrap returns the underlying error, so callers can use errors.Is with the
// sentinel errors below.
func (e *Error) Unwrap() error { return e.Err }

// Sentinel causes carried by Error.
var (
	// ErrNoBase: a relative reference met the empty base of the draft's
	// §3.4, so there is nothing to resolve it against.
	ErrNoBase = errors.New("relative reference with no base URL")
	// ErrRelativeBase: the base has no scheme, so it cannot serve as a base.
	ErrRelativeBase = errors.New("base URL is not absolute")
	// ErrOpaqueBase: the base does not follow the generic-RL syntax (draft
	// §2.3: mailto, news, telnet and any base whose scheme is not followed
	// by "/"), so it cannot carry relative references.
	ErrOpaqueBase = errors.New("base URL cannot carry relative references")
	// ErrInvalidSpec: the caller named no spec, or one that does not exist.
	ErrInvalidSpec = errors.New("no such resolution spec")
	// ErrNotRelativizable: no reference can express the target in the
	// chosen mode (for example a target a resolution could not produce).
	ErrNotRelativizable = errors.New("target cannot be expressed as a reference")
)
