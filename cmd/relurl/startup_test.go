package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"testing"
)

// TestStartupInits: what relurl's own packages do before main runs is a
// few allocations, not work only some commands need (a run over
// an empty tree took twice the x/net peer's start-up). The regular
// expressions of cmd/relurl's error and version messages and linkout's
// --fields table (read by reflection) are made when first used
// (sync.OnceValue), so that package inits allocate little.
func TestStartupInits(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	for pkg, most := range map[string]int{
		"github.com/relurl/relurl/cmd/relurl":                  100,
		"github.com/relurl/relurl/cmd/relurl/internal/linkout": 80,
		"github.com/relurl/relurl/internal/htmltree":           10,
		"github.com/relurl/relurl/htmlrewrite":                 40,
	} {
		m := regexp.MustCompile(`(?m)^init ` + regexp.QuoteMeta(pkg) + ` @.*, ([0-9]+) allocs$`).FindSubmatch(out)
		if m == nil {
			t.Errorf("no init line for %s in:\n%s", pkg, out)
			continue
		}
		if n, _ := strconv.Atoi(string(m[1])); n > most {
			t.Errorf("package %s's init makes %d allocations, want <= %d", pkg, n, most)
		}
	}
}
