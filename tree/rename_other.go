//go:build !linux

package tree

// renameNew: no renaming that refuses to replace here; the caller
// checks and renames.
func (d *treeDir) renameNew(from, to string) (bool, error) { return false, nil }
