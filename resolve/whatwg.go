package resolve

import "errors"

// whatwgBase is a base URL parsed by the URL Standard's basic URL parser.
// A nil *whatwgBase means "no base".
type whatwgBase struct{}

var errWHATWGNotImplemented = errors.New("the whatwg mode is not implemented yet")

func parseWHATWGBase(base string, opts Options) (*whatwgBase, error) {
	return nil, errWHATWGNotImplemented
}

func (b *whatwgBase) reference(ref string, opts Options) (string, error) {
	return "", errWHATWGNotImplemented
}
