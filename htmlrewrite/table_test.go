package htmlrewrite

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/relurl/relurl/internal/token"
)

func TestAttrNames(t *testing.T) {
	for id, name := range attrNames {
		if name != "" {
			assert.Equal(t, attrID(id), attrIDOf([]byte(name)), name)
		}
	}
	assert.Equal(t, attrOther, attrIDOf([]byte("class")))
	assert.Less(t, int(numAttrs), 64, "attrSet holds them")
}

// TestAttrInitials: every known attribute gets past tagOf's filter, in
// any case.
func TestAttrInitials(t *testing.T) {
	for id, n := range attrNames {
		if n == "" {
			continue
		}
		for _, k := range []string{n, strings.ToUpper(n)} {
			var tg tag
			z := token.NewTokenizer(strings.NewReader("<x " + k + "=v>"))
			z.Next()
			tagOf(z.Raw(), z, &tg)
			if len(tg.attrs) != 1 || tg.attrs[0].id != attrID(id) {
				t.Errorf("%s: %+v", k, tg.attrs)
			}
		}
	}
}

// TestTagNames: tagNames names every tagID, and elementName gives them.
func TestTagNames(t *testing.T) {
	for id := tagA; id <= tagVideo; id++ {
		n := tagNames[id]
		assert.NotEmpty(t, n, "tag %d", id)
		assert.Equal(t, id, tagIDOf([]byte(n)))
		assert.Equal(t, n, elementName([]byte(n)))
	}
	assert.Equal(t, "image", elementName([]byte("image")))
}
