//go:build unix

package safewrite

import (
	"errors"
	"syscall"
)

// processDead reports whether no process with this ID runs on this host:
// kill(pid, 0) fails with ESRCH. A process of another user answers EPERM,
// and is alive.
func processDead(pid int) bool {
	return pid > 0 && errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
