package base

import (
	"strconv"

	"github.com/relurl/relurl/internal/errtext"
)

// Error records a failed operation of this package and its input, in the
// manner of net/url's Error.
type Error struct {
	Op    string // "fetch", "redirect from", "scan html at byte 12", ...
	Input string // the URL or file it concerns; "" for a stream
	Err   error
}

func (e *Error) Error() string { return "base: " + e.text(e.Err.Error()) }

// Text is the error without the package's name, as a command shows it.
func (e *Error) Text() string { return e.text(errtext.Of(e.Err)) }

// text is the error after the package's name, the wrapped error's text
// being cause.
func (e *Error) text(cause string) string {
	s := e.Op
	if e.Input != "" {
		s += " " + strconv.Quote(e.Input)
	}
	return s + ": " + cause
}

// Unwrap returns the underlying error, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }
