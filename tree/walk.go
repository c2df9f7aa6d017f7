package tree

import (
	"errors"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"strings"
)

// File is one input file found by Walk.
type File struct {
	Path string // the path to open
	// Rel is the slash-separated path of the file from the directory the
	// walk started at; "" when the file was named itself.
	Rel  string
	Root string // the input the file was found under: a directory, or the file itself
	Kind Kind
	Mode fs.FileMode // permission bits, kept by in-place replacement
	Size int64
	Head []byte // the first bytes, up to HeadLen, as KindOf saw them
}

// HeadLen is how many leading bytes Walk reads from each file: enough for
// KindOf and for a "saved from url" comment.
const HeadLen = 1024

// tempPrefix starts the names of the temporary files WriteFile makes; Walk
// skips them, so a run killed mid-write leaves nothing a rerun would read.
const tempPrefix = ".relurl-"

// Walk yields the files under each path, in order: a file as itself (a
// symbolic link named on the command line is followed), a directory
// recursively in lexical order. Inside directories, symbolic links and
// other non-regular files are skipped (replacing a link in place would
// turn it into a file), and so are WriteFile's temporary files. A path
// that cannot be read is yielded with its error; the walk goes on.
// Stopping the iteration stops the walk.
func Walk(paths []string) iter.Seq2[File, error] {
	return func(yield func(File, error) bool) {
		for _, p := range paths {
			if !walkOne(p, yield, "") {
				return
			}
		}
	}
}

// WalkList walks paths that arrive one by one, such as the lines of a list
// read from standard input, each as it comes. The paths are taken as
// parts of one tree whose root is the current directory: a file's Rel is
// its cleaned path ("a/b.html"), and Root is ".". A path that is absolute
// or climbs out of the current directory is its own tree, as in Walk.
func WalkList(paths iter.Seq[string]) iter.Seq2[File, error] {
	return func(yield func(File, error) bool) {
		for p := range paths {
			if !walkOne(p, yield, listedRel(p)) {
				return
			}
		}
	}
}

// listedRel returns the slash path of p in the tree rooted at the current
// directory, or "" when p is not in it.
func listedRel(p string) string {
	if filepath.IsAbs(p) || !filepath.IsLocal(p) {
		return ""
	}
	return filepath.ToSlash(filepath.Clean(p))
}

// walkOne walks the path p. When rel is not empty, p is part of the tree
// rooted at the current directory, at rel.
func walkOne(p string, yield func(File, error) bool, rel string) bool {
	root := p
	if rel != "" {
		root = "."
	}
	info, err := os.Stat(p)
	if err != nil {
		return yield(File{Path: p, Root: root}, err)
	}
	if !info.IsDir() {
		if !info.Mode().IsRegular() {
			return yield(File{Path: p, Root: root}, &fs.PathError{Op: "read", Path: p, Err: errNotRegular})
		}
		f, err := describe(p, rel, root, info)
		return yield(f, err)
	}
	stopped := false
	err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			// An unreadable directory: report it and skip its contents.
			if !yield(File{Path: path, Root: root}, err) {
				stopped = true
				return fs.SkipAll
			}
			if d != nil && d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || strings.HasPrefix(d.Name(), tempPrefix) {
			return nil
		}
		sub, err := filepath.Rel(p, path)
		if err != nil {
			return err
		}
		sub = filepath.ToSlash(sub)
		if rel != "" && rel != "." {
			sub = rel + "/" + sub
		}
		info, err := d.Info()
		var f File
		if err == nil {
			f, err = describe(path, sub, root, info)
		} else {
			f = File{Path: path, Rel: sub, Root: root}
		}
		if !yield(f, err) {
			stopped = true
			return fs.SkipAll
		}
		return nil
	})
	if err != nil && !stopped {
		return yield(File{Path: p, Root: root}, err)
	}
	return !stopped
}

var errNotRegular = errors.New("not a regular file")

// describe reads the head of the file at path and classifies it.
func describe(path, rel, root string, info fs.FileInfo) (File, error) {
	f := File{Path: path, Rel: rel, Root: root, Mode: info.Mode().Perm(), Size: info.Size()}
	r, err := os.Open(path)
	if err != nil {
		return f, err
	}
	defer r.Close()
	head := make([]byte, HeadLen)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return f, err
	}
	f.Head = head[:n]
	f.Kind = KindOf(path, f.Head)
	return f, nil
}

// ErrTooLarge is returned by ReadFile for a file above the size limit.
var ErrTooLarge = errors.New("file too large")

// ReadFile reads the file at path, failing with ErrTooLarge when it holds
// more than max bytes: the input decides the size, so it is bounded.
func ReadFile(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, &fs.PathError{Op: "read", Path: path, Err: ErrTooLarge}
	}
	return data, nil
}

// Inside reports whether path is dir or lies under it, comparing absolute
// cleaned paths (no symbolic links are resolved).
func Inside(path, dir string) bool {
	p, err1 := filepath.Abs(path)
	d, err2 := filepath.Abs(dir)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(d, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
