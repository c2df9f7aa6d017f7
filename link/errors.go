package link

import (
	"errors"
	"fmt"
)

// ErrIncomplete is wrapped by the error of a document that a reader did
// not process to its end because something in it went past a limit of the
// reader's design: a tag, rule or token longer than its bound, a tag with
// too many attributes or srcset candidates, an element or JSON value
// nested too deep, a document too large to be held. Every reader's
// refusal at a limit matches it (errors.Is), so that a caller counts them
// by one rule. A rewrite's output is then complete, its rest copied as it
// was (best effort); a links pass has reported the links before the stop.
var ErrIncomplete = errors.New("document not fully processed")

// IncompleteError says where processing stopped, and which limit stopped
// it.
type IncompleteError struct {
	What   string // what went past the limit: "a tag", "a <style> element", "<g>"; "" is "a tag"
	Line   int    // the line where it starts
	Offset int64  // its byte offset
	Limit  int    // the limit: a reader's MaxSize, MaxAttrs, ...
	Unit   string // of Limit: "bytes" (when ""), "attributes", "srcset candidates", "levels"
}

func (e *IncompleteError) Error() string {
	what, unit := e.What, e.Unit
	if what == "" {
		what = "a tag"
	}
	var over string
	switch unit {
	case "", "bytes":
		over = fmt.Sprintf("is longer than %d bytes", e.Limit)
	case "levels":
		over = fmt.Sprintf("is nested deeper than %d levels", e.Limit)
	default:
		over = fmt.Sprintf("has more than %d %s", e.Limit, unit)
	}
	return fmt.Sprintf("%s at line %d (byte %d) %s: the rest of the document is left as written", what, e.Line, e.Offset, over)
}

// Unwrap returns ErrIncomplete.
func (e *IncompleteError) Unwrap() error { return ErrIncomplete }

// TooLargeError is a document that a reader must hold whole (an XML
// document, a manifest, a module) and that is larger than it may hold:
// it is not read, only copied as written.
type TooLargeError struct {
	What  string // the kind of document: "an XML document", "a JavaScript module"
	Size  int64  // its size when known, else -1 (over Limit)
	Limit int64  // in bytes
}

func (e *TooLargeError) Error() string {
	if e.Size >= 0 {
		return fmt.Sprintf("%s of %d bytes is larger than the %d bytes it may hold: left as written", e.What, e.Size, e.Limit)
	}
	return fmt.Sprintf("%s is larger than the %d bytes it may hold: left as written", e.What, e.Limit)
}

// Unwrap returns ErrIncomplete.
func (e *TooLargeError) Unwrap() error { return ErrIncomplete }
