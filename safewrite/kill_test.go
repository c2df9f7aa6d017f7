package safewrite

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const helperEnv = "RELURL_TREE_KILL_HELPER"

// content returns the old or new bytes of file i: large enough that a
// write takes a while, different in length so a mix cannot pass for one.
func content(i int, new bool) []byte {
	if new {
		return bytes.Repeat([]byte(fmt.Sprintf("<a href=\"https://example.org/new/%d\">\n", i)), 12000)
	}
	return bytes.Repeat([]byte(fmt.Sprintf("<a href=\"old/%d\">\n", i)), 20000)
}

// TestKilledMidTree kills a process in the middle of rewriting a tree in
// place and checks that every file holds either its old or its new
// content, never a mix, and that what else the killed process left is
// temporary files (which a walk skips).
func TestKilledMidTree(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	const files = 40
	for round := range 6 {
		delay := []time.Duration{0, 2 * time.Millisecond, 15 * time.Millisecond}[round%3]
		mode := []string{"whole", "stream"}[round/3]
		dir := t.TempDir()
		for i := range files {
			require.NoError(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.html", i)), content(i, false), 0o644))
		}
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillHelper$")
		cmd.Env = append(os.Environ(), helperEnv+"="+dir, helperEnv+"_MODE="+mode)
		require.NoError(t, cmd.Start())
		// Wait for the first file to be replaced, then a little more.
		deadline := time.Now().Add(10 * time.Second)
		for !anyNew(dir, files) && time.Now().Before(deadline) {
			time.Sleep(100 * time.Microsecond)
		}
		time.Sleep(delay)
		require.NoError(t, cmd.Process.Kill())
		cmd.Wait()

		olds, news := 0, 0
		for i := range files {
			data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("f%02d.html", i)))
			require.NoError(t, err)
			switch {
			case bytes.Equal(data, content(i, false)):
				olds++
			case bytes.Equal(data, content(i, true)):
				news++
			default:
				t.Fatalf("round %d: f%02d.html is neither old nor new (%d bytes)", round, i, len(data))
			}
		}
		t.Logf("round %d (%s, killed %v after the first replacement): %d new, %d old", round, mode, delay, news, olds)
		assert.Positive(t, news)

		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), "f") {
				assert.True(t, IsTemp(e.Name()), "%s left is a temporary file (a walk skips it)", e.Name())
			}
		}
	}
}

func anyNew(dir string, files int) bool {
	for i := range files {
		info, err := os.Stat(filepath.Join(dir, fmt.Sprintf("f%02d.html", i)))
		if err == nil && info.Size() == int64(len(content(i, true))) {
			return true
		}
	}
	return false
}

// TestKillHelper is the process TestKilledMidTree kills: it rewrites the
// tree in place, slowly enough to be caught in the middle, with Update or
// (mode "stream") UpdateStream.
func TestKillHelper(t *testing.T) {
	dir := os.Getenv(helperEnv)
	if dir == "" {
		t.Skip("run by TestKilledMidTree")
	}
	stream := os.Getenv(helperEnv+"_MODE") == "stream"
	for i := 0; ; i++ {
		i := i % 40
		f := File{Path: filepath.Join(dir, fmt.Sprintf("f%02d.html", i))}
		if stream {
			Writer{}.UpdateStream(f, func(dst io.Writer, src io.Reader) error {
				// Written in pieces, as a rewriter writes.
				data := content(i, true)
				for len(data) > 0 {
					n := min(len(data), 4096)
					if _, err := dst.Write(data[:n]); err != nil {
						return err
					}
					data = data[n:]
				}
				return nil
			})
			continue
		}
		Update(f.Path, 1<<30, func([]byte) ([]byte, error) {
			return content(i, true), nil
		})
	}
}
