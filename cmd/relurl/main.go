// Command relurl establishes a document's base URL, resolves relative URLs
// against it, and rewrites or extracts the links of HTML, MHTML and WARC
// files in absolute form, and checks whether a document tree can be moved.
// Run "relurl help" for the subcommands; the work is done by the packages
// resolve, base, htmlrewrite, mime and tree.
package main

import "os"

// No process-wide heap limit: what a run holds is bounded where it is held
// (a tag, a record, the revisit cache by the bytes it keeps), and the
// memory check (testdata/memcheck) measures the peaks with Go's default
// collector. GOMEMLIMIT still applies when set.
func main() {
	os.Exit(run(os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
}
