package wat

import (
	"errors"
	"testing"

	"github.com/relurl/relurl/archive"
)

// TestFileErrorText: an error of the WARC file read again names the file
// and says the reader's error without its package's name; errors.Is and
// errors.As still reach it.
func TestFileErrorText(t *testing.T) {
	inner := &archive.Error{Op: "read", Where: "record at 0", Err: archive.ErrNotWARC}
	err := error(&fileError{file: "a.warc", err: inner})
	if got, want := err.Error(), "wat: a.warc: read record at 0: "+archive.ErrNotWARC.Error(); got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, archive.ErrNotWARC) {
		t.Error("errors.Is(err, archive.ErrNotWARC) = false")
	}
}
