package main

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/relurl/relurl/archive"
	"github.com/relurl/relurl/base"
	"github.com/relurl/relurl/htmlrewrite"
	"github.com/relurl/relurl/jsmodule"
	"github.com/relurl/relurl/manifest"
)

// TestErrorMessages: the command says the library's errors without their
// packages' names, each by its type's Text (package errtext), the errors
// they wrap included; the library's Error keeps the names.
func TestErrorMessages(t *testing.T) {
	enc := &htmlrewrite.EncodingError{Name: "iso-2022-jp"}
	rec := &archive.RecordError{Offset: 356, Target: "http://x.example/r3", Err: archive.ErrCorrupt, Detail: "resumed at 535"}
	for _, c := range []struct {
		err       error
		msg, full string
	}{
		{enc, "the document's encoding is not ASCII-compatible: iso-2022-jp",
			"htmlrewrite: the document's encoding is not ASCII-compatible: iso-2022-jp"},
		{&archive.DocumentError{Err: enc, Unread: true}, "the document's encoding is not ASCII-compatible: iso-2022-jp",
			"htmlrewrite: the document's encoding is not ASCII-compatible: iso-2022-jp"},
		{&archive.Error{Op: "read", Where: "record at 0", Err: archive.ErrNotWARC}, "read record at 0: " + archive.ErrNotWARC.Error(),
			"archive: read record at 0: " + archive.ErrNotWARC.Error()},
		{rec, "record at 356 (http://x.example/r3): " + archive.ErrCorrupt.Error() + ": resumed at 535",
			"archive: record at 356 (http://x.example/r3): " + archive.ErrCorrupt.Error() + ": resumed at 535"},
		{&base.Error{Op: "fetch", Input: "http://x/", Err: &archive.Error{Op: "decode", Where: "part 2", Err: errors.New("bad")}},
			`fetch "http://x/": decode part 2: bad`, `base: fetch "http://x/": archive: decode part 2: bad`},
		{manifest.ErrSyntax, "not a JSON object", "manifest: not a JSON object"},
		{&jsmodule.Error{Op: "scan", Err: errors.New("unterminated string")}, "unterminated string", "jsmodule: unterminated string"},
	} {
		var stderr bytes.Buffer
		stdio{err: &stderr}.errorf("links: f: %v", c.err)
		if got, want := stderr.String(), "relurl: links: f: "+c.msg+"\n"; got != want {
			t.Errorf("errorf of %T:\n got %q\nwant %q", c.err, got, want)
		}
		if got := c.err.Error(); got != c.full {
			t.Errorf("%T.Error() = %q, want %q", c.err, got, c.full)
		}
		if got := fileError("f.html", c.err, 1); got != "f.html: "+c.msg {
			t.Errorf("fileError of %T = %q", c.err, got)
		}
	}
	// A wrapper that is not the library's says its wrapped error whole:
	// nothing is cut out of a text.
	var stderr bytes.Buffer
	stdio{err: &stderr}.errorf("%v", fmt.Errorf("x: %w", manifest.ErrSyntax))
	if !strings.Contains(stderr.String(), "x: manifest: not a JSON object") {
		t.Errorf("errorf of a foreign wrapper: %q", stderr.String())
	}
}
