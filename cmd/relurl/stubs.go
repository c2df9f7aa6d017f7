package main

// Subcommands whose issues have not landed yet. Each moves to a file of its
// own when it is built.
var (
	runValidate = notYet("validate")
	runBase     = notYet("base")
	runLinks    = notYet("links")
	runRewrite  = notYet("rewrite")
	runCheck    = notYet("check")
	runFetch    = notYet("fetch")
)
