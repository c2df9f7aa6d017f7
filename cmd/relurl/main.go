// Command relurl establishes a document's base URL, resolves relative URLs
// against it, and rewrites or extracts the links of HTML, MHTML and WARC
// files in absolute form. Run "relurl help" for the subcommands; the work
// is done by the packages resolve, base, htmlrewrite and mime.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
}
