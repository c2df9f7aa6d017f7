package base

import (
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readOnly hides every method but Read.
type readOnly struct{ r io.Reader }

func (o readOnly) Read(p []byte) (int, error) { return o.r.Read(p) }

type oneByte struct{ r io.Reader }

func (o *oneByte) Read(p []byte) (int, error) { return o.r.Read(p[:min(1, len(p))]) }

// TestMentionsBase: "<base" is found across read boundaries, in any case.
func TestMentionsBase(t *testing.T) {
	doc := strings.Repeat("x", 100) + "<BaSe href=x>"
	for split := 95; split < 106; split++ {
		found, err := MentionsBase(io.MultiReader(readOnly{strings.NewReader(doc[:split])}, readOnly{strings.NewReader(doc[split:])}), &Finder{}, make([]byte, 64))
		require.NoError(t, err)
		assert.True(t, found, "split at %d", split)
	}
	found, err := MentionsBase(strings.NewReader("<a><bas e><basis"), &Finder{}, make([]byte, 64))
	require.NoError(t, err)
	assert.False(t, found)
	// One byte at a time.
	found, err = MentionsBase(&oneByte{r: strings.NewReader("<p><base")}, &Finder{}, make([]byte, 64))
	require.NoError(t, err)
	assert.True(t, found)
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
