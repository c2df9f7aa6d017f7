// Package byref hands relurl's own packages the by-pointer paths of its
// link readers: each link handed on by address, the Link the caller's to
// read and change during the call only, instead of copied (a Link is
// some 260 bytes) at each call it goes through on its way from the
// reader to relurl links' records. The exported calls (htmlrewrite.Links,
// extract.Links, harvest.Reader.File) give a copy each, one shape for
// every caller; these paths are for the packages that pass links on.
//
// Each slot is set by the package that owns the path when it is loaded,
// to its unexported function, and is asserted once, to the type its
// comment gives, by the package above that uses it: it is an any because
// this package sits below both. The links and results are those of the
// exported call.
package byref

// HTMLLinks is htmlrewrite.Links by pointer, set by package htmlrewrite:
//
//	func(src io.Reader, opts htmlrewrite.Options, fn func(*link.Link) error) (base.Result, error)
var HTMLLinks any

// ExtractLinks is extract.Links by pointer, set by package extract:
//
//	func(r io.Reader, k base.Format, o extract.Options, fn func(*link.Link) error) (extract.Result, error)
var ExtractLinks any

// HarvestFile is harvest.Reader.File by pointer, set by package harvest:
//
//	func(r *harvest.Reader, f tree.File, fn func(base.Format, *link.Link) error, onRecordError func(*archive.RecordError) error) harvest.Result
var HarvestFile any
