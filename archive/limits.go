package archive

// DefaultLimits returns the limits a zero Limits takes (docs/limits.md
// lists them, checked against this).
func DefaultLimits() Limits { return Limits{}.withDefaults() }

// MaxZstdWindow is the largest zstd window (and dictionary) a WARC record
// may need: the WARC-zstd convention's bound. A frame that asks for more
// is a *WindowError, not decoded.
const MaxZstdWindow = maxZstdWindow
