package linkcheck

import (
	"bytes"
	"io/fs"

	"github.com/relurl/relurl/safewrite"
	"github.com/relurl/relurl/tree"
)

// defaultCheckSize is the largest file CheckFile and FixFile read when
// Checker.MaxSize is 0.
const defaultCheckSize = 256 << 20

// FileResult is what checking one walked file came to.
type FileResult struct {
	// Findings are the file's findings; after a fix, what the fix could
	// not mend.
	Findings []Finding
	// Fixed counts the links FixFile rewrote.
	Fixed int
	// Read: the file is of a kind the checker reads (Reads) and was
	// checked; other files are passed over.
	Read bool
	// Changed: the fix changed the document's bytes (written in place,
	// into the mirror, or, for a dry run, would be). UpToDate: RelativeFile
	// found the mirror already holding the fixed document, left alone.
	// Copied: RelativeFile copied a file it does not read into the mirror.
	Changed, UpToDate, Copied bool
	// Err is why the file could not be read, checked or fixed.
	Err error
}

// CheckFile checks the walked file f (Check), read whole up to MaxSize,
// when it is of a kind the checker reads. It is the one call per file of
// a tree's check; Finish comes after the last.
func (c *Checker) CheckFile(f tree.File) FileResult {
	defer f.Release()
	if !c.Reads(f.Kind) {
		return FileResult{}
	}
	data, err := tree.ReadHeld(f, c.checkSize())
	if err != nil {
		return FileResult{Read: true, Err: err}
	}
	found, err := c.Check(f, data)
	return FileResult{Findings: found, Read: true, Err: err}
}

// FixFile checks the walked file f and fixes it in place (Fix), through
// w's safe replacement: no link followed below the tree's root, a file
// swapped since the walk or with several names left alone (w.HardLinks).
// A file with nothing to fix is not written. Its findings are those of
// the fixed file: what the fix could not mend.
func (c *Checker) FixFile(f tree.File, w safewrite.Writer) FileResult {
	defer f.Release()
	if !c.Reads(f.Kind) {
		return FileResult{}
	}
	r := FileResult{Read: true}
	var after []byte
	r.Changed, r.Err = w.Update(f.Walked(), c.checkSize(), func(old []byte) ([]byte, error) {
		found, err := c.Check(f, old)
		if err != nil {
			return nil, err
		}
		after, r.Fixed, err = c.Fix(f, old, found)
		return after, err
	})
	if r.Err != nil {
		return r
	}
	r.Findings, r.Err = c.Check(f, after)
	return r
}

// A RelativeTarget is where RelativeFile puts a fixed document: in place
// (Mirror "" and not DryRun), into the mirror directory Mirror (each file
// at its path in the tree; files the checker does not read are copied
// there), or nowhere (DryRun: only counted).
type RelativeTarget struct {
	Mirror string
	DryRun bool
	// Writer writes in place (FixFile's) or into the mirror (KeepSame
	// there leaves an up-to-date file alone).
	Writer safewrite.Writer
}

// RelativeFile makes the walked file f's links into the tree relative, as
// FixFile does (one implementation: Check's findings, Fix's rewrite), and
// puts the result where to says. It is rewrite --relative's one call per
// file; a second run over its output changes nothing, since a relative
// link into the tree is no finding Fix acts on.
func (c *Checker) RelativeFile(f tree.File, to RelativeTarget) FileResult {
	if to.Mirror == "" && !to.DryRun {
		return c.FixFile(f, to.Writer)
	}
	defer f.Release()
	if !c.Reads(f.Kind) {
		if to.DryRun {
			return FileResult{}
		}
		err := tree.CopyWalked(to.Writer, to.Mirror, f.Rel, f)
		return FileResult{Copied: err == nil, Err: err}
	}
	r := FileResult{Read: true}
	data, err := tree.ReadHeld(f, c.checkSize())
	if err != nil {
		r.Err = err
		return r
	}
	found, err := c.Check(f, data)
	if err != nil {
		r.Err = err
		return r
	}
	after, fixed, err := c.Fix(f, data, found)
	if err != nil {
		r.Err = err
		return r
	}
	r.Changed = !bytes.Equal(after, data)
	if to.DryRun {
		r.Fixed = fixed
		return r
	}
	perm := fs.FileMode(0o644)
	if f.Info() != nil {
		perm = f.Info().Mode().Perm()
	}
	kept, err := to.Writer.WriteInKept(to.Mirror, f.Rel, after, perm)
	if err != nil {
		r.Err = err
		return r
	}
	if kept {
		// The mirror held it already: nothing rewritten by this run.
		r.UpToDate, r.Changed = true, false
		return r
	}
	r.Changed, r.Fixed = true, fixed // a mirror file written
	r.Findings, r.Err = c.Check(f, after)
	return r
}

func (c *Checker) checkSize() int64 {
	if c.MaxSize > 0 {
		return c.MaxSize
	}
	return defaultCheckSize
}
