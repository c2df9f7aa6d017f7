// Package errtext gives the text of an error as relurl shows it to a
// person: the module's errors without the package names their Error
// methods start with, as Go errors do ("archive: ", "base: "). An error type
// of the module says itself so by a Text method, built from its fields;
// nothing is cut out of another error's text.
package errtext

// A Texter is an error that can say itself without its package's name.
type Texter interface {
	error
	// Text is the error's text without the package's name, its
	// wrapped error's given by Of.
	Text() string
}

// Of returns err's text without the module's package names: a Texter's
// Text, any other error's Error.
func Of(err error) string {
	if t, ok := err.(Texter); ok {
		return t.Text()
	}
	return err.Error()
}
