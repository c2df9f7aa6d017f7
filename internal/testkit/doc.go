// Package testkit holds the project's test helpers: the real-page benchmark
// corpus (PagesA, RefsA), a count of the files a run opens (CountOpens), a
// check that work grows linearly with its input (Linear), and
// checks shared by several packages' tests. Only tests import it.
package testkit
