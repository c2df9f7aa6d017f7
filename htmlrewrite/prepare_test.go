package htmlrewrite

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
