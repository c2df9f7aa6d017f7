package token

import "io"

// Reset makes z tokenize r from its start, as a tokenizer new from
// NewTokenizerBuffer(r, buf) would, but keeping z's read buffer (buf or
// the larger one a long token made it grow) and, as ResetBuffer does, its
// attribute memory: a caller tokenizing many small inputs in turn
// (package base's charset prescan of every page's first 1024 bytes)
// allocates nothing per input. Every setting (SetChunk, SetMaxBuf,
// SetPass, AllowCDATA, ...) goes back to its default.
func (z *Tokenizer) Reset(r io.Reader) {
	buf := z.buf
	if cap(buf) < 16 {
		buf = make([]byte, 0, 4096)
	}
	z.ResetBuffer(r, buf)
}
