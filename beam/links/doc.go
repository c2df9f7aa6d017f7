// Package links is relurl's link extraction as Apache Beam transforms, for
// corpora larger than one machine: thousands of WARC files on a cluster
// (Dataflow, Flink, Spark through Beam's portable runner) or on one machine
// with the prism runner.
//
// Match finds the input files through Beam's file systems (local paths,
// and gs:// or s3:// when the program imports those file systems), Extract
// reads each file of a kind relurl reads (WARC, MHTML, HTML, CSS, SVG,
// XHTML, Atom, RSS, web app manifests, JS modules) as a stream through the
// library's front door (extract.Reader: every kind, alone or inside an
// archive, by its one reader) and emits one Link per link, with the fields and meaning of
// `relurl links` JSON, and one Failure (the dead letter) per record or file
// that could not be read, instead of failing the bundle. HostGraph and
// PageGraph reduce the links to the edge lists of a web graph, and
// WriteJSONL writes any of these as sharded JSON Lines files (WriteParquet
// the links as Parquet tables). ExtractWAT converts local WARC files to
// the WAT metadata records of `relurl links --format wat`, which WriteWAT
// writes as sharded WAT files.
//
// The Beam metrics of namespace "relurl" count files, records, links,
// failed records and failed files (see the Counter constants).
//
// This package is a module of its own (github.com/relurl/relurl/beam), so
// that the root module does not depend on the Beam SDK's many modules.
package links
