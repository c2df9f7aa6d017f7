package spare

import "testing"

func TestPool(t *testing.T) {
	p := New[[]byte](2)
	if _, ok := p.Get(); ok {
		t.Fatal("an empty pool gave a value")
	}
	a, b, c := make([]byte, 1), make([]byte, 2), make([]byte, 3)
	p.Put(a)
	p.Put(b)
	p.Put(c) // full: dropped
	for _, want := range []int{1, 2} {
		v, ok := p.Get()
		if !ok || len(v) != want {
			t.Fatalf("Get = %d bytes, %v; want %d bytes, true", len(v), ok, want)
		}
	}
	if _, ok := p.Get(); ok {
		t.Fatal("a pool of 2 kept 3 values")
	}
}
