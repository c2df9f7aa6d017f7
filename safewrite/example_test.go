package safewrite_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/relurl/relurl/safewrite"
)

// A mirror written through a Writer: new directories are made, a file
// already holding the content is kept (KeepSame), and a symbolic link
// planted in the mirror is refused instead of written through.
func ExampleWriter_WriteIn() {
	mirror, _ := os.MkdirTemp("", "mirror")
	defer os.RemoveAll(mirror)
	outside, _ := os.MkdirTemp("", "outside")
	defer os.RemoveAll(outside)

	w := safewrite.Writer{NoSync: true, KeepSame: true}
	fmt.Println(w.WriteIn(mirror, "a/index.html", []byte("<p>new</p>"), 0o644))
	kept, err := w.WriteInKept(mirror, "a/index.html", []byte("<p>new</p>"), 0o644)
	fmt.Println(kept, err)

	os.Symlink(outside, filepath.Join(mirror, "b"))
	err = w.WriteIn(mirror, "b/index.html", []byte("<p>x</p>"), 0o644)
	fmt.Println(errors.Is(err, safewrite.ErrSymlink))
	// Output:
	// <nil>
	// true <nil>
	// true
}

// UpdateStream replaces a file with what a rewriter streams, atomically;
// output equal to the old content leaves the file untouched.
func ExampleWriter_UpdateStream() {
	dir, _ := os.MkdirTemp("", "tree")
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "page.html")
	os.WriteFile(p, []byte("<a href=x>"), 0o644)
	info, _ := os.Lstat(p)
	f := safewrite.File{Path: p, Root: dir, Rel: "page.html", Info: info}

	changed, err := safewrite.Writer{}.UpdateStream(f, func(dst io.Writer, src io.Reader) error {
		_, err := io.Copy(dst, src) // unchanged
		return err
	})
	fmt.Println(changed, err)
	changed, err = safewrite.Writer{}.UpdateStream(f, func(dst io.Writer, src io.Reader) error {
		_, err := io.WriteString(dst, "<a href=https://example.org/x>")
		return err
	})
	data, _ := os.ReadFile(p)
	fmt.Println(changed, err, string(data))
	// Output:
	// false <nil>
	// true <nil> <a href=https://example.org/x>
}
