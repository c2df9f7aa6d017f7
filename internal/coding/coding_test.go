package coding

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func gz(b []byte) []byte {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

func br(b []byte) []byte {
	var buf bytes.Buffer
	w := brotli.NewWriter(&buf)
	w.Write(b)
	w.Close()
	return buf.Bytes()
}

// TestDecodeOrder: RFC 9110 §8.4: codings are listed in the order applied
// and undone last first.
func TestDecodeOrder(t *testing.T) {
	page := []byte("<p>page</p>")
	out, err := Decode("br, gzip", gz(br(page)), 1<<20)
	require.NoError(t, err)
	assert.Equal(t, page, out)
	_, err = Decode("gzip, br", gz(br(page)), 1<<20)
	var ce *Error
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "br", ce.Coding, "the first undone is the last listed")
	out, err = Decode(" identity , ", page, 1<<20)
	require.NoError(t, err)
	assert.Equal(t, page, out)
}

// TestDecodeErrors: a truncated body gives what decodes and the body it
// came from; the bound holds for every step.
func TestDecodeErrors(t *testing.T) {
	page := bytes.Repeat([]byte("0123456789"), 1000)
	z := gz(page)
	_, err := Decode("gzip", z[:len(z)/2], 1<<20)
	var ce *Error
	require.ErrorAs(t, err, &ce)
	assert.True(t, errors.Is(err, io.ErrUnexpectedEOF))
	assert.NotEmpty(t, ce.Partial)
	assert.Equal(t, z[:len(z)/2], ce.Before)
	_, err = Decode("gzip", z, 100)
	assert.ErrorIs(t, err, ErrTooLarge)
	_, err = Decode("compress", z, 1<<20)
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "compress", ce.Coding)
}

// FuzzDecode: any body under any codings gives an error or at most max
// bytes, never a panic.
func FuzzDecode(f *testing.F) {
	f.Add("gzip", gz([]byte("<p>")))
	f.Add("br, gzip", gz(br([]byte("<p>"))))
	f.Add("deflate", []byte("x\x9c\xb3)\xb0\x03\x00\x02\x7f\x01\x0f"))
	f.Fuzz(func(t *testing.T, codings string, body []byte) {
		out, err := Decode(codings, body, 1<<16)
		if err == nil && len(out) > 1<<16 {
			t.Fatalf("%d bytes over the bound", len(out))
		}
	})
}

// TestDecodeLarge: a body over the first read is measured, then decoded
// into a buffer of its size: the same bytes; over the bound, ErrTooLarge;
// cut short, what decodes with the error.
func TestDecodeLarge(t *testing.T) {
	plain := bytes.Repeat([]byte("0123456789abcdef"), 1<<19) // 8 MiB
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(plain)
	zw.Close()
	out, err := Decode("gzip", z.Bytes(), 16<<20)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(plain, out))
	assert.Equal(t, len(plain), cap(out), "a buffer of the body's size")

	_, err = Decode("gzip", z.Bytes(), 6<<20)
	assert.ErrorIs(t, err, ErrTooLarge)

	_, err = Decode("gzip", z.Bytes()[:z.Len()-100], 16<<20)
	var ce *Error
	require.ErrorAs(t, err, &ce)
	assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	assert.Greater(t, len(ce.Partial), 4<<20)
}
