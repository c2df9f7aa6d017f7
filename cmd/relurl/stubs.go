package main

// Subcommands whose issues have not landed yet. Each moves to a file of its
// own when it is built.
var ()
