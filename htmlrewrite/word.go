package htmlrewrite

import "encoding/binary"

// Tests of eight bytes at a time (Bit Twiddling Hacks, "Determine if a
// word has a byte less than n" and "... has a zero byte"): exact as
// booleans, and cheaper than a table lookup per byte for the short values
// URLs are.
const (
	wordOnes  = 0x0101010101010101
	wordHighs = 0x8080808080808080
)

// hasByteBelow reports whether a byte of x is less than n (n <= 128).
func hasByteBelow(x uint64, n byte) bool {
	return (x-wordOnes*uint64(n))&^x&wordHighs != 0
}

// hasByte reports whether a byte of x is c.
func hasByte(x uint64, c byte) bool {
	y := x ^ wordOnes*uint64(c)
	return (y-wordOnes)&^y&wordHighs != 0
}

// word returns b[i:i+8] as a little-endian word.
func word(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i : i+8]) }

// stringWord returns s[i:i+8] as a little-endian word (the compiler makes
// it one load).
func stringWord(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
