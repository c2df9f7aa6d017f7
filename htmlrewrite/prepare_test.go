package htmlrewrite

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMentionsBase: "<base" is found across read boundaries, in any case.
func TestMentionsBase(t *testing.T) {
	doc := strings.Repeat("x", 100) + "<BaSe href=x>"
	for split := 95; split < 106; split++ {
		found, err := mentionsBase(io.MultiReader(onlyReader{strings.NewReader(doc[:split])}, onlyReader{strings.NewReader(doc[split:])}), &baseFinder{}, make([]byte, 64))
		require.NoError(t, err)
		assert.True(t, found, "split at %d", split)
	}
	found, err := mentionsBase(strings.NewReader("<a><bas e><basis"), &baseFinder{}, make([]byte, 64))
	require.NoError(t, err)
	assert.False(t, found)
	// One byte at a time.
	found, err = mentionsBase(&oneByte{r: strings.NewReader("<p><base")}, &baseFinder{}, make([]byte, 64))
	require.NoError(t, err)
	assert.True(t, found)
}

type oneByte struct{ r io.Reader }

func (o *oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(1, len(p))]) }

// TestSeekerOffset: a ReadSeeker is rewritten from where it stands, and
// its <base> found by a scan that seeks back there.
func TestSeekerOffset(t *testing.T) {
	src := strings.NewReader(`IGNORED<a href="x"><base href="/b/">`)
	_, err := src.Seek(7, io.SeekStart)
	require.NoError(t, err)
	var out bytes.Buffer
	st, err := Rewrite(&out, src, testOptions())
	require.NoError(t, err)
	assert.Equal(t, `<a href="http://ex.com/b/x"><base href="/b/">`, out.String())
	assert.Equal(t, "http://ex.com/b/", st.Base.URL)
}

// TestContainsBase: containsBase says what a case-insensitive search
// for "<base" says.
func TestContainsBase(t *testing.T) {
	for _, s := range []string{
		"", "<base", "<BASE", "<bAsE", "x<b<base", "<<base", "x<b", "<bas", "<Bx<base", "<b<B<bAse",
		"<body><br><basis", "<B<b<Bas", "b<ase", "<ba se", strings.Repeat("<br>", 100) + "<Base",
	} {
		want := strings.Contains(strings.ToLower(s), "<base")
		assert.Equal(t, want, containsBase([]byte(s)), "%q", s)
	}
}
