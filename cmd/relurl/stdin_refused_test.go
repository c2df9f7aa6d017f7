package main

import (
	"fmt"
	"strings"
	"testing"
)

// TestStdinRefusedSaysNothingWritten: an MHTML archive on standard input
// that the reader refuses before writing (more parts than it reads) cannot
// be copied through, as a file would be: the message says that nothing
// was written, and the run fails.
func TestStdinRefusedSaysNothingWritten(t *testing.T) {
	var b strings.Builder
	b.WriteString("MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary=\"B\"\r\n\r\n")
	for i := range 10002 {
		fmt.Fprintf(&b, "--B\r\nContent-Type: text/plain\r\nContent-Location: http://x/%d\r\n\r\nx\r\n", i)
	}
	b.WriteString("--B--\r\n")
	lines, stderr, code := runRelurl([]byte(b.String()), "rewrite", "--input-format", "mhtml", "--base", "http://x/", "-")
	if len(lines) != 0 || code != exitFailure {
		t.Errorf("wrote %d lines, exit %d; want none, %d", len(lines), code, exitFailure)
	}
	if !strings.Contains(stderr, "too many parts") || !strings.Contains(stderr, "; nothing written to standard output") {
		t.Errorf("stderr: %s", stderr)
	}
}
