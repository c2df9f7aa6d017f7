package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/relurl/relurl/wat"
)

// outFile is the file -o names, written so that a reader never sees it
// half-written: a regular file (or a new one) is written to a temporary
// file beside it and renamed over it when done; anything else (a device
// such as /dev/null or /dev/stdout, a FIFO) is written in place, as
// renaming over it would replace the device with a file.
type outFile struct {
	f    *os.File
	path string // the file to rename to; "" when written in place
}

// createOut opens the output path names.
func createOut(path string) (*outFile, error) {
	fi, err := os.Stat(path)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, err
		}
		return &outFile{f: f}, nil
	case err != nil && !errors.Is(err, os.ErrNotExist):
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, err
	}
	// CreateTemp makes it 0600: the output gets the mode of the file it
	// replaces, a new one 0644 (what a shell's redirection makes under
	// the usual umask).
	mode := os.FileMode(0o644)
	if fi != nil {
		mode = fi.Mode().Perm()
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return &outFile{f: f, path: path}, nil
}

// Write writes to the file.
func (o *outFile) Write(p []byte) (int, error) { return o.f.Write(p) }

// Commit closes the file and, for a temporary file, renames it over the
// output path.
func (o *outFile) Commit() error {
	err := o.f.Close()
	if o.path == "" {
		return err
	}
	if err != nil {
		os.Remove(o.f.Name())
		return err
	}
	if err := os.Rename(o.f.Name(), o.path); err != nil {
		os.Remove(o.f.Name())
		return err
	}
	return nil
}

// Abort closes the file and removes a temporary one: the output path is
// left as it was.
func (o *outFile) Abort() {
	o.f.Close()
	if o.path != "" {
		os.Remove(o.f.Name())
	}
}

var _ io.Writer = (*outFile)(nil)

// tableWriter is the writer of a table format: Close ends the table.
type tableWriter interface {
	io.Writer
	Close() error
}

// linksOut is the output of links to -o or in a table format: Close ends
// the table and commits the file.
type linksOut struct {
	w     io.Writer // where the records go: the table, or the file
	table tableWriter
	wat   *wat.Converter // the table, for --format wat
	file  *outFile
	dst   io.Writer
}

// openLinksOut returns the output of links in format to path ("":
// standard output, stdout).
func openLinksOut(path, format string, stdout io.Writer) (*linksOut, error) {
	o := &linksOut{dst: stdout}
	if path != "" {
		f, err := createOut(path)
		if err != nil {
			return nil, err
		}
		o.file, o.dst = f, f
	}
	o.w = o.dst
	switch format {
	case "parquet":
		t, err := newParquet(o.dst)
		if err != nil {
			if o.file != nil {
				o.file.Abort()
			}
			return nil, err
		}
		o.table, o.w = t, t
	case "wat":
		o.wat = wat.NewConverter(o.dst, strings.HasSuffix(path, ".gz"))
		o.table = o.wat
		o.w = o.table
	}
	return o, nil
}

// Write writes link records.
func (o *linksOut) Write(p []byte) (int, error) { return o.w.Write(p) }

// Close ends the table and commits the file; on an error the file is
// left as it was.
func (o *linksOut) Close() error {
	var err error
	if o.table != nil {
		err = o.table.Close()
	}
	if o.file != nil {
		if err != nil {
			o.file.Abort()
		} else {
			err = o.file.Commit()
		}
	}
	return err
}
