//go:build !linux

package safedir

// RenameNew: no renaming that refuses to replace here; the caller
// checks and renames.
func (d *Dir) RenameNew(from, to string) (bool, error) { return false, nil }
