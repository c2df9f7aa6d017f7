package linkcheck

import (
	"errors"
	"fmt"

	"github.com/relurl/relurl/resolve/grammar"
)

// Grammar returns a Checker.Grammar that rejects the URLs the grammar
// called name (grammar.Names: an RFC's collected ABNF) does not accept,
// each with the offset and reason ("invalid under rfc3986: offset 1:
// unexpected \" \" in ..."); the error is grammar.ErrUnknownGrammar's for
// a name no grammar has.
func Grammar(name string) (func(raw string) error, error) {
	if err := grammar.Validate(name, ""); errors.Is(err, grammar.ErrUnknownGrammar) {
		return nil, err
	}
	return func(raw string) error {
		err := grammar.Validate(name, raw)
		if ge, ok := errors.AsType[*grammar.Error](err); ok {
			return fmt.Errorf("invalid under %s: offset %d: %s", ge.Grammar, ge.Offset, ge.Reason())
		}
		return err
	}, nil
}
