//go:build !unix

package safewrite

// processDead cannot prove a process gone here, so stale temporary files
// are never removed (docs/cli/README.md says so).
func processDead(int) bool { return false }
