package errtext_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/relurl/relurl/internal/errtext"
)

type pkgError struct{ err error }

func (e *pkgError) Error() string { return "pkg: " + e.err.Error() }
func (e *pkgError) Text() string  { return errtext.Of(e.err) }

func TestOf(t *testing.T) {
	inner := &pkgError{errors.New("bad")}
	for _, c := range []struct {
		err  error
		want string
	}{
		{errors.New("plain"), "plain"},
		{inner, "bad"},
		{&pkgError{inner}, "bad"},
		// A wrapper that is no Texter is said as it is.
		{fmt.Errorf("x: %w", inner), "x: pkg: bad"},
	} {
		if got := errtext.Of(c.err); got != c.want {
			t.Errorf("Of(%q) = %q, want %q", c.err, got, c.want)
		}
	}
}
