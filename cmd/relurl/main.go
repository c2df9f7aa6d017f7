// Command relurl establishes a document's base URL, resolves relative URLs
// against it, and rewrites or extracts the links of HTML, MHTML and WARC
// files in absolute form, and checks whether a document tree can be moved.
// Run "relurl help" for the subcommands; the work is done by the packages
// resolve, base, htmlrewrite, mime and tree.
package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"

	"github.com/relurl/relurl/cmd/relurl/internal/gcfloor"
)

// No process-wide heap limit: what a run holds is bounded where it is held
// (a tag, a record, the revisit cache by the bytes it keeps), and the
// memory check (testdata/memcheck) measures the peaks. GOMEMLIMIT still
// applies when set.
func main() {
	stop := profile()
	if len(os.Args) > 1 && walksFiles[os.Args[1]] {
		defer gcfloor.Floor(heapFloor)()
	}
	code := run(os.Args[1:], stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr})
	stop()
	os.Exit(code)
}

// walksFiles are the commands that read file after file, keeping little
// from one to the next: their collector lets at least heapFloor bytes be
// allocated between collections (package gcfloor) unless GOGC is set.
// materialize keeps its own setting (GOGC=50: its URL index is most of
// its heap).
var walksFiles = map[string]bool{"rewrite": true, "links": true, "check": true}

// heapFloor is the room for garbage that rewrite, links and check leave
// the collector: a tree of small pages is collected once per 8 MiB
// allocated instead of once per 4 MB or less (corpus B rewrite -o: 5
// collections instead of 36), for a peak RSS of about 24 MiB (17 MiB at
// GOGC=100).
const heapFloor = 8 << 20

// profile starts what RELURL_CPUPROFILE=FILE (a pprof CPU profile of the
// whole run) and RELURL_TRACE=FILE (a runtime/trace execution trace) ask
// for, and RELURL_MEMPROFILE=FILE (what was allocated, where), so that the process, start-up, walk and collector included, can be
// measured as users run it; the returned function finishes them.
func profile() (stop func()) {
	var stops []func()
	if name := os.Getenv("RELURL_CPUPROFILE"); name != "" {
		if f, err := os.Create(name); err != nil {
			fmt.Fprintf(os.Stderr, "relurl: RELURL_CPUPROFILE: %v\n", err)
		} else if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(os.Stderr, "relurl: RELURL_CPUPROFILE: %v\n", err)
			f.Close()
		} else {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if name := os.Getenv("RELURL_TRACE"); name != "" {
		if f, err := os.Create(name); err != nil {
			fmt.Fprintf(os.Stderr, "relurl: RELURL_TRACE: %v\n", err)
		} else if err := trace.Start(f); err != nil {
			fmt.Fprintf(os.Stderr, "relurl: RELURL_TRACE: %v\n", err)
			f.Close()
		} else {
			stops = append(stops, func() { trace.Stop(); f.Close() })
		}
	}
	if name := os.Getenv("RELURL_MEMPROFILE"); name != "" {
		if runtime.MemProfileRate == 512*1024 { // GODEBUG=memprofilerate=N wins
			runtime.MemProfileRate = 512
		}
		stops = append(stops, func() {
			f, err := os.Create(name)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
			if err != nil {
				fmt.Fprintf(os.Stderr, "relurl: RELURL_MEMPROFILE: %v\n", err)
			}
		})
	}
	return func() {
		for _, s := range stops {
			s()
		}
	}
}
