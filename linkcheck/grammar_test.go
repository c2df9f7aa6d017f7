package linkcheck

import (
	"errors"
	"testing"

	"github.com/relurl/relurl/resolve/grammar"
)

func TestGrammar(t *testing.T) {
	if _, err := Grammar("rfc0000"); !errors.Is(err, grammar.ErrUnknownGrammar) {
		t.Errorf("Grammar(rfc0000): err = %v, want ErrUnknownGrammar", err)
	}
	check, err := Grammar("rfc3986")
	if err != nil {
		t.Fatal(err)
	}
	if err := check("https://example.org/a/b.html?q#f"); err != nil {
		t.Errorf("a valid URL: %v", err)
	}
	err = check("a b.html")
	want := `invalid under rfc3986: offset 1: unexpected " " in `
	if err == nil || len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Errorf("a URL with a space: %v, want %q...", err, want)
	}
}
