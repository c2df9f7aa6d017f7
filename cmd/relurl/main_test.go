package main

import (
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the scripts run "relurl" as this test binary.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"relurl": main,
	})
}

// TestScript runs the command-line contracts in testdata/script/*.txtar.
// Run "go test ./cmd/relurl -run TestScript/NAME" for one script.
func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			// Scripts that need the shared fixtures find them here.
			wd, err := os.Getwd()
			if err != nil {
				return err
			}
			env.Setenv("TESTDATA", wd+"/../../testdata")
			return nil
		},
	})
}
