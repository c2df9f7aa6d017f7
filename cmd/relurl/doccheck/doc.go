// Package doccheck holds the tests that keep the documentation true to the
// command: every shell example of README.md and docs/ is run against the
// repository's testdata and its output compared with the output shown; each
// docs/cli/NAME.md carries the synopsis "relurl NAME -h" prints; README's
// command table names every command, and its package table every public
// package; every PKG.Name the pages cite is declared by that package; and
// the links between the pages are checked by relurl check itself, on the
// pages rendered to HTML.
package doccheck
