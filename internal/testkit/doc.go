// Package testkit holds the project's test helpers: the real-page benchmark
// corpus (PagesA, RefsA), a count of the files a run opens (CountOpens), and
// checks shared by several packages' tests. Only tests import it.
package testkit
