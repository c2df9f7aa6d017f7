package main

import (
	"fmt"
	"io"
	"runtime"

	"github.com/relurl/relurl/cmd/relurl/internal/inputs"
	"github.com/relurl/relurl/cmd/relurl/internal/progress"
	"github.com/relurl/relurl/cmd/relurl/internal/summary"
	"github.com/relurl/relurl/internal/ordered"
	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
	"github.com/relurl/relurl/treerewrite"
)

// rewriteDriver rewrites the files, directories and --from-list paths
// with the library's rewriter, in parallel, and counts them in input
// order.
type rewriteDriver struct {
	f     *rewriteFlags
	s     stdio // round the progress display
	bar   *progress.Bar
	total summary.Rewrite
}

// run rewrites the inputs; its error ends the run (an output that could
// not be written, a list that could not be opened).
func (d *rewriteDriver) run() error {
	f, t, s := d.f, d.f.t, d.s
	if f.inPlace {
		// A killed run's temporary files go once proven stale.
		t.walker = tree.Walker{RemoveStale: true, Removed: staleReporter(s, "rewrite"), Refer: t.walker.Refer}
	}
	if f.outDir != "" {
		(tree.Walker{RemoveStale: true, Removed: staleReporter(s, "rewrite")}).Clean(f.outDir)
	}
	items, done, err := inputs.Open(t.walker, f.fs.Args(), t.list(s))
	if err != nil {
		return err
	}
	items, stopCount := inputs.Counted(d.bar, items, f.fs.Args(), t.fromList != "")
	defer stopCount()
	rw := d.rewriter()
	if f.outDir != "" && f.fs.NArg() > 1 {
		items = inputs.Claimed(items, rw.Claim)
	}
	work := func(w inputs.Item, sink *ordered.Sink) treerewrite.Result {
		if w.Err != nil {
			return treerewrite.Result{File: w.File, Err: w.Err}
		}
		var dst io.Writer
		if f.toStdout {
			dst = sink
		}
		return rw.Rewrite(dst, w.File)
	}
	err = ordered.Run(t.jobs, 0, items, write(s.out), work, d.emit)
	d.bar.Finish()
	if lerr := done(); lerr != nil {
		s.errorf("rewrite: %v", lerr)
		d.total.Failed++
	}
	return err
}

// rewriter returns the library's rewriter as the flags say.
func (d *rewriteDriver) rewriter() *treerewrite.Rewriter {
	f, t := d.f, d.f.t
	rw := t.rewriter()
	rw.InPlace, rw.Mirror, rw.CopyOthers = f.inPlace, f.outDir, f.others == "copy"
	if f.inPlace {
		rw.Writer = safewrite.Writer{HardLinks: f.links, AllowOwnerChange: f.allowOwner}
	} else {
		// A mirror is replaced atomically too, so a killed run leaves
		// whole files, but durably only on request: its source stays.
		// Made again, its unchanged documents are left alone.
		rw.Writer = safewrite.Writer{NoSync: !f.sync, KeepSame: true}
	}
	// With a core to spare (-j 1 on two), each file is written a buffer
	// behind its rewriting, on a goroutine of its own.
	rw.Writer.Behind = t.jobs < runtime.GOMAXPROCS(0)
	// One walk, or several claimed: each mirror place has one input. A
	// list may name a file twice; its places are not claimed (that would
	// hold every line's place), so its mirror looks for files to keep.
	rw.OnePerPlace = t.fromList == ""
	return rw
}

// emit counts one file and says what became of it.
func (d *rewriteDriver) emit(w inputs.Item, r treerewrite.Result) error {
	s, f := d.s, d.f
	d.bar.Add(1)
	d.total.Add(summary.Of(r))
	for _, warn := range r.Warnings {
		s.errorf("rewrite: %s: warning: %s", tree.DisplayName(w.File.Path), warn)
	}
	switch {
	case r.Err != nil && r.CopiedUnchanged:
		s.errorf("rewrite: %s (copied unchanged into the mirror)", fileError(w.File.Path, r.Err, f.t.maxSize))
	case r.Err != nil:
		s.errorf("rewrite: %s", fileError(w.File.Path, r.Err, f.t.maxSize))
	case f.dryRun && r.Changed:
		// A failed write ends the run (ordered.Run returns it).
		_, err := fmt.Fprintf(s.out, "%s: would rewrite %d of %d links\n", tree.DisplayName(w.File.Path), r.Rewritten, r.Links)
		return err
	case f.toStdout:
		// No summary follows a document written to standard
		// output: what failed in it is said here.
		failedLinks(s, "rewrite: "+tree.DisplayName(w.File.Path), r.Links, r.Failed, "relurl links")
	}
	return nil
}
