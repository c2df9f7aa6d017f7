// Package countio counts the bytes that pass through a reader or a
// writer: how much of its input a reader took, whether a writer wrote
// anything before it failed.
package countio

import "io"

// Reader reads from R, counting the bytes read in N.
type Reader struct {
	R io.Reader
	N int64
}

func (c *Reader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	return n, err
}

// Writer writes to W, counting the bytes written in N.
type Writer struct {
	W io.Writer
	N int64
}

func (c *Writer) Write(p []byte) (int, error) {
	n, err := c.W.Write(p)
	c.N += int64(n)
	return n, err
}
