package base

import "strconv"

// Error records a failed operation of this package and its input, in the
// manner of net/url's Error.
type Error struct {
	Op    string // "fetch", "redirect from", "scan html at byte 12", ...
	Input string // the URL or file it concerns; "" for a stream
	Err   error
}

func (e *Error) Error() string {
	s := "base: " + e.Op
	if e.Input != "" {
		s += " " + strconv.Quote(e.Input)
	}
	return s + ": " + e.Err.Error()
}

// Unwrap returns the underlying error, for errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }
