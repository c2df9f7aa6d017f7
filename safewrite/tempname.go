package safewrite

import (
	"crypto/rand"
	"encoding/hex"
	"hash/fnv"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/relurl/relurl/internal/safedir"
)

// tempPrefix starts the names of the temporary files the writer makes;
// a walk skips them (IsTemp), so a run killed mid-write leaves nothing a
// rerun would read.
const tempPrefix = ".relurl-"

// IsTemp reports whether name is that of a temporary file a Writer makes
// (and may have left, killed mid-write): a walk of a tree skips such
// files.
func IsTemp(name string) bool { return strings.HasPrefix(name, tempPrefix) }

// RemoveStale removes the temporary file rel of the tree at root, which
// info describes, when the writer that made it is provably dead: written
// on this host by a process that is gone, before this run started.
// Another run's files, live or on another host, stay. stale says whether
// it was a stale file, err what its removal failed with.
func RemoveStale(root, rel string, info fs.FileInfo) (stale bool, err error) {
	if !staleTemp(info) {
		return false, nil
	}
	d, name, err := safedir.OpenParent(root, rel, false)
	if err == nil {
		err = d.Remove(name)
		d.Close()
	}
	return true, err
}

// A temporary file's name says who wrote it:
//
//	.relurl-HOST-PID-START-RANDOM.tmp
//
// HOST is a hash of the host name (8 hex digits), PID the writer's process
// ID, START the time the writer started (Unix nanoseconds, hex). A later run
// on the same host can then prove the writer dead (no such process, or the
// process with that ID is the later run itself) and remove what it left;
// a live run's files, another host's (a tree on a network file system),
// and names it cannot read are left alone.

// runStart is when this process started writing: temporary files of
// writers that started later are never stale to it.
var runStart = time.Now()

// hostID is the HOST of this host's temporary files.
var hostID = func() string {
	name, _ := os.Hostname()
	h := fnv.New32a()
	h.Write([]byte(name))
	return hex.EncodeToString(h.Sum(nil))
}()

// tempWriterName is what the names of this writer's temporary files
// start with: made once, as os.Getpid is a system call and the rest never
// changes.
var tempWriterName = tempPrefix + hostID + "-" + strconv.Itoa(os.Getpid()) + "-" +
	strconv.FormatInt(runStart.UnixNano(), 16) + "-"

// tempName returns a new name for a temporary file of this writer.
func tempName() string {
	var r [4]byte
	rand.Read(r[:])
	var b [64]byte
	return string(append(hex.AppendEncode(append(b[:0], tempWriterName...), r[:]), ".tmp"...))
}

// tempWriter is what a temporary file's name says of its writer.
type tempWriter struct {
	host  string
	pid   int
	start time.Time
}

// parseTempName reads the writer's identity from a temporary file's name.
func parseTempName(name string) (tempWriter, bool) {
	rest, ok := strings.CutPrefix(name, tempPrefix)
	if !ok {
		return tempWriter{}, false
	}
	rest, ok = strings.CutSuffix(rest, ".tmp")
	if !ok {
		return tempWriter{}, false
	}
	f := strings.Split(rest, "-")
	if len(f) != 4 {
		return tempWriter{}, false
	}
	pid, err1 := strconv.Atoi(f[1])
	start, err2 := strconv.ParseInt(f[2], 16, 64)
	if err1 != nil || err2 != nil || pid <= 0 {
		return tempWriter{}, false
	}
	return tempWriter{host: f[0], pid: pid, start: time.Unix(0, start)}, true
}

// staleTemp reports whether the temporary file described by info was left
// by a writer that is provably dead: written on this host, by a writer
// that started before this run, last modified before this run started,
// and whose process is gone (or whose process ID is now this run's).
func staleTemp(info fs.FileInfo) bool {
	w, ok := parseTempName(info.Name())
	if !ok || w.host != hostID || !info.Mode().IsRegular() {
		return false
	}
	if !w.start.Before(runStart) || !info.ModTime().Before(runStart) {
		return false
	}
	if w.pid == os.Getpid() {
		return true // the same ID, another start: that process is gone
	}
	return processDead(w.pid)
}
