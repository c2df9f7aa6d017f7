package extract

import (
	"bytes"
	"strings"
	"testing"

	"github.com/relurl/relurl/base"
)

// rewindBuffer is an output that can be taken back (htmlrewrite.Rewinder),
// as tree.Writer's streamed writes are.
type rewindBuffer struct{ bytes.Buffer }

func (b *rewindBuffer) Rewind() error { b.Reset(); return nil }

// countingFile is a seekable document that counts the bytes read from it.
type countingFile struct {
	r    *bytes.Reader
	read int
}

func (c *countingFile) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.read += n
	return n, err
}

func (c *countingFile) Seek(off int64, whence int) (int64, error) { return c.r.Seek(off, whence) }

// TestRewriteReadsOnce: an HTML file rewritten into an output that can
// be rewound (relurl rewrite -i/-o, through tree.Writer) is read once, not
// once for "<base" and once more for the rewrite: the dispatch must hand
// it to htmlrewrite.Rewrite, not to htmlrewrite.Open's look-ahead. The
// bytes are those of the look-ahead.
func TestRewriteReadsOnce(t *testing.T) {
	doc := strings.Repeat(`<p><a href="a/b.html">x</a> text `, 3000)
	var want bytes.Buffer
	if _, err := Rewrite(&want, strings.NewReader(doc), base.HTML, options("http://h.example/d/doc")); err != nil {
		t.Fatal(err)
	}
	var out rewindBuffer
	src := &countingFile{r: bytes.NewReader([]byte(doc))}
	st, err := Rewrite(&out, src, base.HTML, options("http://h.example/d/doc"))
	if err != nil {
		t.Fatal(err)
	}
	if src.read != len(doc) {
		t.Errorf("%d bytes read of a %d-byte document", src.read, len(doc))
	}
	if out.String() != want.String() || !st.Changed {
		t.Errorf("the single pass wrote other bytes (changed %v)", st.Changed)
	}
}
