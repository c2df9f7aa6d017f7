package countio

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestCounts(t *testing.T) {
	r := &Reader{R: strings.NewReader("hello, world")}
	var buf bytes.Buffer
	w := &Writer{W: &buf}
	if _, err := io.Copy(w, r); err != nil {
		t.Fatal(err)
	}
	if r.N != 12 || w.N != 12 || buf.String() != "hello, world" {
		t.Fatalf("read %d, wrote %d: %q", r.N, w.N, buf.String())
	}
}
