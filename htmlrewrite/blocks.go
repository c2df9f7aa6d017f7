package htmlrewrite

import "unsafe"

// blockSize is the size of the blocks a document's links are carved from
// (blocks): a string and a rel slice per link were one allocation each,
// and their malloc and collection a tenth of Links (profile). A link
// kept alone keeps its block alive: at most blockSize bytes, or
// blockSize/16 strings, more than its own.
const blockSize = 1 << 10

// blocks hands out the strings of a document's links, and their rel
// slices, from shared blocks.
type blocks struct {
	bytes []byte
	strs  []string
}

// string returns b as a string of its own. A long b gets an allocation
// of its own.
//
// The string aliases the block, which is safe because the bytes handed
// out are never written again: the block is only appended to, within
// its capacity (the check below), so append never moves it, and it is
// replaced, not reused, when full.
func (k *blocks) string(b []byte) string {
	n := len(b)
	switch {
	case n == 0:
		return ""
	case n > blockSize/4:
		return string(b)
	case cap(k.bytes)-len(k.bytes) < n:
		k.bytes = make([]byte, 0, blockSize)
	}
	start := len(k.bytes)
	k.bytes = append(k.bytes, b...)
	return unsafe.String(&k.bytes[start], n)
}

// strings returns a slice of n empty strings of its own: the caller's
// append cannot reach the next slice (its capacity is n).
func (k *blocks) strings(n int) []string {
	if n > blockSize/64 {
		return make([]string, n)
	}
	if cap(k.strs)-len(k.strs) < n {
		k.strs = make([]string, 0, blockSize/16)
	}
	start := len(k.strs)
	k.strs = k.strs[:start+n]
	return k.strs[start : start+n : start+n]
}
