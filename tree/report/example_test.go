package report_test

import (
	"os"

	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/tree/report"
)

// A finding as a GitHub Actions workflow command: properties and message
// escaped as actions/toolkit escapes them.
func ExampleNew() {
	w, _ := report.New("github", os.Stdout, report.Options{})
	f := tree.Finding{File: "site/about/index.html", Line: 3, Column: 39, Link: "team%20b.html",
		Problem: tree.Missing, Reason: "no file about/team b.html in the tree"}
	var prints report.Fingerprints
	w.Finding(report.Finding{Finding: f, Fingerprint: prints.Next(f)})
	w.Close()
	// Output:
	// ::error file=site/about/index.html,line=3,col=39,endLine=3,endColumn=52,title=relurl%3A missing::team%2520b.html: no file about/team b.html in the tree
}
