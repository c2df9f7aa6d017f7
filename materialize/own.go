package materialize

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// A ForeignFileError is Run's refusal to replace a file of Dir that
// relurl did not write: DIR/index.html or DIR/urls.jsonl holding something
// else, or not a regular file. Nothing is written. Options.Force replaces
// them.
type ForeignFileError struct {
	Path   string // the file
	Reason string // why it is not one relurl wrote
}

func (e *ForeignFileError) Error() string {
	return "materialize: " + e.Path + ": " + e.Reason + ": not a file relurl wrote, so not replaced"
}

// indexHead is how every DIR/index.html relurl writes begins (writeIndex).
const indexHead = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Captured pages</title></head><body>\n<h1>Captured pages</h1>\n"

// checkOwnFiles returns a *ForeignFileError when DIR/index.html or
// DIR/urls.jsonl exists and is not relurl's: an index.html that does not
// begin as relurl's does, a urls.jsonl whose first line is not one of
// relurl's (a JSON object with "url", "file" and "kind"), or either one
// not a regular file.
func checkOwnFiles(dir string) error {
	for _, f := range []struct {
		name string
		own  func([]byte) bool
	}{
		{"index.html", func(head []byte) bool { return bytes.HasPrefix(head, []byte(indexHead)) }},
		{"urls.jsonl", ownURLsHead},
	} {
		p := filepath.Join(dir, f.name)
		info, err := os.Lstat(p)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("materialize: %w", err)
		}
		if !info.Mode().IsRegular() {
			return &ForeignFileError{Path: p, Reason: "not a regular file"}
		}
		head, err := readHead(p, maxURLsLine)
		if err != nil {
			return fmt.Errorf("materialize: %w", err)
		}
		if !f.own(head) {
			return &ForeignFileError{Path: p, Reason: "its content is not what relurl writes there"}
		}
	}
	return nil
}

// ownURLsHead reports whether head, the start of a urls.jsonl, is one
// relurl wrote: empty, or a first line with "url", "file" and "kind".
func ownURLsHead(head []byte) bool {
	line, _, _ := bytes.Cut(head, []byte("\n"))
	if len(bytes.TrimSpace(line)) == 0 {
		return len(bytes.TrimSpace(head)) == 0
	}
	var rec struct{ URL, File, Kind *string }
	return json.Unmarshal(line, &rec) == nil && rec.URL != nil && rec.File != nil && rec.Kind != nil
}

// readHead returns the first n bytes of the file p (fewer when it is
// shorter).
func readHead(p string, n int) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(bufio.NewReader(f), int64(n)))
	return b, err
}
