// Command relurl establishes a document's base URL, resolves relative URLs
// against it, and rewrites or extracts the links of HTML, MHTML and WARC
// files in absolute form, and checks whether a document tree can be moved.
// Run "relurl help" for the subcommands; the work is done by the packages
// resolve, base, htmlrewrite, mime and tree.
package main

import (
	"os"
	"runtime/debug"
)

// softMemoryLimit is the Go heap's soft limit unless GOMEMLIMIT sets one:
// a stream's garbage is collected before the heap doubles past what the
// run really holds (a WARC's revisit cache, an MHTML archive read whole),
// so that the peak RSS stays near that. Above it the collector runs more
// often; it never fails an allocation.
const softMemoryLimit = 96 << 20

func main() {
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(softMemoryLimit)
	}
	os.Exit(run(os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
}
