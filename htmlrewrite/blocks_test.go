package htmlrewrite

import (
	"strings"
	"testing"
)

// TestBlocks: the strings and slices blocks hands out are copies that
// never change after, however many follow; a slice's append cannot reach
// its neighbour; long ones get memory of their own.
func TestBlocks(t *testing.T) {
	var k blocks
	var got, want []string
	var slices [][]string
	buf := []byte{}
	for i := range 3000 {
		buf = append(buf[:0], strings.Repeat(string(rune('a'+i%26)), i%300)...)
		got = append(got, k.string(buf))
		want = append(want, string(buf))
		clear(buf) // the caller's buffer is reused: the string must not alias it
		sl := k.strings(1 + i%20)
		for j := range sl {
			sl[j] = want[i]
		}
		slices = append(slices, sl)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("string %d changed: %q, want %q", i, got[i], want[i])
		}
		if len(slices[i]) != 1+i%20 || cap(slices[i]) != len(slices[i]) {
			t.Fatalf("slice %d: len %d cap %d, want both %d", i, len(slices[i]), cap(slices[i]), 1+i%20)
		}
		for _, s := range slices[i] {
			if s != want[i] {
				t.Fatalf("slice %d changed: %q", i, slices[i])
			}
		}
	}
	// A slice's append makes a new array: the next slice keeps its strings.
	a, b := k.strings(2), k.strings(2)
	b[0], b[1] = "b0", "b1"
	a = append(a, "x")
	if b[0] != "b0" || b[1] != "b1" || len(a) != 3 {
		t.Fatalf("append to a slice reached the next: %q %q", a, b)
	}
	if s := k.string(nil); s != "" {
		t.Fatalf("empty: %q", s)
	}
}
