package base

import (
	"errors"
	"net/textproto"
	"strconv"
)

// MaxNesting bounds how many composite entities may enclose a part. The
// draft's §3.3 applies its rule "recursively for component parts that are
// themselves composite entities"; input decides the depth, so it is
// bounded. Mail and MHTML producers nest three or four levels.
const MaxNesting = 64

// ErrNesting reports a part nested deeper than MaxNesting.
var ErrNesting = errors.New("composite entities nested more than " + strconv.Itoa(MaxNesting) + " deep")

// Part returns the Context of a component part of the composite entity
// (multipart/* or message/*) whose Context is c and whose base is
// enclosing: the draft's §3.3, "the retrieval context of a component part
// is the base URL of the composite entity of which it is a part". The
// part's own headers are header, described as of (e.g. "part 3") in
// provenance; Content-Location counts among them (RFC 2557 §5).
//
// The part keeps c's Spec, Options and Strict. mediaType is the composite
// entity's type, for provenance. Part fails with ErrNesting past
// MaxNesting.
func (c *Context) Part(enclosing Result, mediaType string, header textproto.MIMEHeader, of string) (*Context, error) {
	if c.Depth >= MaxNesting {
		return nil, &Error{Op: "enter " + of, Err: ErrNesting}
	}
	return &Context{
		Spec:            c.Spec,
		Options:         c.Options,
		Header:          header,
		ContentLocation: true,
		HeaderOf:        of,
		Enclosing:       &enclosing,
		EnclosingType:   mediaType,
		Depth:           c.Depth + 1,
		Strict:          c.Strict,
	}, nil
}
