package report_test

import (
	"os"

	"github.com/relurl/relurl/linkcheck"
	"github.com/relurl/relurl/linkcheck/report"
)

// A finding as a GitHub Actions workflow command: properties and message
// escaped as actions/toolkit escapes them.
func ExampleNew() {
	w, _ := report.New("github", os.Stdout, report.Options{})
	f := linkcheck.Finding{File: "site/about/index.html", Line: 3, Column: 39, Link: "team%20b.html",
		Problem: linkcheck.Missing, Reason: "no file about/team b.html in the tree"}
	var prints report.Fingerprints
	w.Finding(report.Finding{Finding: f, Fingerprint: prints.Next(f)})
	w.Close()
	// Output:
	// ::error file=site/about/index.html,line=3,col=39,endLine=3,endColumn=52,title=relurl%3A missing::team%2520b.html: no file about/team b.html in the tree
}
