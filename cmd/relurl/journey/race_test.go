//go:build race

package journey

func init() { raceEnabled = true }
