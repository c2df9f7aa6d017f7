package main

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
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
		// RELURL_UPDATE_SCRIPTS=1 rewrites the files "cmp stdout FILE"
		// compares with: review the diff before committing it.
		UpdateScripts: os.Getenv("RELURL_UPDATE_SCRIPTS") != "",
		Cmds:          map[string]func(*testscript.TestScript, bool, []string){"status": cmdStatus},
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

// cmdStatus is the script command "status N PROGRAM [ARGS...]": it runs
// PROGRAM as exec does (stdout and stderr can be checked after it) and
// fails unless PROGRAM exits with status N. "! exec" cannot tell the exit
// statuses 1 and 2 apart, and both are contracts.
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! status")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: status N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			ts.Fatalf("status: %v", err)
		}
		got = exit.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}
