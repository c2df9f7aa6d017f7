package tree

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
	// Err is why the file could not be read, checked or fixed.
	Err error
}

// CheckFile checks the walked file f (Check), read whole up to MaxSize,
// when it is of a kind the checker reads. It is the one call per file of
// a tree's check; Finish comes after the last.
func (c *Checker) CheckFile(f File) FileResult {
	defer f.Release()
	if !c.Reads(f.Kind) {
		return FileResult{}
	}
	data, err := readWalked(f, c.checkSize())
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
func (c *Checker) FixFile(f File, w Writer) FileResult {
	defer f.Release()
	if !c.Reads(f.Kind) {
		return FileResult{}
	}
	r := FileResult{Read: true}
	var after []byte
	_, r.Err = w.Update(f, c.checkSize(), func(old []byte) ([]byte, error) {
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

func (c *Checker) checkSize() int64 {
	if c.MaxSize > 0 {
		return c.MaxSize
	}
	return defaultCheckSize
}
