package htmlrewrite

import (
	"testing"

	"github.com/stretchr/testify/assert"
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
