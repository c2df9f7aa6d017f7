package link

import (
	"unsafe"

	"github.com/relurl/relurl/internal/lazyref"
)

// The command resolves some links' URLs after the reader handed them on
// (package lazyurl): the only way to Link.lazy, given to it here.
func init() {
	lazyref.Offset = unsafe.Offsetof(Link{}.lazy)
}
