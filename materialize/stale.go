package materialize

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/relurl/relurl/internal/errtext"
)

// fileDigest is the digest urls.jsonl gives for a file as written
// ("sha256:" and 64 hex digits): what a later run checks before it
// removes the file as stale.
func fileDigest(sum [32]byte) string { return "sha256:" + hex.EncodeToString(sum[:]) }

// maxURLsLine bounds one line of an earlier run's urls.jsonl.
const maxURLsLine = 1 << 20

// An earlier is what an earlier run's urls.jsonl says of one file.
type earlier struct {
	url, digest string // digest "" when the line has none: an older relurl wrote it
}

// previous reads DIR/urls.jsonl of an earlier run: the files it wrote
// (slash-separated, local), with their URL and file digest. A missing
// file is no earlier run.
func (r *run) previous(root *os.Root) map[string]earlier {
	info, err := root.Lstat("urls.jsonl")
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err == nil && !info.Mode().IsRegular() {
		err = errors.New("not a regular file")
	}
	var f *os.File
	if err == nil {
		f, err = root.Open("urls.jsonl")
	}
	if err != nil {
		r.warn(r.opts.Dir, "urls.jsonl", "the earlier run's list of files cannot be read, so its stale files are not known: "+errtext.Of(err))
		return nil
	}
	defer f.Close()
	files := map[string]earlier{}
	br := bufio.NewReader(f)
	bad := 0
	for n := 1; ; n++ {
		line, err := readLine(br)
		if len(line) > 0 {
			var rec struct {
				URL        string `json:"url"`
				File       string `json:"file"`
				FileDigest string `json:"file_digest"`
			}
			if jerr := json.Unmarshal(line, &rec); jerr != nil || !filepath.IsLocal(filepath.FromSlash(rec.File)) || strings.Contains(rec.File, "\\") {
				bad++
			} else {
				files[rec.File] = earlier{rec.URL, rec.FileDigest}
			}
		}
		if err == errLineTooLong {
			bad++
			continue
		}
		if err != nil {
			if err != io.EOF {
				r.warn(r.opts.Dir, "urls.jsonl", fmt.Sprintf("line %d: %s", n, errtext.Of(err)))
			}
			break
		}
	}
	if bad > 0 {
		r.warn(r.opts.Dir, "urls.jsonl", fmt.Sprintf("%d lines of the earlier run's list are not ones relurl writes (not JSON, too long, or a file that is not a local path): ignored", bad))
	}
	return files
}

var errLineTooLong = errors.New("line too long")

// readLine reads one line (without its end), at most maxURLsLine bytes: a
// longer one is skipped whole and reported as errLineTooLong.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) <= maxURLsLine {
			line = append(line, chunk...)
		} else {
			for err == bufio.ErrBufferFull {
				_, err = br.ReadSlice('\n')
			}
			if err == nil || err == io.EOF {
				return nil, errLineTooLong
			}
			return nil, err
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// stale finds the files an earlier run over DIR wrote (its urls.jsonl)
// that this run does not write, reports each (Warning.Stale) and, with
// Options.RemoveStale, removes those that still hold the bytes the
// earlier run wrote (the file digest it recorded): never a file relurl did
// not write, nor one changed since, nor anything urls.jsonl names that is
// not a regular file inside DIR. The files kept stay in urls.jsonl (kind
// "stale"), so that the next run still knows them.
func (r *run) stale() {
	root, err := os.OpenRoot(r.opts.Dir)
	if err != nil {
		r.warn(r.opts.Dir, "", "stale files not looked for: "+errtext.Of(err))
		return
	}
	defer root.Close()
	prev := r.previous(root)
	if len(prev) == 0 {
		return
	}
	// Names are compared as a case-insensitive, normalizing file system
	// would: there "Docs.html" of the earlier run is this run's "docs.html".
	current := map[string]bool{fold("index.html"): true, fold("urls.jsonl"): true}
	for _, e := range r.entries {
		if r.written(e) {
			current[fold(e.file)] = true
		}
	}
	for _, f := range slices.Sorted(maps.Keys(prev)) {
		if current[fold(f)] {
			continue
		}
		r.sum.Stale++
		if !r.opts.RemoveStale {
			r.staleNote(f, "kept")
			r.kept = append(r.kept, URLRecord{URL: prev[f].url, File: f, Kind: "stale", FileDigest: prev[f].digest})
			continue
		}
		if err := removeIfWritten(root, f, prev[f].digest); err != nil {
			r.staleNote(f, "kept: "+errtext.Of(err))
			if !errors.Is(err, os.ErrNotExist) {
				r.kept = append(r.kept, URLRecord{URL: prev[f].url, File: f, Kind: "stale", FileDigest: prev[f].digest})
			}
			continue
		}
		r.sum.Removed++
		r.staleNote(f, "removed")
	}
}

func (r *run) staleNote(file, msg string) {
	if r.opts.Warn != nil {
		r.opts.Warn(Warning{Input: r.opts.Dir, Where: file, Message: "stale (an earlier run wrote it; this one does not): " + msg, Stale: true})
	}
}

// removeIfWritten removes the file rel of root when it is a regular file
// whose SHA-256 is digest, then the directories above it that this leaves
// empty.
func removeIfWritten(root *os.Root, rel, digest string) error {
	if digest == "" {
		return errors.New("the earlier run's urls.jsonl gives no file_digest (an older relurl wrote it)")
	}
	// A directory of the path replaced by a symbolic link since: the file
	// it leads to is not the one written.
	for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
		if info, err := root.Lstat(filepath.FromSlash(d)); err == nil && !info.IsDir() {
			return fmt.Errorf("%s is not a directory (%v)", d, info.Mode().Type())
		}
	}
	name := filepath.FromSlash(rel)
	info, err := root.Lstat(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("already gone: %w", os.ErrNotExist)
		}
		return err
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("not a regular file (%v)", info.Mode().Type())
	}
	f, err := root.Open(name)
	if err != nil {
		return err
	}
	h := sha256.New()
	_, err = io.Copy(h, f)
	f.Close()
	if err != nil {
		return err
	}
	var sum [32]byte
	h.Sum(sum[:0])
	if fileDigest(sum) != digest {
		return errors.New("changed since relurl wrote it")
	}
	if err := root.Remove(name); err != nil {
		return err
	}
	for d := path.Dir(rel); d != "." && d != "/"; d = path.Dir(d) {
		if root.Remove(filepath.FromSlash(d)) != nil {
			break // not empty (or not ours to remove)
		}
	}
	return nil
}
